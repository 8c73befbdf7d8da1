"""The docs name the modules as they are: each floor of the package has its paragraph in
docs/architecture.md ("The rooms of each floor") naming every module of the floor, and the
game server's and the site's face's tables in docs/web.md ("The modules of live/", "The
modules of web/") name every module of theirs — and none of them names, as its own, a module
that is not there (one moved to another floor, or one that never was).

A name counts where it is written in backquotes, alone (`` `tables` ``) or as a route file
(`` `routes/tables.py` ``); a name that is no module of the floor must be one of its code's
own words (a function, a class, a setting: `` `close_due` ``), and never another floor's
module alone (unless the floor's code defines that name, or uses it as a key: the words'
``rules`` domain).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "cardavia"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
WEB = ROOT / "docs" / "web.md"
QUOTED = re.compile(r"`([^`\n]+)`")
BARE = re.compile(r"[a-z][a-z0-9_]*")
ROUTE = re.compile(r"(routes/[a-z0-9_]+)\.py")


def floors() -> list[str]:
    """The package's floors: its sub-packages."""
    return sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))


@cache
def modules(floor: str) -> frozenset[str]:
    """A floor's modules by name, and its sub-packages' as ``name/`` (their modules as
    ``name/module``)."""
    folder = PACKAGE / floor
    names = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    for package in folder.glob("*/__init__.py"):
        names.add(package.parent.name + "/")
        names |= {
            f"{package.parent.name}/{p.stem}"
            for p in package.parent.glob("*.py")
            if p.stem != "__init__"
        }
    return frozenset(names)


@cache
def words_of(floor: str) -> str:
    """Every source line of a floor, to find a name its code defines or uses."""
    return "\n".join(p.read_text(encoding="utf-8") for p in (PACKAGE / floor).rglob("*.py"))


def paragraph(floor: str) -> str:
    """The floor's paragraph of docs/architecture.md (from its ``**floor/**`` to the next
    blank line)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    found = re.search(rf"^\*\*{floor}/\*\*.*?(?=\n\n)", text, re.M | re.S)
    assert found, f"docs/architecture.md has no paragraph for {floor}/"
    return found.group(0)


def section(title: str) -> str:
    """The table of one ``##`` section of docs/web.md."""
    text = WEB.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", text, re.M | re.S)
    assert found, f"docs/web.md has no section {title!r}"
    return "\n".join(line for line in found.group(1).splitlines() if line.startswith("|"))


def named(text: str) -> set[str]:
    """The module names a text writes in backquotes: alone, or as a route file."""
    names: set[str] = set()
    for quoted in QUOTED.findall(text):
        if BARE.fullmatch(quoted):
            names.add(quoted)
        elif route := ROUTE.fullmatch(quoted):
            names.add(route.group(1))
        elif BARE.fullmatch(quoted.rstrip("/")):
            names.add(quoted)
    return names


def misnamed(floor: str, names: set[str]) -> dict[str, str]:
    """The names that are not the floor's: another floor's module, or no word of its code."""
    wrong: dict[str, str] = {}
    for name in sorted(names - modules(floor)):
        if name.endswith("/") or "/" in name:
            continue  # a folder beside the code (``training/``), checked by test_docs
        elsewhere = [f for f in floors() if f != floor and name in modules(f)]
        own = rf"\b(def|class) {name}\b|[\"']{name}[\"']"  # its code's own: a name, a key
        if elsewhere and not re.search(own, words_of(floor)):
            wrong[name] = f"a module of {', '.join(f + '/' for f in elsewhere)}"
        elif not re.search(rf"\b{name}\b", words_of(floor)) and name not in floors():
            wrong[name] = f"no module or word of {floor}/"
    return wrong


def documented_modules(floor: str) -> frozenset[str]:
    """The modules a reader must find named: the floor's own and its sub-packages' names
    (a sub-package's modules are named in its own docs, but for the site's routes)."""
    return frozenset(
        name for name in modules(floor) if "/" not in name or name.startswith("routes/")
    )


@pytest.mark.parametrize("floor", floors())
def test_the_architecture_names_every_module_of_each_floor(floor: str) -> None:
    names = named(paragraph(floor))
    top = {name for name in documented_modules(floor) if not name.startswith("routes/")}
    assert sorted(top - names) == [], f"docs/architecture.md's {floor}/ does not name these"
    assert misnamed(floor, names) == {}


@pytest.mark.parametrize("floor", ["live", "web"])
def test_the_site_docs_name_every_module_of_the_game_server_and_the_face(floor: str) -> None:
    names = named(section(f"The modules of {floor}/"))
    missing = sorted(documented_modules(floor) - names - {"routes/"})
    assert missing == [], f"docs/web.md's modules of {floor}/ do not name these"
    assert misnamed(floor, names) == {}


def test_a_moved_module_is_found() -> None:
    """The check itself: the table service named as the site's face's module (where it was
    before the game server had a floor of its own) is refused, as is a name of nothing."""
    assert misnamed("web", {"tables", "views"}) == {
        "tables": "a module of live/",
        "views": "a module of live/",
    }
    assert misnamed("live", {"frobnicator"}) == {"frobnicator": "no module or word of live/"}
    assert misnamed("live", {"tables"}) == {}
