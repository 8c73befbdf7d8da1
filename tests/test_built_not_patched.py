"""The game server and the site are built, not patched (issue 36, item 2): every collaborator
of a service is given when it is built. Every module of ``live/`` and ``web/`` is parsed;
what a class with its own ``__init__`` is given there (``self.hints = hints``), starts
empty for others to fill (``self.deal_listeners = []``) or leaves as a hook to be set
(``self.hints: Callable[…] | None = None``) is never assigned, appended to nor replaced from
outside the class (``service.hints = learning.hint``,
``rooms.deal_listeners.append(…)``); no lifespan is wrapped around another
(``app.router.lifespan_context = …``), and no handler of a dispatcher is guarded or replaced
but where its kinds are made (``live/table_messages.py``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardavia"
FLOORS = ("live", "web")
FILLED = ("append", "extend", "insert")
"""How a list that starts empty is filled."""
GUARDS_MADE_IN = "live/table_messages.py"


def modules(package: Path = PACKAGE) -> Iterator[tuple[str, ast.Module]]:
    """Every module of the floors, by its path under the package, parsed."""
    for floor in FLOORS:
        for path in sorted((package / floor).rglob("*.py")):
            yield path.relative_to(package).as_posix(), ast.parse(path.read_text("utf-8"))


def _is_given(value: ast.expr, parameters: set[str]) -> bool:
    """Whether ``value`` is a constructor's parameter as given (``hints``, ``bus or
    LocalBus()``, ``tuple(rules)``), or an empty list or tuple to be filled."""
    if isinstance(value, ast.Name):
        return value.id in parameters
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        return _is_given(value.values[0], parameters)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.args:
        return value.func.id in ("tuple", "list", "frozenset") and _is_given(
            value.args[0], parameters
        )
    return isinstance(value, ast.List | ast.Tuple) and not value.elts


def given_attributes(trees: list[tuple[str, ast.Module]]) -> dict[str, str]:
    """The attributes the classes' constructors are given, start empty, or leave as a hook
    to be set (a ``Callable`` or a lambda), each with the class that holds it
    (``module:Class``)."""
    found: dict[str, str] = {}
    for name, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for init in node.body:
                if not (isinstance(init, ast.FunctionDef) and init.name == "__init__"):
                    continue
                arguments = init.args
                parameters = {a.arg for a in [*arguments.args, *arguments.kwonlyargs]}
                for statement in ast.walk(init):
                    targets: list[ast.expr] = []
                    hook = False
                    if isinstance(statement, ast.Assign):
                        targets, value = statement.targets, statement.value
                    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                        targets, value = [statement.target], statement.value
                        hook = "Callable" in ast.unparse(statement.annotation)
                    for target in targets:
                        if (
                            isinstance(target, ast.Attribute)
                            and isinstance(target.value, ast.Name)
                            and target.value.id == "self"
                            and (
                                hook
                                or isinstance(value, ast.Lambda)
                                or _is_given(value, parameters - {"self"})
                            )
                        ):
                            found[target.attr] = f"{name}:{node.name}"
    return found


def _outside(node: ast.Attribute) -> bool:
    """Whether an attribute is reached from outside its object (not ``self.x``), and not on
    a Starlette ``state`` (``app.state.tables``: what tests and tools reach for)."""
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr == "state":
        return False
    return not (isinstance(base, ast.Name) and base.id in ("self", "cls"))


def patches(package: Path = PACKAGE) -> list[str]:
    """Every place a service is wired after it was built, ``module:line what``."""
    trees = list(modules(package))
    given = given_attributes(trees)
    found: list[str] = []
    for name, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if not isinstance(target, ast.Attribute) or not _outside(target):
                        continue
                    if target.attr in given or target.attr == "lifespan_context":
                        found.append(f"{name}:{node.lineno} {ast.unparse(target)} = …")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                method, holder = node.func.attr, node.func.value
                filled = (
                    method in FILLED
                    and isinstance(holder, ast.Attribute)
                    and _outside(holder)
                    and holder.attr in given
                )
                guarded = method == "guard" and name != GUARDS_MADE_IN
                if filled or guarded:
                    found.append(f"{name}:{node.lineno} {ast.unparse(node.func)}(…)")
    return sorted(found, key=_place)


def _place(line: str) -> tuple[str, int]:
    module, _, rest = line.partition(":")
    return module, int(rest.split(" ", 1)[0])


def test_no_service_is_wired_after_it_was_built() -> None:
    assert patches() == []


def test_the_check_finds_a_collaborator_given_afterwards(tmp_path: Path) -> None:
    """The check itself: the ways the site used to be wired are each found."""
    for floor in FLOORS:
        (tmp_path / floor).mkdir()
    (tmp_path / "live" / "service.py").write_text(
        "class Service:\n"
        "    def __init__(self, store, *, hints=None):\n"
        "        self.store = store\n"
        "        self.hints = hints\n"
        "        self.deal_listeners = []\n"
        "        self.sealed: Callable[[str], bool] | None = None\n"
        "        self.on_deal = lambda: None\n",
        encoding="utf-8",
    )
    (tmp_path / "web" / "app.py").write_text(
        "def build(service, learning, app, guard, wake):\n"
        "    service.hints = learning.hint\n"
        "    service.deal_listeners.append(learning.rate)\n"
        "    app.router.lifespan_context = learning.life\n"
        "    service.messages.guard(('hint',), guard)\n"
        "    service.sealed = learning.sealed\n"
        "    service.on_deal = wake.set\n"
        "    app.state.store = service.store\n",
        encoding="utf-8",
    )
    found = [line.split(" ", 1)[0] for line in patches(tmp_path)]
    assert found == [f"web/app.py:{line}" for line in range(2, 8)]
