"""The README and docs/ kept true: their examples run (doctest), and every file they point to
exists — a Markdown link, or a path of the repository named in the text (``docs/web.md``,
``bench/load.py``), so that a file moved or renamed is a failing test, not a dead link."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
EXAMPLES = [ROOT / "docs" / "engine.md"]

LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
"""A Markdown link's target, without its anchor."""
NAMED = re.compile(
    r"(?<![\w./-])((?:docs|bench|tests|src|deploy|training|\.ci)/[\w./-]*[\w/])(?![\w(])"
)
"""A path of the repository named in the text."""
PLACEHOLDERS = ("…", "*", "{", "<")
MADE_BY_COMMANDS = ("training/data/", "artefacts/")
"""Folders that commands fill (ignored by git): named as where output goes."""


def pointed_to(document: Path) -> list[str]:
    """The files and folders ``document`` points to, relative to the repository."""
    text = document.read_text(encoding="utf-8")
    found = [m.group(1) for m in LINK.finditer(text) if "://" not in m.group(1)]
    found = [str((document.parent / target).resolve().relative_to(ROOT)) for target in found]
    found += [m.group(1) for m in NAMED.finditer(text)]
    return [
        path
        for path in found
        if not any(mark in path for mark in PLACEHOLDERS) and not path.startswith(MADE_BY_COMMANDS)
    ]


@pytest.mark.parametrize("document", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_file_pointed_to_exists(document: Path) -> None:
    missing = sorted({path for path in pointed_to(document) if not (ROOT / path).exists()})
    assert missing == []


@pytest.mark.parametrize("document", EXAMPLES, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_examples_run(document: Path) -> None:
    failed, tried = doctest.testfile(str(document), module_relative=False, verbose=False)
    assert tried > 0
    assert failed == 0


def test_the_readme_is_read_in_five_minutes() -> None:
    """What a newcomer meets first stays short: the rest lives in docs/."""
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250
