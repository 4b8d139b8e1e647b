"""What-if: an event's standings re-scored under another rule set.

Games entered as move logs are replayed under the new rules (the table's own `reported` scores
are dropped, they were for the old rules). When the new rules change only scoring
(`SCORING_ONLY`) the play cannot change, so a log's round parts as stored (its replay under the
event's rules) give the exact totals and the log is not read. Other games, and logs the new
rules refuse, are re-scored from their parts: every part a scorer writes (`ENTERED_PARTS`, as
stored) scored by `side_score` under the new rules, so a part added later counts here too.
Parts cannot follow every change: held points were counted with the old red/black 3 penalties,
and play rules (hand size, melding, going out...) would have changed the play itself; each such
game is listed with why its figures are approximate. Sit-outs (byes) count as the event's own
standings count them (`selectors.event_standings_rows`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import orjson
from django.db.models import Count, Q, TextField
from django.db.models.functions import Cast

from analytics.standings import compute as standings
from analytics.standings import selectors
from games.models import ResultVersion, RoundResult, Submission
from handfoot.replay import rescore_log
from handfoot.rules import ENTERED_PARTS, SCORING_RULES, RuleSet, rules_from_spec
from handfoot.scoring import side_score
from league.models import Event, Game, Season

# the house rules that only give points (as the engine declares its parts)
SCORING_ONLY = SCORING_RULES
HELD_PENALTIES = {"red_three_penalty", "black_three_penalty", "red_threes"}


@dataclass
class WhatIf:
    rows: list[dict]
    rescored_from_logs: list[int] = field(default_factory=list)
    rescored_from_parts: list[int] = field(default_factory=list)
    notes: dict[int, list[str]] = field(default_factory=dict)
    game_labels: dict[int, str] = field(default_factory=dict)

    def labelled_notes(self) -> list[tuple[str, list[str]]]:
        """The notes with each game named as players know it (event, rotation, table)."""
        return [(self.game_labels.get(game_id, f"Game {game_id}"), notes)
                for game_id, notes in self.notes.items()]


def changed_parameters(old: RuleSet, new: RuleSet) -> set[str]:
    return {f.name for f in fields(RuleSet) if f.name != "preset"
            and getattr(old, f.name) != getattr(new, f.name)}


def parts_notes(old: RuleSet, new: RuleSet) -> list[str]:
    """Why a re-score from parts is only approximate under `new` (empty: it is exact)."""
    changed = changed_parameters(old, new)
    notes = []
    if changed & HELD_PENALTIES:
        notes.append("held points kept as played: the red/black 3 rules changed ("
                     + ", ".join(sorted(changed & HELD_PENALTIES)) + ")")
    play = changed - SCORING_ONLY - HELD_PENALTIES
    if play:
        notes.append("play rules changed (" + ", ".join(sorted(play))
                     + "): books and cards as played under the old rules")
    return notes


# every part a scorer writes, as stored (one column each)
PARTS = tuple(part.name for part in ENTERED_PARTS)
Parts = tuple[int, ...]  # one side's round, as `PARTS` reads it (yes/no parts as bool)


def rescore_parts(parts: list[Parts], rules: RuleSet) -> int:
    """A side's game total from its rounds' parts under `rules`."""
    return sum(side_score(rules, **dict(zip(PARTS, row, strict=True))).score for row in parts)


def _round_parts(game_ids: list[int]) -> dict[int, dict[int, list[Parts]]]:
    """Each game's sides' rounds as `PARTS`, in round order (read only for the games not
    replayed: model instances for every game were a tenth of a part's time)."""
    parts: dict[int, dict[int, list[Parts]]] = defaultdict(lambda: defaultdict(list))
    for game_id, side, *row in (RoundResult.objects.filter(game_id__in=game_ids)
                                .order_by("round_number").values_list("game_id", "side", *PARTS)):
        parts[game_id][side].append(tuple(row))
    return parts


def _game_sides(game_ids: list[int]) -> dict[int, tuple[list[int], int, int]]:
    """Each game with a result: its side numbers in order, its first side's number of rounds and
    its event, in one aggregate query (what `selectors.game_results` gave the part, less the seats
    and totals it does not need)."""
    sides: dict[int, dict[int, int]] = defaultdict(dict)
    events: dict[int, int] = {}
    for game_id, side, event_id, rounds in (
            RoundResult.objects.filter(game_id__in=game_ids)
            .values_list("game_id", "side", "game__table__rotation__event_id")
            .annotate(rounds=Count("id")).order_by()):
        sides[game_id][side] = rounds
        events[game_id] = event_id
    return {game_id: (sorted(counts), counts[min(counts)], events[game_id])
            for game_id, counts in sides.items()}


def _log_sources(game_ids: list[int]) -> dict[int, int]:
    """For games whose current version comes wholly from one move log: that log's submission."""
    sources: dict[int, int] = {}
    for game_id, text in ResultVersion.objects.filter(
        game_id__in=game_ids, status=ResultVersion.Status.CONFIRMED
    ).values_list("game_id", Cast("rounds", TextField())):
        rounds = orjson.loads(text)  # the JSON field's json module decoding was slower
        ids = {(r.get("source") or {}).get("submission") for r in rounds}
        kinds = {(r.get("source") or {}).get("kind") for r in rounds}
        submission = next(iter(ids)) if len(ids) == 1 else None
        if submission is not None and kinds == {"log"}:
            sources[game_id] = submission
    return sources


def _log_texts(sources: dict[int, int]) -> dict[int, str]:
    """Each game's log (`_log_sources`) as its JSON text."""
    # Read as text, to be parsed by orjson one log at a time: the JSON field's own decoding (the
    # json module) was a third of a what-if part's time, and a part's logs parsed all at once
    # (millions of objects alive together) made the garbage collector's passes a third of the
    # rest (measured: 4.5 -> 2.9 ms a game with the collector off).
    documents = dict(Submission.objects.filter(pk__in=sources.values())
                     .values_list("pk", Cast("document", TextField())))
    return {game: documents[sub] for game, sub in sources.items() if sub in documents}


def _game_labels(game_ids: list[int]) -> dict[int, str]:
    rows = Game.objects.filter(pk__in=game_ids).values_list(
        "pk", "table__rotation__event__name", "table__rotation__number", "table__number")
    return {pk: f"{event}, rotation {rotation}, table {table}" for pk, event, rotation, table in rows}


def whatif_game_ids(*, event: Event) -> list[int]:
    """The event's games with a confirmed result, the ones a what-if re-scores."""
    return sorted(selectors.game_results(game_filter=Q(table__rotation__event=event)))


def whatif_rescore_games(*, game_ids: list[int], rules_spec: Any) -> dict[str, dict[str, Any]]:
    """Each game's side totals under `rules_spec` (JSON values: a part of a what-if job): from its
    move log replayed under the new rules when it has one that they accept, else from its
    score-sheet parts, with why that is only approximate. A log whose event's rules differ from
    the new ones only in scoring is not read: its stored parts are exact (`from_log`)."""
    new = rules_from_spec(rules_spec)
    games = _game_sides(game_ids)
    old_rules = _event_rules({event_id for _, _, event_id in games.values()})
    sources = _log_sources(list(games))
    same_play = {game_id for game_id in sources
                 if changed_parameters(old_rules[games[game_id][2]], new) <= SCORING_ONLY}
    logs = _log_texts({g: sub for g, sub in sources.items() if g not in same_play})
    replayed = _replay_logs(games=games, logs=logs, new=new)
    rescored = {str(game_id): {"totals": totals, "from_log": True, "notes": []}
                for game_id, totals in replayed.items()}
    rescored.update(_rescore_from_parts(
        games={g: games[g] for g in games.keys() - replayed.keys()},
        refused=logs.keys() - replayed.keys(), same_play=same_play, old_rules=old_rules, new=new))
    return dict(sorted(rescored.items(), key=lambda item: int(item[0])))


def _replay_logs(*, games: dict[int, tuple[list[int], int, int]], logs: dict[int, str],
                 new: RuleSet) -> dict[int, list[int]]:
    """The side totals of each log replayed under `new`, for the logs it accepts."""
    replayed: dict[int, list[int]] = {}
    for game_id, text in logs.items():
        side_numbers, rounds, _ = games[game_id]
        totals = rescore_log(orjson.loads(text), new, rounds)  # parsed, replayed, dropped
        if totals is not None and len(totals) == len(side_numbers):
            replayed[game_id] = totals
    return replayed


def _rescore_from_parts(*, games: dict[int, tuple[list[int], int, int]], refused: set[int],
                        same_play: set[int], old_rules: dict[int, RuleSet],
                        new: RuleSet) -> dict[str, dict[str, Any]]:
    """The games re-scored from their parts, with why that is only approximate; exact for a
    log's game whose play the new rules cannot change (`same_play`: its parts are the log's)."""
    parts = _round_parts(list(games))
    rescored: dict[str, dict[str, Any]] = {}
    for game_id, (side_numbers, _, event_id) in games.items():
        notes = ["the move log is not legal under these rules"] if game_id in refused else []
        notes += parts_notes(old_rules[event_id], new)
        rescored[str(game_id)] = {
            "totals": [rescore_parts(parts[game_id][s], new) for s in side_numbers],
            "from_log": game_id in same_play, "notes": notes}
    return rescored


def _event_rules(event_ids: set[int]) -> dict[int, RuleSet]:
    return {event.pk: rules_from_spec(event.rules_spec)
            for event in Event.objects.filter(pk__in=event_ids)}


def whatif_event_result(*, event: Event, rescored: dict[str, dict[str, Any]]) -> WhatIf:
    """The event's standings from its games re-scored (`whatif_rescore_games`' outputs)."""
    games = selectors.game_results(game_filter=Q(table__rotation__event=event))
    result = WhatIf(rows=[], game_labels=_game_labels(list(games)))
    rows = []
    for game_id, game in sorted(games.items()):
        line = rescored[str(game_id)]
        (result.rescored_from_logs if line["from_log"] else result.rescored_from_parts).append(game_id)
        if line["notes"]:
            result.notes[game_id] = line["notes"]
        rows.append(standings.GameResult(game_id, tuple(
            replace(side, total=total) for side, total in zip(game.sides, line["totals"], strict=True)),
            game.event_id))
    player_ids = {p for g in rows for s in g.sides for p in s.players}
    result.rows = selectors.event_standings_rows(
        event=event, games=rows, names=selectors.player_names(player_ids=player_ids))
    return result


def whatif_season_result(*, season: Season, rescored: dict[str, dict[str, Any]]) -> WhatIf:
    """The season's standings with every night's games re-scored."""
    result = WhatIf(rows=[])
    nights = []
    for event in Event.objects.filter(season=season).order_by("date", "pk"):
        night = whatif_event_result(event=event, rescored=rescored)
        result.rescored_from_logs += night.rescored_from_logs
        result.rescored_from_parts += night.rescored_from_parts
        result.notes.update(night.notes)
        result.game_labels.update(night.game_labels)
        nights.append((event.pk, night.rows))
    result.rows = standings.season_from_event_rows(
        nights, aggregate=season.aggregate, best_n=season.best_n_nights,
        min_attendance=season.min_attendance)
    return result


def event_whatif(event: Event, rules_spec: Any) -> WhatIf:
    """The event's standings under `rules_spec`, computed here at once (the pages ask for a job:
    `analytics.jobs`). Raises EngineError (BAD_RULES) for bad rules."""
    rules_from_spec(rules_spec)
    rescored = whatif_rescore_games(game_ids=whatif_game_ids(event=event), rules_spec=rules_spec)
    return whatif_event_result(event=event, rescored=rescored)


def season_whatif(season: Season, rules_spec: Any) -> WhatIf:
    """The season's standings with every night re-scored under `rules_spec`, at once."""
    rules_from_spec(rules_spec)
    game_ids = [g for event in Event.objects.filter(season=season)
                for g in whatif_game_ids(event=event)]
    rescored = whatif_rescore_games(game_ids=game_ids, rules_spec=rules_spec)
    return whatif_season_result(season=season, rescored=rescored)


def whatif_to_json(result: WhatIf) -> dict[str, Any]:
    data = asdict(result)
    data["notes"] = {str(k): v for k, v in result.notes.items()}
    data["game_labels"] = {str(k): v for k, v in result.game_labels.items()}
    return data


def whatif_from_json(data: dict[str, Any]) -> WhatIf:
    return WhatIf(rows=data["rows"], rescored_from_logs=data["rescored_from_logs"],
                  rescored_from_parts=data["rescored_from_parts"],
                  notes={int(k): v for k, v in data["notes"].items()},
                  game_labels={int(k): v for k, v in data["game_labels"].items()})
