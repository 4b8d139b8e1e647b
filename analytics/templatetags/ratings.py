"""Ratings as players read them (see analytics.ratings.compute and docs/analytics.md)."""

from django import template

from analytics.ratings.compute import rating_certainty, shown_margin, shown_rating

register = template.Library()


@register.filter
def rating(value: object) -> str:
    """A rating row (anything with `mu`) as the familiar number, e.g. "1,620"."""
    mu = getattr(value, "mu", None)
    return "–" if mu is None else f"{shown_rating(mu):,}"


@register.filter
def rating_margin(value: object) -> str:
    sigma = getattr(value, "sigma", None)
    return "" if sigma is None else f"±{shown_margin(sigma):,}"


@register.filter
def certainty(value: object) -> str:
    sigma = getattr(value, "sigma", None)
    return "" if sigma is None else rating_certainty(sigma, getattr(value, "games", None))
