"""Every refusal code of the league app (clubs, players, events, registrations, rotations,
undo), declared once with its one message.

A raise site names its kind (`core.errors`: Invalid, Forbidden, NotFound, Conflict, Gone, Stale)
and its code from `Code`, and fills the message's blanks:

    raise refusal(Conflict, Code.EVENT_FINISHED)
    raise refusal(Invalid, Code.BAD_TABLE, rotation_number=2, table_number=9)

Three codes carry a message made elsewhere, passed through whole as `reason`: `BAD_SEATING` (the
seating generator's `SeatingError`), `BAD_RULES` (the engine's refusal of the house rules) and
`CANNOT_UNDO` (why an undo registered by another app does not apply).
`tests/league/test_error_codes.py` checks that no raise site in league names a code outside this
registry.
"""

from __future__ import annotations

from enum import StrEnum

from core.errors import Registry


class Code(StrEnum):
    ACCOUNT_HAS_PLAYER = "ACCOUNT_HAS_PLAYER"
    ALL_ROTATIONS_GENERATED = "ALL_ROTATIONS_GENERATED"
    ALREADY_REGISTERED = "ALREADY_REGISTERED"
    ALREADY_SEATED = "ALREADY_SEATED"
    ALREADY_UNDONE = "ALREADY_UNDONE"
    BAD_AGGREGATE = "BAD_AGGREGATE"
    BAD_ANSWER = "BAD_ANSWER"
    BAD_BEST_N = "BAD_BEST_N"
    BAD_BYE_POINTS = "BAD_BYE_POINTS"
    BAD_DATES = "BAD_DATES"
    BAD_DEALER = "BAD_DEALER"
    BAD_ENTRANT = "BAD_ENTRANT"
    BAD_ENTRY_SIZE = "BAD_ENTRY_SIZE"
    BAD_EVENT_STATUS = "BAD_EVENT_STATUS"
    BAD_FORMAT = "BAD_FORMAT"
    BAD_INVITATION_ROLE = "BAD_INVITATION_ROLE"
    BAD_KIND = "BAD_KIND"
    BAD_NAME = "BAD_NAME"
    BAD_ODD_HANDLING = "BAD_ODD_HANDLING"
    BAD_ROLE = "BAD_ROLE"
    BAD_ROTATIONS = "BAD_ROTATIONS"
    BAD_ROTATION_STATUS = "BAD_ROTATION_STATUS"
    BAD_RULES = "BAD_RULES"
    BAD_SCORING = "BAD_SCORING"
    BAD_SEATING = "BAD_SEATING"
    BAD_SIT_OUT_RULE = "BAD_SIT_OUT_RULE"
    BAD_SIT_OUT_SCORING = "BAD_SIT_OUT_SCORING"
    BAD_STATUS = "BAD_STATUS"
    BAD_STATUS_CHANGE = "BAD_STATUS_CHANGE"
    BAD_SWAP = "BAD_SWAP"
    BAD_TABLE = "BAD_TABLE"
    BAD_TABLE_SIZES = "BAD_TABLE_SIZES"
    BAD_TIE_BREAKS = "BAD_TIE_BREAKS"
    BAD_TIME_ZONE = "BAD_TIME_ZONE"
    BAD_USERNAME = "BAD_USERNAME"
    BAD_VALUE = "BAD_VALUE"
    CANNOT_UNDO = "CANNOT_UNDO"
    CLAIM_EXPIRED = "CLAIM_EXPIRED"
    CLAIM_NOT_REQUESTED = "CLAIM_NOT_REQUESTED"
    CLAIM_UNKNOWN = "CLAIM_UNKNOWN"
    CLAIM_USED = "CLAIM_USED"
    EVENT_FINISHED = "EVENT_FINISHED"
    EVENT_NOT_RUNNING = "EVENT_NOT_RUNNING"
    EVENT_OVER = "EVENT_OVER"
    FIXED_PARTNERSHIPS = "FIXED_PARTNERSHIPS"
    GONE = "GONE"
    INVITATION_OF_ANOTHER_CLUB = "INVITATION_OF_ANOTHER_CLUB"
    INVITATION_UNKNOWN = "INVITATION_UNKNOWN"
    LATER_ROTATION = "LATER_ROTATION"
    NEEDS_PARTNERSHIP = "NEEDS_PARTNERSHIP"
    NEEDS_PLAYER = "NEEDS_PLAYER"
    NOTHING_TO_DO = "NOTHING_TO_DO"
    NOT_CLOSED = "NOT_CLOSED"
    NOT_ENTERED = "NOT_ENTERED"
    NOT_FINISHED = "NOT_FINISHED"
    NOT_IN_ROTATION = "NOT_IN_ROTATION"
    NO_SHOW_CLOSED = "NO_SHOW_CLOSED"
    NO_SHOW_FIXED = "NO_SHOW_FIXED"
    NOT_SEATED = "NOT_SEATED"
    NOT_STARTED = "NOT_STARTED"
    NOT_THE_CLUBS = "NOT_THE_CLUBS"
    NOT_WITHDRAWN = "NOT_WITHDRAWN"
    NO_INVITATION = "NO_INVITATION"
    NO_TABLES_OF_SIX = "NO_TABLES_OF_SIX"
    PARTNERS_APART = "PARTNERS_APART"
    PARTNERS_SIT_OUT_TOGETHER = "PARTNERS_SIT_OUT_TOGETHER"
    PLAYER_CLAIMED = "PLAYER_CLAIMED"
    PREVIOUS_ROTATION_OPEN = "PREVIOUS_ROTATION_OPEN"
    REPEATED_TIE_BREAK = "REPEATED_TIE_BREAK"
    RESULTS_MISSING = "RESULTS_MISSING"
    ROTATION_NOT_EDITABLE = "ROTATION_NOT_EDITABLE"
    ROTATION_OPEN = "ROTATION_OPEN"
    RULES_NOT_AN_OBJECT = "RULES_NOT_AN_OBJECT"
    SEASON_OF_ANOTHER_CLUB = "SEASON_OF_ANOTHER_CLUB"
    SEATED_IN_DRAFT = "SEATED_IN_DRAFT"
    SEATED_TWICE = "SEATED_TWICE"
    SEATING_EXISTS = "SEATING_EXISTS"
    SIGN_IN = "SIGN_IN"
    UNDO_NOT_OFFERED = "UNDO_NOT_OFFERED"
    USERNAME_UNUSABLE = "USERNAME_UNUSABLE"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    WITHDRAWN = "WITHDRAWN"
    WRONG_CLUB = "WRONG_CLUB"
    SUBSTITUTE_EXISTS = "SUBSTITUTE_EXISTS"
    SUBSTITUTE_IS_MEMBER = "SUBSTITUTE_IS_MEMBER"
    SUBSTITUTE_MEMBER_ABSENT = "SUBSTITUTE_MEMBER_ABSENT"
    SUBSTITUTE_NONE = "SUBSTITUTE_NONE"
    SUBSTITUTE_PLAYING = "SUBSTITUTE_PLAYING"
    SUBSTITUTE_TOO_LATE = "SUBSTITUTE_TOO_LATE"
    WISH_FOR = "WISH_FOR"
    WISH_NEEDS_OTHER = "WISH_NEEDS_OTHER"
    WISH_SAME_PLAYER = "WISH_SAME_PLAYER"
    WISH_BAD_SEAT = "WISH_BAD_SEAT"
    WISH_EXISTS = "WISH_EXISTS"
    WISH_CLOSED = "WISH_CLOSED"
    PLAN_FEW_PLAYERS = "PLAN_FEW_PLAYERS"
    PLAN_UNKNOWN_NAMES = "PLAN_UNKNOWN_NAMES"
    PLAN_TOO_MANY_NAMES = "PLAN_TOO_MANY_NAMES"
    PLAN_HAS_GUESTS = "PLAN_HAS_GUESTS"
    PLAN_ALREADY_SEATED = "PLAN_ALREADY_SEATED"
    PLAN_LEAVES_OUT = "PLAN_LEAVES_OUT"
    PLAN_STATUS = "PLAN_STATUS"
    ALREADY_RETIRED = "ALREADY_RETIRED"
    BAD_MERGE = "BAD_MERGE"
    BAD_NAME_SHOWN = "BAD_NAME_SHOWN"
    BAD_PARTNERSHIP = "BAD_PARTNERSHIP"
    BOTH_ENTERED = "BOTH_ENTERED"
    DUPLICATE = "DUPLICATE"
    MERGE_ACROSS_CLUBS = "MERGE_ACROSS_CLUBS"
    NAME_TOO_LONG = "NAME_TOO_LONG"
    NOT_RETIRED = "NOT_RETIRED"
    NOT_SAME_PERSON = "NOT_SAME_PERSON"
    NOT_YOURS = "NOT_YOURS"
    PARTNERSHIP_EXISTS = "PARTNERSHIP_EXISTS"
    WERE_PARTNERS = "WERE_PARTNERS"
    DIVISION_OF_ANOTHER_SEASON = "DIVISION_OF_ANOTHER_SEASON"
    TOO_MANY_DIVISIONS = "TOO_MANY_DIVISIONS"
    NOT_A_SEASON_PLAYER = "NOT_A_SEASON_PLAYER"
    SAME_SEASON = "SAME_SEASON"
    SEASON_OF_ANOTHER_LEAGUE = "SEASON_OF_ANOTHER_LEAGUE"
    SEASON_HAS_PLACES = "SEASON_HAS_PLACES"
    NO_DIVISIONS = "NO_DIVISIONS"
    BAD_PROMOTION_PLACES = "BAD_PROMOTION_PLACES"


