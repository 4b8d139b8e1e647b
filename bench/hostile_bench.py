"""Hostile-input benchmark: what one anonymous check request can cost a worker (issue 22, finding 3).

Run: .venv/bin/python bench/hostile_bench.py [--repeat 3]   (part of `make bench`)

Sends bodies an attacker would send, each as large as the endpoint takes (a sheet at most
`API_MAX_SHEET_BYTES`, 20 KB; a move log at most `API_MAX_LOG_BYTES`, 600 KB; see
web/parsers.py), to the anonymous check endpoints (`POST /api/sheets/check/` and
`/api/logs/check/`) through Django's test client, with the whole request path (body limit, JSON
reader, engine, answer) and the throttle out of the way. Shapes (first written against the old
2 MB limit for both: 600,000 `{}` sides, 990,000 rounds): over-long lists, deep nesting, huge
strings, many keys, long numbers, over-long lists at every level of a log (seats, deal, events,
melds, cards, reported scores), house-rule lists and objects, 2 MB bodies over the limits, and
valid documents as a baseline (the longest simulated game among them).
For each it prints the status, the error code, the worst CPU time of `--repeat` runs (what the
request costs the worker) and the worst and median wall-clock times (which also count waiting
for a busy machine's CPU), then the worst CPU time of all against the target (< 50 ms a request); exits non-zero when a hostile body is not
refused, and with `--strict` also when the target is missed.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("THROTTLE_CHECK", "100000000/minute")

import logging  # noqa: E402

import django  # noqa: E402

django.setup()
logging.disable(logging.WARNING)  # "Bad Request: ..." for every refused body

from django.test import Client  # noqa: E402

from handfoot.simulate import simulate_game  # noqa: E402
from web.parsers import max_log_bytes, max_sheet_bytes  # noqa: E402

TARGET_MS = 50.0
OLD_LIMIT = 2_000_000  # the body limit of both endpoints before
SHEET_URL = "/api/sheets/check/"
LOG_URL = "/api/logs/check/"

SIDE = {"clean_books": 1, "dirty_books": 1, "wild_books": 0, "red_threes": 0,
        "table_points": 700, "held_points": 0, "went_out": True}
SHEET = {"format": "hand-and-foot-sheet/1", "rules": "classic", "round": 1, "ended_by": "went_out",
         "sides": [SIDE, {**SIDE, "went_out": False, "held_points": 40}]}
LOG = simulate_game("classic", 4, seed=3, rounds=1)
LIMITS = {SHEET_URL: max_sheet_bytes(), LOG_URL: max_log_bytes()}
LIMIT = LIMITS[SHEET_URL]  # the limit of the endpoint whose body is being made (set per case)
# The longest of the simulated games measured for the log limit (about 85 KB as sent).
LONGEST_LOG = simulate_game("pagat", 6, sides=2, seed=3)


def fill(unit: str, opening: str = "[", closing: str = "]", budget: int | None = None) -> str:
    """A JSON list of as many `unit`s as fit in the body limit."""
    budget = LIMIT - 200 if budget is None else budget
    count = (budget - len(opening) - len(closing)) // (len(unit) + 1)
    return opening + ",".join([unit] * count) + closing


class Fill:
    """Raw JSON filling whatever room the rest of the body leaves: a list (or an object) of as
    many `unit`s as fit, or one string of that length."""

    def __init__(self, unit: str, opening: str = "[", closing: str = "]", wrap: str = "@") -> None:
        self.unit, self.opening, self.closing, self.wrap = unit, opening, closing, wrap

    def text(self, room: int) -> str:
        if self.unit == "string":
            return self.wrap.replace("@", '"' + "x" * (room - len(self.wrap) - 2) + '"')
        inner = fill(self.unit, self.opening, self.closing, room - len(self.wrap))
        return self.wrap.replace("@", inner)


def embed(doc: Any, path: list[Any], raw: str | Fill) -> str:
    """The document's JSON with the value at `path` replaced by raw JSON text (or a Fill)."""
    doc = copy.deepcopy(doc)
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = "@@"
    text = json.dumps(doc)
    if isinstance(raw, Fill):
        raw = raw.text(LIMIT - len(text) - 100)
    return text.replace('"@@"', raw)


def sheet_with(key: str, raw: str | Fill) -> str:
    return embed(SHEET, [key], raw)


def log_with(path: list[Any], raw: str | Fill) -> str:
    return embed(LOG, path, raw)


