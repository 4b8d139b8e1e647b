"""Issue 22, finding 3 (the rest): every anonymous request is cheap. The engine checks take a
body no larger than a real document needs (a sheet 20 KB, a move log 600 KB), and the JSON
reader checks depth and NUL characters on the raw bytes. Behaviour only: bench/hostile_bench.py
measures the cost."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Submission
from handfoot.simulate import simulate_game
from tests.conftest import EXAMPLES_DIR
from tests.games.factories import named_game, sheet, side_link
from web.parsers import holds_nul, max_log_bytes, max_sheet_bytes, nesting_deeper_than

pytestmark = pytest.mark.django_db

SPEC_EXAMPLES = EXAMPLES_DIR


def post(client, url, body: str, **headers):
    return client.post(url, body, content_type="application/json", headers=headers)


def test_a_sheet_larger_than_a_real_sheet_is_413_in_words(api_client):
    body = json.dumps({**sheet(1), "note": "x" * max_sheet_bytes()})
    response = post(api_client, "/api/sheets/check/", body)
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "BODY_TOO_LARGE"
    assert f"{max_sheet_bytes():,} bytes" in error["message"]


def test_a_real_sheet_is_well_under_the_sheet_limit(api_client):
    body = json.dumps(sheet(1), indent=4)
    assert len(body) * 4 < max_sheet_bytes()
    assert post(api_client, "/api/sheets/check/", body).status_code == 200


def test_a_log_over_the_log_limit_is_413(api_client):
    log = simulate_game("classic", 4, seed=3, rounds=1)
    body = json.dumps({**log, "seats": ["x" * max_log_bytes(), *log["seats"][1:]]})
    response = post(api_client, "/api/logs/check/", body)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "BODY_TOO_LARGE"


def test_a_declared_length_over_the_sheet_limit_is_413_before_reading(api_client):
    response = api_client.generic("POST", "/api/sheets/check/", b"{}", "application/json",
                                  CONTENT_LENGTH=str(max_sheet_bytes() + 1))
    assert response.status_code == 413


@pytest.mark.parametrize("preset,players,sides", [("pagat", 6, 2), ("six-deck", 2, None)])
def test_the_longest_simulated_games_fit_the_log_limit_even_widely_indented(api_client, preset,
                                                                            players, sides):
    log = simulate_game(preset, players, sides=sides, seed=3)
    body = json.dumps(log, indent=4)
    assert len(body.encode()) < max_log_bytes()
    response = post(api_client, "/api/logs/check/", body)
    assert response.status_code == 200
    assert response.json()["valid"] is True


def test_every_example_of_the_spec_fits_its_endpoint(api_client):
    for path in sorted(SPEC_EXAMPLES.glob("*.json")):
        document = json.loads(path.read_text())
        if not isinstance(document, dict) or "format" not in document:
            continue
        url = "/api/logs/check/" if "log" in document["format"] else "/api/sheets/check/"
        response = post(api_client, url, path.read_text())
        assert response.status_code == 200, path.name


def test_a_wrong_table_link_with_a_body_over_the_log_limit_is_413_and_stores_nothing(api_client):
    game = named_game()
    body = json.dumps({"document": sheet(1), "side": 0, "pad": "x" * max_log_bytes()})
    response = post(api_client, f"/api/results/{game.pk}/submissions/", body,
                    **{"X-Entry-Token": side_link(game, 0) + "x", "Idempotency-Key": "k"})
    assert response.status_code == 413
    assert not Submission.objects.exists()


# --- the raw-byte checks agree with a walk of the parsed value


def depth_of(value) -> int:
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    return 0


def has_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


TEXT = st.text(alphabet=st.sampled_from(list('ab[]{}"\\\x00/\n')), max_size=6)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, database=None)
@given(JSON_VALUES, st.integers(0, 6), st.booleans())
def test_depth_and_nul_on_the_raw_bytes_agree_with_the_parsed_value(value, limit, indent):
    raw = json.dumps(value, indent=1 if indent else None).encode()
    assert nesting_deeper_than(raw, limit) == (depth_of(value) > limit)
    assert holds_nul(raw) == has_nul(value)


@pytest.mark.parametrize("text,nul", [
    ('["x\\u0000"]', True), ('["x\\\\u0000"]', False), ('["x\\\\\\u0000"]', True),
    ('{"\\u0000": 1}', True), ('["\\\\\\\\u0000"]', False),
])
def test_an_escaped_backslash_before_u0000_is_not_a_nul(text, nul):
    assert holds_nul(text.encode()) is nul


def test_brackets_inside_strings_do_not_count_as_nesting():
    raw = json.dumps({"a": "[" * 100, "b": ['"{{{{\\', "]]]"]}).encode()
    assert not nesting_deeper_than(raw, 2)
    assert nesting_deeper_than(raw, 1)
