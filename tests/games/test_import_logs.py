"""manage.py import_logs: many move logs into an event's games, going on past bad files."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from games.models import Submission
from tests.games.factories import data_file, named_game, stockout_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return named_game()


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def run(*paths, event):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_logs", *paths, event=event.slug, stdout=out, stderr=err, verbosity=2)
    except CommandError as failure:
        return failure, out.getvalue(), err.getvalue()
    return None, out.getvalue(), err.getvalue()


def test_good_log_is_matched_by_seats_and_imported(tmp_path, game):
    failure, out, _ = run(
        write(tmp_path, "a.json", stockout_log()), event=game.table.rotation.event
    )
    assert failure is None
    assert "1 of 1 logs imported" in out
    submission = Submission.objects.get()
    assert (submission.game, submission.via, submission.entrant) == (game, "import", "import")
    game.refresh_from_db()
    assert game.status == "entered"


def test_importing_twice_does_not_enter_twice(tmp_path, game):
    path = write(tmp_path, "a.json", stockout_log())
    run(path, event=game.table.rotation.event)
    failure, out, _ = run(path, event=game.table.rotation.event)
    assert failure is None and "already imported" in out
    assert Submission.objects.count() == 1


def test_bad_files_are_reported_and_the_rest_imported(tmp_path, game):
    strangers = stockout_log() | {"seats": ["x1", "x2", "x3", "x4"]}
    illegal = data_file("below_minimum.json")
    paths = [
        write(tmp_path, "broken.json", "{not json"),
        write(tmp_path, "strangers.json", strangers),
        write(tmp_path, "illegal.json", illegal),
        write(tmp_path, "good.json", stockout_log()),
        str(tmp_path / "missing.json"),
    ]
    failure, out, err = run(*paths, event=game.table.rotation.event)
    assert failure is not None and "4 failed" in str(failure)
    assert "1 of 5 logs imported" in str(failure)
    assert "broken.json: BAD_FORMAT" in err
    assert "strangers.json: no table" in err
    assert "illegal.json: BELOW_MINIMUM" in err and "(round 1, event 1)" in err
    assert "missing.json: cannot read" in err
    assert Submission.objects.get().game == game


def test_game_hint_picks_the_game(tmp_path, game):
    from league.services.credentials import game_side_credentials, printed_code

    log = stockout_log() | {"game": printed_code(game_side_credentials(game=game)[1].code)}
    failure, _, _ = run(write(tmp_path, "a.json", log), event=game.table.rotation.event)
    assert failure is None
    assert Submission.objects.get().document.get("game") is None


def test_unknown_event_is_an_error(tmp_path, game):
    with pytest.raises(CommandError, match="No event"):
        call_command("import_logs", "x.json", event="nope")


def test_logs_are_imported_in_batches(tmp_path):
    from tests.games.factories import running_event

    event = running_event()
    for n in range(3):
        named_game(event=event, slugs=tuple(f"t{n}-s{i}" for i in range(4)), table_number=n + 1)
    for n in range(3):
        write(tmp_path, f"{n}.json", stockout_log() | {"seats": [f"t{n}-s{i}" for i in range(4)]})
    out = io.StringIO()
    call_command(
        "import_logs", str(tmp_path), event=event.slug, batch_size=2, stdout=out, verbosity=2
    )
    assert "3 of 3 logs imported" in out.getvalue()
    assert out.getvalue().count(": imported as submission") == 3
    assert Submission.objects.count() == 3


def test_a_batch_size_out_of_range_is_refused(tmp_path, game):
    with pytest.raises(CommandError, match="1 to 5000"):
        call_command("import_logs", "x.json", "--event", "e", "--batch-size", "0")


def test_a_number_of_workers_out_of_range_is_refused(tmp_path, game):
    with pytest.raises(CommandError, match="1 to 64"):
        call_command("import_logs", "x.json", "--event", "e", "--workers", "65")
