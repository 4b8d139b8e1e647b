"""Issue 22, finding 11 (a): slugs are transliterated, and finding a free one is one query
however many rows already share its base (200 CJK names pasted at once were quadratic)."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import services
from league.services._common import slug_base
from tests.factories import ClubFactory, EventFactory

pytestmark = pytest.mark.django_db

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
GIVEN = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂"


def cjk_names(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    names: set[str] = set()
    while len(names) < count:
        names.add(rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.randint(1, 2))))
    return sorted(names)


@pytest.mark.parametrize("name,slug", [
    ("Sørensen", "sorensen"), ("Åse Ødegård", "ase-odegard"), ("Straße", "strasse"),
    ("王小明", "wangxiaoming"), ("Владимир Иванов", "vladimir-ivanov"), ("Łukasz", "lukasz"),
])
def test_a_name_is_transliterated_into_its_slug(name, slug):
    club = ClubFactory()
    assert services.player_create(club=club, name=name).slug == slug


def test_a_name_with_nothing_to_transliterate_gets_a_numbered_player_slug():
    club = ClubFactory()
    first = services.player_create(club=club, name="\u200b\u200b")
    second = services.player_create(club=club, name="\u200b")
    assert (first.slug, second.slug) == ("player", "player-2")


def test_a_club_with_such_a_name_is_club():
    assert slug_base("!!!", fallback="club") == "club"


def test_the_same_name_again_gets_the_next_number_after_the_highest():
    club = ClubFactory()
    slugs = [services.player_create(club=club, name="Ann Lee").slug for _ in range(3)]
    services.player_create(club=club, name="Ann Lee 7")  # "ann-lee-7" is a name, not a repeat
    assert slugs == ["ann-lee", "ann-lee-2", "ann-lee-3"]
    assert services.player_create(club=club, name="Ann Lee").slug == "ann-lee-8"


def _queries_to_add(club, name: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        services.player_create(club=club, name=name)
    return len(queries)


def test_finding_a_free_slug_costs_the_same_queries_with_2_or_150_clashes():
    club = ClubFactory()
    for _ in range(2):
        services.player_create(club=club, name="\u200b")
    few = _queries_to_add(club, "\u200b")
    for _ in range(150):
        services.player_create(club=club, name="\u200b")
    many = _queries_to_add(club, "\u200b")
    assert few == many == 2  # one to find the slug, one to insert


def test_200_cjk_names_pasted_at_once_cost_the_same_queries_per_name_as_20():
    club = ClubFactory()

    def per_name(count: int, seed: int) -> float:
        event = EventFactory(club=club)
        names = cjk_names(count, seed)
        with CaptureQueriesContext(connection) as queries:
            entered = services.registration_add_players(event=event, choices=names)
        assert len(entered) == count
        return len(queries) / count

    small, large = per_name(20, seed=1), per_name(200, seed=2)
    assert large <= small
    slugs = list(club.players.values_list("slug", flat=True))
    assert len(slugs) == len(set(slugs)) and all(s.isascii() for s in slugs)
