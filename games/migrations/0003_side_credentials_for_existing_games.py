"""Every existing game gets one entry link and code per side. The game's old per-game link keeps
entering for a side only where that can be decided: exactly one side has entered through it."""

import secrets

from django.db import migrations

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def _code(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(7))
        if code not in taken:
            taken.add(code)
            return code


def old_link_side(entrants: set[str]) -> int | None:
    """The one side that entered through the old table link, if exactly one did."""
    sides = {int(e.rsplit(":", 1)[1]) for e in entrants if e.startswith("game:")}
    return sides.pop() if len(sides) == 1 else None


def forwards(apps, schema_editor):
    Game = apps.get_model("league", "Game")
    Seat = apps.get_model("league", "Seat")
    SideCredential = apps.get_model("league", "SideCredential")
    Submission = apps.get_model("games", "Submission")
    taken = set(SideCredential.objects.values_list("code", flat=True))
    rows = []
    for game in Game.objects.all().iterator():
        sides = sorted(set(Seat.objects.filter(table_id=game.table_id).values_list("side", flat=True)))
        existing = set(SideCredential.objects.filter(game=game).values_list("side", flat=True))
        entrants = set(
            Submission.objects.filter(game=game, via="table_link").values_list("entrant", flat=True)
        )
        old_side = old_link_side(entrants)
        rows += [
            SideCredential(
                game=game,
                side=side,
                token=secrets.token_urlsafe(24),
                code=_code(taken),
                takes_old_link=side == old_side,
            )
            for side in sides
            if side not in existing
        ]
    SideCredential.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_result_intake"),
        ("league", "0003_side_credentials"),
    ]

    # Existing rows only (elidable): the squashed migration, for new databases, leaves it out.
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True)]
