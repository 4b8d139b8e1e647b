"""Backup and restore: `export_club SLUG > club.json` then `import_club club.json` into an empty
database give back the same players, events, seating, submissions and versions (with history),
and the same standings and ratings, exactly."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from analytics.models import PlayerRating, PlayerStats, StandingsSnapshot
from analytics.services import club_recompute
from games.models import ResultVersion, RoundResult, Submission
from league.models import Club, Event, Game, Player, Seat, SitOut
from site_pages.demo import build_demo

pytestmark = pytest.mark.django_db


def picture(club_id):
    """Everything a restore must give back, by stable keys."""
    return {
        "players": sorted(Player.objects.filter(club_id=club_id).values_list("slug", "name")),
        "events": sorted(Event.objects.filter(club_id=club_id).values_list("slug", "status")),
        "seats": Seat.objects.filter(rotation__event__club_id=club_id).count(),
        "games": sorted(Game.objects.filter(table__rotation__event__club_id=club_id)
                        .values_list("pk", "status", "entry_code")),
        "submissions": sorted(Submission.objects.filter(game__table__rotation__event__club_id=club_id)
                              .values_list("pk", "entrant", "idempotency_key", "created_at")),
        "versions": sorted(ResultVersion.objects.filter(game__table__rotation__event__club_id=club_id)
                           .values_list("pk", "number", "status", "totals", "reason",
                                        "based_on_id", "entered_by", "confirmed_by"), key=repr),
        "round results": sorted(RoundResult.objects.filter(
            game__table__rotation__event__club_id=club_id).values_list(
            "game_id", "round_number", "side", "score")),
        "standings": sorted(((s.event_id, s.season_id, s.games, json.dumps(s.rows, sort_keys=True))
                             for s in StandingsSnapshot.objects.all()), key=repr),
        "ratings": sorted(PlayerRating.objects.filter(club_id=club_id)
                          .values_list("player_id", "mu", "sigma", "ordinal", "games")),
        "statistics": PlayerStats.objects.filter(club_id=club_id).count(),
    }


def empty_the_database():
    """Seats and sit-outs protect their players; then the clubs and everything of them go."""
    Seat.objects.all().delete()
    SitOut.objects.all().delete()
    Club.objects.all().delete()


def test_export_then_import_into_an_empty_database_gives_the_same_club():
    demo = build_demo(past_nights=2)
    club_recompute(club_id=demo.club.pk)
    before = picture(demo.club.pk)
    assert before["versions"] and before["ratings"] and before["standings"]

    out = io.StringIO()
    call_command("export_club", demo.club.slug, stdout=out)
    export = json.loads(out.getvalue())
    assert export["format"] == "hand-and-foot-club-export/1"
    assert not any(o["model"].startswith("analytics.") for o in export["objects"])

    empty_the_database()
    assert not Game.objects.exists() and not StandingsSnapshot.objects.exists()

    path = f"/tmp/club-{demo.club.slug}-{id(export)}.json"
    with open(path, "w") as file:
        file.write(out.getvalue())
    call_command("import_club", path, stdout=io.StringIO())

    club = Club.objects.get(slug=demo.club.slug)
    assert picture(club.pk) == before


def test_import_refuses_a_club_that_is_already_there(tmp_path):
    demo = build_demo()
    out = io.StringIO()
    call_command("export_club", demo.club.slug, stdout=out)
    path = tmp_path / "club.json"
    path.write_text(out.getvalue())
    with pytest.raises(CommandError, match="already here"):
        call_command("import_club", str(path))


def test_import_refuses_a_file_that_is_not_an_export(tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"format": "something-else"}')
    with pytest.raises(CommandError, match="not a club export"):
        call_command("import_club", str(path))


def test_new_rows_after_a_restore_get_new_ids():
    demo = build_demo()
    out = io.StringIO()
    call_command("export_club", demo.club.slug, stdout=out)
    data = json.loads(out.getvalue())
    empty_the_database()
    from site_pages.backup import club_import

    club = club_import(data=data)
    highest = max(o["pk"] for o in data["objects"] if o["model"] == "league.player")
    assert Player.objects.create(club=club, name="New", slug="new-player").pk > highest
