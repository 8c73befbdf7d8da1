"""The site's floors stay readable: no module of ``live/`` (the game server) or ``web/`` (its
HTTP face) over 600 lines, no function of ``live/``, ``web/``, ``teach/``, ``words/`` or
``cli.py`` over 80 lines (a longer one is a sign of
several ideas in one place: cut it into named steps), no hand-written script of the pages
(``web/static/js``) over 400 lines (cut by concern into ES modules, as the table's are)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardavia"
MODULE_LINES = 600
FUNCTION_LINES = 80
SCRIPTS = PACKAGE / "web" / "static" / "js"
SCRIPT_LINES = 400
VENDORED_SCRIPTS: frozenset[str] = frozenset()
"""Scripts copied from elsewhere as they come, by name: none yet (axe-core, the tests' only
script from npm, is not served)."""


def python_files(*parts: str) -> list[Path]:
    found: list[Path] = []
    for part in parts:
        path = PACKAGE / part
        found += [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
    return found


def test_no_module_of_the_game_server_or_the_site_is_over_600_lines() -> None:
    long = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in python_files("live", "web")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert long == {}


def test_no_function_of_the_site_the_pages_the_words_or_the_terminal_is_over_80_lines() -> None:
    long = {}
    for path in python_files("live", "web", "teach", "words", "cli.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long[f"{path.relative_to(PACKAGE).as_posix()}:{node.name}"] = lines
    assert long == {}


def test_no_hand_written_script_of_the_pages_is_over_400_lines() -> None:
    long = {
        path.name: lines
        for path in sorted(SCRIPTS.glob("*.js"))
        if path.name not in VENDORED_SCRIPTS
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > SCRIPT_LINES
    }
    assert long == {}
