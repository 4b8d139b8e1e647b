"""An ODS spreadsheet: its content's size checked from the zip's directory (and, before it is
read, its XML parts for a document type), then its sheets read by pandas with odfpy; the sizes
of a sheet read this way are exact."""

from __future__ import annotations

import io
import zipfile

from games.spreadsheets.limits import Limits, Sheet, Unreadable, sizes_check, too_large
from games.spreadsheets.zipped import refuse_document_types


def ods_sizes_check(data: bytes, limits: Limits, *, refuse_entities: bool = False) -> None:
    """`TooLarge` in words when the content is over `limits` (uncompressed, as the zip's
    directory states it); `refuse_entities`: its XML parts checked for a document type too."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            content = archive.getinfo("content.xml").file_size
            if refuse_entities:
                refuse_document_types(archive)
    except (zipfile.BadZipFile, KeyError, OSError):
        raise Unreadable("The spreadsheet cannot be read (not a complete ODS file).") from None
    if content > limits.text_bytes:
        raise too_large("The spreadsheet's content", content // 1000, limits.text_bytes // 1000,
                        limits, " KB", unit_again=True)


def read_ods(data: bytes, limits: Limits) -> list[Sheet]:
    import pandas as pd

    ods_sizes_check(data, limits, refuse_entities=True)
    try:
        frames = pd.read_excel(io.BytesIO(data), engine="odf", sheet_name=None, header=None,
                               dtype=object)
    except Exception as err:  # odfpy and pandas raise many kinds for a damaged file
        raise Unreadable(f"The spreadsheet cannot be read ({err.__class__.__name__}).") from None
    sheets = []
    cells = 0
    for name, frame in frames.items():
        frame = frame.astype(object).where(frame.notna(), None)
        cells += frame.size
        sizes_check(str(name), frame.shape[0], frame.shape[1], cells, limits, stated=True)
        sheets.append(Sheet(str(name), [list(r) for r in frame.itertuples(index=False)]))
    return sheets
