"""What a turn's actions share: the phase of a turn and a meld item as the engine holds it.

Kept apart from `state` so that the modules that read and list moves (`events`, `moves`,
`legal`) need not import the state they act on (no import cycle: tests/test_import_cycles.py).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time (a faster start)
if TYPE_CHECKING:
    from typing import Final

START: Final = 0  # the phase of a turn before cards are taken
TAKEN: Final = 1  # after cards are taken (drawn, or the pile picked up)
TO_BOOK: Final = 1  # a meld item's target: add to the side's finished book of that rank

Item = tuple[int, list[int], int]  # (meld key, card ids, target)
