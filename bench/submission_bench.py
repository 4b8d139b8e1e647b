"""What one submitted result costs along the table page and the API (issue 24, finding 2).

Run: .venv/bin/python bench/submission_bench.py [--games 7]   (part of `make bench`)
     DATABASE_URL=postgres://postgres@127.0.0.1:5432/hf_b .venv/bin/python bench/submission_bench.py

Creates a test database (SQLite in memory, or `test_<name>` on DATABASE_URL's server), then per
game enters the four rounds of a classic game for side 1 and the same four for side 2 (the last
one confirms the result and projects it), once through the table page (`POST
/play/<token>/sheet/` and the page its redirect shows) and once through the API (`POST
/api/results/<id>/submissions/` with the side's `X-Entry-Token`). For every submission it counts
the SQL queries, the builds of "this game's table", the rule-set parses
(`handfoot.rules.rules_from_spec`), the "who is entering" decisions (`entrant_for`) and the
wall-clock time, and prints the median and the largest of each. The analytics recompute that a
confirmed result asks for after commit is a Celery job, not part of the request: its receivers
are disconnected here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import logging  # noqa: E402

import django  # noqa: E402

django.setup()
logging.disable(logging.WARNING)

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

# What is counted: (label, module, name). Whichever of the names exists is wrapped (the table
# was built by `games.services.documents.game_table`, then by the selector `games.selectors.
# game_table`); every module holding a reference to the same function gets the counting one.
COUNTED = [
    ("table builds", "games.selectors", "game_table"),
    ("table builds", "games.services.documents", "game_table"),
    ("rule parses", "handfoot.rules", "rules_from_spec"),
    ("entrant decisions", "games.services.entrants", "entrant_for"),
]
calls: Counter[str] = Counter()


def _counting(label: str, func: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[label] += 1
        return func(*args, **kwargs)

    counted.__wrapped__ = func  # type: ignore[attr-defined]  # for introspection only
    return counted


def install_counters() -> None:
    import importlib

    seen = set()
    for label, module_name, name in COUNTED:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        func = getattr(module, name, None)
        if func is None or id(func) in seen or hasattr(func, "__wrapped__"):
            continue  # the same function under another name is counted once
        seen.add(id(func))
        wrapper = _counting(label, func)
        for mod in list(sys.modules.values()):
            namespace = getattr(mod, "__dict__", None)
            if not isinstance(namespace, dict):
                continue
            for attr, value in list(namespace.items()):
                if value is func:
                    setattr(mod, attr, wrapper)


def make_game(n: int) -> Any:
    from tests.games.factories import named_game

    return named_game(slugs=tuple(f"p{n}-{i}" for i in range(4)))


def page_post(client: Client, token: str, number: int, key: str) -> None:
    from tests.games.factories import sheet

    data: dict[str, Any] = {"idempotency_key": key, "round": number, "ended_by": "went_out"}
    for i, side in enumerate(sheet(number)["sides"]):
        data |= {f"side{i}_{k}": v for k, v in side.items() if k != "went_out"}
        if side["went_out"]:
            data[f"side{i}_went_out"] = "on"
    response = client.post(f"/play/{token}/sheet/", data, follow=True)
    assert response.status_code == 200, response.status_code
    assert f"Round {number} is saved" in response.content.decode()


def api_post(client: Client, game: Any, token: str, number: int, key: str) -> None:
    from tests.games.factories import sheet

    response = client.post(
        f"/api/results/{game.pk}/submissions/",
        {"document": sheet(number)},
        content_type="application/json",
        headers={"X-Entry-Token": token, "Idempotency-Key": key},
    )
    assert response.status_code == 201, response.content


def measure(games: int, path: str) -> list[dict[str, float]]:
    from games.models import ResultVersion
    from tests.games.factories import side_link

    rows = []
    for g in range(games):
        game = make_game(hash((path, g)) % 10**6)
        for side in (0, 1):
            token = side_link(game, side)
            client = Client()
            for number in (1, 2, 3, 4):
                key = f"{path}-{game.pk}-{side}-{number}"
                calls.clear()
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    if path == "page":
                        page_post(client, token, number, key)
                    else:
                        api_post(client, game, token, number, key)
                    elapsed = time.perf_counter() - started
                rows.append(
                    {
                        "queries": len(queries),
                        "ms": elapsed * 1000,
                        **{label: calls[label] for label, _, _ in COUNTED},
                    }
                )
        assert game.result_versions.filter(status=ResultVersion.Status.CONFIRMED).exists()
    return rows


def report(path: str, rows: list[dict[str, float]]) -> None:
    print(f"\n{path}: {len(rows)} submissions")
    print(f"  {'':<20}{'median':>10}{'max':>10}")
    for label in ("queries", "table builds", "rule parses", "entrant decisions", "ms"):
        values = [r[label] for r in rows]
        fmt = "{:>10.1f}" if label == "ms" else "{:>10.0f}"
        print(f"  {label:<20}" + fmt.format(statistics.median(values)) + fmt.format(max(values)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=7, help="games per path (8 submissions each)")
    args = parser.parse_args()

    from games import signals

    signals.results_changed.receivers = []  # the analytics' recompute jobs are not measured
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {
        **settings.CACHES,
        "throttle": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "bench",
        },
    }
    setup_test_environment()
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = ":memory:"  # no file beside the tests' own
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        install_counters()
        print(f"database: {connection.vendor} ({name})")
        with open("/proc/loadavg") as f:
            print(f"load average: {f.read().strip()}")
        for path in ("page", "api"):
            report(path, measure(args.games, path))
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
