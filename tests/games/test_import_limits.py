"""Issue 42: hostile spreadsheets. A preview (in the web request) reads a bounded file: sizes a
file states (an XLSX's dimension and shared strings) are checked before any cell is read, a CSV
is read with a field size limit; the import itself (the job, the command line) reads within its
own, larger bounds. A file over the preview's bounds is previewed by a job within the import's
(no request reads it); one over the import's is refused in words, nothing kept: with 400 when
the file states it, else on the job's page."""

import csv
import io
import re
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import spreadsheets
from games.jobs import RESULTS_PREVIEW
from games.models import ResultImport, ResultVersion
from games.services import imports
from jobs.models import Job
from jobs.services.jobs import job_run_inline
from league.models import Event
from tests.factories import ClubFactory, MembershipFactory
from tests.games import import_helpers as h

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    membership = MembershipFactory(club=ClubFactory(slug="c"))
    client.force_login(membership.user)
    return membership


def preview(client, name, data):
    return client.post(reverse("director-results-import", args=["c"]),
                       {"file": SimpleUploadedFile(name, data), "action": "preview"})


def xlsx(rows):
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def refused_in_words(page, words):
    text = page.content.decode()
    assert page.status_code == 400, text[:500]
    assert words in text
    assert 'name="token"' not in text  # nothing kept for a next step
    assert not ResultImport.objects.exists() and not Event.objects.exists()


def test_a_sheet_of_2000_columns_is_refused_in_words_before_its_cells_are_read(
    client, director, monkeypatch
):
    data = xlsx([[f"h{c}" for c in range(2000)], list(range(2000)), list(range(2000))])

    def never(*args, **kwargs):
        raise AssertionError("the workbook was opened")

    monkeypatch.setattr(openpyxl, "load_workbook", never)
    # Over the import's bounds too, as the sheet states: refused at once, no job started.
    refused_in_words(preview(client, "wide.xlsx", data),
                     "has 2,000 columns; an import reads at most 200.")
    assert not Job.objects.exists()


def with_shared_strings(data: bytes, strings: list[str]) -> bytes:
    """The workbook with its text in a shared strings part, as Excel writes it (openpyxl writes
    strings inline)."""
    table = "".join(f"<si><t>{t}</t></si>" for t in strings)
    shared = ('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
              f'count="{len(strings)}" uniqueCount="{len(strings)}">{table}</sst>').encode()
    out = io.BytesIO()
    with (zipfile.ZipFile(io.BytesIO(data)) as source,
          zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy):
        for part in source.infolist():
            copy.writestr(part, source.read(part))
        copy.writestr("xl/sharedStrings.xml", shared)
    return out.getvalue()


def test_a_workbook_with_21_mb_of_shared_strings_is_refused_in_words(
    client, director, monkeypatch
):
    strings = ["x" * 1000] * 21_000  # 21 MB of text, a few KB compressed
    data = with_shared_strings(xlsx([["Date", "Team 1"]]), strings)
    assert len(data) < imports.MAX_IMPORT_BYTES
    monkeypatch.setattr(openpyxl, "load_workbook", lambda *a, **k: pytest.fail("opened"))
    refused_in_words(preview(client, "texts.xlsx", data),
                     "text has 21,")  # 21,xxx KB
    assert "KB; an import reads at most 20,000 KB." in \
        preview(client, "t.xlsx", data).content.decode()


def test_a_csv_with_a_200_kb_field_is_refused_in_words_by_the_job(client, director):
    out = io.StringIO()
    csv.writer(out).writerows([["Date", "Team 1", "Team 2"], ["2026-10-13", "y" * 200_000, "z"]])
    started = preview(client, "long.csv", out.getvalue().encode())
    assert started.status_code == 302  # over the preview's bounds: read by a job
    job = Job.objects.get(kind=RESULTS_PREVIEW)
    page = client.get(started.url).content.decode()
    assert job.status == Job.Status.FAILED
    assert ("A cell in row 2 of the file has 10,001 characters or more; an import reads at "
            "most 10,000 characters.") in page
    assert imports.upload_get(club=director.club, token=job.params["token"]) is None  # not kept
    assert not ResultImport.objects.exists() and not Event.objects.exists()


def wide_games(*, columns: int) -> bytes:
    """The club's past nights, one row per game, with a note in column `columns`: a sheet
    wider than a preview reads (60 columns), as a club's sheet with notes far to the right."""
    rows = [line.split(",") for line in h.game_row_totals(h.past_nights()).decode().splitlines()]
    rows[0] += [None] * (columns - 1 - len(rows[0])) + ["Notes"]
    for row in rows[1:]:
        row += [None] * (columns - len(row))
    rows[1][-1] = "moved from the hall"
    return h.xlsx_bytes({"Past": rows})


