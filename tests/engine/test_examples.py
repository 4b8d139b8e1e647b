import json
import os
from pathlib import Path

import pytest

from games.engine import replay_log


def _shared() -> Path | None:
    env = os.environ.get("HANDFOOT_SHARED_DIR")
    path = Path(env) if env else Path(__file__).resolve().parents[2].parent / "shared"
    return path if (path / "spec" / "examples" / "expect.json").exists() else None


SHARED = _shared()
pytestmark = pytest.mark.skipif(
    SHARED is None,
    reason="shared/spec/examples not found beside the repo (set HANDFOOT_SHARED_DIR)",
)


def _expect() -> dict:
    return json.loads((SHARED / "spec" / "examples" / "expect.json").read_text())


LOGS = ["classic_stockout_game", "goes_out_with_yes", "below_minimum"]


@pytest.mark.parametrize("name", LOGS)
def test_example_log_outcome(name):
    expect = _expect()[name]
    report = replay_log((SHARED / "spec" / "examples" / f"{name}.json").read_bytes())
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
    report = replay_log((SHARED / "spec" / "examples" / "classic_stockout_game.json").read_text())
    assert report.totals == [-4155, -7705]
    d = report.to_dict()
    assert d["kind"] == "log" and d["error"] is None
    assert len(d["rounds"][0]["seats"]) == 4
