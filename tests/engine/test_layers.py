"""The package's layers (docs/contributing/README.md, "Layers"): every runtime import points down or sideways
within its layer, never up —

    engine ← games ← bots, match, simulate, scenario, skill ← arena, rl, server, bench, testing ← cli

— the layers' parts import one another without a cycle, and no function imports a module except where
`FUNCTION_IMPORTS` says why it must. Read from the source (the AST), as tests/engine/test_rooms.py reads the
game packages; imports under `if TYPE_CHECKING:` are type hints, not runtime imports, and are not counted.
The checks are first run on a small package made to break them, so a check that cannot fail is caught."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import warcards

SOURCE = Path(warcards.__file__).parent

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"native"}),
    frozenset({"engine", "_version"}),
    frozenset({"games"}),
    frozenset({"bots", "match", "simulate", "scenario", "skill", "__init__"}),
    frozenset({"arena", "rl", "server", "bench", "testing"}),
    frozenset({"cli", "__main__"}),
)
"""Each part of the package (its first name below `warcards`; `__init__` is the package's own front door,
which re-exports the engine and the match runner), lowest layer first: the choice between the compiled core and the sources (imports nothing of warcards); the game contract; the games; what
plays them (bots, the match runner, simulations, scenario files, skill ratings); what serves, studies and
measures them (tournaments and tuning, the RL adapters, the server, `warcards bench`, the test batteries);
the command line."""

FUNCTION_IMPORTS: Mapping[tuple[str, str], str] = {
    ("warcards.arena.balance", "matplotlib"): "plots only when one is asked for (--plot): matplotlib takes "
    "longer to import than the rest of `warcards balance`",
    ("warcards.arena.tune", "matplotlib"): "plots only when one is asked for, as in arena.balance",
    ("warcards.arena.tune", "optuna"): "the tune extra: `warcards tune` names the extra when it is missing",
    ("warcards.arena.tune", "sqlalchemy"): "Optuna's storage errors: only with the tune extra's storage",
    ("warcards.arena.ray_backend", "ray"): "the ray extra, only with `--backend ray`",
    ("warcards.arena.tournament", "warcards.arena.ray_backend"): "the ray backend is built on the tournament's "
    "pieces (it imports this module) and needs the ray extra",
    ("warcards.bench", "pyspiel"): "the bench extra (OpenSpiel's hearts, the speed yardstick), only when asked",
    ("warcards.cli.arena_commands", "warcards.arena"): "the stats extra: tournament, balance and tune name it in "
    "one line when it is missing; play and the rest never load it (tests/cli/test_light_install.py)",
    ("warcards.arena.tune", "warcards.server.db"): "the server's database URL rules (postgresql:// through psycopg "
    "3), loaded only when a study opens its storage: the tuner runs without the server's other modules",
    ("warcards.cli.arena_commands", "optuna"): "the tune extra, checked before `warcards tune` starts",
    ("warcards.cli.main", "warcards.arena"): "the stats extra, as in cli.arena_commands",
    ("warcards.cli.main", "warcards.server"): "the server extra: `warcards serve` and `bench --server` name "
    "it when it is missing; the rest of the command line runs without it",
    ("warcards.cli.main", "warcards.cli.play"): "startup: only `play` and `replay --show` pay for the terminal "
    "game",
    ("warcards.cli.main", "warcards.simulate"): "startup: only `simulate` pays for the process pool",
    ("warcards.cli.main", "warcards.scenario"): "startup: only `scenario` pays for the scenario files' models",
    ("warcards.cli.main", "warcards.bench"): "startup: only `bench` pays for the bench and the search bots",
    ("warcards.cli.main", "warcards.bots.ismcts"): "startup: only `bench --search` pays for the search bots",
    ("warcards.server.db", "psycopg"): "the PostgreSQL driver: a server on SQLite never loads it",
    ("warcards.server.db", "warcards.server.ratings"): "the ratings are computed on the store's rows (the "
    "ratings module imports this one): finishing a table is the one place the store calls them",
}
"""(module, imported name or its package) -> why the import must sit inside a function."""


@dataclass(frozen=True)
class Import:
    """One import statement's target as the importing module reaches it at run time."""

    module: str
    target: str
    line: int
    in_function: bool

    def where(self) -> str:
        return f"{self.module} (line {self.line}) imports {self.target}"