def test_a_file_over_the_previews_bounds_is_previewed_by_a_job_and_imported(
    client, director, monkeypatch, settings
):
    settings.JOBS_RUNNER = "thread"  # queued at the request's commit, which a test never sees

    def asked(form):
        """The page asked (no request reads the workbook), then its job run by the worker
        (within the import's bounds); the job's page once it is done."""
        with monkeypatch.context() as inside:
            inside.setattr(openpyxl, "load_workbook", lambda *a, **k: pytest.fail("read in a request"))
            started = form()
        assert started.status_code == 302
        job = Job.objects.filter(kind=RESULTS_PREVIEW).latest("created_at")
        assert 'data-job-progress="' in client.get(started.url).content.decode()  # the bar
        job_run_inline(job_id=job.pk)
        return client.get(started.url)

    page = asked(lambda: preview(client, "wide.xlsx", wide_games(columns=80)))
    text = page.content.decode()
    assert "Preview of wide.xlsx" in text and "“Notes”" in text  # a column to say what it holds
    assert "Import 8 games" not in text
    page = asked(lambda: client.post(reverse("director-results-import", args=["c"]), {
        "token": page.context["token"], "action": "map", "header": "Notes", "kind-0": "ignore"}))
    text = page.content.decode()
    assert "8 games on 2 nights, 8 new players to import." in text
    assert "Import 8 games" in text and not Event.objects.exists()
    settings.JOBS_RUNNER = "inline"
    done = client.post(reverse("director-results-import", args=["c"]),
                       {"token": page.context["token"], "action": "commit"}, follow=True)
    assert "8 games on 2 nights, 8 new players imported." in done.content.decode()
    assert ResultVersion.objects.filter(status="confirmed").count() == 8


def test_a_sheet_that_states_no_size_is_bounded_while_it_is_read():
    data = xlsx([list(range(100))])
    with zipfile.ZipFile(io.BytesIO(data)) as source, io.BytesIO() as target:
        with zipfile.ZipFile(target, "w") as copy:
            for part in source.infolist():
                body = source.read(part)
                if part.filename.startswith("xl/worksheets/"):
                    body = re.sub(rb"<dimension [^>]*>", b"", body)
                copy.writestr(part, body)
        stripped = target.getvalue()
    assert b"dimension" not in zipfile.ZipFile(io.BytesIO(stripped)).read("xl/worksheets/sheet1.xml")
    with pytest.raises(spreadsheets.TooLarge, match="has 61 columns or more; a preview reads"):
        spreadsheets.read_workbook(stripped, "s.xlsx", spreadsheets.PREVIEW)
    assert len(spreadsheets.read_workbook(stripped, "s.xlsx")[0].rows[0]) == 100  # the import's


def test_the_import_reads_within_its_own_larger_bounds():
    out = io.StringIO()
    csv.writer(out).writerows([["Date", "Note"], ["2026-10-13", "n" * 5_000]])
    data = out.getvalue().encode()
    with pytest.raises(spreadsheets.TooLarge):
        spreadsheets.read_workbook(data, "x.csv", spreadsheets.PREVIEW)
    assert spreadsheets.read_workbook(data, "x.csv")[0].rows[1][1] == "n" * 5_000
    assert csv.field_size_limit() == 131072  # the reader's limit is given back


LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
          b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
          b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n')
OUTSIDE = b'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'


def _with_doctype(data: bytes, member: str, doctype: bytes, entity: bytes) -> bytes:
    """The workbook with `member` given a document type and a cell that uses its entity."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            body = source.read(item)
            if item.filename == member:
                body = re.sub(rb"^<\?xml[^>]*\?>\s*", b"", body)
                body = doctype + body.replace(b"Ann", entity, 1)
            target.writestr(item, body)
    return out.getvalue()


def _ods(rows) -> bytes:
    import pandas as pd

    out = io.BytesIO()
    pd.DataFrame(rows).to_excel(out, engine="odf", header=False, index=False)
    return out.getvalue()


@pytest.mark.parametrize("doctype, entity", [(LAUGHS, b"&lol3;"), (OUTSIDE, b"&secret;")],
                         ids=["billion-laughs", "outside-file"])
@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_workbook_declaring_entities_is_refused_in_words_and_nothing_kept(
        client, director, kind, doctype, entity):
    rows = [["Date", "Player A", "Score 1"], ["2026-10-13", "Ann", 100]]
    plain = xlsx(rows) if kind == "xlsx" else _ods(rows)
    member = "xl/worksheets/sheet1.xml" if kind == "xlsx" else "content.xml"
    assert b"Ann" in zipfile.ZipFile(io.BytesIO(plain)).read(member)
    hostile = _with_doctype(plain, member, doctype, entity)
    with pytest.raises(spreadsheets.Unreadable, match="declares XML entities"):
        spreadsheets.read_workbook(hostile, f"past.{kind}")
    answer = preview(client, f"past.{kind}", hostile)
    assert answer.status_code == 400
    assert "declares XML entities" in answer.content.decode()
    assert "root:" not in answer.content.decode() and "lollol" not in answer.content.decode()
    assert not ResultImport.objects.exists()
    assert spreadsheets.read_workbook(plain, f"past.{kind}")[0].rows[1][1] == "Ann"
