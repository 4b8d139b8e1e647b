"""Engine tests run without Django (`pytest tests/engine -p no:django`): the engine is pure
Python, so the project-wide autouse fixture that configures Celery is replaced here."""

import pytest


@pytest.fixture(autouse=True)
def _celery_in_process():
    """No Celery and no Django settings in engine tests."""
    yield