def rules_with(key: str, raw: str | Fill) -> str:
    return embed({**SHEET, "rules": {"preset": "classic", "overrides": {key: 0}}},
                 ["rules", "overrides", key], raw)


def cases() -> list[tuple[str, str, Callable[[], str], bool]]:
    """(name, url, body maker, must be refused)."""
    deep = 200_000
    big = Fill("string")
    keys = Fill('"k":0', "{", "}")
    return [
        ("valid sheet (baseline)", SHEET_URL, lambda: json.dumps(SHEET), False),
        ("valid log of one round (baseline)", LOG_URL, lambda: json.dumps(LOG), False),
        ("longest simulated game (pagat, 6 players; valid)", LOG_URL,
         lambda: json.dumps(LONGEST_LOG), False),
        ("longest simulated game, indented (valid)", LOG_URL,
         lambda: json.dumps(LONGEST_LOG, indent=1), False),
        ("2 MB sheet (over the sheet limit)", SHEET_URL,
         lambda: embed(SHEET, ["sides"], fill("{}", budget=OLD_LIMIT - 400)), True),
        ("2 MB log (over the log limit)", LOG_URL,
         lambda: embed(LOG, ["rounds"], fill("0", budget=OLD_LIMIT - 12_000)), True),
        ("sheet: sides fill the limit with {}", SHEET_URL, lambda: sheet_with("sides", Fill("{}")), True),
        ("sheet: sides fill the limit with valid sides", SHEET_URL,
         lambda: sheet_with("sides", Fill(json.dumps(SIDE))), True),
        ("log: rounds fill the limit with 0", LOG_URL, lambda: log_with(["rounds"], Fill("0")), True),
        ("log: rounds fill the limit with a real round", LOG_URL,
         lambda: log_with(["rounds"], Fill(json.dumps(LOG["rounds"][0]))), True),
        ("deep nesting: 200,000 [", LOG_URL, lambda: "[" * deep + "]" * deep, True),
        ("deep nesting inside sides", SHEET_URL,
         lambda: sheet_with("sides", "[" * 8_000 + "]" * 8_000), True),
        ("31 levels deep, as often as fits", SHEET_URL,
         lambda: sheet_with("sides", Fill("[" * 29 + "]" * 29)), True),
        ("huge string as the format", SHEET_URL, lambda: sheet_with("format", big), True),
        ("huge string as a seat name (a valid log)", LOG_URL, lambda: log_with(["seats", 0], big),
         False),
        ("huge string as a card", LOG_URL, lambda: log_with(["rounds", 0, "deal", "stock", 0], big),
         True),
        ("huge string as the rules", SHEET_URL, lambda: sheet_with("rules", big), True),
        ("huge string as a field name", SHEET_URL,
         lambda: sheet_with("sides", Fill("string", wrap='[{@:1}]')), True),
        ("many keys: as many unknown fields as fit", SHEET_URL,
         lambda: "{" + ",".join(f'"k{i}":0' for i in range((LIMIT - 300) // 12)) + "}", True),
        ("many keys inside a side", SHEET_URL,
         lambda: sheet_with("sides", Fill('"k":0', "[{", "}]")), True),
        ("many keys in the rules", SHEET_URL, lambda: sheet_with("rules", keys), True),
        ("long number: 4,300 digits", SHEET_URL, lambda: sheet_with("round", "9" * 4300), True),
        ("long number: as many digits as fit", SHEET_URL,
         lambda: sheet_with("round", "9" * (LIMIT - 400)), True),
        ("long float: as many digits as fit", SHEET_URL,
         lambda: sheet_with("round", "1." + "9" * (LIMIT - 400)), True),
        ("exponent: 1e999999", SHEET_URL, lambda: sheet_with("round", "1e999999"), True),
        ("long numbers in every field of a side", SHEET_URL,
         lambda: sheet_with("sides", json.dumps([{k: "@" for k in SIDE}] * 2)
                            .replace('"@"', "9" * 1000)), True),
        ("log: seats fill the limit", LOG_URL, lambda: log_with(["seats"], Fill('"a"')), True),
        ("log: the stock fills the limit", LOG_URL,
         lambda: log_with(["rounds", 0, "deal", "stock"], Fill('"KH"')), True),
        ("log: hands fill the limit", LOG_URL, lambda: log_with(["rounds", 0, "deal", "hands"], Fill("[]")),
         True),
        ("log: draw events fill one round", LOG_URL,
         lambda: log_with(["rounds", 0, "events"], Fill('{"seat":0,"type":"draw"}')), True),
        ("log: one meld holds as many cards as fit", LOG_URL,
         lambda: log_with(["rounds", 0, "events", 1],
                          Fill('"KH"', wrap='{"seat":1,"type":"meld","melds":[{"rank":"K",'
                                            '"cards":@}]}')), True),
        ("log: one event holds as many melds as fit", LOG_URL,
         lambda: log_with(["rounds", 0, "events", 1],
                          Fill('{"rank":"K","cards":["KH"]}',
                               wrap='{"seat":1,"type":"meld","melds":@}')), True),
        ("log: reported scores fill the limit", LOG_URL,
         lambda: log_with(["rounds", 0, "reported"], Fill("0", wrap='{"scores":@}')), True),
        ("house rules: forbidden upcards fill the limit", SHEET_URL,
         lambda: rules_with("upcard_forbidden", Fill('"wild"')), True),
        ("house rules: meld minimums fill the limit", SHEET_URL,
         lambda: rules_with("meld_minimums", Fill("0")), True),
        ("house rules: a book bonus with as many keys as fit", SHEET_URL,
         lambda: rules_with("book_bonus", keys), True),
        ("a list instead of an object, filling the limit", SHEET_URL, lambda: fill("0"), True),
        ("nulls fill a side list", SHEET_URL, lambda: sheet_with("sides", Fill("null")), True),
    ]


def run(client: Client, url: str, body: str, repeat: int) -> tuple[float, float, float, int, str]:
    """Of `repeat` requests: the worst CPU time (what the request costs the worker, whatever
    else the machine runs), the worst and the median wall-clock time; the status and the
    error code."""
    times, cpu, status, code = [], [], 0, ""
    for _ in range(repeat):
        # Garbage left by making the bodies (copies of documents) is collected first, so that
        # a request is charged only with its own work, collections included.
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.post(url, body, content_type="application/json")
        cpu.append((time.process_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
        status = response.status_code
        try:
            answer = response.json()
        except ValueError:
            answer = {}
        error = answer.get("error") or {}
        code = error.get("code", "") if isinstance(error, dict) else ""
        if status == 200 and not answer.get("valid", True):
            code = (answer.get("error") or {}).get("code", "")
    return max(cpu), max(times), statistics.median(times), status, code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--strict", action="store_true",
                        help="exit non-zero when the target is missed (a refusal missing always does)")
    args = parser.parse_args()
    client = Client()
    for url, body in ((SHEET_URL, json.dumps(SHEET)), (LOG_URL, json.dumps(LOG))):  # warm up
        client.post(url, body, content_type="application/json")
    rows, failures, worst = [], [], ("", 0.0)
    global LIMIT
    for name, url, make, hostile in cases():
        LIMIT = LIMITS[url]
        body = make()
        if len(body.encode()) > LIMIT and "over the" not in name:
            failures.append(f"{name}: the body ({len(body):,} bytes) is over the limit")
            continue
        ms, wall, median, status, code = run(client, url, body, args.repeat)
        answer = client.post(url, body, content_type="application/json")
        refused = status != 200 or not answer.json().get("valid", False)
        rows.append((name, len(body), status, code, ms, wall, median))
        if hostile and not refused:
            failures.append(f"{name}: not refused")
        if ms > worst[1]:
            worst = (name, ms)
    print(f"{'body':<56} {'bytes':>10} {'status':>6} {'code':<16} {'CPU ms':>7} "
          f"{'wall ms':>8} {'median':>7}")
    for name, size, status, code, ms, wall, median in rows:
        print(f"{name:<56} {size:>10,} {status:>6} {code:<16} {ms:>7.1f} {wall:>8.1f} "
              f"{median:>7.1f}")
    verdict = "ok" if worst[1] < TARGET_MS else "MISSED"
    print(f"\nworst anonymous request: {worst[1]:.1f} ms of CPU ({worst[0]}); target < "
          f"{TARGET_MS:.0f} ms: {verdict}. Wall clock: worst {max(r[5] for r in rows):.1f} ms, "
          f"worst median {max(r[6] for r in rows):.1f} ms; load average {os.getloadavg()[0]:.1f}")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures or (args.strict and verdict != "ok") else 0


if __name__ == "__main__":
    sys.exit(main())
