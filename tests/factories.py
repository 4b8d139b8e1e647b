"""factory_boy factories for the league models. Other apps' factories live beside their tests
(tests/games/factories.py, tests/analytics/factories.py) and build on these."""

import datetime

import factory
from django.contrib.auth import get_user_model

from league import models


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("pass-word-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = models.Membership.Role.DIRECTOR


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")
    slug = factory.Sequence(lambda n: f"player-{n}")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.League

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Season

    league = factory.SubFactory(LeagueFactory)
    name = "2026"
    slug = factory.Sequence(lambda n: f"season-{n}")
    starts_on = datetime.date(2026, 1, 1)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Event

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    date = datetime.date(2026, 11, 28)
    table_sizes = factory.LazyFunction(lambda: [4])
    tie_breaks = factory.LazyFunction(lambda: ["total_points", "wins"])
    seed = 42


class RotationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Rotation

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)


def make_game(*, event: models.Event | None = None, players: list | None = None,
              rotation_number: int = 1, table_number: int = 1, sides: int = 2,
              first_dealer: int = 3) -> models.Game:
    """A game at one table with its seats: seat s sits on side s % sides (partners opposite)."""
    event = event or EventFactory()
    players = players or [PlayerFactory(club=event.club) for _ in range(4)]
    rotation, _ = models.Rotation.objects.get_or_create(event=event, number=rotation_number)
    table = models.Table.objects.create(rotation=rotation, number=table_number)
    for seat_number, player in enumerate(players):
        models.Seat.objects.create(
            rotation=rotation, table=table, player=player,
            seat_number=seat_number, side=seat_number % sides,
        )
    return models.Game.objects.create(table=table, first_dealer=first_dealer)
