"""Running the room: pasted names, check in all, reopening rotations and events, the audit log
and its undo, repeated-partner warnings, one entrant count."""

import pytest

from core.errors import DomainError
from league import selectors
from league import services as running
from league.models import AuditEntry, Event, Registration, Rotation
from league.names import MAX_PASTED_NAMES, BadPair, TooManyNames, names_parse, pairs_parse
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tests.league.factories import confirm_all_games, running_event

pytestmark = pytest.mark.django_db


def test_pasted_names_are_split_numbering_and_repeats_dropped():
    text = "1. Ada Lovelace\n2) Grace Hopper\n\nAlan Turing, Edsger Dijkstra; ada lovelace\n"
    assert names_parse(text) == ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"]


def test_too_many_pasted_names_are_refused():
    with pytest.raises(TooManyNames, match="at most"):
        names_parse("\n".join(f"Player {i}" for i in range(MAX_PASTED_NAMES + 1)))


def test_pasted_partnerships_are_two_names_a_line():
    text = "1. Ada Lovelace & Grace Hopper\nAlan Turing and Edsger Dijkstra\n\nKen / Tony\n" \
           "grace hopper + ada lovelace\n"
    assert pairs_parse(text) == [("Ada Lovelace", "Grace Hopper"), ("Alan Turing", "Edsger Dijkstra"),
                                 ("Ken", "Tony")]
    with pytest.raises(BadPair, match="Line 2 .*should name two players"):
        pairs_parse("Ada & Grace\nAlan Turing\n")


def test_add_partnerships_creates_players_once_skips_entered_and_logs_once():
    event = EventFactory(status=Event.Status.REGISTRATION, format=Event.Format.SWISS)
    grace = PlayerFactory(club=event.club, name="Grace Hopper")
    user = UserFactory()

    created = running.registration_add_partnerships(
        event=event, pairs=[(grace, "Ada"), ("Alan", "Edsger"), (grace, "Ada")], by=user)

    assert [str(r.partnership) for r in created] == ["Grace Hopper & Ada", "Alan & Edsger"]
    assert event.club.players.filter(name="Ada").count() == 1
    entry = AuditEntry.objects.get(action="registrations_add")
    assert entry.user == user and entry.summary.startswith("Entered 2 partnerships")
    with pytest.raises(DomainError, match="rotating partners"):
        running.registration_add_partnerships(
            event=EventFactory(club=event.club), pairs=[("A", "B")])


def test_names_match_uses_exact_players_and_offers_close_ones():
    event = EventFactory(status=Event.Status.REGISTRATION)
    grace = PlayerFactory(club=event.club, name="Grace Hopper")
    alan = PlayerFactory(club=event.club, name="Alan Turing")

    rows = selectors.names_match(club=event.club, names=["grace hopper", "Alan Turin", "Ada"])

    assert rows[0].exact == grace and not rows[0].needs_choice
    assert rows[1].needs_choice and rows[1].close[0].player == alan
    assert rows[2].exact is None and rows[2].close == []


def test_add_players_creates_new_ones_skips_entered_and_logs_once():
    event = EventFactory(status=Event.Status.REGISTRATION)
    grace = PlayerFactory(club=event.club, name="Grace Hopper")
    Registration.objects.create(event=event, player=grace)
    user = UserFactory()

    created = running.registration_add_players(event=event, choices=[grace, "Ada", "Alan"], by=user)

    assert [r.player.name for r in created] == ["Ada", "Alan"]
    assert event.registrations.count() == 3
    entry = AuditEntry.objects.get(action="registrations_add")
    assert entry.user == user and "Ada, Alan" in entry.summary


