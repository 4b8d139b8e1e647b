"""The league domain: clubs, people, events and their seating.

Models stay thin: rules about who may sit where live in `league.services` and the seating
generator (`league.seating`); the constraints here are the database's last line of defence.

The models by aggregate, one module each, all importable from here as Django and the migrations
name them (`league.models.Club`, `league.models._new_side_code`):

- `clubs`: Club, Membership, Invitation
- `players`: Player (and `shown_name`), Partnership, PlayerClaim
- `seasons`: League, Season, Division, DivisionPlace
- `events`: Event, Attendance, SeatingWish, PreparedPlan, Registration
- `rotations`: Rotation, Table, Seat, SitOut, Substitution
- `games`: Game, SideCredential (and the codes' alphabet)
- `audit`: AuditEntry
"""

from league.models.audit import (
    AuditEntry,
)
from league.models.clubs import (
    Club,
    Invitation,
    Membership,
)
from league.models.events import (
    Attendance,
    Event,
    PreparedPlan,
    Registration,
    SeatingWish,
)
from league.models.games import (
    CODE_ALPHABET,
    Game,
    SideCredential,
    _new_entry_code,
    _new_entry_token,
    _new_side_code,
)
from league.models.players import (
    Partnership,
    Player,
    PlayerClaim,
    shown_name,
)
from league.models.rotations import (
    Rotation,
    Seat,
    SitOut,
    Substitution,
    Table,
    TableExtraTime,
)
from league.models.seasons import (
    Division,
    DivisionPlace,
    League,
    Season,
)

__all__ = [
    "Club",
    "Membership",
    "Invitation",
    "shown_name",
    "Player",
    "Partnership",
    "PlayerClaim",
    "League",
    "Season",
    "Division",
    "DivisionPlace",
    "Event",
    "Attendance",
    "SeatingWish",
    "PreparedPlan",
    "Registration",
    "Rotation",
    "Table",
    "TableExtraTime",
    "Seat",
    "SitOut",
    "Substitution",
    "_new_entry_token",
    "_new_entry_code",
    "_new_side_code",
    "Game",
    "SideCredential",
    "CODE_ALPHABET",
    "AuditEntry",
]
