"""The rooms of `aim_pulumi.resolve` import each other in one direction only, and no module imports itself
back through a circle.

The graph is read from the source with `ast`, so the test needs no import side effects and names the
offending file. Imports under `if TYPE_CHECKING:` count as well: the types a module is written against
are a dependency a reader follows, so selection is typed against views of its own room
(`selection/catalog_view.py`) rather than the catalog above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "aim_pulumi.resolve"
ROOT = Path(__file__).resolve().parents[2] / "aim_pulumi" / "resolve"

# Bottom first: a module may import from its own room and from rooms listed before it. `shared` is
# the modules directly in resolve/ (errors, result types, object identity, operator settings).
ROOM_ORDER = (
    "shared",
    "runtime_config",
    "children",
    "selection",
    "derivation",
    "catalog",
    "legacy",
    "plan",
    "capacity",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def _all_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def imported_modules(path: Path, known: dict[str, Path]) -> set[str]:
    """The resolve modules `path` imports, TYPE_CHECKING included (`from pkg import mod` is `pkg.mod`)."""
    out: set[str] = set()
    for node in _all_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            assert node.level == 0, f"{path}: relative import"
            base = node.module or ""
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        out.update(t for t in targets if t == PACKAGE or t.startswith(PACKAGE + "."))
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported_modules(path, known) - {name} for name, path in known.items()}


def room(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 2:
        return "facade"
    return parts[2] if (ROOT / parts[2]).is_dir() else "shared"


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a path `a -> b -> ... -> a`, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_graph_is_read_from_every_module() -> None:
    edges = graph()
    assert "aim_pulumi.resolve.plan.service" in edges
    assert "aim_pulumi.resolve.plan.pipelines" in edges["aim_pulumi.resolve.plan.service"]
    assert "aim_pulumi.resolve.selection.select" in edges["aim_pulumi.resolve.plan.pipelines"]
    # `from aim_pulumi.resolve.legacy import yaml_edits` names the module, not the package.
    assert "aim_pulumi.resolve.legacy.yaml_edits" in edges["aim_pulumi.resolve.legacy.migration"]


def test_no_import_circle_between_resolve_modules() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


@pytest.mark.parametrize("module", sorted(m for m in modules() if room(m) != "facade"))
def test_a_room_imports_only_rooms_below_it(module: str) -> None:
    mine = ROOM_ORDER.index(room(module))
    above = sorted(t for t in graph()[module] if room(t) == "facade" or ROOM_ORDER.index(room(t)) > mine)
    assert not above, f"{module} ({room(module)}) imports from a room above it: {above}"


@pytest.mark.parametrize("subpackage", sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()))
def test_a_room_init_says_what_it_owns_and_imports_nothing(subpackage: str) -> None:
    tree = ast.parse((ROOT / subpackage / "__init__.py").read_text(encoding="utf-8"))
    assert ast.get_docstring(tree), f"resolve/{subpackage}/__init__.py has no docstring"
    assert not _runtime_imports(tree), f"resolve/{subpackage}/__init__.py imports: importing a room loads it"


def test_every_room_is_ordered() -> None:
    rooms = {room(m) for m in modules()} - {"facade"}
    assert rooms == set(ROOM_ORDER)
