"""`{% load figures %}`: `{{ n|figure }}` ("7,200") and `{{ scores|figures }}` ("7,200 and
3,555"), for every page and mail that prints a game's rounds, scores or points
(`core.figures`)."""

from typing import Any

from django import template

from core.figures import figure as _figure
from core.figures import figures_words

register = template.Library()


@register.filter
def figure(value: Any) -> str:
    return _figure(value)


@register.filter
def figures(values: Any) -> str:
    return figures_words(values or [])
