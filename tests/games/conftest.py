import pytest


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Users are made by the dozen here; a slow password hash would dominate the run."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
