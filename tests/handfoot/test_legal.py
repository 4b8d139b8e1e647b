import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import EngineError, apply_move
from handfoot.cards import PARSE
from handfoot.legal import legal_moves
from handfoot.moves import Discard, Draw
from handfoot.rules import PRESETS
from handfoot.simulate import STRATEGIES, _deal
from handfoot.state import State


def _start(preset: str, seed: int) -> State:
    rules = PRESETS[preset]
    deal = _deal(rules, 4, random.Random(seed))
    ids = lambda cs: [PARSE[c] for c in cs]  # noqa: E731
    return State.deal(rules, 1, 3, 2, [ids(h) for h in deal["hands"]], [ids(f) for f in deal["feet"]],
                      ids(deal["stock"]), ids(deal["discard"]))  # fmt: skip


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 1000))
def test_every_listed_move_is_legal_and_turns_can_end(preset, seed):
    state = _start(preset, seed)
    rng = random.Random(seed)
    for _ in range(150):
        if state.over:
            break
        moves = legal_moves(state)
        assert moves
        if state.phase == 0:
            assert Draw() in moves
        else:
            assert any(isinstance(m, Discard) for m in moves) or state.over
        for m in moves:
            trial = state.copy()
            try:
                apply_move(trial, state.turn, m)
            except EngineError as err:  # pragma: no cover - the assertion message
                raise AssertionError(f"{m} listed but illegal: {err}") from None
        apply_move(state, state.turn, STRATEGIES["random"](state, rng))


def test_copy_is_independent():
    state = _start("classic", 1)
    other = state.copy()
    apply_move(other, other.turn, Draw())
    assert state.phase == 0 and other.phase == 1
    assert len(state.stock) == len(other.stock) + 2
