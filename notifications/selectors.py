"""Reads for the mail: who gets a game's result, and the result in the table's words."""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from games.models import ResultVersion, RoundResult
from league.models import Club, Game, Player, Seat, SideCredential
from notifications.models import ClubMail, Contact, MailOutage, SentMail


@dataclass(frozen=True)
class ResultRecipient:
    player: Player
    contact: Contact
    side: int  # the engine's side number (0 holds seat 0)
    entry_token: str  # the side's own entry link, where a dispute starts


def game_confirmed_version(*, game_id: int) -> ResultVersion | None:
    return (
        ResultVersion.objects.filter(game_id=game_id, status=ResultVersion.Status.CONFIRMED)
        .select_related("game__table__rotation__event__club")
        .first()
    )


def result_recipients(*, game: Game) -> list[ResultRecipient]:
    """The game's players who gave an address and want their results mailed (one query when
    none did, as for most games)."""
    seats = list(
        Seat.objects.filter(table__game=game, player__contact__isnull=False)
        .select_related("player__contact")
        .order_by("seat_number")
    )
    if not seats:
        return []
    tokens = dict(SideCredential.objects.filter(game=game).values_list("side", "token"))
    found = []
    for seat in seats:
        contact = seat.player.contact
        if contact.wants(Contact.Reason.RESULT):
            found.append(
                ResultRecipient(seat.player, contact, seat.side, tokens.get(seat.side, ""))
            )
    return found


def result_lines(*, game: Game) -> dict[str, Any]:
    """The game's sides (their players, `players`), each round's score per side, and the
    totals; `result_lines_for` puts in the names one reader may see."""
    names: dict[int, list[Player]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__game=game).select_related("player").order_by("seat_number")
    ):
        names[seat.side].append(seat.player)
    scores: dict[int, dict[int, int]] = defaultdict(dict)
    for row in RoundResult.objects.filter(game=game).order_by("round_number", "side"):
        scores[row.round_number][row.side] = row.score
    sides = sorted(names)
    rounds: list[dict[str, Any]] = [
        {"number": number, "scores": [scores[number].get(s, 0) for s in sides]}
        for number in sorted(scores)
    ]
    return {
        "sides": [
            {
                "number": i + 1,
                "players": names[s],
                "total": sum(r["scores"][i] for r in rounds),
            }
            for i, s in enumerate(sides)
        ],
        "rounds": rounds,
        "totals_only": rounds == [] or rounds[0]["number"] == 0,
    }


def result_lines_for(lines: dict[str, Any], *, reader: Player) -> dict[str, Any]:
    """`result_lines` as one player reads them in their mail: the other players as each chose
    to show their name in public (`Player.shown_name`: a mail goes to several people), the
    reader by their own name."""
    sides = [
        {**side, "names": " & ".join(
            p.name if p.pk == reader.pk else p.shown_name for p in side["players"])}
        for side in lines["sides"]
    ]
    return {**lines, "sides": sides}


def mail_outage_words() -> str | None:
    """While the mail server does not take mail: what the directors' pages say (None: mail goes
    out, as far as the last mail knows)."""
    outage = MailOutage.objects.filter(pk=MailOutage.ROW).first()
    if outage is None:
        return None
    from django.utils import timezone

    since = timezone.localtime(outage.since)
    when = f"{since:%H:%M}" if since.date() == timezone.localdate() else f"{since:%-d %b, %H:%M}"
    return f"Mail is not going out: {outage.reason} (since {when}). We will retry."


def mail_refused(*, reason: str, key: str, email: str) -> bool:
    """Whether the mail server refused this address for this mail (for good)."""
    return SentMail.objects.filter(
        reason=reason, key=key, email=email, status=SentMail.Status.REFUSED
    ).exists()


def club_mail_choice(*, club: Club) -> ClubMail:
    """The club's mail choices, or the defaults (unsaved) for a club that never chose: reading
    them stores nothing."""
    return ClubMail.objects.filter(club=club).first() or ClubMail(club=club)
