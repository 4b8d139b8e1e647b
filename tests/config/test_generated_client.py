"""Issue 17: the API works from a client generated from its own OpenAPI schema.

The live schema is fetched from a running server, a client is generated from it with
openapi-python-client (once per module), every module of it must import, and a scripted club
night runs through it against the live server: a director's token, an event, eight players
registered and checked in, a rotation seated and started, one table's four score sheets entered
with one side's credential and confirmed with the other's, and the event's standings read back.
Every call of the session goes through the generated client.
"""

from __future__ import annotations

import datetime
import importlib
import json
import pkgutil
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate

from tests.factories import UserFactory
from tests.games.factories import sheet

PACKAGE = "hf_league_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
# No post hooks: the generator would run ruff over the package (slow, and nothing to check).
CONFIG = f"project_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\npost_hooks: []\n"
PASSWORD = "pass-word-123"  # tests.factories.UserFactory's

# What the scripted session calls, by operationId (the generated client's module names).
SESSION_OPERATIONS = {
    "auth_token_create", "clubs_create", "players_create", "events_create",
    "events_status_create", "registrations_create", "registrations_check_in_create",
    "rotations_generate_create", "rotations_start_create", "games_list", "sheets_check_create",
    "results_submissions_create", "results_retrieve", "results_confirmations_create",
    "standings_events_retrieve",
}


@pytest.fixture(scope="module")
def schema(live_server, django_db_blocker) -> dict[str, Any]:
    """The schema as the running server publishes it."""
    with django_db_blocker.unblock():
        response = httpx.get(f"{live_server.url}/api/schema/?format=json", timeout=60)
    assert response.status_code == 200, response.text[:500]
    return response.json()


@pytest.fixture(scope="module")
def client_package(schema, tmp_path_factory) -> ModuleType:
    """The client openapi-python-client generates from the live schema, importable by name."""
    work = tmp_path_factory.mktemp("generated-client")
    (work / "schema.json").write_text(json.dumps(schema))
    (work / "config.yaml").write_text(CONFIG)
    generated = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(work / "schema.json"),
         "--config", str(work / "config.yaml"), "--meta", "none",
         "--output-path", str(work / PACKAGE)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    # The generator names what it could not turn into code as warnings (and skips it).
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(work))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(work))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def operation_ids(schema: dict[str, Any]) -> set[str]:
    return {op["operationId"] for path in schema["paths"].values() for op in path.values()}


def test_the_live_schema_is_valid_openapi(schema):
    validate(schema)


def test_every_module_of_the_generated_client_imports(client_package, schema):
    failed, endpoints = {}, set()
    for module in pkgutil.walk_packages(client_package.__path__, f"{PACKAGE}."):
        try:
            imported = importlib.import_module(module.name)
        except Exception as error:  # collected, to show every failure at once
            failed[module.name] = repr(error)
            continue
        if ".api." in module.name and hasattr(imported, "sync_detailed"):
            endpoints.add(module.name.rsplit(".", 1)[1])
    assert failed == {}
    # One module per operation, each with the functions a script calls.
    assert endpoints == operation_ids(schema)


class Session(ExitStack):
    """Calls operations of the generated client by operationId, keeping which were used. Its
    clients are closed with it: an open keep-alive connection would keep a server thread, and
    its database connection, alive past the test."""

    def __init__(self, package: ModuleType, base_url: str) -> None:
        super().__init__()
        self.package = package
        self.base_url = base_url
        self.models = importlib.import_module(f"{PACKAGE}.models")
        self.modules = {
            m.name.rsplit(".", 1)[1]: m.name
            for m in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.") if ".api." in m.name
        }
        self.used: list[str] = []

    def anonymous(self) -> Any:
        return self.enter_context(self.package.Client(base_url=self.base_url, timeout=60))

    def with_token(self, token: str) -> Any:
        return self.enter_context(self.package.AuthenticatedClient(
            base_url=self.base_url, token=token, prefix="Token", timeout=60))

    def call(self, operation: str, *, expect: int = 200, **kwargs: Any) -> Any:
        """The parsed body of one call, which must answer `expect`."""
        self.used.append(operation)
        response = importlib.import_module(self.modules[operation]).sync_detailed(**kwargs)
        assert response.status_code == expect, (operation, response.status_code,
                                                response.content[:1000])
        return response.parsed


