"""Reads of the league domain: event lists, an event with its seating, rotation plans.

Every function here only reads; `league.services` does the writing.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from league import hooks
from league.models import (
    AuditEntry,
    Club,
    Event,
    Game,
    Invitation,
    Player,
    Registration,
    Rotation,
    Season,
    Seat,
    SeatingWish,
    SitOut,
    Substitution,
    Table,
)
from league.names import CLOSE_ENOUGH, name_key, name_similarity
from league.permissions import directed_clubs, visible_events
from league.seating import RotationPlan, TablePlan, Wish, quality_report

PLAYED_STATUSES = (Rotation.Status.STARTED, Rotation.Status.CLOSED)


def public_events(*, today: datetime.date | None = None, limit: int = 20) -> dict[str, list[Event]]:
    """Events anyone may see, split into upcoming (soonest first) and recent (latest first).
    Their status counts as well as their date: a finished event is recent whatever its date
    (never "upcoming"), and so is one dated before today."""
    today = today or timezone.localdate()
    events = visible_events(None).select_related("club", "season")
    finished = Q(status=Event.Status.FINISHED)
    return {
        "upcoming": list(events.filter(date__gte=today).exclude(finished)
                         .order_by("date", "name")[:limit]),
        "recent": list(events.filter(Q(date__lt=today) | finished)
                       .order_by("-date", "name")[:limit]),
    }


def director_events(*, user: User | AnonymousUser) -> QuerySet[Event]:
    """Events of every club the user directs, newest first."""
    return (
        Event.objects.filter(club__in=directed_clubs(user))
        .select_related("club", "season")
        .order_by("-date", "name")
    )


def _seats_with_players() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("player", "substitute_for")
                    .order_by("seat_number"))


def rotations_with_seating() -> QuerySet[Rotation]:
    """Rotations with tables, seats, players, games and sit-outs loaded in a fixed few queries."""
    tables = Table.objects.select_related("game").prefetch_related(_seats_with_players())
    return Rotation.objects.order_by("number").prefetch_related(
        Prefetch("tables", queryset=tables.order_by("number")),
        Prefetch("sit_outs", queryset=SitOut.objects.select_related("player").order_by("player__name")),
    )


def event_detail(*, slug: str, user: User | AnonymousUser) -> Event:
    """One event the user may see, with rotations → tables → seats → players prefetched.

    Raises Event.DoesNotExist for unknown slugs and for events the user may not see.
    """
    registrations = Registration.objects.select_related(
        "player", "partnership__player_a", "partnership__player_b"
    ).order_by("created_at", "pk")
    return (
        visible_events(user)
        .select_related("club", "season__league")
        .prefetch_related(
            Prefetch("rotations", queryset=rotations_with_seating()),
            Prefetch("registrations", queryset=registrations),
        )
        .get(slug=slug)
    )


def event_summary(*, slug: str, user: User | AnonymousUser) -> Event:
    """One event the user may see, with its club and season but not its seating or entrants
    (pages that keep each rotation drawn apart load only the rotations they draw).

    Raises Event.DoesNotExist for unknown slugs and for events the user may not see.
    """
    return visible_events(user).select_related("club", "season__league").get(slug=slug)


def entrants_filter() -> Q:
    """Who counts as an entrant: registered and not withdrawn (a withdrawal before or during
    the event takes them off every count; their games played still count in the standings)."""
    return Q(withdrawn_after_rotation__isnull=True)


def event_entrants(*, event: Event) -> QuerySet[Registration]:
    """The event's entrants (withdrawn registrations left out), in the order entered."""
    return event.registrations.filter(entrants_filter()).order_by("created_at", "pk")


def event_entrant_count(*, event: Event) -> int:
    """The one count of entrants every page shows; uses prefetched registrations when present."""
    cache = getattr(event, "_prefetched_objects_cache", {})
    if "registrations" in cache:
        return sum(1 for r in event.registrations.all() if r.withdrawn_after_rotation is None)
    return event_entrants(event=event).count()


def events_with_entrant_counts(*, events: QuerySet[Event]) -> QuerySet[Event]:
    """Events annotated with `entrants`, counted as `event_entrants` does."""
    return events.annotate(
        entrants=Count("registrations", filter=Q(registrations__withdrawn_after_rotation__isnull=True),
                       distinct=True)
    )


def registration_name(*, registration: Registration) -> str:
    return str(registration.player or registration.partnership)


def active_registrations(*, event: Event, rotation_number: int) -> list[Registration]:
    """Checked-in entrants who play the given rotation (joined by then, not withdrawn before)."""
    registrations = (
        event.registrations.filter(checked_in=True, joins_at_rotation__lte=rotation_number)
        .select_related("partnership")
        .order_by("pk")
    )
    return [
        r for r in registrations
        if r.withdrawn_after_rotation is None or r.withdrawn_after_rotation >= rotation_number
    ]


