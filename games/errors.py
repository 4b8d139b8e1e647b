"""Every refusal code the results app raises, declared once with its one message.

A raise site names its kind (`core.errors`: Invalid, Forbidden, NotFound, Conflict, Gone, Stale)
and its code from `Code`, and fills the message's blanks:

    raise refusal(Conflict, Code.ALREADY_CONFIRMED)
    raise refusal(Invalid, Code.BAD_ROUND, rounds=4, round=7)

The engine's own codes (`handfoot.errors.ErrorCode`) pass through with the engine's message
(`games.services.documents`). Pages show a code's table words (`games.wording.HEADLINES`), the
API its message. `tests/games/test_error_codes.py` checks that no raise site in games names a
code outside this registry.
"""

from __future__ import annotations

from enum import StrEnum

from core.errors import Registry


class Code(StrEnum):
    # the request
    BAD_FORMAT = "BAD_FORMAT"
    BAD_IDEMPOTENCY_KEY = "BAD_IDEMPOTENCY_KEY"
    IDEMPOTENCY_KEY_REQUIRED = "IDEMPOTENCY_KEY_REQUIRED"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    BAD_IF_MATCH = "BAD_IF_MATCH"
    WRONG_KIND = "WRONG_KIND"
    TOO_LARGE = "TOO_LARGE"
    # who enters
    EVENT_NOT_RUNNING = "EVENT_NOT_RUNNING"
    WRONG_TABLE_LINK = "WRONG_TABLE_LINK"
    SIDE_MISMATCH = "SIDE_MISMATCH"
    NOT_AN_ENTRANT = "NOT_AN_ENTRANT"
    SAME_ENTRANT = "SAME_ENTRANT"
    DIRECTOR_SETTLES_DISPUTES = "DIRECTOR_SETTLES_DISPUTES"
    # a sheet or log against its table
    BAD_RULES = "BAD_RULES"
    RULES_MISMATCH = "RULES_MISMATCH"
    SEATS_MISMATCH = "SEATS_MISMATCH"
    DEALER_MISMATCH = "DEALER_MISMATCH"
    SIDES_MISMATCH = "SIDES_MISMATCH"
    PLAYERS_MISMATCH = "PLAYERS_MISMATCH"
    BAD_ROUND = "BAD_ROUND"
    NO_ROUNDS = "NO_ROUNDS"
    OUT_OF_RANGE = "OUT_OF_RANGE"
    # the result's state
    ALREADY_CONFIRMED = "ALREADY_CONFIRMED"
    NO_SUCH_VERSION = "NO_SUCH_VERSION"
    NOT_AWAITING_CONFIRMATION = "NOT_AWAITING_CONFIRMATION"
    STALE_VERSION = "STALE_VERSION"
    NOT_DISPUTED = "NOT_DISPUTED"
    NOT_CONFIRMED = "NOT_CONFIRMED"
    DISPUTE_CLOSED = "DISPUTE_CLOSED"
    DISPUTE_REASON_REQUIRED = "DISPUTE_REASON_REQUIRED"
    NO_MOVE_LOG = "NO_MOVE_LOG"
    LOG_MISSES_ROUNDS = "LOG_MISSES_ROUNDS"
    # corrections
    REASON_REQUIRED = "REASON_REQUIRED"
    NO_FIGURES = "NO_FIGURES"
    INCOMPLETE = "INCOMPLETE"
    NO_CHANGE = "NO_CHANGE"
    # withdrawals and undo
    EVENT_FINISHED = "EVENT_FINISHED"
    ALREADY_WITHDRAWN = "ALREADY_WITHDRAWN"
    NOT_WITHDRAWN = "NOT_WITHDRAWN"
    NEWER_ENTRY = "NEWER_ENTRY"
    GONE = "GONE"
    RESULTS_EXIST = "RESULTS_EXIST"
    # a night played on paper, entered by a director (games.services.paper)
    PAPER_NOT_A_NUMBER = "PAPER_NOT_A_NUMBER"
    PAPER_NOT_MULTIPLE_OF_5 = "PAPER_NOT_MULTIPLE_OF_5"
    PAPER_OUT_OF_RANGE = "PAPER_OUT_OF_RANGE"
    PAPER_INCOMPLETE = "PAPER_INCOMPLETE"
    PAPER_TWO_SIDES = "PAPER_TWO_SIDES"
    PAPER_NO_FIGURES = "PAPER_NO_FIGURES"
    # the spreadsheet import (games.services.imports)
    IMPORT_BAD_MAPPING = "IMPORT_BAD_MAPPING"
    IMPORT_TOO_LARGE = "IMPORT_TOO_LARGE"
    IMPORT_UNREADABLE = "IMPORT_UNREADABLE"
    # a table's clock
    EXTRA_TIME_MINUTES = "EXTRA_TIME_MINUTES"
    TABLE_NOT_PLAYING = "TABLE_NOT_PLAYING"


