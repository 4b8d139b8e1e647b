"""Director pages for running the room, through the Django test client."""

import pytest
from django.urls import reverse

from league.models import AuditEntry, Event, Player, Registration, Rotation
from tests.factories import EventFactory, MembershipFactory, PlayerFactory
from tests.league.factories import confirm_all_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership():
    return MembershipFactory(role="director")


@pytest.fixture
def director_client(client, membership):
    client.force_login(membership.user)
    return client


@pytest.fixture
def event(membership):
    return EventFactory(club=membership.club, status=Event.Status.REGISTRATION)


def test_a_typed_name_like_an_existing_player_is_offered_before_creating(director_client, event):
    grace = PlayerFactory(club=event.club, name="Grace Hopper")
    url = reverse("director-registration-add", args=[event.slug])

    page = director_client.post(url, {"new_name": "grace hoper"})

    assert "Already a player?" in page.text and "Enter Grace Hopper" in page.text
    assert Player.objects.filter(club=event.club).count() == 1
    director_client.post(url, {"player": grace.pk})
    assert Registration.objects.get(event=event).player == grace


def test_a_new_player_anyway_after_the_offer(director_client, event):
    PlayerFactory(club=event.club, name="Grace Hopper")
    url = reverse("director-registration-add", args=[event.slug])
    director_client.post(url, {"new_name": "Grace Hoppers", "create": "anyway"})
    assert Registration.objects.get(event=event).player.name == "Grace Hoppers"


def test_pasting_names_enters_them_all_and_asks_only_for_close_ones(director_client, event):
    grace = PlayerFactory(club=event.club, name="Grace Hopper")
    url = reverse("director-registration-paste", args=[event.slug])

    review = director_client.post(url, {"names": "Ada Lovelace\nGrace Hoper\nAlan Turing"})
    assert "Check the names" in review.text
    assert Registration.objects.filter(event=event).count() == 0

    director_client.post(url, {"resolved": "1", "count": "3", "name-0": "Ada Lovelace", "choice-0": "new",
                               "name-1": "Grace Hoper", "choice-1": str(grace.pk),
                               "name-2": "Alan Turing", "choice-2": "new"})
    names = set(event.registrations.values_list("player__name", flat=True))
    assert names == {"Ada Lovelace", "Grace Hopper", "Alan Turing"}


def test_pasting_partnerships_in_a_fixed_partnership_event(director_client, membership):
    event = EventFactory(club=membership.club, status=Event.Status.REGISTRATION,
                         format=Event.Format.ROUND_ROBIN)
    grace = PlayerFactory(club=event.club, name="Grace Hopper")
    page = director_client.get(reverse("director-event", args=[event.slug]))
    assert "Partnerships, one per line" in page.text and "Enter these partnerships" in page.text
    url = reverse("director-registration-paste", args=[event.slug])

    review = director_client.post(url, {"names": "Ada Lovelace & Grace Hoper\nAlan Turing and Ken"})
    assert "Partnership 1" in review.text and "Partnership 2" in review.text
    assert "Enter these 2 partnerships" in review.text
    assert not event.registrations.exists()

    director_client.post(url, {"resolved": "1", "count": "4",
                               "name-0": "Ada Lovelace", "choice-0": "new",
                               "name-1": "Grace Hoper", "choice-1": str(grace.pk),
                               "name-2": "Alan Turing", "choice-2": "new",
                               "name-3": "Ken", "choice-3": "new"})
    entered = sorted(str(r.partnership) for r in event.registrations.all())
    assert entered == ["Alan Turing & Ken", "Grace Hopper & Ada Lovelace"]


def test_a_line_with_one_name_is_refused_in_words(director_client, membership):
    event = EventFactory(club=membership.club, status=Event.Status.REGISTRATION,
                         format=Event.Format.SWISS)
    url = reverse("director-registration-paste", args=[event.slug])
    page = director_client.post(url, {"names": "Ada & Grace\nAlan"}, follow=True)
    assert "Line 2 (“Alan”) should name two players" in page.text
    assert not event.registrations.exists()


def test_check_in_all_answers_htmx_with_the_list(director_client, event):
    for _ in range(3):
        Registration.objects.create(event=event, player=PlayerFactory(club=event.club))
    url = reverse("director-registration-check-in-all", args=[event.slug])

    fragment = director_client.post(url, HTTP_HX_REQUEST="true")

    assert fragment.status_code == 200 and fragment.text.lstrip().startswith('<section id="registrations"')
    assert "3 of 3 checked in" in fragment.text and "Check in all" not in fragment.text
    assert "Or a new player&#x27;s name" in fragment.text and "Names, one per line" in fragment.text
    assert event.registrations.filter(checked_in=True).count() == 3


def test_one_check_in_toggle_answers_htmx(director_client, event):
    reg = Registration.objects.create(event=event, player=PlayerFactory(club=event.club, name="Ada"))
    url = reverse("director-registration-check-in", args=[event.slug, reg.pk])
    fragment = director_client.post(url, {"checked_in": "1"}, HTTP_HX_REQUEST="true")
    assert "Undo check-in of Ada" in fragment.text
    assert Registration.objects.get(pk=reg.pk).checked_in


def test_house_rules_page_saves_changes_and_refuses_out_of_range_in_words(director_client, event):
    url = reverse("director-house-rules", args=[event.slug])
    page = director_client.get(url)
    assert "Bonus for going out" in page.text and "0 to 5,000" in page.text
    data = {name: field.initial for name, field in page.context["form"].fields.items()
            if field.initial is not None}
    data["going_out_bonus"] = 99999

    refused = director_client.post(url, data)
    assert "Bonus for going out must be from 0 to 5,000 points, not 99,999." in refused.text
    event.refresh_from_db()
    assert event.rules_overrides == {}

    data["going_out_bonus"] = 250
    director_client.post(url, data)
    event.refresh_from_db()
    assert event.rules_overrides == {"going_out_bonus": 250}