def module_name(root: Path, path: Path) -> str:
    """The dotted name of the module at `path` in the package whose folder is `root`."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _submodule(root: Path, package: str, name: str) -> str:
    """`package.name` when it is a module of the package at `root`, else `package` (`name` is an attribute)."""
    names = package.split(".")
    if names[0] != root.name:
        return package
    folder = root.joinpath(*names[1:], name)
    return f"{package}.{name}" if folder.with_suffix(".py").is_file() or (folder / "__init__.py").is_file() else package


def imports_of(root: Path, path: Path) -> Iterator[Import]:
    """Every runtime import of the module at `path` (none under `if TYPE_CHECKING:`), relative ones resolved."""
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def visit(node: ast.AST, in_function: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for rest in child.orelse:
                    yield from visit(rest, in_function)
                continue
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(name, alias.name, child.lineno, in_function)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                for alias in child.names:  # `from package import module` imports the module
                    yield Import(name, _submodule(root, target, alias.name), child.lineno, in_function)
            yield from visit(child, inside)

    yield from visit(ast.parse(path.read_text(encoding="utf-8")), False)


def all_imports(root: Path) -> list[Import]:
    return [found for path in sorted(root.rglob("*.py")) for found in imports_of(root, path)]


def part_of(root: Path, module: str) -> str | None:
    """The package part `module` belongs to (`__init__` for the package itself), None outside the package."""
    names = module.split(".")
    if names[0] != root.name:
        return None
    return names[1] if len(names) > 1 else "__init__"


def climbing(root: Path, layers: tuple[frozenset[str], ...]) -> list[str]:
    """Every import that points up the layers, and every part the layers do not place."""
    rank = {part: number for number, parts in enumerate(layers) for part in parts}
    found = []
    for item in all_imports(root):
        source, target = part_of(root, item.module), part_of(root, item.target)
        if target is None:
            continue
        for part in (source, target):
            if part not in rank:
                found.append(f"{item.where()}: part {part!r} is in no layer; place it in LAYERS")
        if source in rank and target in rank and rank[target] > rank[source]:
            found.append(f"{item.where()}: layer {rank[source]} ({source}) imports layer {rank[target]} ({target})")
    return found


def part_cycles(root: Path) -> list[list[str]]:
    """The cycles among the package's parts (an edge: a runtime import from one part into another)."""
    edges: dict[str, set[str]] = {}
    for item in all_imports(root):
        source, target = part_of(root, item.module), part_of(root, item.target)
        if source is not None and target is not None and source != target:
            edges.setdefault(source, set()).add(target)
    cycles: list[list[str]] = []

    def walk(part: str, path: list[str]) -> None:
        for following in sorted(edges.get(part, ())):
            if following in path:
                cycle = path[path.index(following) :]
                if min(cycle) == cycle[0]:
                    cycles.append(cycle)
            else:
                walk(following, [*path, following])

    for start in sorted(edges):
        walk(start, [start])
    return cycles


def unexplained_function_imports(root: Path, allowed: Mapping[tuple[str, str], str]) -> list[str]:
    """Every import inside a function body that `allowed` gives no reason for (matched on the imported module
    or any package above it)."""
    found = []
    for item in all_imports(root):
        if not item.in_function:
            continue
        names = item.target.split(".")
        if not any((item.module, ".".join(names[:n])) in allowed for n in range(1, len(names) + 1)):
            found.append(f"{item.where()} inside a function; move it to the top or give the reason it must not be")
    return found


def _broken_package(tmp_path: Path) -> Path:
    """A package whose engine imports its command line, whose bots and match import each other, and whose
    engine imports a helper inside a function."""
    root = tmp_path / "broken"
    files = {
        "__init__.py": "",
        "engine/__init__.py": "",
        "engine/api.py": "from broken.cli import main\n\ndef late():\n    import json\n    return json\n",
        "engine/hints.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from broken.cli import main\n",
        "bots.py": "from broken import match\n",
        "match.py": "from . import bots\n",
        "cli.py": "from broken.engine import api\n\ndef main():\n    pass\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


BROKEN_LAYERS = (frozenset({"engine"}), frozenset({"bots", "match"}), frozenset({"cli", "__init__"}))


def test_the_checks_catch_a_package_that_breaks_them(tmp_path: Path) -> None:
    root = _broken_package(tmp_path)
    assert climbing(root, BROKEN_LAYERS) == [
        "broken.engine.api (line 1) imports broken.cli: layer 0 (engine) imports layer 2 (cli)"
    ]
    assert part_cycles(root) == [["bots", "match"], ["cli", "engine"]]
    assert unexplained_function_imports(root, {}) == [
        "broken.engine.api (line 4) imports json inside a function; move it to the top or give the reason it "
        "must not be"
    ]
    assert unexplained_function_imports(root, {("broken.engine.api", "json"): "a reason"}) == []
    assert climbing(root, BROKEN_LAYERS[:2]) == [
        "broken.cli (line 1) imports broken.engine.api: part 'cli' is in no layer; place it in LAYERS",
        "broken.engine.api (line 1) imports broken.cli: part 'cli' is in no layer; place it in LAYERS",
    ]


def test_every_runtime_import_points_down_the_layers() -> None:
    assert climbing(SOURCE, LAYERS) == []


def test_the_parts_import_one_another_without_a_cycle() -> None:
    assert part_cycles(SOURCE) == []


def test_no_function_imports_a_module_without_a_reason() -> None:
    assert unexplained_function_imports(SOURCE, FUNCTION_IMPORTS) == []


def test_every_reason_is_still_used() -> None:
    used = {
        key
        for item in all_imports(SOURCE)
        if item.in_function
        for key in FUNCTION_IMPORTS
        if key[0] == item.module and (item.target == key[1] or item.target.startswith(f"{key[1]}."))
    }
    assert sorted(set(FUNCTION_IMPORTS) - used) == []
