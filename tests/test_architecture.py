"""The shape of the package (docs/ARCHITECTURE.md): imports go one way, down its layers; the
map places every module; modules stay small and say what they own; and nothing outside the
engine reads a private attribute of a ``State``.

The import graph is read from the source with :mod:`ast`, every import counted: at the top,
inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from bezique.state import State

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "bezique"

# Modules allowed over MAX_LINES, each with its line count when it was listed as its ceiling.
# The list only shrinks: a module under MAX_LINES must leave it, and none may grow past its
# ceiling.
MAX_LINES = 600
TOO_LONG: dict[str, int] = {}

# The modules that make up the engine itself and may use a State's private attributes.
ENGINE = {"bezique.state", "bezique.plays", "bezique.declaring", "bezique.position"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The package's modules that module ``name`` imports, anywhere in its source."""
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "bezique":
                    yield deepest(alias.name, known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "bezique":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield sub if sub in known else deepest(target, known)


def deepest(dotted: str, known: set[str]) -> str:
    """The longest prefix of ``dotted`` that is a module of the package."""
    parts = dotted.split(".")
    while parts and ".".join(parts) not in known:
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {
        name: {t for t in imported(name, path, known) if t and t != name}
        for name, path in mods.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_import_graph_sees_imports_inside_functions_and_type_checking() -> None:
    graph = import_graph()
    assert "bezique.state" in graph["bezique.agents.sampling"]
    assert "bezique.observation" in graph["bezique.state"]  # a lazy import inside a method
    assert "bezique.cli.common" in graph["bezique.cli.demo"]
    assert "bezique.agents.heuristic" in graph["bezique.agents"]  # ``from . import heuristic``


def test_no_import_cycles_among_the_package_modules() -> None:
    assert cycles(import_graph()) == []


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_observation_does_not_import_the_state() -> None:
    """The dependency goes state -> observation (State.observation calls observe)."""
    assert "bezique.state" not in import_graph()["bezique.observation"]


def test_cli_subcommands_never_import_the_group() -> None:
    graph = import_graph()
    for name, deps in graph.items():
        if name.startswith("bezique.cli.") and name != "bezique.cli.__main__":
            assert "bezique.cli" not in deps, name


@pytest.mark.parametrize("name", sorted(modules()))
def test_module_has_a_docstring(name: str) -> None:
    tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
    assert (ast.get_docstring(tree) or "").strip(), f"{name} has no docstring"


def test_no_module_is_too_long_except_the_shrinking_allow_list() -> None:
    mods = modules()
    for name, path in mods.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if name in TOO_LONG:
            assert n <= TOO_LONG[name], f"{name} grew to {n} lines (ceiling {TOO_LONG[name]})"
        else:
            assert n <= MAX_LINES, f"{name} has {n} lines (at most {MAX_LINES})"
    for name in TOO_LONG:
        assert name in mods, f"{name} is gone: take it off TOO_LONG"
        n = len(mods[name].read_text(encoding="utf-8").splitlines())
        assert n > MAX_LINES, f"{name} has {n} lines now: take it off TOO_LONG"


def state_private_names() -> set[str]:
    """A State's private attributes and methods (``_x``, not dunders)."""
    tree = ast.parse((PACKAGE / "position.py").read_text(encoding="utf-8"))
    slots = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets))
    assert isinstance(slots, ast.Tuple)
    names = {str(e.value) for e in slots.elts if isinstance(e, ast.Constant)}
    names = {n for n in names if n.startswith("_")}
    names |= {n for n in dir(State) if n.startswith("_") and not n.endswith("__")}
    return names


def test_state_private_names_are_found() -> None:
    assert {"_prev", "_scores", "_snapshot", "_restore"} <= state_private_names()


def test_nothing_outside_the_engine_reads_a_private_attribute_of_a_state() -> None:
    """``x._name`` where ``_name`` is private to State, anywhere but in ``self``'s own class."""
    private = state_private_names()
    found = []
    for name, path in modules().items():
        if name in ENGINE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            own = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id in ("self", "cls"))
            if isinstance(node, ast.Attribute) and node.attr in private and not own:
                found.append(f"{name}:{node.lineno}: .{node.attr}")
    assert found == []


