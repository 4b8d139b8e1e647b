"""Results of games.

`RoundResult` and `SeatRoundFacts` are the *current, confirmed* figures of each game, one row per
round and side (or seat). They are written only by `games.services` whenever a game's confirmed
result changes, and they are what the analytics read. The intake models (entries, versions,
confirmations) live beside them.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from handfoot.rules import ENTERED_PARTS, PartKind, ScoringPart


class RoundResult(models.Model):
    """One side's figures in one round of a game's current confirmed result: besides the fields
    below, a column for every part a scorer writes (`part_column`, added after the class)."""

    class EndedBy(models.TextChoices):
        WENT_OUT = "went_out", "Went out"
        STOCK_OUT = "stock_out", "Stock ran out"

    game = models.ForeignKey("league.Game", on_delete=models.CASCADE, related_name="round_results")
    round_number = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    ended_by = models.CharField(max_length=16, choices=EndedBy.choices, blank=True)
    detail = models.BooleanField(
        default=True,
        help_text="False for a result that carries only scores (a night played on paper, an "
        "imported spreadsheet): books, red 3s, points and going out are then not known (zero "
        "here) and statistics that need them leave the game out. Round 0 holds a game's total "
        "when not even its rounds are known.",
    )

    class Meta:
        ordering = ["game", "round_number", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round_number", "side"], name="roundresult_unique_side"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} round {self.round_number} side {self.side}: {self.score}"


_COLUMN_OF_KIND: dict[PartKind, type[models.Field]] = {
    PartKind.COUNT: models.PositiveSmallIntegerField,
    PartKind.POINTS: models.IntegerField,
    PartKind.YES_NO: models.BooleanField,
}


def part_column(part: ScoringPart) -> models.Field:
    """The stored column of a part a scorer writes: its kind's type, its default (a part added
    later reads as no or 0 in the results stored before it)."""
    return _COLUMN_OF_KIND[part.kind](default=part.default)


for _part in ENTERED_PARTS:  # one column per part, as declared once (handfoot.rules)
    RoundResult.add_to_class(_part.name, part_column(_part))


class SeatRoundFacts(models.Model):
    """Per-seat facts of one round, known only for games entered as move logs."""

    game = models.ForeignKey("league.Game", on_delete=models.CASCADE, related_name="seat_facts")
    round_number = models.PositiveSmallIntegerField()
    seat_number = models.PositiveSmallIntegerField()
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+")
    side = models.PositiveSmallIntegerField()
    turns = models.PositiveIntegerField(default=0)
    foot_turn = models.PositiveIntegerField(null=True, blank=True)
    pickups = models.PositiveIntegerField(default=0)
    cards_picked_up = models.PositiveIntegerField(default=0)
    melds_started = models.PositiveIntegerField(default=0)
    cards_laid = models.PositiveIntegerField(default=0)
    wilds_in_dirty = models.PositiveIntegerField(default=0)
    black_threes_discarded = models.PositiveIntegerField(default=0)
    cards_held = models.PositiveIntegerField(default=0)
    held_points = models.IntegerField(default=0)
    first_laydown_turn = models.PositiveIntegerField(null=True, blank=True)
    red_threes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "round_number", "seat_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round_number", "seat_number"], name="seatfacts_unique_seat"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} round {self.round_number} seat {self.seat_number}"


class Submission(models.Model):
    """One score sheet or move log exactly as it arrived, with what the engine made of it.

    Kept forever: the raw input is the evidence behind every result version. A director may
    withdraw a wrong entry before the result is confirmed (`withdrawn_at`, `withdrawn_by`): it
    stays here but no longer counts, until restored. `entrant` names who
    entered it: "game:<id>:side:<n>" for a side at the table (through the table link) or
    "user:<id>" for a signed-in scorer or director.
    """

    class Kind(models.TextChoices):
        SHEET = "sheet", "Score sheet"
        LOG = "log", "Move log"

    class Via(models.TextChoices):
        TABLE_LINK = "table_link", "Table link"
        ACCOUNT = "account", "Signed-in user"
        IMPORT = "import", "Bulk import"

    game = models.ForeignKey("league.Game", on_delete=models.CASCADE, related_name="submissions")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The sheet's round; empty for a move log."
    )
    document = models.JSONField()
    report = models.JSONField(help_text="The engine's report on the document.")
    differences = models.JSONField(
        default=list, blank=True, help_text="Where this differs from the other kind of entry."
    )
    entrant = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    via = models.CharField(max_length=16, choices=Via.choices)
    idempotency_key = models.CharField(max_length=128, unique=True)
    body_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Set while a director has withdrawn this entry (kept, but it no longer counts).",
    )
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["game", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="sheet", round_number__isnull=False))
                | (Q(kind="log", round_number__isnull=True)),
                name="submission_round_only_for_sheets",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.game} by {self.entrant}"


class ResultVersion(models.Model):
    """One complete set of a game's figures (every round), as entered, confirmed or corrected.

    Versions are never edited away: a new entry, a confirmation or a correction changes which
    version is current (`status` confirmed) and marks the others, so the history stays readable.
    `rounds` holds the engine's per-round report (sides and, from move logs, seats).
    """

    class Status(models.TextChoices):
        ENTERED = "entered", "Entered, waiting for confirmation"
        CONFIRMED = "confirmed", "Confirmed (current)"
        DISPUTED = "disputed", "Disputed"
        SUPERSEDED = "superseded", "Superseded"

    OPEN_STATUSES = (Status.ENTERED, Status.DISPUTED)

    game = models.ForeignKey(
        "league.Game", on_delete=models.CASCADE, related_name="result_versions"
    )
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices)
    rounds = models.JSONField()
    totals = models.JSONField()
    entered_by = models.CharField(max_length=64)
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_by = models.CharField(max_length=64, blank=True)
    confirmed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text="Why a director corrected the result.")
    based_on = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    detail = models.BooleanField(
        default=True,
        help_text="False when the result carries only scores (per round, or the game's total "
        "as round 0): never a sheet made up to look detailed.",
    )
    imported_from = models.CharField(
        max_length=300, blank=True, help_text="The spreadsheet, sheet and row it was imported from."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="resultversion_unique_number"),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status="confirmed"),
                name="resultversion_one_confirmed_per_game",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by="") | ~Q(confirmed_by=F("entered_by")),
                name="resultversion_confirmer_not_enterer",
            ),
            # A confirmed version was either confirmed by a second person or set by a director
            # with a written reason (a correction or a dispute resolved by new figures).
            models.CheckConstraint(
                condition=~Q(status="confirmed") | ~Q(confirmed_by="") | ~Q(reason=""),
                name="resultversion_confirmed_has_confirmer_or_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} v{self.number} ({self.status})"


class ResultImport(models.Model):
    """One spreadsheet of past results imported into a club, kept so that the same file
    imported again is recognised (by its content's digest) and changes nothing."""

    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="result_imports")
    file_name = models.CharField(max_length=255)
    digest = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    summary = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "digest"], name="resultimport_once_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.file_name} into {self.club}"


class ImportProfile(models.Model):
    """What a club's director told the import once: the meaning of headers it did not know
    (by the file's set of headers) and whether the club writes dates day first."""

    club = models.OneToOneField("league.Club", on_delete=models.CASCADE, related_name="import_profile")
    day_first = models.BooleanField(null=True, blank=True)
    header_maps = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"Import settings of {self.club}"
