import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot import EngineError, apply_move, move_allowed
from handfoot.cards import CARD_STR
from handfoot.legal import NATURAL_KEYS, legal_moves, meld_items
from handfoot.moves import Discard, Draw
from handfoot.rules import PRESETS
from handfoot.simulate import STRATEGIES, _deal
from handfoot.state import TO_BOOK, State

from .builders import state_from_deal


def _start(preset: str, seed: int) -> State:
    rules = PRESETS[preset]
    return state_from_deal(rules, 3, 2, _deal(rules, 4, random.Random(seed)))


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
            assert move_allowed(state, state.turn, m)
        not_held = next(c for c, n in enumerate(state.hands[state.turn]) if not n)
        for illegal in (Discard(CARD_STR[not_held]), Draw() if state.phase else Discard("JK")):
            before = _snapshot(state)
            assert not move_allowed(state, state.turn, illegal)
            assert _snapshot(state) == before
        apply_move(state, state.turn, STRATEGIES["random"](state, rng))


def test_copy_is_independent():
    state = _start("classic", 1)
    other = state.copy()
    apply_move(other, other.turn, Draw())
    assert state.phase == 0 and other.phase == 1
    assert len(state.stock) == len(other.stock) + 2


def _accepted(state: State, action: str, *args) -> bool:
    """Whether the State method `action` (seat first, then `args`) succeeds on a copy."""
    trial = state.copy()
    try:
        getattr(trial, action)(trial.turn, *args)
    except EngineError:
        return False
    return True


def _fresh(items):
    """The items with lists of their own (a meld may keep the list it is given)."""
    return [(key, ids[:], target) for key, ids, target in items]


def _mutations(state: State, items, rng: random.Random):
    """The lister's own candidates and near misses of them: a card more or less, another
    rank, a book target, two items of one rank, cards the seat does not hold."""
    hand = state.hand_cards(state.turn)
    yield items
    for key, ids, target in items:
        yield [(key, ids, target)]
        if ids[1:]:
            yield [(key, ids[:-1], target)]
        if hand:
            yield [(key, [*ids, rng.choice(hand)], target)]
        yield [(rng.choice(NATURAL_KEYS), ids, target)]
        yield [(key, ids, TO_BOOK)]
        yield [(key, ids, target), (key, ids[:1], 0)]
        yield [(key, [rng.randrange(len(CARD_STR))] * len(ids), target)]


def _snapshot(state: State) -> str:
    return repr((state.hands[state.turn], state.hand_n, state.open, state.laid_down,
                 state.book_counts, state.table_points, state.facts, state.pile, state.frozen))  # fmt: skip


def _positions(preset: str, seed: int):
    """Each position of a seeded game (greedy players for odd seeds, random for even ones),
    with the game's random source."""
    state = _start(preset, seed)
    rng = random.Random(seed)
    choose = STRATEGIES["greedy" if seed % 2 else "random"]
    for _ in range(400):
        if state.over:
            return
        yield state, rng
        apply_move(state, state.turn, choose(state, rng))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 10_000))
def test_meld_allowed_answers_as_meld_would_and_changes_nothing(preset, seed):
    asked = 0
    for state, rng in _positions(preset, seed):
        if state.phase != 1:
            continue
        for items in _mutations(state, meld_items(state)[:6], rng):
            before = _snapshot(state)
            expected = _accepted(state, "meld", _fresh(items))
            assert state.meld_allowed(state.turn, items) == expected, items
            assert _snapshot(state) == before
            asked += 1
    assert asked


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 10_000))
def test_pickup_allowed_answers_as_pickup_would_and_changes_nothing(preset, seed):
    asked = 0
    for state, rng in _positions(preset, seed):
        if state.phase != 0 or not state.pile:
            continue
        hand = state.hand_cards(state.turn)
        same = [c for c in hand if c // 4 == state.pile[-1] // 4]
        for pair in ([], same[:2], rng.sample(hand, min(2, len(hand)))):
            for items in _mutations(state, meld_items(state)[:4], rng):
                before = _snapshot(state)
                expected = _accepted(state, "pickup", pair[:], _fresh(items))
                assert state.pickup_allowed(state.turn, pair, items) == expected, (pair, items)
                assert _snapshot(state) == before
                asked += 1
    assert asked

