"""Dashboard charts with plotly: each function returns an HTML fragment (a div and its script)
that expects plotly.js to be loaded once by the page: the static file
`vendor/plotly/plotly-cartesian.min.js`, plotly.js's cartesian bundle, so only its trace types
(`CARTESIAN_TRACES`) may be used here."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from html import escape

import numpy as np
import plotly.io as pio
from plotly.colors import get_colorscale

from analytics.ratings.compute import shown_rating

# The trace types of plotly.js's cartesian bundle (plotly.js-cartesian-dist-min).
CARTESIAN_TRACES = frozenset({"bar", "box", "contour", "funnel", "heatmap", "histogram",
                              "histogram2d", "histogram2dcontour", "image", "pie", "scatter",
                              "violin", "waterfall"})
CONFIG = {"displaylogo": False, "responsive": True}
# Legible on a 360 px phone: narrow margins, the legend below the plot (never beside it, where
# it takes half the width), counts on whole-number axes.
LAYOUT = {"margin": {"l": 44, "r": 12, "t": 40, "b": 40}, "height": 320,
          "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": -0.25, "yanchor": "top"}}
# Resolved once: setting a named template on a figure copies and checks all of it, 20 ms a chart.
TEMPLATE = pio.templates["plotly_white"].to_plotly_json()
# The partners' heat map colours, as plotly writes the named scale "RdBu" into a figure.
COLORSCALE = [[round(stop, 6), colour] for stop, colour in get_colorscale("RdBu")]


# JSON inside <script type="application/json">: nothing in it may close the element.
_JSON_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}
_SEPARATORS = (",", ":")
# The end of every figure's JSON: its layout's template, then the config (escaped as above).
_TEMPLATE_AND_CONFIG = (
    ',"template":' + json.dumps(TEMPLATE, separators=_SEPARATORS, allow_nan=False)
    + '},"config":' + json.dumps(CONFIG, separators=_SEPARATORS, allow_nan=False) + "}"
).translate(_JSON_ESCAPES)


def _html(traces: list[dict], title: str, **axes: dict) -> str:
    """A placeholder and the figure as JSON; static/js/charts.js draws it (no inline script,
    as the site's Content-Security-Policy requires). The figure is written as plotly.js reads
    it (what `plotly.graph_objects.Figure.to_plotly_json` gives) without building a plotly
    Figure: its validation of every property took most of the player page's time. A figure,
    not an image: plotly.js puts its buttons (zoom, download) inside."""
    # {"data": traces, "layout": {title, **LAYOUT, **axes, "template": TEMPLATE}, "config":
    # CONFIG} as json.dumps writes it, the template's and config's JSON written once (the
    # template's was nine tenths of a chart's time).
    layout = json.dumps({"title": {"text": title}, **LAYOUT, **axes}, separators=_SEPARATORS,
                        allow_nan=False)
    data = ('{"data":' + json.dumps(traces, separators=_SEPARATORS, allow_nan=False)
            + ',"layout":' + layout[:-1])
    return (
        '<div class="plotly-graph-div" role="figure" aria-label="' + escape(title) + '"></div>'
        '<script type="application/json" class="plotly-figure">'
        + data.translate(_JSON_ESCAPES) + _TEMPLATE_AND_CONFIG + "</script>"
    )


# plotly.js reads a few HTML tags in every label, tick and hover text (<a href>, <b>, <br>,
# <span style> ...) and decodes entities in the text between them: with these three written as
# entities, a name is shown as typed and can never become a link or styled text.
_PLOTLY_TEXT_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}


def plain_text(text: str) -> str:
    """A name (anything a person typed) as plotly.js text that it shows exactly as typed."""
    return str(text).translate(_PLOTLY_TEXT_ESCAPES)


def figure_specs(html: str) -> list[dict]:
    """The figures (data, layout, config) in chart HTML, as charts.js reads them."""
    return [json.loads(text) for text in re.findall(
        r'<script type="application/json" class="plotly-figure">(.*?)</script>', html)]


def whole_number_step(largest: float, ticks: int = 5) -> int:
    """A tick step for an axis of counts up to `largest`: a whole number, at most ~`ticks`
    ticks (so never "1.5 games")."""
    return max(1, math.ceil(largest / ticks))


def _number(value: object) -> float | None:
    """A figure's number as JSON takes it (NaN and infinities as gaps)."""
    if value is None or isinstance(value, int):
        return value
    if not isinstance(value, float | str):  # a stored figure is a number (or its text)
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def rating_over_time(history: Sequence[tuple[int, float, float]]) -> str:
    """history: (games played, display value, mean) after each game; drawn on the familiar
    scale (`ratings.shown_rating`)."""
    games = [h[0] for h in history]
    return _html(
        [{"type": "scatter", "x": games, "y": [shown_rating(h[2]) for h in history],
          "name": "Rating", "mode": "lines"},
         {"type": "scatter", "x": games, "y": [shown_rating(h[1]) for h in history],
          "name": "Rating used for the ranking (rating minus its uncertainty)", "mode": "lines",
          "line": {"dash": "dot"}}],
        "Rating over time",
        xaxis={"title": {"text": "Games played"}, "tickformat": "d", "tick0": 0,
               "dtick": whole_number_step(max(games, default=1), 6)})


def score_distribution(totals: Sequence[int]) -> str:
    counts, _ = np.histogram(list(totals), bins=min(20, max(len(totals), 1))) if totals else ([0], None)
    return _html(
        [{"type": "histogram", "x": [int(t) for t in totals], "nbinsx": 20,
          "name": "Game totals"}],
        "Score distribution",
        xaxis={"title": {"text": "Side's game total"}},
        yaxis={"title": {"text": "Games"}, "tickformat": "d", "tick0": 0,
               "dtick": whole_number_step(int(max(counts)))})


def round_averages(stats: dict, rounds: int = 4) -> str:
    labels = [f"Round {r}" for r in range(1, rounds + 1)]
    values = [_number(stats.get(f"average_score_round_{r}")) for r in range(1, rounds + 1)]
    return _html([{"type": "bar", "x": labels, "y": values, "name": "Average side score"}],
                 "Average score per round")


def books_by_type(stats: dict) -> str:
    kinds = ["clean", "dirty", "wild"]
    values = [_number(stats.get(f"{kind}_books_per_round")) for kind in kinds]
    return _html([{"type": "bar", "x": [k.title() for k in kinds], "y": values,
                   "name": "Books per round"}], "Books per round by type")


def partner_heat_map(partners: Sequence[tuple[str, dict]]) -> str:
    """partners: (partner name, pair figures) — win rate, expected rate and synergy per partner.
    The names are plain text (`plain_text`): a name that looks like HTML is shown as typed."""
    columns = [("win_rate", "Win rate"), ("expected_rate", "Expected"), ("synergy", "Synergy")]
    return _html([{
        "type": "heatmap",
        "z": [[_number(data.get(key)) for key, _ in columns] for _, data in partners],
        "x": [label for _, label in columns],
        "y": [plain_text(name) for name, _ in partners],
        "colorscale": COLORSCALE, "zmid": 0, "texttemplate": "%{z:.2f}",
    }], "Partners")


def calibration(deciles: Sequence[tuple[float, float, int]]) -> str:
    """How well the ratings' chances came true: for each tenth of the chances they gave (from
    the latest backtest), the chance said against how often that side won; on the diagonal is a
    rating that says exactly what happens."""
    filled = [(said, won, count) for said, won, count in deciles if count]
    return _html(
        [{"type": "scatter", "x": [0, 100], "y": [0, 100], "mode": "lines",
          "name": "What a perfect rating would show", "line": {"dash": "dot"}},
         {"type": "scatter", "x": [round(100 * s, 1) for s, _, _ in filled],
          "y": [round(100 * w, 1) for _, w, _ in filled], "mode": "lines+markers",
          "name": "Our ratings", "text": [f"{c} sides" for _, _, c in filled]}],
        "When we said this chance, the side won this often",
        xaxis={"title": {"text": "Chance the ratings gave (%)"}, "range": [0, 100]},
        yaxis={"title": {"text": "Sides that won (%)"}, "range": [0, 100]})
