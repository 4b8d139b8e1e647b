"""Writes of the league domain, one module per aggregate: `clubs` (clubs, directors, scorers),
`players` (players, partnerships), `seasons` (leagues, seasons), `events` (settings, status),
`registrations` (entries, check-in, withdrawals) and `rotations` (seating a rotation, editing,
starting and closing it).

Every function is keyword-only and typed, checks its input, and either does all of its work or
none: a refusal raises a `core.errors.DomainError` (`Invalid` for a wrong request, `Conflict`
when the event's state does not allow it; a code and a message to show as is) and changes nothing.
Callers use `from league import services` and `services.<entity>_<action>(...)`.
"""

from league.services.audit import audit_record
from league.services.clubs import (
    LEAGUE_SETTINGS_FIELDS,
    club_create,
    club_update,
    league_settings_update,
    membership_add,
)
from league.services.credentials import game_side_credentials, side_credentials_ensure
from league.services.divisions import (
    division_create,
    division_places_set,
    divisions_promotion_confirm,
    promotion_propose,
)
from league.services.events import (
    ALLOWED_TABLE_SIZES,
    EVENT_FIELDS,
    MAX_BYE_POINTS,
    NEXT_STATUS,
    SEATING_FIELDS,
    STANDINGS_FIELDS,
    event_call_off,
    event_create,
    event_reopen,
    event_set_status,
    event_update,
)
from league.services.invitations import (
    invitation_accept,
    invitation_decline,
    invitation_withdraw,
    membership_invite,
)
from league.services.players import (
    partnership_create,
    partnership_get_or_create,
    player_add,
    player_create,
    player_merge,
    player_reinstate,
    player_rename,
    player_retire,
    player_update,
)
from league.services.registrations import (
    registration_add,
    registration_add_entrant,
    registration_add_partnerships,
    registration_add_players,
    registration_check_in,
    registration_check_in_all,
    registration_reinstate,
    registration_remove,
    registration_withdraw,
)
from league.services.rotations import (
    rotation_close,
    rotation_delete,
    rotation_generate,
    rotation_reopen,
    rotation_seat_plan,
    rotation_set_first_dealer,
    rotation_start,
    rotation_swap_players,
    rotation_unstart,
    rotation_update_seating,
)
from league.services.seasons import (
    SEASON_FIELDS,
    league_create,
    league_update,
    season_create,
    season_update,
)
from league.services.seating_plans import prepared_plans_store, seating_plan_use
from league.services.substitutes import substitute_remove, substitute_seat
from league.services.undo import audit_undo, audit_undo_refusal, audit_undoable
from league.services.wishes import seating_wish_add, seating_wish_remove

__all__ = [
    "game_side_credentials", "side_credentials_ensure",
    "ALLOWED_TABLE_SIZES", "EVENT_FIELDS", "NEXT_STATUS", "SEASON_FIELDS", "SEATING_FIELDS",
    "MAX_BYE_POINTS", "STANDINGS_FIELDS",
    "audit_record", "audit_undo", "audit_undoable", "audit_undo_refusal",
    "registration_remove", "rotation_unstart",
    "player_add", "player_rename", "player_retire", "player_reinstate", "player_merge",
    "registration_add_partnerships", "registration_add_players", "registration_check_in_all", "rotation_reopen", "event_reopen", "event_call_off",
    "club_create", "club_update", "membership_add", "LEAGUE_SETTINGS_FIELDS", "league_settings_update",
    "substitute_seat", "substitute_remove",
    "seating_wish_add", "seating_wish_remove", "seating_plan_use", "prepared_plans_store",
    "rotation_seat_plan",
    "membership_invite", "invitation_accept", "invitation_decline", "invitation_withdraw",
    "player_create", "player_update", "partnership_create", "partnership_get_or_create",
    "league_create", "league_update", "season_create", "season_update",
    "division_create", "division_places_set", "divisions_promotion_confirm", "promotion_propose",
    "event_create", "event_update", "event_set_status",
    "registration_add", "registration_add_entrant", "registration_check_in",
    "registration_withdraw", "registration_reinstate",
    "rotation_generate", "rotation_update_seating", "rotation_swap_players",
    "rotation_set_first_dealer", "rotation_delete", "rotation_start", "rotation_close",
]
