"""What the zipped workbooks (XLSX and ODS) share: a zip of XML parts, refused before any XML
parser sees it when a part declares a document type (the way in for entities)."""

from __future__ import annotations

import re
import zipfile

from games.spreadsheets.limits import Unreadable

_ROOT_ELEMENT = re.compile(rb"<[A-Za-z_]")
_PROLOG_BYTES = 65_536


def refuse_document_types(archive: zipfile.ZipFile) -> None:
    """Refuse a workbook any of whose XML parts declares a document type: entities ("billion
    laughs", a file of the server named as an outside entity) come only with one, and no
    spreadsheet program writes one. Checked in each part's prolog, before any parser sees it."""
    for part in archive.infolist():
        if not part.filename.endswith(".xml"):
            continue
        with archive.open(part) as stream:
            head = stream.read(_PROLOG_BYTES)
        root = _ROOT_ELEMENT.search(head)
        prolog = head[: root.start()] if root else head
        if b"<!DOCTYPE" in prolog or (root is None and len(head) == _PROLOG_BYTES):
            raise Unreadable("The spreadsheet declares XML entities (a document type), which "
                             "no spreadsheet program writes; it is not read. Save it again "
                             "from the spreadsheet program.")