def last_played_rotation_number(*, event: Event) -> int:
    """Highest rotation that has started (0 when none has)."""
    numbers = event.rotations.filter(status__in=PLAYED_STATUSES).values_list("number", flat=True)
    return max(numbers, default=0)


def next_rotation_number(*, event: Event) -> int:
    return max(event.rotations.values_list("number", flat=True), default=0) + 1


# The history's line of a substitution (`league.services.substitutes`); the substitution itself
# is a `Substitution` row: while it is in force, the substitute plays for the member in every
# rotation of the night still to play.
SUBSTITUTE_ACTION = "substitute_seat"


def event_substitutions(*, event_id: int) -> dict[int, int]:
    """Member id → the id of the substitute playing for them tonight (substitutions in force)."""
    return dict(Substitution.objects.filter(event_id=event_id, removed_at__isnull=True)
                .order_by("pk").values_list("member_id", "substitute_id"))


@dataclass(frozen=True)
class SubstitutionView:
    member: Player
    substitute: Player
    since: str  # "from rotation 2", "from the first rotation"


def substitutions_list(*, event: Event) -> list[SubstitutionView]:
    """The night's substitutions in force, by member name, for the director's page."""
    pairs = event_substitutions(event_id=event.pk)
    players = Player.objects.in_bulk(list(pairs) + list(pairs.values()))
    first: dict[int, int] = {}
    for member, number in (Seat.objects.filter(rotation__event=event, substitute_for_id__in=list(pairs))
                           .order_by("rotation__number").values_list("substitute_for_id", "rotation__number")):
        first.setdefault(member, number)
    rows = [SubstitutionView(players[m], players[s],
                             f"from rotation {first[m]}" if m in first else "from the next rotation seated")
            for m, s in pairs.items() if m in players and s in players]
    return sorted(rows, key=lambda r: r.member.name)



def rotation_as_plan(*, rotation: Rotation) -> RotationPlan:
    """A rotation's stored seating as the seating generator's RotationPlan."""
    tables = []
    for table in rotation.tables.order_by("number").prefetch_related("seats").select_related("game"):
        seats = sorted(table.seats.all(), key=lambda s: s.seat_number)
        n_sides = max(s.side for s in seats) + 1 if seats else 0
        dealer = next((s.player_id for s in seats if s.seat_number == table.game.first_dealer), None)
        tables.append(
            TablePlan(
                seats=tuple(s.player_id for s in seats),
                sides=tuple(tuple(s.player_id for s in seats if s.side == k) for k in range(n_sides)),
                first_dealer=dealer if dealer is not None else seats[0].player_id,
            )
        )
    sit_out = tuple(rotation.sit_outs.order_by("player_id").values_list("player_id", flat=True))
    return RotationPlan(tables=tuple(tables), sit_out=sit_out)


SEASON_NIGHTS_USED = 20  # older nights weigh under 0.1% of the last one (see seating/season.py)


def season_earlier_nights(*, event: Event) -> tuple[tuple[RotationPlan, ...], ...]:
    """The rotations played on the earlier nights of the event's season, oldest night first,
    for season-aware seating; () when the event has no season or the season turned it off."""
    season = event.season
    if season is None or not season.season_aware_seating:
        return ()
    earlier = (
        Event.objects.filter(season=season)
        .exclude(pk=event.pk)
        .filter(Q(date__lt=event.date) | Q(date=event.date, created_at__lt=event.created_at))
        .order_by("-date", "-created_at")[:SEASON_NIGHTS_USED]
    )
    nights = []
    for night in reversed(list(earlier)):
        rotations = night.rotations.exclude(status=Rotation.Status.DRAFT).order_by("number")
        plans = tuple(rotation_as_plan(rotation=r) for r in rotations)
        if plans:
            nights.append(plans)
    return tuple(nights)


def rotation_points(*, rotation: Rotation) -> dict[int, int]:
    """Player id → their side's game total in this rotation, from confirmed results (which the
    games app provides through `league.hooks`)."""
    return hooks.rotation_points(rotation=rotation)


@dataclass
class SeatView:
    seat_number: int
    player: Player
    side: int
    deals_first: bool
    # The absent member the player plays for (a substitute), shown "played by X for Y".
    playing_for: Player | None = None


@dataclass
class TableView:
    number: int
    game: Game | None
    seats: list[SeatView]
    sides: list[list[Player]] = field(default_factory=list)
    # Seat's player id → the absent member they play for (`{{ player|seat_label:table }}`).
    playing_for: dict[int, Player] = field(default_factory=dict)