def test_house_rules_json_box_refuses_in_words(director_client, event):
    url = reverse("director-house-rules", args=[event.slug])
    page = director_client.post(url, {"advanced": "1", "rules_json": "{'rounds': 3}"})
    assert "not readable as house rules" in page.text and "Expecting" not in page.text
    director_client.post(url, {"advanced": "1", "rules_json": '{"rounds": 3}'})
    event.refresh_from_db()
    assert event.rules_overrides == {"rounds": 3}


def test_a_finished_event_shows_no_actions_that_cannot_apply(director_client, event):
    Registration.objects.create(event=event, player=PlayerFactory(club=event.club, name="Ada"), checked_in=True)
    event.status = Event.Status.FINISHED
    event.save()
    page = director_client.get(reverse("director-event", args=[event.slug]))
    for text in ("Seat the next rotation", "Check in all", "Check in Ada", "Withdraw Ada", ">Enter<"):
        assert text not in page.text
    assert "Reopen the event" in page.text


def test_a_closed_rotation_offers_reopen_and_the_history_lists_it(director_client, membership):
    from league import services
    from tests.league.factories import running_event

    event, _ = running_event(8, club=membership.club)
    rotation = services.rotation_generate(event=event)
    services.rotation_start(rotation=rotation)
    confirm_all_games(rotation)
    director_client.post(reverse("director-rotation-close", args=[event.slug, 1]))
    page = director_client.get(reverse("director-event", args=[event.slug]))
    assert "Reopen rotation 1" in page.text and "Closed rotation 1." in page.text

    director_client.post(reverse("director-rotation-reopen", args=[event.slug, 1]))
    assert Rotation.objects.get(pk=rotation.pk).status == Rotation.Status.STARTED
    assert AuditEntry.objects.filter(event=event, action="rotation_reopen", user=membership.user).exists()


def test_new_event_defaults_to_today_and_a_league_night_from_a_season(director_client, membership):
    from django.utils import timezone

    from tests.factories import SeasonFactory

    season = SeasonFactory(league__club=membership.club)
    page = director_client.get(reverse("director-event-create") + f"?season={season.pk}")
    form = page.context["form"]
    assert form.initial["date"] == timezone.localdate()
    assert form.initial["kind"] == Event.Kind.LEAGUE_NIGHT and form.initial["season"] == season


def test_the_old_director_result_urls_are_gone(director_client, event):
    """/play/director/... redirected to /director/... for a while; it is no path any more."""
    response = director_client.get(f"/play/director/events/{event.slug}/results/?x=1")
    assert response.status_code == 404


def test_login_lands_directors_on_their_dashboard(client, membership):
    membership.user.set_password("pass-word-123")
    membership.user.save()
    response = client.post("/accounts/login/", {"username": membership.user.username,
                                                 "password": "pass-word-123"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("director-home")


def test_player_pages_rename_merge_and_retire(director_client, membership):
    club = membership.club
    grace = PlayerFactory(club=club, name="Grace Hopper")
    dup = PlayerFactory(club=club, name="Grace Hoper")
    listing = director_client.get(reverse("director-players", args=[club.slug]))
    assert "same person as Grace Hoper?" in listing.text

    page = director_client.get(reverse("director-player", args=[club.slug, dup.slug]))
    assert "Likely the same person: <strong>Grace Hopper</strong>" in page.text
    director_client.post(reverse("director-player-merge", args=[club.slug, dup.slug]), {"into": grace.pk})
    assert not Player.objects.filter(pk=dup.pk).exists()

    director_client.post(reverse("director-player-rename", args=[club.slug, grace.slug]), {"name": "Grace B. Hopper"})
    director_client.post(reverse("director-player-retire", args=[club.slug, grace.slug]), {"retire": "1"})
    grace.refresh_from_db()
    assert grace.name == "Grace B. Hopper" and grace.retired_at is not None
    log = director_client.get(reverse("director-player", args=[club.slug, grace.slug])).text
    assert "Merged Grace Hoper into Grace Hopper." in log and "Renamed Grace Hopper to Grace B. Hopper." in log


def test_a_swap_that_repeats_partners_warns_by_name(director_client, membership):
    from league import services
    from tests.league.factories import running_event

    event, _ = running_event(8, club=membership.club)
    first = services.rotation_generate(event=event)
    services.rotation_start(rotation=first)
    confirm_all_games(first)
    services.rotation_close(rotation=first)
    second = services.rotation_generate(event=event)
    seat = first.seats.order_by("table__number", "seat_number").first()
    old_partner = first.seats.get(table=seat.table, side=seat.side, seat_number__gt=seat.seat_number).player
    mine = second.seats.get(player=seat.player)
    partner_now = second.seats.exclude(player=seat.player).get(table=mine.table, side=mine.side).player

    page = director_client.post(reverse("director-rotation-swap", args=[event.slug, 2]),
                                {"player_a": partner_now.pk, "player_b": old_partner.pk}, follow=True)

    a, b = sorted((seat.player.name, old_partner.name))
    assert f"Warning: {a} and {b} are partners again (they were partners in rotation 1)." in page.text
    assert "Partners again:" in page.text


def test_club_page_opens_a_league_night_of_a_season(director_client, membership):
    from tests.factories import SeasonFactory

    season = SeasonFactory(league__club=membership.club)
    page = director_client.get(reverse("director-club", args=[membership.club.slug]))
    assert f'{reverse("director-event-create")}?season={season.pk}' in page.text
