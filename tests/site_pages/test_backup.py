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
from league.models import Club, Event, Game, Player, Seat, SitOut, Substitution
from site_pages.backup import club_import
from site_pages.demo import build_demo
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


G = "game__table__rotation__event__slug", "game__table__rotation__number", "game__table__number"


def picture(club_id):
    """Everything a restore must give back, by stable keys (never database ids: a restore gives
    every row a new one)."""
    games = {g.pk: (g.table.rotation.event.slug, g.table.rotation.number, g.table.number)
             for g in Game.objects.filter(table__rotation__event__club_id=club_id)
             .select_related("table__rotation__event")}
    events = dict(Event.objects.filter(club_id=club_id).values_list("pk", "slug"))
    players = dict(Player.objects.filter(club_id=club_id).values_list("pk", "slug"))
    return {
        "players": sorted(Player.objects.filter(club_id=club_id).values_list("slug", "name")),
        "events": sorted(Event.objects.filter(club_id=club_id).values_list("slug", "status")),
        "seats": Seat.objects.filter(rotation__event__club_id=club_id).count(),
        "games": sorted((games[pk], status, code) for pk, status, code in Game.objects.filter(
            table__rotation__event__club_id=club_id).values_list("pk", "status", "first_dealer")),
        "submissions": sorted(Submission.objects.filter(game__table__rotation__event__club_id=club_id)
                              .values_list(*G, "entrant", "idempotency_key", "created_at")),
        "versions": sorted(ResultVersion.objects.filter(game__table__rotation__event__club_id=club_id)
                           .values_list(*G, "number", "status", "totals", "reason",
                                        "based_on__number", "entered_by", "confirmed_by"), key=repr),
        "round results": sorted(RoundResult.objects.filter(
            game__table__rotation__event__club_id=club_id).values_list(
            *G, "round_number", "side", "score")),
        "standings": sorted(((events.get(s.event_id), s.season.name if s.season_id else None,
                              s.games, json.dumps(_slugged(s.rows, players), sort_keys=True))
                             for s in StandingsSnapshot.objects.all()), key=repr),
        "ratings": sorted((players[p], mu, sigma, ordinal, n) for p, mu, sigma, ordinal, n in
                          PlayerRating.objects.filter(club_id=club_id)
                          .values_list("player_id", "mu", "sigma", "ordinal", "games")),
        "statistics": PlayerStats.objects.filter(club_id=club_id).count(),
    }


def _slugged(rows, players):
    """Standings rows with player ids (`key` "p<id>", `players`) replaced by slugs."""
    out = []
    for row in rows:
        row = dict(row)
        key = str(row.get("key", ""))
        if key.startswith("p") and key[1:].isdigit():
            row["key"] = players.get(int(key[1:]), key)
        row["players"] = [players.get(p, p) for p in row.get("players", [])]
        out.append(row)
    return out


def empty_the_database():
    """Seats, sit-outs and substitutions protect their players; then the clubs and everything of
    them go."""
    Seat.objects.all().delete()
    SitOut.objects.all().delete()
    Substitution.objects.all().delete()
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
    call_command("import_club", path, "--link-accounts", stdout=io.StringIO())

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

    club = club_import(data=data, link_accounts=True).club
    highest = max(o["pk"] for o in data["objects"] if o["model"] == "league.player")
    assert Player.objects.create(club=club, name="New", slug="new-player").pk > highest


# --- issue 22, finding 4: a restore cannot take over a site


def exported(club) -> dict:
    out = io.StringIO()
    call_command("export_club", club.slug, stdout=out)
    return json.loads(out.getvalue())


def run_import(tmp_path, data, *args) -> str:
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("import_club", str(path), *args, stdout=out)
    return out.getvalue()


def site_rows() -> dict:
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    users = get_user_model().objects
    return {"clubs": sorted(Club.objects.values_list("pk", "slug", "name")),
            "players": sorted(Player.objects.values_list("pk", "club_id", "name")),
            "users": sorted(users.values_list("username", "password", "is_staff", "is_superuser")),
            "tokens": sorted(AuthToken.objects.values_list("digest", "user_id"))}


def test_restore_into_a_site_with_other_clubs_leaves_them_untouched(tmp_path):
    demo = build_demo()
    data = exported(demo.club)
    empty_the_database()
    other = ClubFactory(name="Hilltop Club")
    kept = [PlayerFactory(club=other, name=f"Hill {i}") for i in range(3)]
    # The file's ids are the other club's own: a restore must not write over them.
    taken = {"league.club": other.pk, "league.player": [p.pk for p in kept]}
    for item in data["objects"]:
        if item["model"] == "league.club":
            item["pk"] = taken["league.club"]
    players = [i for i in data["objects"] if i["model"] == "league.player"]
    for item, pk in zip(players, taken["league.player"], strict=False):
        old = item["pk"]
        item["pk"] = pk
        for ref in data["objects"]:
            for name in ("player", "player_a", "player_b"):
                if ref["fields"].get(name) == old and ref["model"] != "league.player":
                    ref["fields"][name] = f"moved-{pk}"
        for ref in data["objects"]:
            for name in ("player", "player_a", "player_b"):
                if ref["fields"].get(name) == f"moved-{pk}":
                    ref["fields"][name] = pk
    for item in data["objects"]:
        if item["model"] != "league.club" and item["fields"].get("club") is not None:
            item["fields"]["club"] = other.pk
    before = site_rows()

    out = run_import(tmp_path, data, "--link-accounts")

    restored = Club.objects.get(slug=demo.club.slug)
    assert restored.pk != other.pk
    after = site_rows()
    assert [c for c in after["clubs"] if c[0] == other.pk] == [c for c in before["clubs"]
                                                                if c[0] == other.pk]
    assert sorted(p for p in after["players"] if p[1] == other.pk) == \
        sorted(p for p in before["players"] if p[1] == other.pk)
    assert Player.objects.filter(club=restored).count() == len(players)
    assert "Restored" in out