@dataclass
class RotationView:
    rotation: Rotation
    tables: list[TableView]
    sit_outs: list[Player]
    # Filled in by the director's event page for a draft rotation (the checks before start).
    repeated_partners: list[tuple[str, str, list[int]]] = field(default_factory=list)
    sit_out_reasons: dict[str, Any] = field(default_factory=dict)
    # its wishes kept or not and the independent checker's verdict (a NightCheck)
    seating_check: Any = None

    @property
    def players(self) -> list[Player]:
        """Everyone in the rotation, by name (for "swap these two" choices)."""
        seated = [seat.player for table in self.tables for seat in table.seats]
        return sorted(seated + self.sit_outs, key=lambda p: p.name)


def rotation_plan(*, rotation: Rotation) -> RotationView:
    """A rotation as a template draws it: tables with seats in clockwise order, each side's
    players (partners) and who deals first. Uses prefetched data when present."""
    tables = []
    for table in rotation.tables.all():
        game = getattr(table, "game", None)
        seats = [
            SeatView(s.seat_number, s.player, s.side, game is not None and s.seat_number == game.first_dealer,
                     s.substitute_for if s.substitute_for_id else None)
            for s in sorted(table.seats.all(), key=lambda s: s.seat_number)
        ]
        by_side: dict[int, list[Player]] = defaultdict(list)
        for seat in seats:
            by_side[seat.side].append(seat.player)
        tables.append(TableView(table.number, game, seats, [by_side[k] for k in sorted(by_side)],
                                {s.player.pk: s.playing_for for s in seats if s.playing_for}))
    sit_outs = [s.player for s in rotation.sit_outs.all()]
    return RotationView(rotation=rotation, tables=sorted(tables, key=lambda t: t.number), sit_outs=sit_outs)


def seating_quality(*, event: Event) -> dict[str, object]:
    """How fair the seating so far is: partner repeats, the spread of opponent meetings, and
    the fewest/most sit-outs and first deals per player (from `seating.quality_report`)."""
    plans = [rotation_as_plan(rotation=r) for r in event.rotations.order_by("number")]
    players = {p for plan in plans for t in plan.tables for p in t.seats} | {
        p for plan in plans for p in plan.sit_out
    }
    report = quality_report(plans, players)
    sit_outs, deals = report["sit_outs"].values(), report["deals"].values()
    return {
        "rotations": len(plans),
        "partner_repeats": report["partner_repeats"],
        "opponent_min": report["opponent_min"],
        "opponent_max": report["opponent_max"],
        "sit_outs_min": min(sit_outs, default=0),
        "sit_outs_max": max(sit_outs, default=0),
        "deals_min": min(deals, default=0),
        "deals_max": max(deals, default=0),
    }


def repeated_partners(*, rotation: Rotation) -> list[tuple[str, str, list[int]]]:
    """Partners in `rotation` who were partners in an earlier rotation of the event: (name,
    name, earlier rotation numbers), for the warning after a swap."""
    def pairs(r: Rotation) -> dict[frozenset[int], tuple[str, str]]:
        found: dict[frozenset[int], tuple[str, str]] = {}
        seats = Seat.objects.filter(rotation=r).select_related("player").values_list(
            "table_id", "side", "player_id", "player__name")
        by_side: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
        for table_id, side, player_id, name in seats:
            by_side[(table_id, side)].append((player_id, name))
        for members in by_side.values():
            for i, (a, name_a) in enumerate(members):
                for b, name_b in members[i + 1:]:
                    first, second = sorted((name_a, name_b))
                    found[frozenset((a, b))] = (first, second)
        return found

    mine = pairs(rotation)
    earlier: dict[frozenset[int], list[int]] = defaultdict(list)
    for other in rotation.event.rotations.filter(number__lt=rotation.number).order_by("number"):
        for pair in pairs(other):
            if pair in mine:
                earlier[pair].append(other.number)
    return sorted((*mine[pair], numbers) for pair, numbers in earlier.items())


def audit_entries(*, club: Club | None = None, event: Event | None = None,
                  player: Player | None = None, limit: int = 50) -> QuerySet[AuditEntry]:
    """The latest audit log entries of a club, an event or a player, newest first."""
    entries = AuditEntry.objects.select_related("user", "event", "player")
    if club is not None:
        entries = entries.filter(club=club)
    if event is not None:
        entries = entries.filter(event=event)
    if player is not None:
        entries = entries.filter(player=player)
    return entries[:limit]


@dataclass(frozen=True)
class NameMatch:
    player: Player
    similarity: float

    @property
    def exact(self) -> bool:
        return self.similarity == 1.0


