"""The rules reference, docs/rules.md, answers every rule citation of the code.

- Every numbered citation of docs/rules.md in src/, tests/ and bench/ (comments, docstrings,
  templates, data files) names a section heading (``## 5. …``, ``### 4.1 …``) or a numbered
  point (``- **5.2** …``) of docs/rules.md.
- No file under src/ cites the specification file that is not in the repository: rule
  citations go to docs/rules.md.
- Every reference page cited by number ("seed 004", "seeds 000–003") is defined in the
  "Sources" section of docs/rules.md.
- Every knob of :data:`cardavia.belote.rules.KNOBS` (``name`` aside) has a row in the knob
  table of docs/rules.md, section 10.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardavia.belote.rules import KNOBS

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "rules.md"
CITING = ("src", "tests", "bench")
SKIPPED_DIRS = {"__pycache__", ".git", "node_modules", ".mypy_cache", ".ruff_cache"}

# A section number: 5, 5.2, 7.3 (never three digits, so "8, 162 points" cites 8 only).
_NUMBER = r"\d{1,2}(?:\.\d+)*(?![\d])"
_CITATION = re.compile(
    r"docs/rules\.md"
    # The number follows on the same line, or on the next line of the same comment.
    r"(?:[ \t]+|[ \t]*\n[ \t]*(?:#|//|\*|--)?[ \t]*)"
    rf"(?P<numbers>{_NUMBER}(?:[ \t]*(?:,|and|or|to|-|–)[ \t]*{_NUMBER})*)"
)
_HEADING = re.compile(r"^#{1,6}[ \t]+(\d+(?:\.\d+)*)\.?(?=[ \t]|$)", re.MULTILINE)
_POINT = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?\*\*(\d+(?:\.\d+)*)\*\*", re.MULTILINE)
_SPEC_FILE = re.compile(r"RULES\.md")
# Reference pages are numbered 000, 001 …: "seed 7" or "seed=123" is a random seed.
_PAGE = r"0\d\d(?!\d)"
_SEEDS = re.compile(rf"\bseeds?[ \t]+({_PAGE}(?:[ \t]*(?:,|/|-|–|and|or)[ \t]*{_PAGE})*)")
_SOURCE_ROW = re.compile(r"^\|[ \t]*seed[ \t]+(\d{3})[ \t]*\|", re.MULTILINE)


def text_files(*folders: str) -> Iterator[tuple[Path, str]]:
    """Every readable text file under the given folders of the repository, with its text."""
    for folder in folders:
        base = ROOT / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            parts = path.relative_to(ROOT).parts
            if not path.is_file() or any(
                part in SKIPPED_DIRS or part.endswith(".egg-info") for part in parts
            ):
                continue
            try:
                yield path, path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue


def line_of(text: str, offset: int) -> int:
    """The line number of a character offset."""
    return text.count("\n", 0, offset) + 1


def cited_numbers(text: str) -> Iterator[tuple[int, str]]:
    """Each section number cited as ``docs/rules.md N``, with the offset of its citation."""
    for match in _CITATION.finditer(text):
        for number in re.findall(_NUMBER, match["numbers"]):
            yield match.start(), number


def cited_seeds(text: str) -> Iterator[tuple[int, str]]:
    """Each reference page cited as ``seed 004`` or ``seeds 000–003`` (a range is expanded)."""
    for match in _SEEDS.finditer(text):
        tokens = re.findall(r"\d+|[-–]", match[1])
        previous: int | None = None
        in_range = False
        for token in tokens:
            if token in "-–":
                in_range = True
                continue
            number = int(token)
            first = previous + 1 if in_range and previous is not None else number
            for seed in range(first, number + 1):
                yield match.start(), f"{seed:03d}"
            previous, in_range = number, False


def reference_numbers() -> set[str]:
    """The numbers of docs/rules.md's headings and numbered points."""
    text = REFERENCE.read_text(encoding="utf-8")
    return set(_HEADING.findall(text)) | set(_POINT.findall(text))


def reference_section(title: str) -> str:
    """The text of the docs/rules.md section whose ``##`` heading contains ``title``."""
    text = REFERENCE.read_text(encoding="utf-8")
    match = re.search(rf"^## [^\n]*{re.escape(title)}[^\n]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"docs/rules.md has no section {title!r}"
    return match[1]


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("# docs/rules.md 5.2: partner master", ["5.2"]),
        ("(docs/rules.md 7.2 and 7.4: a carré …)", ["7.2", "7.4"]),
        ("docs/rules.md 1, 2;", ["1", "2"]),
        ("(docs/rules.md 3-8): deal", ["3", "8"]),
        ("(docs/rules.md 1 to 9)", ["1", "9"]),
        ("the examples of docs/rules.md 11.", ["11"]),
        ("docs/rules.md 8, 162 to the defenders", ["8"]),
        ("docs/rules.md 1's codes", ["1"]),
        ("docs/rules.md 10 and docs/rules-decisions.md", ["10"]),
        ("# defaults of docs/rules.md\n# 3-8 where", ["3", "8"]),
        ("written from docs/rules.md alone", []),
    ],
)
def test_citations_are_read_as_written(text: str, numbers: list[str]) -> None:
    assert [number for _, number in cited_numbers(text)] == numbers


@pytest.mark.parametrize(
    ("text", "seeds"),
    [
        ("(seed 004)", ["004"]),
        ("seeds 000–003", ["000", "001", "002", "003"]),
        ("seeds 000/001/003", ["000", "001", "003"]),
        ("seeds 000, 001 and 003", ["000", "001", "003"]),
        ("the seeds of the shuffle", []),
        ("a random seed 123, seed 7", []),
    ],
)
def test_seed_citations_are_read_as_written(text: str, seeds: list[str]) -> None:
    assert [seed for _, seed in cited_seeds(text)] == seeds


def test_reference_has_every_section() -> None:
    assert {str(n) for n in range(1, 12)} <= reference_numbers()


def test_every_numbered_citation_resolves() -> None:
    known = reference_numbers()
    missing = [
        f"{path.relative_to(ROOT)}:{line_of(text, offset)}: docs/rules.md {number}"
        for path, text in text_files(*CITING)
        if path != Path(__file__).resolve()
        for offset, number in cited_numbers(text)
        if number not in known
    ]
    assert not missing, "no such heading or point in docs/rules.md:\n" + "\n".join(missing)


def test_src_cites_only_files_in_the_repository() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{line_of(text, match.start())}"
        for path, text in text_files("src")
        for match in _SPEC_FILE.finditer(text)
    ]
    assert not outside, "cite docs/rules.md instead of the specification file:\n" + "\n".join(
        outside
    )


def test_every_cited_seed_is_a_defined_source() -> None:
    defined = set(_SOURCE_ROW.findall(reference_section("Sources")))
    assert defined, "docs/rules.md, Sources: no 'seed NNN' row"
    undefined = [
        f"{path.relative_to(ROOT)}:{line_of(text, offset)}: seed {seed}"
        for path, text in text_files("src", "tests")
        for offset, seed in cited_seeds(text)
        if seed not in defined
    ]
    assert not undefined, "not defined in docs/rules.md, Sources:\n" + "\n".join(undefined)


def test_every_knob_is_in_the_presets_table() -> None:
    table = reference_section("10.")
    rows = set(re.findall(r"^\|[ \t]*`(\w+)`[ \t]*\|", table, re.MULTILINE))
    missing = [knob for knob in KNOBS if knob != "name" and knob not in rows]
    assert not missing, f"knobs without a row in docs/rules.md 10: {missing}"
