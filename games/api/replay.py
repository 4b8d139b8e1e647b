"""GET /api/results/<id>/replay/: a logged game replayed by the engine, for viewers.

The same data as the replay page (format `hand-and-foot-replay/1`, docs/replay.md), under the
same visibility rule (`league.permissions.visible_events`)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFound
from games import replays
from games.api.serializers import SideScoreSerializer
from games.errors import Code, refusal


def _cards(help_text: str = "Cards as in the log (7H, TS, JK).") -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text)


class ReplayMeldSerializer(serializers.Serializer):
    rank = serializers.CharField(help_text="The meld's rank as in the log (4..K, A, T, wild).")
    cards = _cards()
    state = serializers.ChoiceField(choices=["clean", "dirty", "wild"])
    book = serializers.BooleanField(help_text="A complete book.")


class ReplayPileSerializer(serializers.Serializer):
    top = serializers.CharField(allow_null=True, help_text="The upcard (null: an empty pile).")
    size = serializers.IntegerField(min_value=0)
    frozen = serializers.BooleanField(help_text="Frozen by a discarded wild card.")
    blocked = serializers.BooleanField(help_text="A 3 on top blocks it.")


class ReplayTableSerializer(serializers.Serializer):
    hands = serializers.ListField(child=_cards(), help_text="Per seat (from 0), the hand.")
    feet = serializers.ListField(child=_cards(), help_text="Per seat, the foot not yet picked up.")
    melds = serializers.ListField(
        child=ReplayMeldSerializer(many=True), help_text="Per side, its melds."
    )
    pile = ReplayPileSerializer()
    stock = serializers.IntegerField(min_value=0)
    scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="Per side, the round's score if it ended now."
    )
    turn = serializers.IntegerField(min_value=0, help_text="The seat to play.")
    on_foot = serializers.ListField(child=serializers.BooleanField(), help_text="Per seat.")


class ReplayChangeSerializer(serializers.Serializer):
    """Only the table's keys that changed; per-seat and per-side lists as {index: value}."""

    hands = serializers.DictField(child=_cards(), required=False)
    feet = serializers.DictField(child=_cards(), required=False)
    melds = serializers.DictField(child=ReplayMeldSerializer(many=True), required=False)
    pile = ReplayPileSerializer(required=False)
    stock = serializers.IntegerField(required=False)
    scores = serializers.DictField(child=serializers.IntegerField(), required=False)
    turn = serializers.IntegerField(required=False)
    on_foot = serializers.DictField(child=serializers.BooleanField(), required=False)


class ReplayStepSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, help_text="Who played (from 0).")
    turn = serializers.IntegerField(min_value=0, help_text="The round's turn, from 1.")
    text = serializers.CharField(help_text="The event in words.")
    change = ReplayChangeSerializer()


class ReplayMomentSerializer(serializers.Serializer):
    step = serializers.IntegerField(min_value=0, help_text="After this many events.")
    kind = serializers.CharField(
        help_text="first_meld, pickup, foot, book, red3, went_out, stock_out or score."
    )
    seat = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()


class ReplayRoundScoreSerializer(serializers.Serializer):
    sides = SideScoreSerializer(many=True)  # the engine's report, as the results API has it
    scores = serializers.ListField(child=serializers.IntegerField())
    text = serializers.CharField()


class ReplayRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, help_text="The round, from 1.")
    dealer = serializers.IntegerField(help_text="The dealer's seat (from 0).")
    minimum = serializers.IntegerField(help_text="The round's first lay-down minimum.")
    start = ReplayTableSerializer(help_text="The table after the deal.")
    steps = ReplayStepSerializer(many=True, help_text="One per event, in order.")
    moments = ReplayMomentSerializer(many=True, help_text="What mattered, in words.")
    score = ReplayRoundScoreSerializer(help_text="The round's score as the sheet shows it.")
    ended_by = serializers.ChoiceField(choices=["went_out", "stock_out"])
    went_out_seat = serializers.IntegerField(allow_null=True)


class ReplaySerializer(serializers.Serializer):
    format = serializers.CharField(help_text="hand-and-foot-replay/1")
    seats = serializers.ListField(
        child=serializers.CharField(), help_text="Players by name, in seat order."
    )
    sides = serializers.IntegerField(help_text="Number of sides.")
    individual = serializers.BooleanField()
    side_of = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's side (from 0)."
    )
    side_names = serializers.ListField(child=serializers.CharField())
    rounds = ReplayRoundSerializer(many=True)
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="Per side, the game's total."
    )
    story = serializers.ListField(
        child=serializers.CharField(), help_text="The game in a few sentences."
    )


class ResultReplay(APIView):
    @extend_schema(
        summary="Replay a logged game: the table at every step, and what mattered",
        description="The table after the deal and, per event, only what changed (see "
        "docs/replay.md). 404 (NO_MOVE_LOG) for a game without a move log the engine accepted; "
        "404 as well for a game of an event the caller may not see.",
        responses=ReplaySerializer,
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = get_object_or_404(replays.replay_games(user=request.user), pk=game_id)
        replay = replays.game_replay(game=game)
        if replay is None:
            raise refusal(NotFound, Code.NO_MOVE_LOG, consequence="there is nothing to replay")
        return Response(replay)
