"""Every refusal code of the pages across apps (a club's export and restore), declared once with
its one message. `tests/site_pages/test_error_codes.py` checks that no raise site in site_pages
names a code outside this registry."""

from __future__ import annotations

from enum import StrEnum

from core.errors import Registry


class Code(StrEnum):
    NOT_A_CLUB_EXPORT = "NOT_A_CLUB_EXPORT"
    CLUB_EXISTS = "CLUB_EXISTS"
    BAD_FORMAT = "BAD_FORMAT"
    BAD_RECORDS = "BAD_RECORDS"
    FOREIGN_RECORD = "FOREIGN_RECORD"
    ACCOUNT_EXISTS = "ACCOUNT_EXISTS"
    ALREADY_HERE = "ALREADY_HERE"


# One message per code; `{name}` blanks are filled at the raise site. A restore names the
# problem of the file in words (`problem`).
MESSAGES: dict[Code, str] = {
    Code.NOT_A_CLUB_EXPORT: "This is not a club export ({format}).",
    Code.CLUB_EXISTS: "A club {club!r} is already here: a restore makes a new club only, it never "
    "changes one that exists. Nothing was restored.",
    Code.BAD_FORMAT: "Nothing was restored: {problem}",
    Code.BAD_RECORDS: "Nothing was restored: the file's records do not fit together ({problem}).",
    Code.FOREIGN_RECORD: "Nothing was restored: {problem}",
    Code.ACCOUNT_EXISTS: "Nothing was restored: {problem}",
    Code.ALREADY_HERE: "Nothing was restored: {problem}",
}


REGISTRY = Registry(MESSAGES)
refusal = REGISTRY.refusal