def test_check_in_all_skips_withdrawn_and_undo_restores():
    event = EventFactory(status=Event.Status.REGISTRATION)
    regs = [Registration.objects.create(event=event, player=PlayerFactory(club=event.club)) for _ in range(4)]
    regs[0].checked_in = True
    regs[0].save()
    regs[1].withdrawn_after_rotation = 0
    regs[1].save()

    ids = running.registration_check_in_all(event=event)

    assert sorted(ids) == sorted([regs[2].pk, regs[3].pk])
    assert not Registration.objects.get(pk=regs[1].pk).checked_in
    running.audit_undo(entry=AuditEntry.objects.get(action="check_in_all"))
    assert set(event.registrations.filter(checked_in=True).values_list("pk", flat=True)) == {regs[0].pk}
    with pytest.raises(DomainError, match="already undone"):
        running.audit_undo(entry=AuditEntry.objects.get(action="check_in_all"))


def test_one_entrant_count_leaves_withdrawn_out_everywhere():
    event = EventFactory()
    for n in range(3):
        Registration.objects.create(event=event, player=PlayerFactory(club=event.club),
                                    withdrawn_after_rotation=1 if n == 0 else None)
    assert selectors.event_entrant_count(event=event) == 2
    assert selectors.events_with_entrant_counts(events=Event.objects.filter(pk=event.pk)).get().entrants == 2


def _played_rotation(event):
    from league import services

    rotation = services.rotation_generate(event=event)
    services.rotation_start(rotation=rotation)
    confirm_all_games(rotation)
    return rotation


def test_a_closed_rotation_reopens_and_closes_again_logged_each_time():
    event, _ = running_event(8)
    rotation = _played_rotation(event)
    user = UserFactory()
    first = AuditEntry.objects.order_by("pk").last().pk
    running.rotation_close(rotation=rotation, by=user)

    running.rotation_reopen(rotation=rotation, by=user)
    assert Rotation.objects.get(pk=rotation.pk).status == Rotation.Status.STARTED
    running.rotation_close(rotation=rotation, by=user)
    assert Rotation.objects.get(pk=rotation.pk).status == Rotation.Status.CLOSED

    actions = list(AuditEntry.objects.filter(pk__gt=first, action__startswith="rotation_")
                   .order_by("pk").values_list("action", flat=True))
    assert actions == ["rotation_close", "rotation_reopen", "rotation_close"]
    running.audit_undo(entry=AuditEntry.objects.filter(action="rotation_close").last(), by=user)
    assert Rotation.objects.get(pk=rotation.pk).status == Rotation.Status.STARTED


def test_only_the_last_rotation_reopens():
    from league import services

    event, _ = running_event(8)
    first = _played_rotation(event)
    running.rotation_close(rotation=first)
    services.rotation_generate(event=event)

    with pytest.raises(DomainError, match="Rotation 2 is already seated"):
        running.rotation_reopen(rotation=first)


def test_a_finished_event_reopens_and_rotations_wait_for_it():
    event, _ = running_event(8)
    rotation = _played_rotation(event)
    running.rotation_close(rotation=rotation)
    running.event_set_status(event=event, status=Event.Status.FINISHED)

    with pytest.raises(DomainError, match="reopen the event first"):
        running.rotation_reopen(rotation=rotation)
    running.event_reopen(event=event)
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    running.rotation_reopen(rotation=rotation)


def test_repeated_partners_are_named_with_their_earlier_rotation():
    from league import services

    event, players = running_event(8)
    first = _played_rotation(event)
    running.rotation_close(rotation=first)
    second = services.rotation_generate(event=event)
    assert selectors.repeated_partners(rotation=second) == []
    # Put a partner of rotation 1 next to their old partner in rotation 2.
    seat = first.seats.order_by("table__number", "seat_number").first()
    old_partner = first.seats.get(table=seat.table, side=seat.side, seat_number__gt=seat.seat_number).player
    mine = second.seats.get(player=seat.player)
    partner_now = second.seats.exclude(player=seat.player).get(table=mine.table, side=mine.side).player
    services.rotation_swap_players(rotation=second, player_a=partner_now, player_b=old_partner)

    names = tuple(sorted((seat.player.name, old_partner.name)))
    assert (*names, [1]) in selectors.repeated_partners(rotation=second)
