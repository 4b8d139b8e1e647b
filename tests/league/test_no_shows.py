"""No-shows (issue 47): a director marks a seated player as a no-show in one tap (a History
line), and the event page offers the fix: in a draft, seating the rotation again without them
(they sit it out, their check-in undone); in a started rotation, a substitute in their seat.
Only the club's directors may; refusals say why and change nothing."""

import pytest
from django.urls import reverse

from core.errors import Conflict, Invalid
from league.models import AuditEntry, Event, Rotation, Seat
from league.services.no_shows import no_show_mark, no_show_seat_again
from league.services.rotations import rotation_generate, rotation_start
from tests.factories import EventFactory, PlayerFactory
from tests.league.factories import checked_in_partnerships, running_event, user_with_role

pytestmark = pytest.mark.django_db

NAMES = ["Ann Lee", "Ben Ode", "Cy Park", "Di Ruiz", "Ed Fox", "Fay Gil", "Gus Ho", "Hal Ivy"]


@pytest.fixture
def night():
    event, _ = running_event(players=0, name="Tuesday night")
    players = [PlayerFactory(club=event.club, name=n) for n in NAMES]
    for player in players:
        event.registrations.create(player=player, checked_in=True)
    director = user_with_role("director", event.club)
    return event, players, rotation_generate(event=event, by=director), director


def _mark_url(event, rotation, player):
    return reverse("director-no-show", args=[event.slug, rotation.number, player.pk])


def _lines(event, action="no_show"):
    return list(AuditEntry.objects.filter(event=event, action=action).values_list("summary", flat=True))


@pytest.mark.parametrize("role", ["outsider", "scorer", "other_director"])
def test_only_the_clubs_directors_mark_a_no_show(client, night, role):
    event, players, rotation, _ = night
    client.force_login(user_with_role(role, event.club))
    response = client.post(_mark_url(event, rotation, players[0]))
    assert response.status_code in (403, 404) and _lines(event) == []


def test_a_no_show_in_a_draft_is_one_tap_a_history_line_and_the_page_offers_seating_again(client, night):
    event, players, rotation, director = night
    client.force_login(director)
    event_url = reverse("director-event", args=[event.slug])
    before = client.get(event_url).content.decode()
    assert before.count(">No-show</button>") == 8
    assert 'aria-label="Mark Ann Lee as a no-show for rotation 1"' in before
    page = client.post(_mark_url(event, rotation, players[0]), follow=True).content.decode()
    assert _lines(event) == ["Marked Ann Lee as a no-show for rotation 1."]
    assert "Marked Ann Lee as a no-show for rotation 1." in page  # said, and in the History
    assert "Seat again without Ann Lee" in page and "Seat a substitute for Ann Lee" in page
    assert page.count(">No-show</button>") == 7
    client.post(_mark_url(event, rotation, players[0]))
    assert len(_lines(event)) == 1  # marked once


def test_seating_a_draft_again_without_the_no_show_gives_them_the_rotation_off(client, night):
    event, players, rotation, director = night
    client.force_login(director)
    client.post(_mark_url(event, rotation, players[0]))
    url = reverse("director-no-show-seat-again", args=[event.slug, 1, players[0].pk])
    page = client.post(url, follow=True).content.decode()
    assert "Rotation 1 is seated again as a draft" in page
    again = Rotation.objects.get(event=event, number=1)
    assert again.pk != rotation.pk and again.status == Rotation.Status.DRAFT
    seated = set(again.seats.values_list("player__name", flat=True))
    assert "Ann Lee" not in seated and not again.sit_outs.filter(player=players[0]).exists()
    assert len(seated) + again.sit_outs.count() == 7
    assert event.registrations.get(player=players[0]).checked_in is False
    assert _lines(event, "no_show_seat_again") == [
        "Seated rotation 1 again without Ann Lee (a no-show): check them in when they arrive."]
    assert "Seat again without" not in page  # nothing left to fix


def test_a_no_show_in_a_started_rotation_is_offered_a_substitute_not_a_new_seating(client, night):
    event, players, rotation, director = night
    rotation_start(rotation=rotation, by=director)
    client.force_login(director)
    page = client.post(_mark_url(event, rotation, players[1]), follow=True).content.decode()
    assert "Seat a substitute for Ben Ode" in page and "Seat again without" not in page
    page = client.post(reverse("director-substitute-add", args=[event.slug]),
                       {"member": players[1].pk, "substitute": "Sam Tay"}, follow=True).content.decode()
    seat = Seat.objects.get(rotation=rotation, substitute_for=players[1])
    assert seat.player.name == "Sam Tay"
    assert "Seat a substitute for Ben Ode" not in page  # fixed


def test_refusals_say_why_and_change_nothing(night):
    event, players, rotation, director = night
    outsider = PlayerFactory(club=event.club, name="Zed Out")
    with pytest.raises(Invalid, match="Zed Out is not in rotation 1."):
        no_show_mark(rotation=rotation, player_id=outsider.pk, by=director)
    rotation_start(rotation=rotation, by=director)
    with pytest.raises(Conflict, match="only a draft rotation can change"):
        no_show_seat_again(rotation=rotation, player_id=players[0].pk, by=director)
    Rotation.objects.filter(pk=rotation.pk).update(status=Rotation.Status.CLOSED)
    with pytest.raises(Conflict, match="Rotation 1 is closed"):
        no_show_mark(rotation=rotation, player_id=players[0].pk, by=director)
    assert _lines(event) == [] and rotation.seats.count() == 8


def test_a_seating_that_cannot_be_made_without_the_no_show_changes_nothing():
    event, _ = running_event(players=0)
    players = [PlayerFactory(club=event.club) for _ in range(4)]
    for player in players:
        event.registrations.create(player=player, checked_in=True)
    rotation = rotation_generate(event=event)
    no_show_mark(rotation=rotation, player_id=players[0].pk)
    with pytest.raises(Invalid, match="At least 4 players are needed to seat a rotation, not 3."):
        no_show_seat_again(rotation=rotation, player_id=players[0].pk)
    assert Rotation.objects.get(event=event, number=1).pk == rotation.pk
    assert event.registrations.get(player=players[0]).checked_in is True


def test_a_no_show_tapped_by_mistake_is_undone_from_the_history(client, night):
    event, players, rotation, director = night
    client.force_login(director)
    client.post(_mark_url(event, rotation, players[2]))
    line = AuditEntry.objects.get(event=event, action="no_show")
    page = client.post(reverse("director-audit-undo", args=[event.slug, line.pk]), follow=True)
    text = page.content.decode()
    assert _lines(event, "no_show_undo") == ["Cy Park is no longer marked as a no-show for rotation 1."]
    assert "Seat again without Cy Park" not in text
    assert 'aria-label="Mark Cy Park as a no-show for rotation 1"' in text


def test_a_fixed_partnerships_no_show_is_offered_a_substitute_only(client):
    event = EventFactory(status=Event.Status.RUNNING, planned_rotations=2, format=Event.Format.SWISS)
    pairs = checked_in_partnerships(event, 4)
    director = user_with_role("director", event.club)
    rotation = rotation_generate(event=event, by=director)
    member = pairs[0].player_a
    client.force_login(director)
    page = client.post(_mark_url(event, rotation, member), follow=True).content.decode()
    assert f"Seat a substitute for {member.name}" in page and "Seat again without" not in page
    with pytest.raises(Conflict, match="plays in a fixed partnership: seat a substitute"):
        no_show_seat_again(rotation=rotation, player_id=member.pk, by=director)
