"""The dashboard charts fit the plotly.js bundle the site ships."""

import json
import re

import plotly.graph_objects as go
import pytest
from plotly.offline import get_plotlyjs_version

from analytics import charts
from config.settings import BASE_DIR

BUNDLE = BASE_DIR / "static" / "vendor" / "plotly" / "plotly-cartesian.min.js"
STATS = {"average_score_round_1": 900.0, "average_score_round_2": 1100.5,
         "average_score_round_3": 1300.0, "average_score_round_4": 1500.0,
         "clean_books_per_round": 1.2, "dirty_books_per_round": 0.8, "wild_books_per_round": 0.1}


@pytest.fixture
def figures():
    """Every chart of the player page, drawn once, as the figures charts.js hands plotly.js."""
    return [charts.figure_specs(html)[0] for html in (
        charts.rating_over_time([(1, -0.2, 0.0), (2, -0.15, 0.016)]),
        charts.score_distribution([1200, 3400, 2500]),
        charts.round_averages(STATS),
        charts.books_by_type(STATS),
        charts.partner_heat_map([("Ann", {"win_rate": 0.5, "expected_rate": 0.4, "synergy": 0.1})]),
    )]


def test_every_chart_uses_only_trace_types_of_the_cartesian_bundle(figures):
    types = {trace["type"] for figure in figures for trace in figure["data"]}
    assert len(figures) == 5
    assert types == {"scatter", "histogram", "bar", "heatmap"}
    assert types <= charts.CARTESIAN_TRACES


def test_figures_are_what_plotly_itself_would_write():
    """Written without plotly's Figure (for speed), each figure is the one it would build (the
    name as plain text: see the test below)."""
    figure = go.Figure([go.Heatmap(z=[[0.5, None, 0.1]], x=["Win rate", "Expected", "Synergy"],
                                   y=["Ann &amp; &lt;b&gt;"], colorscale="RdBu", zmid=0,
                                   texttemplate="%{z:.2f}")])
    figure.update_layout(title="Partners", **charts.LAYOUT)
    expected = figure.to_plotly_json()
    expected["layout"]["template"] = charts.TEMPLATE
    (drawn,) = charts.figure_specs(charts.partner_heat_map(
        [("Ann & <b>", {"win_rate": 0.5, "expected_rate": float("nan"), "synergy": 0.1})]))
    assert drawn["data"] == expected["data"]
    assert drawn["layout"] == expected["layout"]
    assert drawn["config"] == charts.CONFIG


def test_a_charts_json_is_the_whole_figure_as_json_writes_it_escaped_for_its_script():
    """The template's and config's JSON are written once, not per chart: the chart's text is
    still, character for character, json.dumps of the whole figure (escaped as before)."""
    html = charts.round_averages({"average_score_round_1": 1.5, "average_score_round_2": None})
    (drawn,) = charts.figure_specs(html)
    written = json.dumps(drawn, separators=(",", ":"), allow_nan=False)
    assert list(drawn) == ["data", "layout", "config"]
    assert list(drawn["layout"])[-1] == "template"
    assert drawn["layout"]["template"] == charts.TEMPLATE
    assert html.endswith('class="plotly-figure">' + written.translate(
        {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}) + "</script>")
    title = charts._html([{"type": "bar", "x": ["</script>&"]}], "A <b> & c",
                         xaxis={"title": {"text": "<i>"}})
    assert "</script>&" not in title.split('class="plotly-figure">')[1][:-len("</script>")]
    assert charts.figure_specs(title)[0]["data"][0]["x"] == ["</script>&"]

def test_shipped_bundle_is_the_plotly_js_version_the_python_package_draws_for():
    header = BUNDLE.read_text(encoding="utf-8")[:300]
    shipped = re.search(r"plotly\.js \(cartesian - minified\) v(\S+)", header)
    assert shipped is not None, "not plotly.js's cartesian bundle"
    assert shipped.group(1) == get_plotlyjs_version()
    assert (BUNDLE.parent / "LICENSE").read_text().startswith("MIT License")


def test_count_axes_step_in_whole_numbers_and_legends_sit_below(figures):
    rating, scores = figures[0], figures[1]
    assert rating["layout"]["xaxis"]["dtick"] == 1 and rating["layout"]["xaxis"]["tickformat"] == "d"
    assert scores["layout"]["yaxis"]["dtick"] == 1
    assert all(f["layout"]["legend"]["orientation"] == "h" and f["layout"]["legend"]["y"] < 0
               for f in figures)
    assert charts.whole_number_step(40, 6) == 7 and charts.whole_number_step(0.5) == 1


def test_the_rating_is_drawn_on_the_familiar_scale(figures):
    assert figures[0]["data"][0]["y"] == [1500, 1540]


EVIL = '<a href="https://evil.example">x</a>'


def test_a_name_written_as_html_is_plain_text_in_the_heat_map():
    """Issue 22, finding 11 (d): plotly.js reads <a href> (and <b>, <br>, <span style>) in labels
    and hover text; a player's name is written with entities, which it shows as typed."""
    html = charts.partner_heat_map([(EVIL, {"win_rate": 0.5, "expected_rate": 0.4, "synergy": 0.1}),
                                    ("Bo & <br>Li", {"win_rate": 0.2})])
    (figure,) = charts.figure_specs(html)
    labels = figure["data"][0]["y"]
    assert labels == ['&lt;a href="https://evil.example"&gt;x&lt;/a&gt;', "Bo &amp; &lt;br&gt;Li"]
    texts = json.dumps(figure)
    assert "<a" not in texts and "<br" not in texts
    assert "<a" not in html and "evil.example\">" not in html


@pytest.mark.parametrize("name", ["Ann", "Zoë O'Neil", "Tom &amp; Jerry", "<<>>", "&lt;"])
def test_plain_text_is_shown_as_typed_once_plotly_decodes_its_entities(name):
    """plotly.js decodes &amp; &lt; &gt; in one pass: decoding what plain_text wrote gives back
    the name exactly."""
    shown = re.sub(r"&(amp|lt|gt);", lambda m: {"amp": "&", "lt": "<", "gt": ">"}[m.group(1)],
                   charts.plain_text(name))
    assert shown == name
