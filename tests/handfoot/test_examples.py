import json

import pytest

from handfoot import replay_log
from tests.conftest import EXAMPLES_DIR

EXAMPLES = EXAMPLES_DIR  # the spec's examples, kept beside the tests


def _expect() -> dict:
    return json.loads((EXAMPLES / "expect.json").read_text())


LOGS = ["classic_stockout_game", "goes_out_with_yes", "below_minimum"]


@pytest.mark.parametrize("name", LOGS)
def test_example_log_outcome(name):
    expect = _expect()[name]
    report = replay_log((EXAMPLES / f"{name}.json").read_bytes())
    assert report.valid is expect["valid"]
    if not expect["valid"]:
        err = report.error.to_dict()
        assert (err["code"], err["round"], err["event"]) == (
            expect["code"],
            expect["round"],
            expect["event"],
        )
        return
    assert [r.scores for r in report.rounds] == expect["scores"]
    assert [r.ended_by for r in report.rounds] == expect["ended_by"]
    if "totals" in expect:
        assert report.totals == expect["totals"]


def test_example_totals_known_figures():
    report = replay_log((EXAMPLES / "classic_stockout_game.json").read_text())
    assert report.totals == [-4155, -7705]
    d = report.to_dict()
    assert d["kind"] == "log" and d["error"] is None
    assert len(d["rounds"][0]["seats"]) == 4
