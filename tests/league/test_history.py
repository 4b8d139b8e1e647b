"""One History of everything done to an event: each kind of change is a line in words with who
did it, and the lines that are safe to undo are undone (refused in words where not)."""

import pytest

from core.errors import Conflict
from games import services as results
from games.services import Entrant
from league import services
from league.models import AuditEntry, Event, Registration, Rotation
from tests.factories import EventFactory, MembershipFactory, PlayerFactory
from tests.games.factories import named_game, sheet
from tests.league.factories import confirm_all_games, running_event

pytestmark = pytest.mark.django_db


def lines(event, action=None):
    entries = AuditEntry.objects.filter(event=event).order_by("pk")
    if action:
        entries = entries.filter(action=action)
    return list(entries)


@pytest.fixture
def director():
    return MembershipFactory(role="director").user


def test_a_late_entry_is_a_line_in_words_and_undo_takes_it_back(director):
    event, _ = running_event(8)
    player = PlayerFactory(club=event.club, name="Zoë Late")
    registration = services.registration_add(event=event, player=player, by=director)
    line = lines(event, "registration_add")[-1]
    assert line.summary == "Late entry: Zoë Late, checked in, plays from rotation 1."
    assert line.user == director
    services.audit_undo(entry=line, by=director)
    assert not Registration.objects.filter(pk=registration.pk).exists()
    assert lines(event, "registration_remove")[-1].summary == "Took back the entry of Zoë Late."


def test_an_entry_already_seated_is_not_taken_back_but_withdrawn(director):
    event, _ = running_event(7)
    player = PlayerFactory(club=event.club, name="Ann Seated")
    services.registration_add(event=event, player=player, by=director)
    services.rotation_generate(event=event, by=director)
    line = lines(event, "registration_add")[-1]
    with pytest.raises(Conflict, match="Ann Seated is already in rotation 1: withdraw them instead"):
        services.audit_undo(entry=line, by=director)


def test_a_single_check_in_is_logged_and_undone(director):
    event = EventFactory(status=Event.Status.REGISTRATION)
    player = PlayerFactory(club=event.club, name="Bea Early")
    registration = Registration.objects.create(event=event, player=player)
    services.registration_check_in(registration=registration, by=director)
    line = lines(event, "check_in")[-1]
    assert line.summary == "Checked in Bea Early."
    assert services.audit_undoable(entry=line)
    services.audit_undo(entry=line, by=director)
    registration.refresh_from_db()
    assert registration.checked_in is False
    assert lines(event, "check_in")[-1].summary == "Bea Early is no longer checked in."


def test_a_house_rule_change_names_the_rule_and_both_values_and_undo_restores(director):
    event = EventFactory(status=Event.Status.REGISTRATION)
    services.event_update(event=event, rules_overrides={"going_out_bonus": 250}, by=director)
    line = lines(event, "house_rules")[-1]
    assert "Going-out bonus" in line.summary or "going out" in line.summary.lower()
    assert "100" in line.summary and "250" in line.summary
    services.audit_undo(entry=line, by=director)
    event.refresh_from_db()
    assert event.rules_overrides == {}


def test_settings_and_status_steps_are_lines_in_words(director):
    event = EventFactory(status=Event.Status.DRAFT, planned_rotations=3)
    services.event_update(event=event, planned_rotations=4, by=director)
    services.event_set_status(event=event, status=Event.Status.REGISTRATION, by=director)
    assert lines(event, "event_settings")[-1].summary == "Changed the settings: planned rotations 3 → 4."
    assert lines(event, "event_status")[-1].summary == "Opened registration."


def test_seating_swap_start_and_their_undo(director):
    event, players = running_event(8)
    rotation = services.rotation_generate(event=event, by=director)
    assert lines(event, "rotation_generate")[-1].summary.startswith("Seated rotation 1 as a draft (2 tables)")
    a, b = players[0], players[1]
    seat_of = {s.player_id: (s.table_id, s.seat_number) for s in rotation.seats.all()}
    services.rotation_swap_players(rotation=rotation, player_a=a, player_b=b, by=director)
    swap = lines(event, "rotation_swap")[-1]
    assert swap.summary == f"Swapped {a} and {b} in rotation 1."
    services.audit_undo(entry=swap, by=director)
    assert {s.player_id: (s.table_id, s.seat_number) for s in rotation.seats.all()} == seat_of

    services.rotation_start(rotation=rotation, by=director)
    start = lines(event, "rotation_start")[-1]
    assert start.summary == "Started rotation 1: its seating is published."
    assert not services.audit_undoable(entry=lines(event, "rotation_generate")[-1])
    services.audit_undo(entry=start, by=director)
    assert Rotation.objects.get(pk=rotation.pk).status == Rotation.Status.DRAFT


