"""The registry of job kinds. Apps register theirs in `AppConfig.ready()` (the jobs app sits
below them and imports none of them).

A kind splits its work into parts (`plan`, in the worker), computes each part on its own
(`run_part`, so the worker's processes, and workers on other machines, share the parts), and
assembles the parts' outputs (`finish`). Every function takes and returns JSON values: they are
stored, and a retried part recomputes from the database.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

JSON = Any


@dataclass(frozen=True)
class JobKind:
    name: str
    words: str  # what the page says the job is doing: "Re-scoring the season's games"
    unit: str  # what it counts, plural: "games"
    plan: Callable[[dict[str, JSON]], list[tuple[int, JSON]]]  # params -> [(size, part input)]
    run_part: Callable[[dict[str, JSON], JSON], JSON]
    finish: Callable[[dict[str, JSON], list[JSON]], JSON]
    may_see: Callable[[Any, dict[str, JSON]], bool]  # (user, params): may this user follow it?
    # Bulk work (an import): planned and run on `settings.BULK_QUEUE`, behind the live jobs.
    bulk: bool = False


_KINDS: dict[str, JobKind] = {}


def kind_register(kind: JobKind) -> None:
    _KINDS[kind.name] = kind


def kind_get(name: str) -> JobKind:
    return _KINDS[name]
