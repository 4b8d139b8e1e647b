"""Writes of results, one module per concern (league.md "Results"):

- `documents`: sheets and logs filled in from the game's table (`selectors.GameTable`, read once
  per request) and checked by the engine with the table's parsed rule set.
- `entrants`: who enters or confirms (a side at the table, or a signed-in user).
- `intake`: every sheet or log becomes a `Submission` of its entrant; an entrant's entry (per
  round, their latest submission covering it) that covers every round becomes a
  `ResultVersion`: *entered*, or *disputed* when another entry's figures differ.
- `confirmation`: the same figures from the other side (or "confirm" on the figures shown)
  *confirm* a version; a director confirms one version of a dispute.
- `correction`: a director's figures with a reason, confirmed at once; earlier versions are kept
  as *superseded*.
- `settlement`: a director settles a dispute "as the move log says" (the version equal to the
  log's figures, or a correction with them), kept in the history with the reason.
- `withdrawal`: a director withdraws a wrongly entered sheet or log before confirmation (kept,
  marked, logged in the audit trail) and may restore it; the result is read again either way.
- `disputes`: a side disputes a confirmed result, until the time the result mail promised
  (even after the night): a line for the director, who corrects the result or leaves it.
- `projection`: the confirmed version becomes `RoundResult` and `SeatRoundFacts` rows, and once
  committed `games.signals.results_changed` tells the layers above (the analytics recompute).

Every public function is keyword-only and typed; a refusal raises a `core.errors.DomainError`
(`Invalid`, `Forbidden`, `Conflict`, `Gone` or `Stale`; a code of `games.errors.Code` and its
one message) and changes nothing. Callers use `from games import services`.
"""

from games.services.confirmation import result_confirm
from games.services.correction import (
    correction_rounds,
    result_correct,
    result_revision,
)
from games.services.disputes import result_dispute
from games.services.documents import (
    MAX_DOCUMENT_BYTES,
    SIDE_FIGURES,
    GameTable,
    document_check,
    document_hash,
    document_prepare,
    event_rules,
    game_table,
    report_range_check,
    round_differences,
    round_figures,
)
from games.services.entrants import (
    Entrant,
    dispute_entrant_for,
    entrant_for,
    seated_side,
    table_link_check,
)
from games.services.intake import submission_create
from games.services.projection import result_project
from games.services.settlement import dispute_settle_by_log
from games.services.withdrawal import submission_restore, submission_withdraw

__all__ = [
    "Entrant",
    "GameTable",
    "MAX_DOCUMENT_BYTES",
    "SIDE_FIGURES",
    "correction_rounds",
    "dispute_entrant_for",
    "dispute_settle_by_log",
    "document_check",
    "document_hash",
    "document_prepare",
    "entrant_for",
    "event_rules",
    "game_table",
    "report_range_check",
    "result_confirm",
    "result_correct",
    "result_dispute",
    "result_project",
    "result_revision",
    "round_differences",
    "round_figures",
    "seated_side",
    "submission_create",
    "submission_restore",
    "submission_withdraw",
    "table_link_check",
]
