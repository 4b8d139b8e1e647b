"""Seatings prepared from who is coming: the counts N-2..N+2, who is in each, each checked
by the independent checker (also through `manage.py check_seating`), stored, and used in one
click (its players entered and rotation 1 drafted), refused in words when a rotation exists."""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from league.models import Attendance, Event, PreparedPlan, Registration, Rotation, SeatingWish
from league.services.seating_plans import expected_players, plan_entrants
from tests.factories import EventFactory, MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership():
    return MembershipFactory(role="director")


@pytest.fixture
def director_client(client, membership):
    client.force_login(membership.user)
    return client


def _night(club, yes: int, maybe: int = 0, **fields) -> tuple[Event, list, list]:
    event = EventFactory(club=club, status=Event.Status.REGISTRATION, planned_rotations=3,
                         **fields)
    coming = [PlayerFactory(club=club, name=f"Yes {n:02d}") for n in range(yes)]
    maybes = [PlayerFactory(club=club, name=f"Maybe {n}") for n in range(maybe)]
    for player in coming:
        Attendance.objects.create(event=event, player=player, answer=Attendance.Answer.YES)
    for player in maybes:
        Attendance.objects.create(event=event, player=player, answer=Attendance.Answer.MAYBE)
    return event, coming, maybes


def _prepare(client, event, names=""):
    return client.post(reverse("director-event-plans", args=[event.slug]), {"names": names},
                       follow=True)


def _use(client, event, offset: int, plan: PreparedPlan | None = None):
    """Press "Use this plan" on the plan for N + offset as the page shows it now."""
    plan = plan or PreparedPlan.objects.get(event=event, offset=offset)
    return client.post(reverse("director-event-plan-use", args=[event.slug]),
                       {"offset": str(offset), "plan": str(plan.pk)}, follow=True)


def test_counts_around_the_expected_leave_out_the_latest_yes_and_add_maybes_then_guests(membership):
    event, coming, maybes = _night(membership.club, yes=10, maybe=1)
    expected = expected_players(event=event)
    assert expected.players == [p.pk for p in coming]
    fewer, notes = plan_entrants(expected, -2)
    assert fewer == [p.pk for p in coming[:8]]
    assert "Leaves out Yes 08, Yes 09: the latest to say yes." in notes
    more, notes = plan_entrants(expected, 2)
    assert more == [*(p.pk for p in coming), maybes[0].pk, -1]
    assert notes == ["Adds Maybe 0 (said maybe).", "Adds 1 guest not named yet."]


def test_every_prepared_plan_keeps_the_wishes_and_passes_the_checker(director_client, membership,
                                                                    tmp_path):
    event, coming, _ = _night(membership.club, yes=10, table_sizes=[4, 6],
                              odd_handling=Event.OddHandling.TABLE_OF_SIX)
    SeatingWish.objects.create(event=event, kind="not_partners", player=coming[0], other=coming[1])
    SeatingWish.objects.create(event=event, kind="no_sit_out", player=coming[2])
    page = _prepare(director_client, event)
    assert page.status_code == 200
    plans = list(PreparedPlan.objects.filter(event=event).order_by("offset"))
    assert [len(p.entrants) for p in plans] == [8, 9, 10, 11, 12]
    for plan in plans:
        assert plan.sound, plan.verdict
        assert all(w["kept"] for w in plan.wishes), plan.wishes
        path = tmp_path / f"plan{plan.offset}.json"
        path.write_text(json.dumps(plan.check_file))
        out = io.StringIO()
        call_command("check_seating", str(path), stdout=out)
        assert "The seating is sound." in out.getvalue()
    ten = plans[2]
    assert [len(t["seats"]) for t in ten.rotations[0]["tables"]] == [6, 4]  # 10 = 6 + 4
    nine = plans[1]
    assert any("sits out" in note for note in nine.notes)
    assert any(note.startswith("Why: the tables do not seat everyone") for note in nine.notes)
    text = page.content.decode()
    assert "Yes 00 and Yes 01 must not be partners: kept." in text
    assert "Use this plan (10 players)" in text
    assert str(coming[0].pk) not in [w for w in text.split() if w.isdigit() and len(w) > 3]


def test_typed_names_replace_the_answers_and_unknown_names_are_refused(director_client, membership):
    event, coming, _ = _night(membership.club, yes=6)
    page = _prepare(director_client, event, "Yes 03\nNobody Here\n")
    assert page.status_code == 400
    assert "No player of" in page.content.decode() and "Nobody Here" in page.content.decode()
    assert not PreparedPlan.objects.filter(event=event).exists()
    _prepare(director_client, event, "Yes 05, Yes 04\nYes 03\nYes 02")
    plan = PreparedPlan.objects.get(event=event, offset=0)
    assert [e["name"] for e in plan.entrants] == ["Yes 05", "Yes 04", "Yes 03", "Yes 02"]


def test_using_a_plan_enters_its_players_and_drafts_rotation_one(director_client, membership):
    event, coming, _ = _night(membership.club, yes=9)
    _prepare(director_client, event)
    page = _use(director_client, event, -1)
    assert "rotation 1 is seated as a draft" in page.content.decode()
    plan = PreparedPlan.objects.get(event=event, offset=-1)
    entered = set(Registration.objects.filter(event=event, checked_in=True)
                  .values_list("player_id", flat=True))
    assert entered == {p.pk for p in coming[:8]}
    rotation = Rotation.objects.get(event=event, number=1)
    assert rotation.status == Rotation.Status.DRAFT
    seats = [s for t in plan.rotations[0]["tables"] for s in t["seats"]]
    assert sorted(rotation.seats.values_list("player_id", flat=True)) == sorted(seats)
    again = _use(director_client, event, 0)
    assert "Rotation 1 is seated already" in again.content.decode()
    assert event.rotations.count() == 1


