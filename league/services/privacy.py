"""A person's own data: everything the site holds about them, downloaded; and their account
deleted, the person depersonalised while the club's results stay as they were (results name
players by id: only the name and the contact details go)."""

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Forbidden, Invalid
from league.errors import Code, refusal
from league.models import Attendance, Player, Registration, Seat
from league.signals import player_depersonalised, player_name_changed


def player_privacy_update(
    *, player: Player, user: User, name_shown: str | None = None, stats_public: bool | None = None
) -> Player:
    if player.user_id != user.pk:
        raise refusal(Forbidden, Code.NOT_YOURS)
    before = player.name_shown
    if name_shown is not None:
        if name_shown not in Player.NameShown.values:
            raise refusal(Invalid, Code.BAD_NAME_SHOWN, field='name_shown')
        player.name_shown = name_shown
    if stats_public is not None:
        player.stats_public = stats_public
    with transaction.atomic():
        player.save(update_fields=["name_shown", "stats_public"])
        if player.name_shown != before:
            player_name_changed.send(sender=Player, player_id=player.pk)
    return player


def account_data(*, user: User) -> dict[str, Any]:
    """Everything the league holds about `user` and the players linked to it, as JSON values;
    the layers above add theirs (`account_data_parts`)."""
    players = list(Player.objects.filter(user=user).select_related("club"))
    return {
        "account": {
            "username": user.username,
            "email": user.email,
            "joined": user.date_joined.isoformat(),
        },
        "players": [_player_data(player) for player in players],
    }


def _player_data(player: Player) -> dict[str, Any]:
    return {
        "club": player.club.name,
        "name": player.name,
        "name_shown": player.get_name_shown_display(),
        "statistics_public": player.stats_public,
        "entered_in": [
            {"event": r.event.name, "date": r.event.date.isoformat()}
            for r in Registration.objects.filter(player=player).select_related("event")
        ],
        "seats": [
            {
                "event": s.rotation.event.name,
                "rotation": s.rotation.number,
                "table": s.table.number,
                "seat": s.seat_number + 1,
                "side": s.side + 1,
            }
            for s in Seat.objects.filter(player=player).select_related("rotation__event", "table")
        ],
        "answers": [
            {"event": a.event.name, "answer": a.get_answer_display()}
            for a in Attendance.objects.filter(player=player).select_related("event")
        ],
    }


def player_calendar_renew(*, player: Player) -> Player:
    """Give the player a new secret calendar address (a new one turns the old address off)."""
    player.calendar_token = secrets.token_urlsafe(32)
    player.save(update_fields=["calendar_token"])
    return player


def account_delete(*, user: User) -> int:
    """Delete the account; each player it had keeps its results under "Former player N". The
    number of players depersonalised."""
    with transaction.atomic():
        players = list(Player.objects.select_for_update().filter(user=user))
        for player in players:
            player.name = f"Former player {player.pk}"
            player.slug = f"former-player-{player.pk}"
            player.user = None
            player.name_shown = Player.NameShown.HIDDEN
            player.stats_public = False
            player.calendar_token = None
            player.save()
            Attendance.objects.filter(player=player).delete()
            player.claims.all().delete()
            player_depersonalised.send(sender=Player, player_id=player.pk)
            player_name_changed.send(sender=Player, player_id=player.pk)
        user.delete()
    return len(players)