@pytest.mark.parametrize("attack", ["superuser", "token", "old-token", "rename", "password",
                                    "session"])
def test_a_hostile_file_creates_none_of_it(tmp_path, attack):
    demo = build_demo()
    data = exported(demo.club)
    empty_the_database()
    other = ClubFactory(name="Hilltop Club")
    victim = UserFactory(username="victim")
    before = site_rows()
    if attack == "superuser":
        data["objects"].append({"model": "auth.user", "pk": 9000, "fields": {
            "username": "evil", "is_superuser": True, "is_staff": True,
            "password": "pbkdf2_sha256$1000000$salt$hash"}})
        words = "auth.user"
    elif attack == "token":
        data["objects"].append({"model": "knox.authtoken", "pk": "f" * 128, "fields": {
            "user": victim.pk, "token_key": "f" * 15, "expiry": None,
            "created": "2026-01-01T00:00:00Z"}})
        words = "knox.authtoken"
    elif attack == "old-token":  # rest_framework.authtoken's, from before tokens expired
        data["objects"].append({"model": "authtoken.token", "pk": "f" * 40, "fields": {
            "user": victim.pk, "created": "2026-01-01T00:00:00Z"}})
        words = "authtoken.token"
    elif attack == "rename":
        data["objects"].append({"model": "league.club", "pk": other.pk, "fields": {
            "name": "Owned", "slug": other.slug, "description": ""}})
        words = "exactly one club"
    elif attack == "password":
        data["users"][0]["password"] = "pbkdf2_sha256$1000000$salt$hash"
        data["users"][0]["is_superuser"] = True
        words = "'is_superuser', 'password'"
    else:
        data["objects"].append({"model": "sessions.session", "pk": "k" * 32, "fields": {
            "session_data": "x", "expire_date": "2030-01-01T00:00:00Z"}})
        words = "sessions.session"
    with pytest.raises(CommandError) as refused:
        run_import(tmp_path, data, "--link-accounts")
    assert words in str(refused.value) and "Nothing was restored" in str(refused.value)
    assert site_rows() == before
    assert not Club.objects.filter(slug=demo.club.slug).exists()


def test_accounts_are_never_created_with_a_password_or_admin_rights(tmp_path):
    demo = build_demo()
    data = exported(demo.club)
    empty_the_database()
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username__in=["director", "scorer"]).delete()
    out = run_import(tmp_path, data)
    director = get_user_model().objects.get(username="director")
    assert not director.has_usable_password()
    assert not director.is_staff and not director.is_superuser
    assert ".venv/bin/python manage.py changepassword director" in out
    assert "Next steps" in out


def test_an_existing_username_needs_consent_to_be_linked(tmp_path):
    demo = build_demo()
    data = exported(demo.club)
    empty_the_database()
    with pytest.raises(CommandError, match="--link-accounts"):
        run_import(tmp_path, data)
    assert not Club.objects.filter(slug=demo.club.slug).exists()
    out = run_import(tmp_path, data, "--link-accounts")
    assert "attached to this site's accounts" in out


def test_a_dry_run_says_what_it_would_make_and_stores_nothing(tmp_path):
    demo = build_demo()
    data = exported(demo.club)
    empty_the_database()
    before = site_rows()
    out = run_import(tmp_path, data, "--link-accounts", "--dry-run")
    assert "Dry run, nothing stored" in out
    assert f"{len([o for o in data['objects'] if o['model'] == 'league.player'])} players" in out
    assert site_rows() == before
    assert not Game.objects.exists()


def test_new_ids_are_never_the_files(tmp_path):
    demo = build_demo()
    data = exported(demo.club)
    empty_the_database()
    club = club_import(data=data, link_accounts=True).club
    file_ids = {o["pk"] for o in data["objects"] if o["model"] == "league.player"}
    assert not file_ids & set(Player.objects.filter(club=club).values_list("pk", flat=True))


def test_restored_history_keeps_its_words_but_is_not_undone_with_the_old_sites_ids():
    from league.models import AuditEntry
    from league.services.undo import audit_undo_refusal, audit_undoable

    demo = build_demo(past_nights=1)
    words = sorted(AuditEntry.objects.filter(club=demo.club).values_list("summary", flat=True))
    assert words
    export = json.loads(_exported(demo.club.slug))
    empty_the_database()
    club = club_import(data=export, link_accounts=True).club
    restored = AuditEntry.objects.filter(club=club)
    assert sorted(restored.values_list("summary", flat=True)) == words
    for entry in restored:
        assert not audit_undoable(entry=entry)
        assert audit_undo_refusal(entry=entry).startswith("This line was restored from a backup")


def _exported(slug: str) -> str:
    out = io.StringIO()
    call_command("export_club", slug, stdout=out)
    return out.getvalue()
