"""Seating wishes: the generator keeps them (seeded), says of each whether it was kept and, when
a wish and a fairness goal collide, which one gave way; the checker refuses a seating that
breaks a wish it claims kept; directors add and remove wishes by name."""

import json

import pytest
from django.urls import reverse

from league.models import Event, SeatingWish
from league.seating import SeatingRequest, Wish, plan_rotations, validate_rotation, wish_outcomes
from league.seating.checker import seating_check, seating_from_json, wishes_from_json
from league.services.seating_plans import checker_file
from league.services.wishes import seating_wish_add
from tests.factories import EventFactory, MembershipFactory, PlayerFactory, SeasonFactory

NAMES = {p: f"P{p}" for p in range(1, 41)}


def _night(n, rotations, wishes, seed=7, **fields):
    request = SeatingRequest(format="rotating", players=tuple(range(1, n + 1)),
                             rotations=rotations, seed=seed, wishes=tuple(wishes), **fields)
    return request, plan_rotations(request)


def _check(request, plans, outcomes):
    text = json.dumps(checker_file(plans, request.players, outcomes)[0])
    rotations, report = seating_from_json(text)
    return seating_check(rotations, players=len(request.players), report=report,
                         wishes=wishes_from_json(text))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("n", "extra"), [(13, {}), (16, {}), (10, {"odd_handling": "table_of_six"})])
def test_hard_wishes_are_kept_and_the_checker_agrees(seed, n, extra):
    wishes = [Wish("not_partners", 1, 2), Wish("not_meet", 3, 4), Wish("no_sit_out", 5),
              Wish("fixed_seat", 6, table=2, seat=3)]
    request, plans = _night(n, 5, wishes, seed=seed, **extra)
    for plan in plans:
        validate_rotation(plan, request.players, (4, 6))
        assert plan.tables[1].seats[2] == 6
        assert 5 not in plan.sit_out and 6 not in plan.sit_out
    outcomes = wish_outcomes(request, plans, NAMES)
    assert [o.kept for o in outcomes] == [True] * 4, [o.words for o in outcomes]
    assert outcomes[3].words == "P6 keeps table 2, seat 3 all night: kept."
    assert _check(request, plans, outcomes).sound


def test_partner_once_is_granted_tonight_unless_the_season_already_did_it():
    request, plans = _night(12, 3, [Wish("partner_once", 1, 2)])
    first = next(n for n, p in enumerate(plans, 1) if any({1, 2} == set(s) for t in p.tables
                                                            for s in t.sides))
    assert first == 1
    outcomes = wish_outcomes(request, plans, NAMES)
    assert outcomes[0].words == "P1 and P2 should partner once this season: kept: partners in rotation 1."
    earlier = (plans[0],)
    request2, plans2 = _night(12, 3, [Wish("partner_once", 1, 2)], season=(earlier,))
    assert wish_outcomes(request2, plans2, NAMES)[0].earlier


def test_a_wish_kept_at_the_cost_of_a_fairness_goal_names_what_gave_way():
    request, plans = _night(4, 3, [Wish("not_partners", 1, 2)])
    outcome = wish_outcomes(request, plans, NAMES, compare=True)[0]
    assert outcome.kept
    assert ("to keep it, no partner repeats gave way (2 repeated partnerships tonight, 0 without "
            "this wish)") in outcome.words


def test_a_wish_that_cannot_be_kept_says_why():
    request, plans = _night(5, 5, [Wish("not_meet", 1, 2), Wish("fixed_seat", 3, table=3, seat=1)])
    meet, seat = wish_outcomes(request, plans, NAMES)
    assert not meet.kept and "had one table, so they meet unless one of them sits out" in meet.words
    assert not seat.kept and "there is only 1 table" in seat.words
    assert _check(request, plans, [meet, seat]).sound  # not kept, and the reason is given


def test_more_players_who_must_stay_seated_than_seats_is_named():
    request, plans = _night(5, 2, [Wish("no_sit_out", p) for p in range(1, 6)])
    words = [o.words for o in wish_outcomes(request, plans, NAMES) if not o.kept]
    assert words and "5 players must stay seated but the tables seat 4" in words[0]


def test_the_checker_refuses_a_wish_claimed_kept_that_the_seats_break():
    request, plans = _night(8, 2, [Wish("not_partners", 1, 2)])
    outcomes = wish_outcomes(request, plans, NAMES)
    file = checker_file(plans, request.players, outcomes)[0]
    table = file["rotations"][0]["tables"][0]
    a, b = table["sides"][0]
    file["wishes"] = [{"kind": "not_partners", "player": a, "other": b, "kept": True}]
    text = json.dumps(file)
    rotations, report = seating_from_json(text)
    check = seating_check(rotations, report=report, wishes=wishes_from_json(text))
    assert not check.sound
    assert any("is kept, but the seating breaks it (rotation 1)" in p for p in check.problems)
    file["wishes"] = [{"kind": "not_partners", "player": a, "other": b, "kept": False}]
    text = json.dumps(file)
    check = seating_check(rotations, report=report, wishes=wishes_from_json(text))
    assert any("the file does not say why" in p for p in check.problems)


