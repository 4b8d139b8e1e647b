"""What-if: an event's standings re-scored under another rule set.

Games entered as move logs are replayed under the new rules (the table's own `reported` scores
are dropped, they were for the old rules). Other games, and logs the new rules refuse, are
re-scored from their parts: book counts x the new bonuses, red 3s, table points, held points and
going out. Parts cannot follow every change: held points were counted with the old red/black 3
penalties, and play rules (hand size, melding, going out...) would have changed the play itself;
each such game is listed with why its figures are approximate. Sit-outs (byes) count as the
event's own standings count them (`selectors.event_standings_rows`).
"""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass, field, fields, replace
from typing import Any

from django.db.models import Q

from analytics import selectors, standings
from games.models import ResultVersion, RoundResult, Submission
from handfoot.replay import replay_log
from handfoot.rules import RuleSet, rules_from_spec
from handfoot.scoring import side_score
from league.models import Event, Game, Season

SCORING_ONLY = {"book_bonus", "going_out_bonus", "red_three_bonus"}
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


def rescore_parts(parts: list[RoundResult], rules: RuleSet) -> int:
    """A side's game total from its rounds' parts under `rules`."""
    return sum(
        side_score(rules, clean_books=p.clean_books, dirty_books=p.dirty_books,
                   wild_books=p.wild_books, red_threes=p.red_threes,
                   table_points=p.table_points, held_points=p.held_points,
                   went_out=p.went_out).score
        for p in parts
    )


def rescore_log(document: dict[str, Any], rules_spec: Any, rounds: int) -> list[int] | None:
    """Side totals of the log's first `rounds` rounds replayed under new rules; None when the
    new rules refuse the log (its deal or moves are not legal under them)."""
    log = copy.deepcopy(document)
    log["rules"] = rules_spec
    log["rounds"] = log.get("rounds", [])[:rounds]
    for rnd in log["rounds"]:
        if isinstance(rnd, dict):
            rnd.pop("reported", None)
    report = replay_log(log)
    if not report.valid or len(report.rounds) != rounds:
        return None
    return list(report.totals)


def _log_documents(game_ids: list[int]) -> dict[int, dict]:
    """For games whose current version comes wholly from one move log: that log."""
    sources: dict[int, int] = {}
    for game_id, rounds in ResultVersion.objects.filter(
        game_id__in=game_ids, status=ResultVersion.Status.CONFIRMED
    ).values_list("game_id", "rounds"):
        ids = {(r.get("source") or {}).get("submission") for r in rounds}
        kinds = {(r.get("source") or {}).get("kind") for r in rounds}
        if len(ids) == 1 and kinds == {"log"} and None not in ids:
            sources[game_id] = ids.pop()
    documents = dict(Submission.objects.filter(pk__in=sources.values()).values_list("pk", "document"))
    return {game: documents[sub] for game, sub in sources.items() if sub in documents}


def _game_labels(game_ids: list[int]) -> dict[int, str]:
    rows = Game.objects.filter(pk__in=game_ids).values_list(
        "pk", "table__rotation__event__name", "table__rotation__number", "table__number")
    return {pk: f"{event}, rotation {rotation}, table {table}" for pk, event, rotation, table in rows}


def event_whatif(event: Event, rules_spec: Any) -> WhatIf:
    """The event's standings under `rules_spec`. Raises EngineError (BAD_RULES) for bad rules."""
    new = rules_from_spec(rules_spec)
    old = rules_from_spec(event.rules_spec)
    games = selectors.game_results(game_filter=Q(table__rotation__event=event))
    parts: dict[int, dict[int, list[RoundResult]]] = defaultdict(lambda: defaultdict(list))
    for row in RoundResult.objects.filter(game_id__in=list(games)).order_by("round_number"):
        parts[row.game_id][row.side].append(row)
    logs = _log_documents(list(games))
    result = WhatIf(rows=[], game_labels=_game_labels(list(games)))
    notes = parts_notes(old, new)
    rescored = []
    for game_id, game in sorted(games.items()):
        side_numbers = sorted(parts[game_id])
        rounds = len(parts[game_id][side_numbers[0]]) if side_numbers else 0
        totals = rescore_log(logs[game_id], rules_spec, rounds) if game_id in logs else None
        if totals is not None and len(totals) == len(game.sides):
            result.rescored_from_logs.append(game_id)
        else:
            totals = [rescore_parts(parts[game_id][s], new) for s in side_numbers]
            result.rescored_from_parts.append(game_id)
            game_notes = (["the move log is not legal under these rules"] if game_id in logs else [])
            if game_notes + notes:
                result.notes[game_id] = game_notes + notes
        rescored.append(standings.GameResult(game_id, tuple(
            replace(side, total=total) for side, total in zip(game.sides, totals, strict=True))))
    player_ids = {p for g in rescored for s in g.sides for p in s.players}
    result.rows = selectors.event_standings_rows(
        event=event, games=rescored, names=selectors.player_names(player_ids=player_ids))
    return result


def season_whatif(season: Season, rules_spec: Any) -> WhatIf:
    """The season's standings with every night re-scored under `rules_spec`."""
    result = WhatIf(rows=[])
    nights = []
    for event in Event.objects.filter(season=season).order_by("date", "pk"):
        night = event_whatif(event, rules_spec)
        result.rescored_from_logs += night.rescored_from_logs
        result.rescored_from_parts += night.rescored_from_parts
        result.notes.update(night.notes)
        result.game_labels.update(night.game_labels)
        nights.append((event.pk, night.rows))
    result.rows = standings.season_from_event_rows(
        nights, aggregate=season.aggregate, best_n=season.best_n_nights,
        min_attendance=season.min_attendance)
    return result