def test_starting_is_not_undone_once_a_result_is_entered():
    game = named_game()
    event = game.table.rotation.event
    director = MembershipFactory(club=event.club, role="director").user
    rotation = game.table.rotation
    for seat in rotation.seats.all():
        Registration.objects.create(event=event, player=seat.player, checked_in=True)
    rotation.status = Rotation.Status.DRAFT
    rotation.save()
    services.rotation_start(rotation=rotation, by=director)
    results.submission_create(game=game, document=sheet(1), entrant=Entrant.for_side(game, 0),
                              idempotency_key="k1")
    start = lines(event, "rotation_start")[-1]
    assert not services.audit_undoable(entry=start)
    with pytest.raises(Conflict, match="Results were already entered at rotation 1's tables"):
        services.audit_undo(entry=start, by=director)


def test_entries_confirmations_disputes_and_corrections_are_lines_with_who():
    game = named_game()
    event = game.table.rotation.event
    director = MembershipFactory(club=event.club, role="director").user
    for n in (1, 2, 3, 4):
        results.submission_create(game=game, document=sheet(n), entrant=Entrant.for_side(game, 0),
                                  idempotency_key=f"a{n}")
    for n in (1, 2, 3, 4):
        results.submission_create(game=game, document=sheet(n, table_points=560),
                                  entrant=Entrant.for_side(game, 1), idempotency_key=f"b{n}")
    entered = lines(event, "result_enter")
    assert len(entered) == 8
    assert entered[0].user is None and entered[0].data["who"].startswith("Side 1 (")
    assert entered[0].summary.startswith("Entered the round 1 score sheet at rotation 1, table 1:")
    assert entered[-1].summary.endswith("The figures differ from the other side's: disputed.")

    as_director = results.entrant_for(game=game, user=director)
    results.result_confirm(game=game, version_number=1, entrant=as_director)
    decision = lines(event, "result_decide")[-1]
    assert decision.user == director
    assert decision.summary.startswith("Decided the dispute at rotation 1, table 1: the figures of Side 1")
    assert "Side 2" in decision.summary and "had" in decision.summary
    with pytest.raises(Conflict, match="A decided dispute is changed with a correction"):
        services.audit_undo(entry=decision, by=director)

    results.result_correct(game=game, user=director, reason="Round 4 misread",
                           expected_revision=results.result_revision(game=game),
                           documents=[sheet(4, table_points=600)])
    correction = lines(event, "result_correct")[-1]
    assert correction.summary.startswith("Corrected the result at rotation 1, table 1:")
    assert "(was " in correction.summary and correction.summary.endswith("Reason: Round 4 misread")


def test_a_director_typed_sheet_says_so_and_its_undo_withdraws_it():
    game = named_game()
    event = game.table.rotation.event
    director = MembershipFactory(club=event.club, role="director").user
    submission, _ = results.submission_create(
        game=game, document=sheet(1), entrant=results.entrant_for(game=game, user=director),
        idempotency_key="d1")
    line = lines(event, "result_enter")[-1]
    assert "(typed by the director)" in line.summary
    assert services.audit_undoable(entry=line)
    services.audit_undo(entry=line, by=director)
    submission.refresh_from_db()
    assert submission.withdrawn_at is not None


def test_closing_is_a_line_and_lines_that_cannot_be_undone_say_why(director):
    event, _ = running_event(8)
    rotation = services.rotation_generate(event=event, by=director)
    services.rotation_start(rotation=rotation, by=director)
    confirm_all_games(rotation)
    services.rotation_close(rotation=rotation, by=director)
    assert lines(event, "rotation_close")[-1].summary == "Closed rotation 1."
    created = services.event_create(club=event.club, name="Spring night", date=event.date,
                                    by=director)
    line = lines(created, "event_create")[-1]
    assert line.summary == "Created Spring night as a draft."
    with pytest.raises(Conflict, match="An event is not un-created"):
        services.audit_undo(entry=line, by=director)
