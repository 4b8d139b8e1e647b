"""Cache headers of the static files WhiteNoise serves (no Django imports: settings load this)."""

from wsgiref.headers import Headers

ONE_YEAR = 365 * 24 * 60 * 60


def one_year_for_hashed_files(headers: Headers, path: str, url: str) -> None:
    """Files with a content hash in their name never change: cache them for a year (the longest
    that HTTP caches are asked to honour), not WhiteNoise's ten. Other files keep its short
    default, so a page never links a stale one."""
    if "immutable" in headers.get("Cache-Control", ""):
        headers["Cache-Control"] = f"max-age={ONE_YEAR}, public, immutable"
