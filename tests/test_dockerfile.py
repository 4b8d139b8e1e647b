"""The production image holds every package the project installs (a package missing from the
Dockerfile builds an image that cannot start)."""

import re
import tomllib

from tests.conftest import REPO_ROOT


def test_the_image_copies_every_installed_package():
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    packages = {p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (REPO_ROOT / "Dockerfile").read_text(), re.M))
    assert packages <= copied, f"not copied into the image: {sorted(packages - copied)}"
    assert all((REPO_ROOT / p / "__init__.py").exists() for p in packages)