def test_a_player_who_stays_seated_is_left_out_of_the_sit_out_fairness():
    request, plans = _night(5, 5, [Wish("no_sit_out", 1)])
    assert all(1 not in p.sit_out for p in plans)
    outcomes = wish_outcomes(request, plans, NAMES)
    assert _check(request, plans, outcomes).sound
    text = json.dumps({**checker_file(plans, request.players, outcomes)[0], "wishes": []})
    rotations, _ = seating_from_json(text)
    assert not seating_check(rotations).sound  # without the wish, the checker sees unfairness


@pytest.mark.django_db
class TestWishPages:
    @pytest.fixture
    def setup(self, client):
        membership = MembershipFactory(role="director")
        client.force_login(membership.user)
        season = SeasonFactory(league__club=membership.club)
        event = EventFactory(club=membership.club, season=season, status=Event.Status.REGISTRATION)
        ann = PlayerFactory(club=membership.club, name="Ann Lee")
        bob = PlayerFactory(club=membership.club, name="Bob Roy")
        return client, event, ann, bob

    def test_add_and_remove_wishes_by_name(self, setup):
        client, event, ann, bob = setup
        url = reverse("director-event-wishes", args=[event.slug])
        client.post(url, {"kind": "not_partners", "player": ann.pk, "other": bob.pk, "scope": "night"})
        client.post(url, {"kind": "fixed_seat", "player": ann.pk, "table_number": 1,
                          "seat_number": 2, "scope": "season"})
        page = client.get(url).content.decode()
        assert "Ann Lee and Bob Roy must not be partners" in page and "(this night)" in page
        assert "Ann Lee keeps table 1, seat 2 all night" in page
        assert "(every night of the season)" in page
        wish = SeatingWish.objects.get(kind="not_partners")
        client.post(reverse("director-event-wish-remove", args=[event.slug, wish.pk]))
        assert not SeatingWish.objects.filter(pk=wish.pk).exists()

    @pytest.mark.parametrize(("data", "words"), [
        ({"kind": "not_meet"}, "is a wish about two players"),
        ({"kind": "not_meet", "other": "same"}, "Choose two different players"),
        ({"kind": "fixed_seat"}, "Give the table (1 to 500) and the seat (1 to 6)"),
        ({"kind": "fixed_seat", "table_number": 1, "seat_number": 7}, "less than or equal to 6"),
    ])
    def test_a_wish_that_makes_no_sense_is_refused_in_words(self, setup, data, words):
        client, event, ann, _ = setup
        data = {"player": ann.pk, "scope": "night", **data}
        if data.get("other") == "same":
            data["other"] = ann.pk
        response = client.post(reverse("director-event-wishes", args=[event.slug]), data)
        assert response.status_code == 400
        assert words in response.content.decode()
        assert not SeatingWish.objects.exists()

    def test_the_same_wish_twice_is_refused(self, setup):
        _, event, ann, bob = setup
        seating_wish_add(kind="not_meet", player=ann, other=bob, event=event)
        with pytest.raises(Exception, match="That wish is there already"):
            seating_wish_add(kind="not_meet", player=bob, other=ann, event=event)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_at_a_single_table_a_pair_who_must_not_meet_is_split_by_the_sit_outs_when_fair(seed):
    request, plans = _night(7, 3, [Wish("not_meet", 1, 2)], seed=seed)
    assert all({1, 2} & set(plan.sit_out) for plan in plans)
    outcomes = wish_outcomes(request, plans, NAMES)
    assert outcomes[0].kept
    assert _check(request, plans, outcomes).sound  # sit-outs still differ by at most one


def test_check_seating_reads_the_wishes_of_a_file(tmp_path, capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    request, plans = _night(8, 2, [])
    file = checker_file(plans, request.players, [])[0]
    a, b = file["rotations"][0]["tables"][0]["seats"][:2]
    path = tmp_path / "night.json"
    path.write_text(json.dumps(file))
    call_command("check_seating", str(path))  # sound without wishes
    file["wishes"] = [{"kind": "not_meet", "player": a, "other": b, "kept": True}]
    path.write_text(json.dumps(file))
    with pytest.raises(CommandError, match="not sound"):
        call_command("check_seating", str(path))
    assert f"players {a} and {b} never sit at one table is kept, but the seating breaks it" in (
        capsys.readouterr().err)


def test_a_pair_wish_broken_by_two_fixed_seats_at_one_table_names_them():
    wishes = [Wish("fixed_seat", 1, table=1, seat=1), Wish("fixed_seat", 2, table=1, seat=2),
              Wish("not_meet", 1, 2)]
    request, plans = _night(8, 2, wishes)
    meet = wish_outcomes(request, plans, NAMES)[2]
    assert not meet.kept
    assert "both keep a seat at table 1 (their wishes to keep a seat come first)" in meet.words