def test_a_plan_with_guests_is_refused_in_words(director_client, membership):
    event, _, _ = _night(membership.club, yes=8)
    _prepare(director_client, event)
    page = _use(director_client, event, 2)
    assert "2 guest(s) not named yet" in page.content.decode()
    assert not event.rotations.exists()


def test_the_draft_page_lists_each_wish_and_the_checkers_verdict(director_client, membership):
    event, coming, _ = _night(membership.club, yes=8)
    SeatingWish.objects.create(event=event, kind="not_meet", player=coming[0], other=coming[1])
    for player in coming:
        Registration.objects.create(event=event, player=player, checked_in=True)
    director_client.post(reverse("director-rotation-generate", args=[event.slug]))
    text = director_client.get(reverse("director-event", args=[event.slug])).content.decode()
    assert "Yes 00 and Yes 01 must not meet at a table: kept." in text
    assert "Seating checker:</strong> sound" in text


def test_the_draft_says_which_fairness_goal_gave_way_to_a_wish(director_client, membership):
    event, coming, _ = _night(membership.club, yes=4)
    SeatingWish.objects.create(event=event, kind="not_partners", player=coming[0], other=coming[1])
    for player in coming:
        Registration.objects.create(event=event, player=player, checked_in=True)
    director_client.post(reverse("director-rotation-generate", args=[event.slug]))
    text = director_client.get(reverse("director-event", args=[event.slug])).content.decode()
    assert ("Yes 00 and Yes 01 must not be partners: kept; to keep it, no partner repeats gave way "
            "(2 repeated partnerships tonight, 0 without this wish).") in text


def test_the_page_follows_its_own_job_only(director_client, membership):
    from jobs.models import Job
    from league.jobs import SEATING_PLANS

    event, _, _ = _night(membership.club, yes=8)
    mine = Job.objects.create(kind=SEATING_PLANS, fingerprint="a" * 64, params={"event_id": event.pk},
                              status=Job.Status.RUNNING, done=2, total=5)
    other = Job.objects.create(kind="whatif-event", fingerprint="b" * 64, params={"event_id": event.pk})
    url = reverse("director-event-plans", args=[event.slug])
    page = director_client.get(f"{url}?job={mine.pk}").content.decode()
    assert "Preparing the seatings" in page and "2 of 5 plans" in page
    assert "Preparing the seatings" not in director_client.get(f"{url}?job={other.pk}").content.decode()
    assert director_client.get(f"{url}?job=not-a-job").status_code == 200


def test_a_wish_about_someone_not_coming_names_them(membership):
    from league.services.seating_plans import prepared_plan_compute

    event, coming, _ = _night(membership.club, yes=8)
    away = PlayerFactory(club=membership.club, name="Away Player")
    SeatingWish.objects.create(event=event, kind="not_meet", player=coming[0], other=away)
    plan = prepared_plan_compute(event=event, players=[p.pk for p in coming], offset=0, notes=[])
    assert plan["wishes"] == [{"kept": True, "words": "Yes 00 and Away Player must not meet at a "
                               "table: nothing to keep tonight: Away Player is not playing."}]
    assert plan["sound"]


def test_one_fewer_leaves_out_the_entered_player_not_checked_in_before_the_latest_yes(
        director_client, membership):
    event, coming, _ = _night(membership.club, yes=9)
    for player in coming:
        Registration.objects.create(event=event, player=player, checked_in=player != coming[3])
    expected = expected_players(event=event)
    assert expected.players[-1] == coming[3].pk and expected.absent == [coming[3].pk]
    fewer, notes = plan_entrants(expected, -1)
    assert coming[3].pk not in fewer and coming[8].pk in fewer
    assert notes == ["Leaves out Yes 03: entered, not checked in."]
    _prepare(director_client, event)
    page = _use(director_client, event, -1)
    assert "rotation 1 is seated as a draft" in page.content.decode()
    no_show = Registration.objects.get(event=event, player=coming[3])
    assert no_show.withdrawn_after_rotation is not None  # withdrawn, with a History line
    assert coming[3].pk not in Rotation.objects.get(event=event).seats.values_list("player_id", flat=True)


def test_before_anyone_is_checked_in_nobody_counts_as_absent(membership):
    event, coming, _ = _night(membership.club, yes=9)
    for player in coming:
        Registration.objects.create(event=event, player=player)
    expected = expected_players(event=event)
    assert expected.absent == [] and expected.players == [p.pk for p in coming]


def test_preparing_again_withdraws_the_earlier_plans_until_the_new_ones_are_drawn(
        director_client, membership, monkeypatch):
    from jobs.models import Job
    from league import jobs

    event, coming, _ = _night(membership.club, yes=9)
    _prepare(director_client, event)
    old = PreparedPlan.objects.get(event=event, offset=0)

    def queued(**request):  # the new list's job, queued and not drawn yet
        return Job.objects.create(kind=request["kind"], fingerprint=request["fingerprint"],
                                  params=request["params"], status=Job.Status.QUEUED)

    monkeypatch.setattr(jobs, "job_request", queued)
    page = _prepare(director_client, event, names="\n".join(p.name for p in coming[:8]))
    text = page.content.decode()
    assert not PreparedPlan.objects.filter(event=event).exists()
    assert "Use this plan" not in text and "The earlier seatings are withdrawn" in text
    late = _use(director_client, event, 0, plan=old)  # a press from a page opened before
    assert "That seating was replaced" in late.content.decode()
    assert not event.rotations.exists()
