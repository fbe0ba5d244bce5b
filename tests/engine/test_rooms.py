"""Every game package has the house's rooms (docs/contributing/adding-a-game.md, HOUSE.md): the same files, the
classes named after the game, no imports inside functions, runtime imports that point only up the house's
order, and the engine's one driver loop (no game overrides `legal_actions`, `apply_action`,
`chance_outcomes`, `sample_outcome`, `apply_chance` or `clone`). Checked on every registered game and on the template game
`examples/minimal_game`, by reading their source (the AST), plus one built state per game."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.examples.template import PACKAGE as TEMPLATE_PACKAGE
from tests.examples.template import TEMPLATE, load_minimal_game
from warcards.engine.api import State
from warcards.engine.registry import game_module, games, load_game

HOUSE_ORDER: tuple[frozenset[str], ...] = (
    frozenset({"cards", "params"}),
    frozenset({"codes"}),
    frozenset({"notation"}),
    frozenset({"rules"}),
    frozenset({"views", "log"}),
    frozenset({"state"}),
    frozenset({"setup"}),
    frozenset({"game"}),
    frozenset({"heuristic", "evaluate", "encoding", "render"}),
    frozenset({"__init__"}),
)
"""The rooms in the order runtime imports follow: a module imports only rooms of its own rank or before it
(the rooms of one rank do not depend on one another's order; `rules/` modules import each other freely). The
state comes after the rooms that answer its hooks: it binds their functions in its class body, and they import
the state for its type only (under `TYPE_CHECKING`)."""
RANK = {room: rank for rank, rooms in enumerate(HOUSE_ORDER) for room in rooms}

REQUIRED_FILES = (
    "__init__.py", "cards.toml", "cards.py", "params.py", "codes.py", "state.py", "notation.py", "views.py",
    "log.py", "setup.py", "game.py", "heuristic.py", "evaluate.py", "render.py", "RULES.md",
)
"""The files every game package holds, besides `rules.py` or a `rules/` package (`encoding.py` is optional: a
game without it gets the RL adapters' generic encoder)."""

DRIVER_LOOP = frozenset({
    "legal_actions", "apply_action", "chance_outcomes", "clone", "sample_outcome", "apply_chance",
    "_legal_now", "_sample_outcome",
})
"""The engine's driver loop (engine/api.py) and what it derives from a chance node's description (`_chance`):
a game implements the hooks (`_legal_actions`, `_chance`, `_apply`, optionally `_apply_chance`), never these."""


@dataclass(frozen=True)
class Package:
    """One game package: its import name, its folder and its game's id."""

    name: str
    folder: Path
    game_id: str

    @property
    def camel(self) -> str:
        """`<Game>`: the package's last name in CamelCase, without a trailing `_game` (`naval_war` ->
        `NavalWar`, `minimal_game` -> `Minimal`)."""
        short = self.name.rpartition(".")[2].removesuffix("_game")
        return "".join(part.capitalize() for part in short.split("_"))

    def modules(self) -> dict[str, Path]:
        """Room name (`rules` for every module of a `rules/` package) and path of each Python module."""
        found: dict[str, Path] = {}
        for path in sorted(self.folder.rglob("*.py")):
            relative = path.relative_to(self.folder)
            found[".".join(relative.with_suffix("").parts)] = path
        return found


def _packages() -> list[Package]:
    found = []
    for game_id in games():
        module = game_module(game_id)
        assert module.__file__ is not None
        found.append(Package(module.__name__, Path(module.__file__).parent, game_id))
    template = load_minimal_game().SPEC.id
    if template not in games():  # installed, it is checked as a registered game
        found.append(Package(TEMPLATE_PACKAGE, TEMPLATE, template))
    return found


PACKAGES = _packages()
IDS = [package.game_id for package in PACKAGES]


def _room(module: str) -> str:
    """The room a module (dotted, inside the package) belongs to: `rules.combat` is in `rules`."""
    return module.partition(".")[0]


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import node outside `if TYPE_CHECKING:` blocks (their `else:` branches count)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _imported_modules(package: Package, module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package's own modules (dotted, inside the package; `__init__` for the package itself) that an
    import node loads."""
    prefix = package.name
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            parts = module.split(".")
            is_package = package.modules()[module].name == "__init__.py"
            base = parts if is_package else parts[:-1]
            base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
            stem = ".".join([prefix, *[p for p in base if p != "__init__"]])
            target = f"{stem}.{node.module}" if node.module else stem
        else:
            target = node.module or ""
        names = [target] + [f"{target}.{alias.name}" for alias in node.names]
    inside: list[str] = []
    known = package.modules()
    for name in names:
        if name == prefix:
            inside.append("__init__")
        elif name.startswith(prefix + "."):
            dotted = name[len(prefix) + 1:]
            if dotted in known or f"{dotted}.__init__" in known:
                inside.append(dotted)
    # `from pkg import rules` names both the package and the module: the package is not imported for it.
    if isinstance(node, ast.ImportFrom) and len(inside) > 1 and "__init__" in inside:
        inside.remove("__init__")
    return sorted(set(inside))


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_every_room_of_the_house_exists(package: Package) -> None:
    missing = [name for name in REQUIRED_FILES if not (package.folder / name).is_file()]
    if not (package.folder / "rules.py").is_file() and not (package.folder / "rules" / "__init__.py").is_file():
        missing.append("rules.py (or a rules/ package)")
    assert not missing, f"{package.name}: missing rooms: {missing}"


def _is_number(value: ast.expr) -> bool:
    """An int literal, a negated one, or arithmetic on them and on other named numbers (`ON_SHIP + MAX_SHIPS`)."""
    if isinstance(value, ast.Constant):
        return type(value.value) is int
    if isinstance(value, ast.UnaryOp):
        return _is_number(value.operand)
    if isinstance(value, ast.BinOp):
        return all(_is_number(side) or (isinstance(side, ast.Name) and side.id.isupper()) for side in (value.left, value.right))
    return False


def _unfinal_codes(body: list[ast.stmt], where: str) -> list[str]:
    """The upper-case names bound to a number in `body` without `Final` (or several in one tuple assignment)."""
    found = []
    for statement in body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                pairs = list(zip(target.elts, statement.value.elts, strict=False)) if isinstance(
                    target, ast.Tuple) and isinstance(statement.value, ast.Tuple) else [(target, statement.value)]
                found += [f"{where}{name.id} (line {statement.lineno})" for name, value in pairs
                          if isinstance(name, ast.Name) and name.id.isupper() and _is_number(value)]
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            final = "Final" in ast.unparse(statement.annotation)
            if statement.target.id.isupper() and statement.value is not None and _is_number(statement.value) and not final:
                found.append(f"{where}{statement.target.id} (line {statement.lineno})")
    return found


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_the_codes_are_final(package: Package) -> None:
    """Every named number of `codes.py` (module level and in its classes of codes) is `X: Final = n`, one per
    line: the compiled core inlines a `Final` int (docs/contributing/speed.md, "The compiled core")."""
    tree = _tree(package.modules()["codes"])
    wrong = _unfinal_codes(tree.body, "")
    for node in tree.body:  # a class of named numbers (`@constants` or not), but not an enum's members
        if isinstance(node, ast.ClassDef) and not any("Enum" in ast.unparse(base) for base in node.bases):
            wrong += _unfinal_codes(node.body, f"{node.name}.")
    assert not wrong, f"{package.name}.codes: named numbers without Final: {', '.join(wrong)}"


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_every_module_is_a_room_of_the_house(package: Package) -> None:
    strangers = sorted(module for module in package.modules() if _room(module) not in RANK)
    assert not strangers, f"{package.name}: modules that are no room of HOUSE.md: {strangers}"


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_the_classes_are_named_after_the_game(package: Package) -> None:
    wrong = []
    for room, suffix in (("game", "Game"), ("state", "State"), ("heuristic", "Heuristic")):
        path = package.folder / f"{room}.py"
        wanted = f"{package.camel}{suffix}"
        classes = [node.name for node in _tree(path).body if isinstance(node, ast.ClassDef)] if path.is_file() else []
        if wanted not in classes:
            wrong.append(f"{room}.py defines no class {wanted} (it defines {classes})")
    assert not wrong, f"{package.name}: " + "; ".join(wrong)


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_no_module_imports_inside_a_function(package: Package) -> None:
    found = []
    for module, path in package.modules().items():
        for function in ast.walk(_tree(path)):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    f"{module}.py:{node.lineno} in {function.name}()"
                    for node in ast.walk(function) if isinstance(node, ast.Import | ast.ImportFrom)
                ]
    assert not found, f"{package.name}: imports inside function bodies: {sorted(set(found))}"


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_runtime_imports_point_only_up_the_house_order(package: Package) -> None:
    wrong = []
    for module, path in package.modules().items():
        room = _room(module)
        if room not in RANK:
            continue
        for node in _runtime_imports(_tree(path)):
            for target in _imported_modules(package, module, node):
                target_room = _room(target)
                if target_room not in RANK or target_room == room:
                    continue
                if RANK[target_room] > RANK[room]:
                    wrong.append(f"{module}.py:{node.lineno} imports {target} (a later room)")
    assert not wrong, f"{package.name}: runtime imports against the house order " + " > ".join(
        "/".join(sorted(rooms)) for rooms in HOUSE_ORDER
    ) + ": " + "; ".join(wrong)


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_the_game_does_not_override_the_driver_loop(package: Package) -> None:
    found = []
    for module, path in package.modules().items():
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.ClassDef):
                continue
            for statement in node.body:
                names: list[str] = []
                if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    names = [statement.name]
                elif isinstance(statement, ast.Assign):
                    names = [target.id for target in statement.targets if isinstance(target, ast.Name)]
                elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                    names = [statement.target.id]
                found += [f"{module}.py:{statement.lineno} {node.name}.{name}" for name in names if name in DRIVER_LOOP]
    if package.name == TEMPLATE_PACKAGE:
        state: State = load_minimal_game().SPEC.factory({"players": 2, "hand": 3, "cards": None}).new_initial_state()
    else:
        state = load_game(package.game_id).new_initial_state()
    found += [
        f"{type(state).__name__}.{name} (inherited)"
        for name in sorted(DRIVER_LOOP)
        if getattr(type(state), name) is not getattr(State, name) and not any(n.endswith(f".{name}") for n in found)
    ]
    assert not found, f"{package.name}: overrides the engine's driver loop: {found}"


HOOK_ROOMS: dict[str, str] = {
    "_legal_actions": "rules", "_chance": "rules", "_apply": "rules", "_apply_chance": "rules",
    "_illegal_reason": "rules", "action_to_string": "notation", "_parse_action": "notation",
    "zones": "views", "position": "views", "_observe": "views", "_observe_fields": "views",
    "_observe_public": "views", "_determinize": "views", "_hidden_action_text": "views",
    "_log_lines": "log", "_action_label": "log", "_result": "log",
}
"""The engine hooks a game's rules answer, and the room that answers each: the state's hook is a method whose
one statement calls the function of the hook's own name (without the underscore) in that room, passing its
own arguments on — one home and one name per hook. (A method, not the function bound in the class body: a
compiled state cannot hold a plain function where its base class has a method; docs/contributing/speed.md.)"""


def _new_state(package: Package) -> State:
    if package.name == TEMPLATE_PACKAGE:
        state: State = load_minimal_game().SPEC.factory({"players": 2, "hand": 3, "cards": None}).new_initial_state()
        return state
    return load_game(package.game_id).new_initial_state()


def _hook_problem(method: ast.FunctionDef, room: str, hook: str) -> str | None:
    """What is wrong with a state's hook method (None: its one statement calls `room.hook(self, *its args)`)."""
    body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return | ast.Expr) else None
    expected = f"{room}.{hook.lstrip('_')}"
    if not isinstance(call, ast.Call) or ast.unparse(call.func) != expected:
        return f"{method.name} does not only call {expected}"
    params = [a.arg for a in method.args.args]
    if [ast.unparse(a) for a in call.args] != params or call.keywords:
        return f"{method.name} passes {ast.unparse(call)}, not its own arguments {params}"
    return None


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_each_hook_calls_the_function_of_its_name_in_its_room(package: Package) -> None:
    state_class = type(_new_state(package))
    source = package.modules()["state"]
    classes = [n for n in ast.walk(_tree(source)) if isinstance(n, ast.ClassDef) and n.name == state_class.__name__]
    assert classes, f"{package.name}: no class {state_class.__name__} in {source.name}"
    body = {s.name: s for s in classes[0].body if isinstance(s, ast.FunctionDef)}
    bound = {
        target.id: ast.unparse(statement.value) for statement in classes[0].body
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Attribute)
        and isinstance(statement.value.value, ast.Name) and _room(statement.value.value.id) in RANK
        for target in statement.targets if isinstance(target, ast.Name)
    }
    wrong = [f"{name} = {value} binds a room's function in the class body (make it a method calling it)"
             for name, value in bound.items()]
    for hook, room in HOOK_ROOMS.items():
        if hook in body:
            problem = _hook_problem(body[hook], room, hook)
            wrong += [problem] if problem else []
        elif getattr(state_class, hook) is not getattr(State, hook, None) and hook not in bound:
            wrong.append(f"{hook} is not defined in {state_class.__name__}'s class body")
    assert not wrong, f"{package.name}: {state_class.__name__}'s hooks: " + "; ".join(wrong)


def test_the_checks_catch_a_missing_room_a_misnamed_class_and_imports_against_the_order(tmp_path: Path) -> None:
    folder = tmp_path / "toy_war"
    folder.mkdir()
    for name in REQUIRED_FILES:
        (folder / name).write_text("", encoding="utf-8")
    (folder / "RULES.md").unlink()
    (folder / "game.py").write_text("class ToyGame:\n    pass\n", encoding="utf-8")
    (folder / "state.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from toy_war import setup\n"
        "if TYPE_CHECKING:\n    from toy_war.game import ToyGame\n"
        "class ToyWarState:\n    def clone(self):\n        from . import game\n",
        encoding="utf-8",
    )
    (folder / "rules.py").write_text("from .codes import PHASE\n", encoding="utf-8")
    (folder / "views.py").write_text("", encoding="utf-8")
    package = Package("toy_war", folder, "toy-war")
    with pytest.raises(AssertionError, match=r"missing rooms: \['RULES.md'\]"):
        test_every_room_of_the_house_exists(package)
    with pytest.raises(AssertionError, match=r"game\.py defines no class ToyWarGame"):
        test_the_classes_are_named_after_the_game(package)
    with pytest.raises(AssertionError, match=r"state\.py:7 in clone\(\)"):
        test_no_module_imports_inside_a_function(package)
    with pytest.raises(AssertionError, match=r"state\.py:2 imports setup \(a later room\); state\.py:7 imports game"):
        test_runtime_imports_point_only_up_the_house_order(package)