# One message per code; `{name}` blanks are filled at the raise site.
MESSAGES: dict[Code, str] = {
    Code.PAPER_NOT_A_NUMBER: "Write a whole number for {what}.",
    Code.PAPER_NOT_MULTIPLE_OF_5: "{value:,} is not a multiple of 5 ({what}).",
    Code.PAPER_OUT_OF_RANGE: "{value:,} is beyond what a side can score ({what}: at most "
    "{limit:,} either way).",
    Code.PAPER_INCOMPLETE: "A game has rounds 1 to {rounds}: write every round's scores, or "
    "only the game's totals.",
    Code.PAPER_TWO_SIDES: "Round {number} needs a score for each side.",
    Code.PAPER_NO_FIGURES: "Write each round's scores, or the game's total per side.",
    Code.IMPORT_BAD_MAPPING: "Choose what each column holds from the list.",
    Code.IMPORT_TOO_LARGE: "The file is larger than {megabytes} MB.",
    Code.IMPORT_UNREADABLE: "{reason}",
    Code.EXTRA_TIME_MINUTES: "Give from 1 to 60 more minutes.",
    Code.TABLE_NOT_PLAYING: "Table {table} of rotation {rotation} {why}: there is no round to give "
    "more time to.",
    Code.BAD_FORMAT: "A score sheet or move log must be a JSON object with a `format` field.",
    Code.BAD_IDEMPOTENCY_KEY: "An idempotency key of 1 to 128 characters is needed.",
    Code.IDEMPOTENCY_KEY_REQUIRED: "Send an Idempotency-Key header (any unique text per "
    "submission) so a retry cannot enter the result twice.",
    Code.IDEMPOTENCY_KEY_REUSED: "This idempotency key was already used for a different "
    "submission; send a new key with new content.",
    Code.BAD_IF_MATCH: 'If-Match should be the result\'s ETag, like "3"; got {got}.',
    Code.WRONG_KIND: "This endpoint checks {checked}s; send this one to /api/{other}/check/.",
    Code.TOO_LARGE: "The file is larger than {megabytes} MB; is it a move log?",
    Code.EVENT_NOT_RUNNING: "Table links take results only while the event is running; {event} "
    "is {status}. Ask the director.",
    Code.WRONG_TABLE_LINK: "This table link belongs to another game.",
    Code.SIDE_MISMATCH: "This link enters for side {side} only; the request says side {claimed}. "
    "Leave `side` out: it is taken from the link.",
    Code.NOT_AN_ENTRANT: "Only the game's players (each side with its own table link or code), "
    "the club's scorers and directors may enter results.",
    Code.SAME_ENTRANT: "You entered these figures yourself; the other side or a director must "
    "confirm them.",
    Code.DIRECTOR_SETTLES_DISPUTES: "The two sides entered different figures; only the director "
    "can settle this (or both sides enter the same figures).",
    Code.BAD_RULES: "The event's own rule set is not valid: {reason}",
    Code.RULES_MISMATCH: "This {what} was played under other rules than the event's. "
    "{differences}. Leave its rules out to use the event's, or ask the director to change the "
    "house rules.",
    Code.SEATS_MISMATCH: "The move log's seats must be this table's players in seat order, by "
    "their identifiers: {players}.",
    Code.DEALER_MISMATCH: "Seat {dealer} deals round 1 of this game; the move log says seat "
    "{given}.",
    Code.SIDES_MISMATCH: "This table plays as {sides} sides; the {what} has {given}.",
    Code.PLAYERS_MISMATCH: "{players} players sit at this table; the sheet says {given}.",
    Code.BAD_ROUND: "A game under these rules has rounds 1 to {rounds}; the sheet is for round "
    "{round}.",
    Code.NO_ROUNDS: "The move log holds no rounds yet.",
    Code.OUT_OF_RANGE: "Round {round}, {where}: {name} is {value:,}; it must be from {low:,} to "
    "{high:,}.",
    Code.ALREADY_CONFIRMED: "This game's result is already confirmed; ask the director for a "
    "correction.",
    Code.NO_SUCH_VERSION: "This game has no result version {version}.",
    Code.NOT_AWAITING_CONFIRMATION: "Version {version} is {status}; only entered or disputed "
    "figures can be confirmed.",
    Code.STALE_VERSION: "The result changed since you loaded it (now version {now}, you saw "
    "version {seen}); reload and try again.",
    Code.NOT_DISPUTED: "This table's result is not disputed: there is nothing to settle.",
    Code.NOT_CONFIRMED: "This game's result is not confirmed yet: enter your own figures, or "
    "confirm the other side's.",
    Code.DISPUTE_CLOSED: "This result could be disputed until {until}; ask the director for a "
    "correction.",
    Code.DISPUTE_REASON_REQUIRED: "Say what is wrong with the result.",
    Code.NO_MOVE_LOG: "No move log of this game was accepted, so {consequence}.",
    Code.LOG_MISSES_ROUNDS: "The move log covers {covered} only, and the entries also differ in "
    "{missing}: choose a version or enter the right figures.",
    Code.REASON_REQUIRED: "Say why the result is corrected.",
    Code.NO_FIGURES: "Send the corrected score sheets or a move log.",
    Code.INCOMPLETE: "A result needs rounds 1 to {rounds}; send the missing rounds' sheets.",
    Code.NO_CHANGE: "These are the figures already confirmed.",
    Code.EVENT_FINISHED: "{event} is finished: reopen the event first.",
    Code.ALREADY_WITHDRAWN: "This entry is already withdrawn.",
    Code.NOT_WITHDRAWN: "This entry is not withdrawn; it already counts.",
    Code.NEWER_ENTRY: "{who} entered {what} again at {time}, after this entry; the newer entry "
    "counts. Withdraw it first if this one was right.",
    Code.GONE: "That {what} no longer exists.",
    Code.RESULTS_EXIST: "Results were already entered at rotation {rotation}'s tables: it stays "
    "started.",
}


REGISTRY = Registry(MESSAGES)
message = REGISTRY.message
refusal = REGISTRY.refusal