# One message per code; `{name}` blanks are filled at the raise site.
MESSAGES: dict[Code, str] = {
    Code.ACCOUNT_HAS_PLAYER: "Your account is already {other_name} at {club_name}. If both are you, ask a director to merge the two.",
    Code.ALL_ROTATIONS_GENERATED: "All {planned_rotations} planned rotations exist; raise the planned rotations to play more.",
    Code.ALREADY_REGISTERED: "Already entered in this event as {entry}.",
    Code.ALREADY_SEATED: "{name} is already in rotation {rotation}: withdraw them instead.",
    Code.ALREADY_UNDONE: "That change was already undone.",
    Code.BAD_AGGREGATE: "Aggregate must be one of {choices}.",
    Code.BAD_ANSWER: "Answer coming, not coming or maybe.",
    Code.BAD_BEST_N: "Best N nights must be at least 1 (or empty for all).",
    Code.BAD_BYE_POINTS: "Bye points must be from 0 to {most:,}.",
    Code.BAD_DATES: "The season cannot end before it starts.",
    Code.BAD_DEALER: "{player} does not sit at table {table_number}.",
    Code.BAD_ENTRANT: "Register either a player or a partnership.",
    Code.BAD_ENTRY_SIZE: "This event takes {what} per entry.",
    Code.BAD_EVENT_STATUS: "Rotations are generated while registration is open or the event runs (it is {status}).",
    Code.BAD_FORMAT: "{what} must be one of {choices}, not {value!r}.",
    Code.BAD_INVITATION_ROLE: "Choose director or scorer.",
    Code.BAD_KIND: "{what} must be one of {choices}, not {value!r}.",
    Code.BAD_NAME: "The {what} needs a name.",
    Code.BAD_ODD_HANDLING: "{what} must be one of {choices}, not {value!r}.",
    Code.BAD_ROLE: "Role must be one of {roles}.",
    Code.BAD_ROTATIONS: "Plan between 1 and {most} rotations.",
    Code.BAD_ROTATION_STATUS: "Rotation {rotation_number} is {rotation_status}; only a started rotation closes.",
    Code.BAD_RULES: "{reason}",
    Code.BAD_SCORING: "{what} must be one of {choices}, not {value!r}.",
    Code.BAD_SEATING: "{reason}",
    Code.BAD_SIT_OUT_RULE: "{what} must be one of {choices}, not {value!r}.",
    Code.BAD_SIT_OUT_SCORING: "{what} must be one of {choices}, not {value!r}.",
    Code.BAD_STATUS: "{what} must be one of {choices}, not {value!r}.",
    Code.BAD_STATUS_CHANGE: "The event cannot go from {event_status} to {status}.{hint}",
    Code.BAD_SWAP: "Choose two different players to swap.",
    Code.BAD_TABLE: "Rotation {rotation_number} has no table {table_number}.",
    Code.BAD_TABLE_SIZES: "Table sizes must be a list of 4 and/or 6, each once.",
    Code.BAD_TIE_BREAKS: "Tie-breaks must be an ordered list from: {choices}.",
    Code.BAD_TIME_ZONE: "{time_zone} is not a time zone: choose one from the list, such as Europe/Berlin.",
    Code.BAD_USERNAME: "Give the username of the account to invite.",
    Code.BAD_VALUE: "{name}: {errors}",
    Code.CANNOT_UNDO: "{reason}",
    Code.CLAIM_EXPIRED: "This link expired on {expires_at:%d %B %Y}. Ask a director of your club for a new one.",
    Code.CLAIM_NOT_REQUESTED: "Only a request from an account can be approved.",
    Code.CLAIM_UNKNOWN: "This link is not one of ours: check that it was copied whole, or ask a director of your club for a new one.",
    Code.CLAIM_USED: "This link was used already. Sign in with the account it was used with, or ask a director of your club for a new one.",
    Code.EVENT_FINISHED: "The event is finished: reopen the event first.",
    Code.EVENT_NOT_RUNNING: "The event is not running: set it to running first.",
    Code.EVENT_OVER: "{event_name} is over or called off: answers are closed.",
    Code.FIXED_PARTNERSHIPS: "This event is played by fixed partnerships: enter the partnerships, then check them in.",
    Code.GONE: "That {what} no longer exists.",
    Code.INVITATION_OF_ANOTHER_CLUB: "That invitation is not of this club.",
    Code.INVITATION_UNKNOWN: "There is no such invitation.",
    Code.LATER_ROTATION: "Rotation {later_number} is already seated: {hint}.",
    Code.NEEDS_PARTNERSHIP: "This event is for fixed partnerships: {how}.",
    Code.NEEDS_PLAYER: "This event has rotating partners: {how}.",
    Code.NOTHING_TO_DO: "Everyone entered is already checked in.",
    Code.NOT_CLOSED: "Rotation {rotation_number} is not closed.",
    Code.NOT_ENTERED: "Not entered (or not checked in) for this rotation: {names}.",
    Code.NOT_FINISHED: "The event is not finished.",
    Code.NOT_IN_ROTATION: "{player} is not in rotation {rotation_number}.",
    Code.NO_SHOW_CLOSED: "Rotation {rotation_number} is closed: a no-show is marked while its rotation is a draft or being played.",
    Code.NO_SHOW_FIXED: "{player} plays in a fixed partnership: seat a substitute for them instead.",
    Code.NOT_SEATED: "Not placed in this rotation: {names}. Delete the draft and seat it again, or swap them in.",
    Code.NOT_STARTED: "Rotation {rotation_number} is {status}, not started: there is nothing to undo.",
    Code.NOT_THE_CLUBS: "{event_name} is not a night of {club_name}.",
    Code.NOT_WITHDRAWN: "{name} has not withdrawn.",
    Code.NO_INVITATION: "There is no such invitation for your account (it may have been answered or withdrawn).",
    Code.NO_TABLES_OF_SIX: "Tables of six for odd numbers need 6 among the table sizes.",
    Code.PARTNERS_APART: "Table {number}: partners must sit together as one side in this event.",
    Code.PARTNERS_SIT_OUT_TOGETHER: "Partners sit out together in this event.",
    Code.PLAYER_CLAIMED: "{player_name}'s profile belongs to an account already.",
    Code.PREVIOUS_ROTATION_OPEN: "Rotation {unclosed_number} is {unclosed_status}; close it before generating the next.",
    Code.REPEATED_TIE_BREAK: "Each tie-break may appear only once.",
    Code.RESULTS_MISSING: "No confirmed result yet at table(s) {tables}.",
    Code.ROTATION_NOT_EDITABLE: "Rotation {rotation_number} has {rotation_status}; only a draft rotation can change.",
    Code.ROTATION_OPEN: "Close or delete rotation(s) {rotations} before finishing the event.",
    Code.RULES_NOT_AN_OBJECT: "House rules must be an object of parameter: value.",
    Code.SEASON_OF_ANOTHER_CLUB: "Season {season} belongs to another club.",
    Code.SEATED_IN_DRAFT: "{name} is seated in rotation {draft_number}: delete that rotation first, then withdraw and generate it again.",
    Code.SEATED_TWICE: "Placed more than once: {names}.",
    Code.SEATING_EXISTS: "Cannot change {fields} once rotations are seated.",
    Code.SIGN_IN: "Sign in first: the profile is linked to your account.",
    Code.USERNAME_UNUSABLE: "That username can't be used: choose another.",
    Code.UNDO_NOT_OFFERED: "Opening registration or starting the event is not undone from the history.",
    Code.UNKNOWN_FIELD: "Cannot change {fields}.",
    Code.WITHDRAWN: "{name} has already withdrawn.",
    Code.WRONG_CLUB: "{obj} is not a {what} of {club}.",
    Code.SUBSTITUTE_EXISTS: "{member} already has a substitute tonight ({substitute}): remove that substitution first.",
    Code.SUBSTITUTE_IS_MEMBER: "A member cannot be their own substitute: choose someone else to play for {member}.",
    Code.SUBSTITUTE_MEMBER_ABSENT: "{member} is not entered in {event}: a substitute plays for a member entered tonight.",
    Code.SUBSTITUTE_NONE: "{member} has no substitute tonight.",
    Code.SUBSTITUTE_PLAYING: "{substitute} is already playing tonight: choose someone who is not.",
    Code.SUBSTITUTE_TOO_LATE: "Every rotation {member} would play tonight is closed or has its result: there is no seat left for a substitute.",
    Code.WISH_FOR: "A seating wish is for one night or for the whole season.",
    Code.WISH_NEEDS_OTHER: "Choose the second player: \u201c{kind}\u201d is a wish about two players.",
    Code.WISH_SAME_PLAYER: "Choose two different players for the wish.",
    Code.WISH_BAD_SEAT: "Give the table (1 to 500) and the seat (1 to 6) the player keeps all night.",
    Code.WISH_EXISTS: "That wish is there already.",
    Code.WISH_CLOSED: "{event_name} is finished: its wishes no longer change.",
    Code.PLAN_FEW_PLAYERS: "Only {count} player(s) expected: at least 4 are needed to prepare a seating.",
    Code.PLAN_UNKNOWN_NAMES: "No player of {club} is called {names}: add them on the players page first, or leave them out.",
    Code.PLAN_TOO_MANY_NAMES: "Type at most {most} names.",
    Code.PLAN_HAS_GUESTS: "This plan counts {guests} guest(s) not named yet: type their names in the expected list and prepare the plans again, or use a plan without guests.",
    Code.PLAN_ALREADY_SEATED: "Rotation {number} is seated already: a prepared plan makes only the first rotation's draft. Delete that draft first to use a plan.",
    Code.PLAN_LEAVES_OUT: "Entered but not in this plan: {names}. Withdraw them, or use a plan that has them.",
    Code.PLAN_STATUS: "Plans are used while registration is open or the event runs (it is {status}).",
    Code.ALREADY_RETIRED: "{name} is already retired.",
    Code.BAD_MERGE: "Choose two different players to merge.",
    Code.BAD_NAME_SHOWN: "Choose how your name shows.",
    Code.BAD_PARTNERSHIP: "A partnership needs two different players.",
    Code.BOTH_ENTERED: "{source_name} and {target_name} are both entered in {event_name}: withdraw the duplicate entry's registration there first, or they are two different people.",
    Code.DUPLICATE: "{name} is already a player of the club: merge the two instead of giving them one name.",
    Code.MERGE_ACROSS_CLUBS: "Only players of one club can be merged.",
    Code.NAME_TOO_LONG: "That name is too long (120 characters at most).",
    Code.NOT_RETIRED: "{name} is not retired.",
    Code.NOT_SAME_PERSON: "{source_name} and {target_name} both played rotation {rotation_number} of {event_name}: they are two different people.",
    Code.NOT_YOURS: "Only the player themself chooses this.",
    Code.PARTNERSHIP_EXISTS: "{first} and {second} are already a partnership.",
    Code.WERE_PARTNERS: "{source_name} and {target_name} were partners: two different people.",
    Code.DIVISION_OF_ANOTHER_SEASON: "{division} is a division of another season: choose one of this night's season.",
    Code.TOO_MANY_DIVISIONS: "A season has at most {most} divisions.",
    Code.NOT_A_SEASON_PLAYER: "{name} is not a player of {club}.",
    Code.SAME_SEASON: "Choose another season than {season} to place its players in.",
    Code.SEASON_OF_ANOTHER_LEAGUE: "{season} is a season of another league.",
    Code.SEASON_HAS_PLACES: "{season} already has players placed in divisions: nothing was changed. Take them out first, or choose another season.",
    Code.NO_DIVISIONS: "{season} has no divisions yet: add them first.",
    Code.BAD_PROMOTION_PLACES: "Players who go up and down: give a number from 0 to {most}.",
}


REGISTRY = Registry(MESSAGES)
message = REGISTRY.message
refusal = REGISTRY.refusal
