"""Names as a director types them: compared without accents, case, punctuation or word order,
and small misspellings caught (pure Python; the selectors match them against a club)."""

import difflib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from anyascii import anyascii

CLOSE_ENOUGH = 0.8
MAX_PASTED_NAMES = 200


def _latin_letter(c: str) -> str:
    """A Latin letter that no accent can be taken off (ø, æ, ł, đ, þ, œ) as the letters a
    director types for it without the key (o, ae, l, d, th, oe); any other character as it is
    (Chinese, Greek or Cyrillic names are compared in their own script, never by sound)."""
    code = ord(c)
    if 0x80 <= code <= 0x24F or 0x1E00 <= code <= 0x1EFF:
        return anyascii(c)
    return c


def name_key(name: str) -> str:
    """A name as compared: accents dropped (and Latin letters such as ø as o), case folded,
    punctuation and extra spaces removed."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(_latin_letter(c) for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w\s]", " ", bare.casefold()).split())


def name_similarity(a: str, b: str) -> float:
    """1.0 for the same name key, 0.99 for the same words in another order, else difflib's ratio;
    0 when the numbers in them differ ("Guest 1" is never "Guest 2")."""
    if a == b:
        return 1.0
    if re.findall(r"\d+", a) != re.findall(r"\d+", b):
        return 0.0
    if sorted(a.split()) == sorted(b.split()):
        return 0.99
    return difflib.SequenceMatcher(None, a, b).ratio()


class TooManyNames(ValueError):
    pass


@dataclass(frozen=True)
class Repeat:
    """A name (or partnership) pasted more than once: how it was written each time, and on
    which lines (from 1)."""

    spellings: tuple[str, ...]
    lines: tuple[int, ...]
    what: str = "name"

    def words(self) -> str:
        """What the director is told, e.g. “Ann Lee” is on lines 2 and 7: entered once."""
        names = list(dict.fromkeys(self.spellings))
        if len(self.lines) == 1:
            times = len(self.spellings)
            where = f"{'twice' if times == 2 else f'{times} times'} on line {self.lines[0]}"
        else:
            where = "lines " + ", ".join(str(n) for n in self.lines[:-1]) + f" and {self.lines[-1]}"
        if len(names) == 1:
            return f"\u201c{names[0]}\u201d is {'' if len(self.lines) == 1 else 'on '}{where}: " \
                   "entered once."
        shown = " and ".join(f"\u201c{n}\u201d" for n in names)
        return (f"{shown} ({where}) are the same {self.what}: entered once, as "
                f"\u201c{names[0]}\u201d.")


class _Seen:
    """Keys met so far in a paste: the first spelling and every line of each."""

    def __init__(self, what: str = "name") -> None:
        self.what = what
        self.first: dict[Any, list[tuple[int, str]]] = {}

    def add(self, key: Any, line: int, spelling: str) -> bool:
        """Record one occurrence; True the first time the key is met."""
        met = self.first.setdefault(key, [])
        met.append((line, spelling))
        return len(met) == 1

    def repeats(self) -> list[Repeat]:
        return [Repeat(tuple(s for _, s in met), tuple(dict.fromkeys(n for n, _ in met)), self.what)
                for met in self.first.values() if len(met) > 1]


def names_parse_report(text: str) -> tuple[list[str], list[Repeat]]:
    """Names from a pasted list: one per line (or separated by commas or semicolons); numbering
    such as "1." or "3)" is dropped, and a name met again (the same once accents, capitals and
    punctuation are set aside: "Sørensen" and "Sorensen") is entered once and reported.
    More than MAX_PASTED_NAMES: TooManyNames."""
    names: list[str] = []
    seen = _Seen()
    for number, line in enumerate((text or "").splitlines(), start=1):
        for part in re.split(r"[,;]+", line):
            name = re.sub(r"^\s*\d+[.)]\s*", "", part).strip()[:120]
            if name and seen.add(name_key(name), number, name):
                names.append(name)
    if len(names) > MAX_PASTED_NAMES:
        raise TooManyNames(f"Paste at most {MAX_PASTED_NAMES} names at a time.")
    return names, seen.repeats()


def names_parse(text: str) -> list[str]:
    """The names of `names_parse_report`, without the report of repeats."""
    return names_parse_report(text)[0]


# Between the two names of a partnership: "&", "+", "/", the word "and", a tab, "," or ";".
PAIR_SEPARATOR = re.compile(r"\s*(?:&|\+|/|\band\b|\t|,|;)\s*", re.IGNORECASE)


class BadPair(ValueError):
    pass


def pairs_parse_report(text: str) -> tuple[list[tuple[str, str]], list[Repeat]]:
    """Partnerships from a pasted list: one per line, two names joined by "&", "and", "+", "/"
    or a comma; numbering is dropped and a repeated partnership (in either order) entered once
    and reported. A line without exactly two names, or more than MAX_PASTED_NAMES names in all:
    BadPair / TooManyNames, in words."""
    pairs: list[tuple[str, str]] = []
    seen = _Seen("partnership")
    for number, line in enumerate((text or "").splitlines(), start=1):
        line = re.sub(r"^\s*\d+[.)]\s*", "", line).strip()
        if not line:
            continue
        names = [n.strip()[:120] for n in PAIR_SEPARATOR.split(line) if n.strip()]
        if len(names) != 2:
            raise BadPair(
                f"Line {number} (\u201c{line[:60]}\u201d) should name two players, like "
                "\u201cAnn Lee & Bob Ray\u201d."
            )
        key = tuple(sorted(name_key(n) for n in names))
        if seen.add(key, number, f"{names[0]} & {names[1]}"):
            pairs.append((names[0], names[1]))
    if 2 * len(pairs) > MAX_PASTED_NAMES:
        raise TooManyNames(f"Paste at most {MAX_PASTED_NAMES // 2} partnerships at a time.")
    return pairs, seen.repeats()


def pairs_parse(text: str) -> list[tuple[str, str]]:
    """The partnerships of `pairs_parse_report`, without the report of repeats."""
    return pairs_parse_report(text)[0]


def played_by(substitute: str, member: str) -> str:
    """How every page names a seat a substitute played for an absent member."""
    return f"played by {substitute} for {member}"


def room_names(asked: str | None) -> str:
    """The names a printed card or sheet shows: "full" (the default: paper stays in the room) or
    "public" (the names players chose for public pages), as the director asked (`?names=`)."""
    return "public" if asked == "public" else "full"