def test_the_shipped_specification_is_the_shared_one() -> None:
    """docs/RULES.md is a copy of the project's specification (shared/RULES.md beside the
    checkout, where there is one, as in CI and on the developers' machines)."""
    root = Path(__file__).resolve().parent.parent
    shipped = root / "docs" / "RULES.md"
    assert shipped.read_text(encoding="utf-8").startswith("# Bezique: the rules")
    shared = root.parent / "shared" / "RULES.md"
    if shared.exists():
        assert shipped.read_bytes() == shared.read_bytes(), "copy shared/RULES.md to docs/"


# The layers of docs/ARCHITECTURE.md, lowest first: a module's layer is that of the longest
# prefix listed here. A module may import its own layer and those below, never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("bezique._purepy", "bezique.errors", "bezique.cards", "bezique.tables",
                    "bezique.rules", "bezique.copywords", "bezique.tricks", "bezique.actions",
                    "bezique.scoring", "bezique.howto")),
    ("engine", ("bezique", "bezique.deal", "bezique.meldfilter", "bezique.melds",
                "bezique.notation", "bezique.position", "bezique.declaring", "bezique.plays",
                "bezique.observation", "bezique.state", "bezique.worlds", "bezique.table_world",
                "bezique.narrate")),
    ("engine views", ("bezique.openspiel_encoding", "bezique.openspiel")),
    ("agents", ("bezique.agents",)),
    ("records", ("bezique.schema", "bezique.record", "bezique.game", "bezique.stats")),
    ("tools", ("bezique.arena", "bezique.arena_records", "bezique.arena_tables",
               "bezique.tournament", "bezique.distributed", "bezique.selfplay", "bezique.learn",
               "bezique.encoding", "bezique.pettingzoo", "bezique.gymnasium_env",
               "bezique.engine")),
    ("front ends", ("bezique.cli", "bezique.tui", "bezique.web", "bezique.__main__")),
)


def layer_of(name: str) -> int:
    """The index in :data:`LAYERS` of the longest listed prefix of ``name`` (-1: none)."""
    best, depth = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and prefix.count(".") > depth:
                best, depth = i, prefix.count(".")
    return best


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a layer above its own, and between tui and web."""
    found = []
    for name, deps in sorted(graph.items()):
        for dep in sorted(deps):
            if layer_of(dep) > layer_of(name):
                found.append(f"{name} ({LAYERS[layer_of(name)][0]}) imports {dep} "
                             f"({LAYERS[layer_of(dep)][0]})")
            for a, b in (("bezique.tui", "bezique.web"), ("bezique.web", "bezique.tui")):
                if layer_of(name) == layer_of(dep) and name.startswith(a) and dep.startswith(b):
                    found.append(f"{name} imports {dep}: the two front ends are apart")
    return found


def test_every_module_belongs_to_a_layer() -> None:
    assert [name for name in modules() if layer_of(name) < 0] == []
    assert layer_of("bezique") == 1 and layer_of("bezique.cards") == 0
    assert layer_of("bezique.agents.search") == 3 and layer_of("bezique.web.app") == 6


def test_imports_only_go_down_the_layers() -> None:
    assert upward_imports(import_graph()) == []


def test_an_upward_import_is_found() -> None:
    graph = {"bezique.state": {"bezique.agents.search"}, "bezique.tui.app": {"bezique.web.app"},
             "bezique.cli.play": {"bezique.tui.app", "bezique.state"}}
    assert upward_imports(graph) == [
        "bezique.state (engine) imports bezique.agents.search (agents)",
        "bezique.tui.app imports bezique.web.app: the two front ends are apart",
    ]


def map_sections(text: str) -> dict[str, str]:
    """docs/ARCHITECTURE.md's module tables by layer: ``### Engine — ...`` is "engine"."""
    sections: dict[str, str] = {}
    for chunk in text.split("\n### ")[1:]:
        heading, _, body = chunk.partition("\n")
        sections[heading.split(" — ")[0].strip().lower()] = body.split("\n## ")[0]
    return sections


def test_the_architecture_map_places_every_module_in_its_layer() -> None:
    """Each module's file (``state.py``; ``learn/data.py`` or ``data.py`` in a package's row) is
    in the table of its layer, so a new module has to be placed on the map, and rightly."""
    sections = map_sections((SRC.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    assert [layer for layer, _ in LAYERS] == list(sections)
    misplaced = []
    for name, path in modules().items():
        table = sections[LAYERS[layer_of(name)][0]]
        rel = path.relative_to(PACKAGE).as_posix()
        if f"`{rel}`" not in table and f"`{path.name}`" not in table:
            misplaced.append(f"{rel} is not in the {LAYERS[layer_of(name)][0]} table")
    assert misplaced == []
