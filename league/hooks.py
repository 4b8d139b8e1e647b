"""Extension points of the league that the layers above fill in from their `AppConfig.ready()`,
so the league never imports them.

- rotation points: a played rotation's score per player, which the Swiss and progressive
  seating formats pair by. Results live in the games app, which registers the source.
"""

from collections.abc import Callable, Mapping

from django.contrib.auth.models import User

from league.models import AuditEntry, Rotation

RotationPoints = Callable[..., Mapping[int, int]]

_rotation_points: list[RotationPoints] = []


def rotation_points_register(source: RotationPoints) -> None:
    """Use `source(rotation=...)` for rotation points (the last one registered wins)."""
    if source not in _rotation_points:
        _rotation_points.append(source)


def rotation_points(*, rotation: Rotation) -> dict[int, int]:
    """Player id → their side's game total in the rotation; empty while no source is
    registered (no results app installed: every rotation scores nothing)."""
    if not _rotation_points:
        return {}
    return dict(_rotation_points[-1](rotation=rotation))


UndoAction = Callable[[AuditEntry, User | None], object]
UndoApplies = Callable[[AuditEntry], bool]

_undo_actions: dict[str, tuple[UndoAction, UndoApplies | None]] = {}


def undo_register(*, action: str, undo: UndoAction, applies: UndoApplies | None = None) -> None:
    """Undo audit entries of `action` with `undo(entry, by)` (it raises a DomainError when the
    change cannot be undone any more, and logs the undo itself); `applies(entry)` says whether
    the undo can work now, so the history offers it only then."""
    _undo_actions[action] = (undo, applies)


def undo_action(*, action: str) -> UndoAction | None:
    """The registered undo of an audit action written by a layer above, if any."""
    registered = _undo_actions.get(action)
    return registered[0] if registered else None


def undo_applies(*, entry: AuditEntry) -> bool:
    """Whether the registered undo of this entry can work now (True when it has no check)."""
    registered = _undo_actions.get(entry.action)
    return registered is None or registered[1] is None or registered[1](entry)
