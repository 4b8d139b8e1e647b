"""Locust scenario of a club night (50 or 100 tables) (run by bench/load_bench.py, which prepares the
night and writes its plan; see docs/benchmarks.md).

Scorers: one client per player (200 at 50 tables), following the player through the night's
rotations. At each game the entering side's two phones take turns entering the four rounds
(they look at the table page, check the sheet as it is typed, then submit it with an
Idempotency-Key); the other side's first phone polls the result and confirms the version once
it is entered; its partner looks at the table page after each round. A round takes
ROUND_SECONDS (a compressed night: real rounds take 20 minutes).

Readers (300): two thirds keep a page open as the browser does (half of them the event page, a
quarter the event's standings page, a quarter the wall; the page, then its fragment every second
with If-None-Match, live-refresh.js), a third browse player pages and the season's standings.
They arrive over the first minute and stop when every scorer has finished the night. Each open
page records when its polls first showed each count of confirmed games, and a watcher asks the
standings fragment every 0.2 s: the standings delay while the load runs.

The scorers and the readers run as separate locust processes (bench/load_bench.py starts
`locust ... Scorer` and three `locust ... Reader`, READER_PART 0/3, 1/3 and 2/3, each with a
third of the readers): each is one process on one core, and the room's polls, most of the requests, would
otherwise keep replies waiting for their turn in a busy client (phones do not wait for each
other). The scorers' process writes LOAD_DONE when
every player has played the night; the readers' process (with the standings watcher) stops then.

Environment: LOAD_PLAN (the plan JSON), LOAD_OUT (where this process's accepted writes and raw
timings go), LOAD_DONE (the file that says the night is over), ROUND_SECONDS (default "15-25"),
READERS (all the readers), READER_PART ("k/n": this is the k-th of n readers' processes) and
READERS_HERE (how many of them it plays).
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from pathlib import Path

import gevent
from gevent import sleep
from locust import FastHttpUser, events, task
from locust.exception import StopUser

PLAN = json.loads(Path(os.environ["LOAD_PLAN"]).read_text())
ROUND_LOW, ROUND_HIGH = (float(x) for x in os.environ.get("ROUND_SECONDS", "15-25").split("-"))
REFRESH_SECONDS = 5  # how often a scorer's page looks for the other side's entry
READER_REFRESH_SECONDS = 1  # site_pages.views.pages.STANDINGS_REFRESH_SECONDS
ARRIVAL_SECONDS = 60
READERS = int(os.environ.get("READERS", 300))
# The readers are split over READER_PARTS processes; this one is number READER_PART.
READER_PART, READER_PARTS = (int(x) for x in os.environ.get("READER_PART", "0/1").split("/"))
ENTRY_NAMES = ("entry: submit round", "entry: confirm")
# What the standings fragment and the wall say about their snapshot.
GAMES_SHOWN = re.compile(r"(\d+) confirmed game")

state: dict = {"next_player": 0, "next_reader": 0, "finished": 0, "accepted": [], "confirmed": [],
               "failures": [], "timings": {}, "confirmed_at": [], "open_pages": [], "watched": []}
lock = threading.Lock()


@events.request.add_listener
def _timing(request_type: str, name: str, response_time: float, exception: object, **kw: object
            ) -> None:
    state["timings"].setdefault(name, []).append(response_time)
    if exception is not None:
        state["failures"].append(f"{name}: {str(exception)[:200]}")


DONE = Path(os.environ["LOAD_DONE"])


def night_over() -> bool:
    """Every table has played the night (told by the scorers' process)."""
    return DONE.exists()


def _scorers_here(environment: object) -> bool:
    return any(user_class is Scorer for user_class in environment.user_classes)  # type: ignore[attr-defined]


@events.test_start.add_listener
def _watch(environment: object, **kw: object) -> None:
    """Every table has played the night: this process stops (from a greenlet of its own, not
    from a user's), the scorers' first, saying so in LOAD_DONE."""
    scorers = _scorers_here(environment)

    def watch() -> None:
        while not (state["finished"] >= len(PLAN["players"]) if scorers else night_over()):
            sleep(0.5)
        if scorers:
            DONE.write_text("done")
        environment.runner.quit()  # type: ignore[attr-defined]

    gevent.spawn(watch)
    if not scorers and READER_PART == 0:
        gevent.spawn(_standings_watcher, environment)


def _standings_watcher(environment: object) -> None:
    """The standings delay while the load runs: the public fragment asked every 0.2 s (with
    If-None-Match, outside the request statistics); when its count of confirmed games changes
    the time is kept."""
    from geventhttpclient import URL, HTTPClient

    url = URL(environment.host + f"/events/{PLAN['event']}/standings/")  # type: ignore[attr-defined]
    client = HTTPClient.from_url(url, concurrency=1, network_timeout=10)
    etag, shown = "", -1
    while not night_over():
        try:
            response = client.get(url.request_uri, headers={"X-Requested-With": "fetch",
                                                            "If-None-Match": etag,
                                                            "Accept-Encoding": "identity"})
            body = response.read()
            if response.status_code == 200:
                etag = response.get("ETag") or etag
                found = GAMES_SHOWN.search(body.decode())
                games = int(found.group(1)) if found else 0
                if games != shown:
                    shown = games
                    state["watched"].append((time.time(), games))
        except Exception as error:  # the watcher only observes; the readers count errors
            state["failures"].append(f"standings watcher: {str(error)[:200]}")
        sleep(0.2)


@events.quitting.add_listener
def _write(environment: object, **kw: object) -> None:
    with open(os.environ["LOAD_OUT"], "w") as out:
        json.dump({k: state[k] for k in ("accepted", "confirmed", "failures", "timings",
                                         "finished", "confirmed_at", "open_pages", "watched")}, out)


def sheet(round_number: int, game_id: int) -> dict:
    wobble = (game_id * 7 + round_number * 3) % 40  # as bench/night.py's sheet()
    return {
        "format": "hand-and-foot-sheet/1", "round": round_number, "ended_by": "went_out",
        "sides": [
            {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "red_threes": 1,
             "table_points": 400 + 5 * wobble, "held_points": 0, "went_out": True},
            {"clean_books": 1, "dirty_books": 0, "wild_books": 0, "red_threes": 1,
             "table_points": 220 + 5 * (39 - wobble), "held_points": 205, "went_out": False},
        ],
    }


class Scorer(FastHttpUser):
    fixed_count = len(PLAN["players"])
    weight = 1

    def on_start(self) -> None:
        with lock:
            self.player = PLAN["players"][state["next_player"] % len(PLAN["players"])]
            state["next_player"] += 1
        self.rng = random.Random(self.player["slug"])

    def round_time(self) -> float:
        return self.rng.uniform(ROUND_LOW, ROUND_HIGH)

    def fail(self, what: str) -> None:
        with lock:
            state["failures"].append(what)

    def post_json(self, path: str, body: dict, name: str, token: str, **headers: str) -> dict | None:
        with self.client.post(path, data=json.dumps(body), name=name, catch_response=True,
                              headers={"Content-Type": "application/json",
                                       "X-Entry-Token": token, **headers}) as response:
            if response.status_code in (200, 201):
                response.success()
                return response.json()
            response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")
            return None

    def table_page(self, game: dict) -> None:
        self.client.get(f"/play/{game['token']}/", name="scorer: table page")

    def enter(self, game: dict) -> None:
        # Round r ends at about r round times into the game; this phone enters its rounds.
        for number in range(1, 5):
            sleep(self.round_time())
            if number not in game["rounds"]:
                continue
            self.table_page(game)
            document = sheet(number, game["game"])
            for _ in range(2):  # the page checks the sheet as it is typed (debounced)
                self.post_json("/api/sheets/check/", {**document, "rules": "classic"},
                               "entry: check sheet", game["token"])
                sleep(self.rng.uniform(1, 3))
            key = f"load-{game['game']}-{game['side']}-{number}"
            if self.post_json(f"/api/results/{game['game']}/submissions/",
                              {"document": document}, "entry: submit round", game["token"],
                              **{"Idempotency-Key": key}) is not None:
                with lock:
                    state["accepted"].append(key)

    def confirm(self, game: dict) -> None:
        sleep(self.round_time() * 3.5)  # nothing to confirm before the last round
        deadline = time.monotonic() + 30 * ROUND_HIGH
        while time.monotonic() < deadline:
            response = self.client.get(f"/api/results/{game['game']}/", name="scorer: result",
                                       headers={"X-Entry-Token": game["token"]})
            versions = response.json().get("versions", []) if response.status_code == 200 else []
            entered = [v for v in versions if v["status"] == "entered"]
            if entered:
                self.table_page(game)  # read the figures before agreeing
                sleep(self.rng.uniform(2, 5))
                if self.post_json(f"/api/results/{game['game']}/confirmations/",
                                  {"version": entered[-1]["number"]}, "entry: confirm",
                                  game["token"]) is not None:
                    with lock:
                        state["confirmed"].append(game["game"])
                        state["confirmed_at"].append(time.time())
                return
            sleep(REFRESH_SECONDS)
        self.fail(f"game {game['game']}: no version to confirm within {30 * ROUND_HIGH:.0f} s")

    def watch(self, game: dict) -> None:
        for _ in range(4):
            sleep(self.round_time())
            self.table_page(game)

    @task
    def night(self) -> None:
        for game in self.player["games"]:
            getattr(self, game["role"])(game)
        with lock:
            state["finished"] += 1
        raise StopUser


# What the open pages are (of the readers who follow the night): the page, then the fragment it
# polls every second with If-None-Match, as live-refresh.js does.
OPEN_PAGES = (
    ("event page", "/events/{event}/", "/events/{event}/standings/"),
    ("event page", "/events/{event}/", "/events/{event}/standings/"),
    ("standings page", "/events/{event}/standings/", "/events/{event}/standings/"),
    ("wall", "/events/{event}/wall/", "/events/{event}/wall/?fragment=1"),
)


class Reader(FastHttpUser):
    fixed_count = int(os.environ.get("READERS_HERE", READERS))  # this process's share
    weight = 1

    def on_start(self) -> None:
        with lock:  # each reader its own seeded choices: the same night on every run
            # The readers of all parts together are readers 0 to READERS - 1, whatever the split.
            self.rng = random.Random(f"reader-{READER_PART + READER_PARTS * state['next_reader']}")
            state["next_reader"] += 1
        self.follows_event = self.rng.random() < 2 / 3
        self.players = [p["slug"] for p in PLAN["players"]]
        sleep(self.rng.uniform(0, ARRIVAL_SECONDS))  # readers arrive over the first minute

    @task
    def read(self) -> None:
        if self.follows_event:
            self.follow(*self.rng.choice(OPEN_PAGES))
            self.player_page()
        else:
            self.player_page()
            sleep(self.rng.uniform(10, 20))
            if self.rng.random() < 0.3:
                self.client.get(f"/seasons/{PLAN['season']}/standings/",
                                name="reader: season standings")
                sleep(self.rng.uniform(10, 20))

    def follow(self, kind: str, page: str, fragment: str) -> None:
        """An open page for 30 s to 2 min. Records when each poll first showed how many
        confirmed games (the standings delay as the readers see it)."""
        self.client.get(page.format(event=PLAN["event"]), name=f"reader: {kind}")
        etag, shown = "", -1
        page = {"kind": kind, "opened": time.time(), "closed": time.time(), "seen": []}
        with lock:  # kept also when the run stops the reader while its page is open
            state["open_pages"].append(page)
        for _ in range(self.rng.randint(30, 120)):
            sleep(READER_REFRESH_SECONDS)
            response = self.client.get(
                fragment.format(event=PLAN["event"]), name=f"reader: {kind} poll",
                headers={"X-Requested-With": "fetch", "If-None-Match": etag})
            if response.status_code == 200:
                etag = response.headers.get("ETag") or etag  # as live-refresh.js does
                found = GAMES_SHOWN.search(response.text or "")
                games = int(found.group(1)) if found else 0
                if games != shown:
                    shown = games
                    page["seen"].append((time.time(), games))
            page["closed"] = time.time()

    def player_page(self) -> None:
        slug = self.rng.choice(self.players)
        self.client.get(f"/players/{PLAN['club']}/{slug}/", name="reader: player page")
        sleep(self.rng.uniform(5, 15))
