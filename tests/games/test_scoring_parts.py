"""Issue 24: the parts of a side's round score are declared once (`handfoot.rules.SIDE_PARTS`);
the stored columns, the sheet form, the table's words, the figures two entries must agree on
and the results API follow that declaration."""

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from games.api.serializers import SideScoreSerializer
from games.forms import SheetForm
from games.models import RoundResult
from games.selectors import FIGURE_WORDS, SideSeats
from games.services import SIDE_FIGURES
from games.wording import FIELD_WORDS
from handfoot.checking import check_document
from handfoot.rules import ENTERED_PARTS, PRESETS, SIDE_PARTS, PartKind, parts_paid, parts_scored
from tests.games.factories import SEED_SIDES

COLUMN_OF_KIND = {
    PartKind.COUNT: models.PositiveSmallIntegerField,
    PartKind.POINTS: models.IntegerField,
    PartKind.YES_NO: models.BooleanField,
}


def test_every_part_a_scorer_writes_has_its_stored_column_holding_its_range():
    ranges = BaseDatabaseOperations.integer_field_ranges
    for part in ENTERED_PARTS:
        column = RoundResult._meta.get_field(part.name)
        assert type(column) is COLUMN_OF_KIND[part.kind], part.name
        if part.kind != PartKind.YES_NO:
            low, high = ranges[column.get_internal_type()]
            assert low <= part.minimum <= part.maximum <= high, part.name


def test_the_sheet_form_has_one_field_per_part_and_side_in_the_declared_order():
    form = SheetForm(sides=[SideSeats(0, ["Ann", "Cat"]), SideSeats(1, ["Ben", "Dan"])],
                     rules=PRESETS["classic"])
    asked = parts_paid(PRESETS["classic"])  # every part the rules pay for, in the declared order
    assert [p for p in ENTERED_PARTS if not p.only_with] == [p for p in asked if not p.only_with]
    for side, fields in form.side_fields():
        assert [f.name for f in fields] == [f"side{side.side}_{p.name}" for p in asked]
        assert [f.label for f in fields] == [p.words for p in asked]
    counts = [p for p in ENTERED_PARTS if p.kind == PartKind.COUNT]
    assert all(form.fields[f"side0_{p.name}"].max_value == p.maximum for p in counts)


def test_the_sheet_form_asks_only_for_what_the_events_rules_score_and_sends_the_rest_as_none():
    canasta = PRESETS["canasta"]  # no melds of wilds, red 3s not laid
    sides = [SideSeats(0, ["Ann", "Cat"]), SideSeats(1, ["Ben", "Dan"])]
    asked = [p.name for p in parts_scored(canasta)]
    assert "wild_books" not in asked and "red_threes" not in asked
    typed = {"idempotency_key": "k" * 32, "round": "1", "ended_by": "went_out"}
    for side, (clean, table, out) in enumerate(((2, 1800, True), (1, 500, False))):
        typed |= {f"side{side}_clean_books": clean, f"side{side}_dirty_books": 2 - side * 2,
                  f"side{side}_table_points": table, f"side{side}_held_points": 0,
                  f"side{side}_went_out": "on" if out else ""}
    form = SheetForm(typed, sides=sides, rules=canasta)
    assert [f.name for f in form.side_fields()[0][1]] == [f"side0_{name}" for name in asked]
    assert form.is_valid(), form.errors
    sheet = form.sheet()
    assert [side["wild_books"] for side in sheet["sides"]] == [0, 0]
    assert [side["red_threes"] for side in sheet["sides"]] == [0, 0]
    assert [side["clean_books"] for side in sheet["sides"]] == [2, 1]
    assert check_document({**sheet, "rules": "canasta"}).valid


def test_the_words_and_the_compared_figures_follow_the_declaration():
    names = [p.name for p in ENTERED_PARTS]
    assert [name for name, _ in FIGURE_WORDS] == [*names, "score"]
    assert all(FIELD_WORDS[p.name] == p.words.lower() for p in ENTERED_PARTS)
    assert tuple(SIDE_FIGURES) == ("score", *names)


def test_the_engines_report_and_the_api_name_every_part_in_the_declared_order():
    sheet = {
        "format": "hand-and-foot-sheet/1",
        "rules": "classic",
        "round": 1,
        "ended_by": "went_out",
        "sides": SEED_SIDES,
    }
    side = check_document(sheet).to_dict()["rounds"][0]["sides"][0]
    assert list(side) == ["score", "books", *(p.name for p in SIDE_PARTS)]
    assert list(SideScoreSerializer().fields) == list(side)
    assert SideScoreSerializer(side).data == side


def test_a_round_stored_before_a_part_was_declared_agrees_with_one_at_its_default():
    from games.services.documents import round_differences

    sheet = {"format": "hand-and-foot-sheet/1", "rules": "classic", "round": 1,
             "ended_by": "went_out", "sides": SEED_SIDES}
    now = check_document(sheet).to_dict()["rounds"][0]
    older = {**now, "sides": [dict(side) for side in now["sides"]]}
    for part in ENTERED_PARTS:  # the second side's parts at their default, as if never stored
        if older["sides"][1][part.name] == part.default:
            del older["sides"][1][part.name]
    assert round_differences(now, older) == []
