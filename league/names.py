"""Names as a director types them: compared without accents, case, punctuation or word order,
and small misspellings caught (pure Python; the selectors match them against a club)."""

import difflib
import re
import unicodedata

CLOSE_ENOUGH = 0.8
MAX_PASTED_NAMES = 200


def name_key(name: str) -> str:
    """A name as compared: accents dropped, case folded, punctuation and extra spaces removed."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
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


def names_parse(text: str) -> list[str]:
    """Names from a pasted list: one per line (or separated by commas or semicolons); numbering
    such as "1." or "3)" and repeats are dropped. More than MAX_PASTED_NAMES: TooManyNames."""
    names: list[str] = []
    seen: set[str] = set()
    for part in re.split(r"[\n,;]+", text or ""):
        name = re.sub(r"^\s*\d+[.)]\s*", "", part).strip()
        if name and name_key(name) not in seen:
            seen.add(name_key(name))
            names.append(name[:120])
    if len(names) > MAX_PASTED_NAMES:
        raise TooManyNames(f"Paste at most {MAX_PASTED_NAMES} names at a time.")
    return names


# Between the two names of a partnership: "&", "+", "/", the word "and", a tab, "," or ";".
PAIR_SEPARATOR = re.compile(r"\s*(?:&|\+|/|\band\b|\t|,|;)\s*", re.IGNORECASE)


class BadPair(ValueError):
    pass


def pairs_parse(text: str) -> list[tuple[str, str]]:
    """Partnerships from a pasted list: one per line, two names joined by "&", "and", "+", "/"
    or a comma; numbering and repeated lines are dropped. A line without exactly two names, or
    more than MAX_PASTED_NAMES names in all: BadPair / TooManyNames, in words."""
    pairs: list[tuple[str, str]] = []
    seen: set[tuple[str, ...]] = set()
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
        if key not in seen:
            seen.add(key)
            pairs.append((names[0], names[1]))
    if 2 * len(pairs) > MAX_PASTED_NAMES:
        raise TooManyNames(f"Paste at most {MAX_PASTED_NAMES // 2} partnerships at a time.")
    return pairs