def token_of(link: Any) -> str:
    """A side's table link is /play/<token>/: the token is what X-Entry-Token carries."""
    return link.url.rstrip("/").rsplit("/", 1)[1]


@pytest.mark.django_db(transaction=True)
def test_a_club_night_scripted_through_the_generated_client(client_package, live_server, schema):
    UserFactory(username="dora")  # an account; the club it directs is made through the API
    with Session(client_package, live_server.url) as api:
        night = club_night(api, api.models)
        assert set(api.used) == SESSION_OPERATIONS
        read_back(api, api.models, night, schema)


def club_night(api: Session, m: ModuleType) -> dict[str, Any]:
    """The scripted night; returns what it made, for reading back."""

    token = api.call("auth_token_create", client=api.anonymous(),
                     body=m.AuthTokenRequest(username="dora", password=PASSWORD)).token
    director = api.with_token(token)

    club = api.call("clubs_create", expect=201, client=director,
                    body=m.ClubRequest(name="Thursday Club"))
    players = [
        api.call("players_create", expect=201, client=director,
                 body=m.PlayerRequest(club=club.id, name=name))
        for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
    ]
    event = api.call("events_create", expect=201, client=director, body=m.EventRequest(
        club=club.id, name="Club night", date=datetime.date(2026, 12, 3), table_sizes=[4],
        planned_rotations=1, seed=7))
    assert (event.status, event.rules_preset) == (m.EventStatusEnum.DRAFT, "classic")
    api.call("events_status_create", client=director, id=event.id,
             body=m.EventStatusRequest(status="registration"))
    for player in players:
        registration = api.call("registrations_create", expect=201, client=director,
                                body=m.RegistrationRequest(event=event.id, player=player.id))
        checked = api.call("registrations_check_in_create", client=director, id=registration.id,
                           body=m.CheckInRequest(checked_in=True))
        assert checked.checked_in is True
    running = api.call("events_status_create", client=director, id=event.id,
                       body=m.EventStatusRequest(status="running"))
    assert running.status == m.EventStatusEnum.RUNNING

    rotation = api.call("rotations_generate_create", expect=201, client=director,
                        body=m.GenerateRotationRequest(event=event.id))
    assert [len(table.seats) for table in rotation.tables] == [4, 4]
    started = api.call("rotations_start_create", client=director, id=rotation.id)
    assert started.status == m.RotationStatusEnum.STARTED

    games = api.call("games_list", client=director, event=event.id, rotation=1).results
    game = next(g for g in games if g.table == 1)
    links = {link.side: link for link in game.entry_links}
    assert sorted(links) == [0, 1] and all(len(link.code) == 7 for link in links.values())
    sides = {side: {s.player for s in game.seats if s.side == side} for side in links}

    # A side's score sheets (the event's classic rules), checked first: anonymous, nothing
    # stored, and outside an event, so the sheet names its rules ...
    sheets = [sheet(n) for n in (1, 2, 3, 4)]
    report = api.call("sheets_check_create", client=api.anonymous(),
                      body=m.SheetsCheckCreateBody.from_dict({**sheets[0], "rules": "classic"}))
    assert (report.valid, report.totals) == (True, [3855, 615])

    # ... refused when the body's side is not the link's ...
    side_0, side_1 = api.anonymous(), api.anonymous()
    refused = api.call("results_submissions_create", expect=403, client=side_0, game_id=game.id,
                       x_entry_token=token_of(links[0]), idempotency_key="night-1-mismatch",
                       body=m.SubmissionInputRequest(
                           document=m.SubmissionInputRequestDocument.from_dict(sheets[0]),
                           side=1))
    assert isinstance(refused, m.Error) and refused.error.code == "SIDE_MISMATCH"

    # ... entered with side 1's credential (sides are 0-based in the API) ...
    for n, document in enumerate(sheets, start=1):
        entered = api.call("results_submissions_create", expect=201, client=side_0,
                           game_id=game.id, x_entry_token=token_of(links[0]),
                           idempotency_key=f"night-1-table-1-round-{n}",
                           body=m.SubmissionInputRequest(
                               document=m.SubmissionInputRequestDocument.from_dict(document)))
        assert entered.replayed is False
        assert entered.submission.entrant == f"game:{game.id}:side:0"
        assert entered.submission.totals == [3855, 615]

    # ... and confirmed with the other side's.
    detail = api.call("results_retrieve", client=director, game_id=game.id)
    [version] = detail.versions
    assert (version.status, version.totals) == (m.ResultVersionStatusEnum.ENTERED, [15420, 2460])
    confirmed = api.call("results_confirmations_create", client=side_1, game_id=game.id,
                         x_entry_token=token_of(links[1]),
                         body=m.ConfirmationInputRequest(version=version.number))
    assert confirmed.status == m.ResultVersionStatusEnum.CONFIRMED
    assert confirmed.confirmed_by == f"game:{game.id}:side:1"

    standings = api.call("standings_events_retrieve", client=api.anonymous(), slug=event.slug)
    assert standings.games == 1
    played = {tuple(row.players): row for row in standings.rows}
    for side, total in ((0, 15420), (1, 2460)):
        rows = [row for key, row in played.items() if set(key) <= sides[side]]
        assert rows and all((r.games, r.total_points) == (1, total) for r in rows), standings
    assert {row.name for row in standings.rows if row.wins} == {
        p.name for p in players if p.id in sides[0]}
    return {"token": director.token, "club": club, "players": players, "event": event,
            "registration": registration, "rotation": rotation, "game": game}


