"""The spec's example files kept beside the tests (tests/spec_examples) are the spec's own: when
the project's shared/ folder is beside the repository, every copy equals its original."""

import pytest

from tests.conftest import EXAMPLES_DIR, shared_dir

ORIGINALS = shared_dir() / "spec" / "examples"


def test_every_example_the_tests_use_is_kept_beside_them():
    assert sorted(p.name for p in EXAMPLES_DIR.glob("*.json")) == [
        "below_minimum.json", "classic_stockout_game.json", "expect.json",
        "goes_out_with_yes.json", "sheet_seed_example.json"]


@pytest.mark.skipif(not ORIGINALS.is_dir(), reason="shared/ is not beside the repository here")
def test_the_copies_equal_the_spec_examples():
    for original in sorted(ORIGINALS.glob("*.json")):
        assert (EXAMPLES_DIR / original.name).read_bytes() == original.read_bytes(), original.name