def player_matches(*, club: Club, name: str, limit: int = 3,
                   exclude: Player | None = None) -> list[NameMatch]:
    """The club's players whose name is the same as `name` or close to it, best first."""
    wanted = name_key(name)
    if not wanted:
        return []
    players = club.players.all() if exclude is None else club.players.exclude(pk=exclude.pk)
    scored = [NameMatch(p, name_similarity(wanted, name_key(p.name))) for p in players]
    close = [m for m in scored if m.similarity >= CLOSE_ENOUGH]
    close.sort(key=lambda m: (-m.similarity, m.player.retired_at is not None, m.player.name))
    return close[:limit]


def player_possible_duplicates(*, club: Club) -> dict[int, list[Player]]:
    """Player id → other players of the club whose names are close to theirs."""
    players = list(club.players.all())
    keys = {p.pk: name_key(p.name) for p in players}
    found: dict[int, list[Player]] = {}
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            if name_similarity(keys[a.pk], keys[b.pk]) >= CLOSE_ENOUGH:
                found.setdefault(a.pk, []).append(b)
                found.setdefault(b.pk, []).append(a)
    return found


@dataclass
class NameRow:
    """One typed name and what the club already has: an exact match is used as is, close
    matches are offered before a new player is created."""

    typed: str
    exact: Player | None = None
    close: list[NameMatch] = field(default_factory=list)

    @property
    def needs_choice(self) -> bool:
        return self.exact is None and bool(self.close)


def names_match(*, club: Club, names: list[str]) -> list[NameRow]:
    rows = []
    for name in names:
        matches = player_matches(club=club, name=name)
        exact = next((m.player for m in matches if m.exact), None)
        rows.append(NameRow(typed=name, exact=exact, close=[] if exact else matches))
    return rows


def sit_out_reasons(*, rotation: Rotation) -> dict[str, Any]:
    """Why the rotation's sit-outs sit out: the event's rule in words, and per player how
    often they sat out before and whether they arrived late (rotations missed)."""
    event = rotation.event
    earlier = list(event.rotations.filter(number__lt=rotation.number).prefetch_related(
        "seats", "sit_outs"))
    lines = []
    for sit in rotation.sit_outs.select_related("player").order_by("player__name"):
        sat = sum(1 for r in earlier if any(s.player_id == sit.player_id for s in r.sit_outs.all()))
        missed = sum(1 for r in earlier
                     if not any(s.player_id == sit.player_id for s in r.seats.all())
                     and not any(s.player_id == sit.player_id for s in r.sit_outs.all()))
        words = f"sat out {sat} time{'s' if sat != 1 else ''} before"
        if missed:
            words += f"; arrived late (missed {missed} rotation{'s' if missed != 1 else ''})"
        lines.append(f"{sit.player.name}: {words}")
    return {
        "rule": Event.SitOutRule(event.sit_out_rule).label,
        "help": Event.SIT_OUT_RULE_HELP[event.sit_out_rule],
        "lines": lines,
    }


def invitations_for(*, user: User | AnonymousUser) -> QuerySet[Invitation]:
    """The invitations waiting for this account's answer (none for a visitor)."""
    if not user.is_authenticated:
        return Invitation.objects.none()
    return (Invitation.objects.filter(user=user, declined_at__isnull=True)
            .select_related("club", "invited_by").order_by("created_at"))


def club_invitations(*, club: Club) -> QuerySet[Invitation]:
    """Every invitation of the club not accepted yet, each shown the same way (declined ones
    and those to usernames no account has among them: the page never tells which)."""
    return club.invitations.order_by("username", "role")


def event_wishes(*, event: Event) -> list[SeatingWish]:
    """The seating wishes of the night and of its season, oldest first, with the players."""
    owner = Q(event=event) | (Q(season_id=event.season_id) if event.season_id else Q(pk__in=[]))
    return list(SeatingWish.objects.filter(owner).select_related("player", "other")
                .order_by("created_at", "pk"))


def seating_wishes(*, event: Event) -> tuple[Wish, ...]:
    """The night's and the season's wishes as the seating generator reads them."""
    return tuple(Wish(w.kind, w.player_id, w.other_id, w.table_number, w.seat_number)
                 for w in event_wishes(event=event))


def season_players(*, season: Season) -> list[Player]:
    """The season's players, by name: entered in one of its nights (alone or in a
    partnership) or placed in one of its divisions."""
    regs = Registration.objects.filter(event__season=season)
    ids = set(regs.exclude(player=None).values_list("player_id", flat=True))
    for a, b in regs.exclude(partnership=None).values_list("partnership__player_a_id",
                                                           "partnership__player_b_id"):
        ids.update((a, b))
    ids.update(season.division_places.values_list("player_id", flat=True))
    return list(Player.objects.filter(pk__in=ids).order_by("name", "pk"))