def read_back(api: Session, m: ModuleType, night: dict[str, Any], schema: dict) -> None:
    """Every read of the API, through the client, parses into its typed model (a league, a
    season and a partnership made first, so that none of them reads nothing)."""
    director = api.with_token(night["token"])
    club, (player, partner) = night["club"], night["players"][:2]
    league = api.call("leagues_create", expect=201, client=director,
                      body=m.LeagueRequest(club=club.id, name="Thursday League"))
    season = api.call("seasons_create", expect=201, client=director, body=m.SeasonRequest(
        league=league.id, name="Winter", starts_on=datetime.date(2026, 12, 1)))
    partnership = api.call("partnerships_create", expect=201, client=director,
                           body=m.PartnershipRequest(club=club.id, player_a=player.id,
                                                     player_b=partner.id))
    ids = {
        "clubs": club.id, "events": night["event"].id, "games": night["game"].id,
        "players": player.id, "registrations": night["registration"].id,
        "rotations": night["rotation"].id, "leagues": league.id, "seasons": season.id,
        "partnerships": partnership.id,
    }
    arguments = {
        "results_retrieve": {"game_id": night["game"].id},
        "standings_events_retrieve": {"slug": night["event"].slug},
        "standings_seasons_retrieve": {"season_id": season.id},
        "ratings_players_retrieve": {"player_id": player.id},
        "statistics_players_retrieve": {"player_id": player.id},
    }
    reads = [(path, op["operationId"]) for path, methods in schema["paths"].items()
             for method, op in methods.items() if method == "get"]
    # The night's game was entered by score sheets: it has no move log to replay.
    refused = api.call("results_replay_retrieve", expect=404, client=director,
                       game_id=night["game"].id)
    assert refused.error.code == "NO_MOVE_LOG"
    for path, operation in reads:
        if operation == "results_replay_retrieve":
            continue
        kwargs = arguments.get(operation, {"id": ids[path.split("/")[2]]} if "{id}" in path else {})
        parsed = api.call(operation, client=director, **kwargs)
        assert parsed is not None and not isinstance(parsed, m.Error), operation
    assert len(reads) > 25
