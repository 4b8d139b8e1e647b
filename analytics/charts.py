"""Dashboard charts with plotly: each function returns an HTML fragment (a div and its script)
that expects plotly.js to be loaded once by the page: the static file
`vendor/plotly/plotly-cartesian.min.js`, plotly.js's cartesian bundle, so only its trace types
(`CARTESIAN_TRACES`) may be used here."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from analytics.ratings import shown_rating

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


# JSON inside <script type="application/json">: nothing in it may close the element.
_JSON_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


def _html(figure: go.Figure, title: str) -> str:
    """A placeholder and the figure as JSON; static/js/charts.js draws it (no inline script,
    as the site's Content-Security-Policy requires)."""
    figure.update_layout(title=title, **LAYOUT)
    spec = figure.to_plotly_json()
    spec["layout"]["template"] = TEMPLATE
    spec["config"] = CONFIG
    data = pio.to_json(spec, validate=False)
    return (
        '<div class="plotly-graph-div" role="img" aria-label="' + escape(title) + '"></div>'
        '<script type="application/json" class="plotly-figure">'
        + data.translate(_JSON_ESCAPES) + "</script>"
    )


def whole_number_step(largest: float, ticks: int = 5) -> int:
    """A tick step for an axis of counts up to `largest`: a whole number, at most ~`ticks`
    ticks (so never "1.5 games")."""
    return max(1, math.ceil(largest / ticks))


def rating_over_time(history: Sequence[tuple[int, float, float]]) -> str:
    """history: (games played, display value, mean) after each game; drawn on the familiar
    scale (`ratings.shown_rating`)."""
    games = [h[0] for h in history]
    figure = go.Figure([
        go.Scatter(x=games, y=[shown_rating(h[2]) for h in history], name="Rating", mode="lines"),
        go.Scatter(x=games, y=[shown_rating(h[1]) for h in history],
                   name="Cautious rating (minus uncertainty)", mode="lines", line={"dash": "dot"}),
    ])
    figure.update_xaxes(title="Games played", tickformat="d", tick0=0,
                        dtick=whole_number_step(max(games, default=1), 6))
    return _html(figure, "Rating over time")


def score_distribution(totals: Sequence[int]) -> str:
    counts, _ = np.histogram(list(totals), bins=min(20, max(len(totals), 1))) if totals else ([0], None)
    figure = go.Figure([go.Histogram(x=list(totals), nbinsx=20, name="Game totals")])
    figure.update_xaxes(title="Side's game total")
    figure.update_yaxes(title="Games", tickformat="d", tick0=0,
                        dtick=whole_number_step(max(counts)))
    return _html(figure, "Score distribution")


def round_averages(stats: dict, rounds: int = 4) -> str:
    labels = [f"Round {r}" for r in range(1, rounds + 1)]
    values = [stats.get(f"average_score_round_{r}") for r in range(1, rounds + 1)]
    figure = go.Figure([go.Bar(x=labels, y=values, name="Average side score")])
    return _html(figure, "Average score per round")


def books_by_type(stats: dict) -> str:
    kinds = ["clean", "dirty", "wild"]
    values = [stats.get(f"{kind}_books_per_round") for kind in kinds]
    figure = go.Figure([go.Bar(x=[k.title() for k in kinds], y=values, name="Books per round")])
    return _html(figure, "Books per round by type")


def partner_heat_map(partners: Sequence[tuple[str, dict]]) -> str:
    """partners: (partner name, pair figures) — win rate, expected rate and synergy per partner."""
    columns = [("win_rate", "Win rate"), ("expected_rate", "Expected"), ("synergy", "Synergy")]
    figure = go.Figure([go.Heatmap(
        z=[[data.get(key) for key, _ in columns] for _, data in partners],
        x=[label for _, label in columns],
        y=[name for name, _ in partners],
        colorscale="RdBu", zmid=0, texttemplate="%{z:.2f}",
    )])
    return _html(figure, "Partners")
