"""Issue 42: CSV downloads print whole figures as integers (10240, not 10240.0), others to two
places at most; text that a spreadsheet would run stays quoted."""

import csv
import io

from analytics.views.public import _csv_response


def test_csv_exports_print_whole_figures_as_integers():
    rows = [{"statistic": "Average game", "value": 10240.0},
            {"statistic": "Average books", "value": 2.3456},
            {"statistic": "=1+1", "value": 7}]
    response = _csv_response("stats.csv", ["statistic", "value"], rows)
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[1:] == [["Average game", "10240"], ["Average books", "2.35"], ["'=1+1", "7"]]
