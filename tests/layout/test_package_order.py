"""Imports point down only: between the top-level packages of aim_pulumi, in the order of ARCHITECTURE.md.

The graph is the one `test_import_cycles` reads from the source: module-level imports, imports inside
functions and imports under `if TYPE_CHECKING:` all count, since each is a dependency a reader follows.
A module may import its own package and the packages below it. `aim_pulumi/__init__.py` is the front
door: the public names, loaded lazily from the layers; a module of a layer reads only the version
through it (Python loads it before any submodule anyway), never a name that would load a layer.
"""

from __future__ import annotations

import ast

import pytest
from test_import_cycles import GRAPH, MODULES

# Top first. The offline engine runs programs for the command line (and the tests) on the Pulumi
# layer's components. The provider module serves the components through its gRPC server (provider_server),
# which runs the Pulumi layer below it. Adoption sits below the manifest builders, which read back
# the record an import writes (`aim_pulumi.adopt.record`), and above the decisions it plans with.
ORDER = (
    "aim_pulumi.cli",
    "aim_pulumi.offline",
    "aim_pulumi.policy",
    "aim_pulumi.provider",
    "aim_pulumi.provider_server",
    "aim_pulumi.resources",
    "aim_pulumi.manifests",
    "aim_pulumi.adopt",
    "aim_pulumi.versions",
    "aim_pulumi.resolve",
    "aim_pulumi.discovery",
    "aim_pulumi.api",
    "aim_pulumi.schemas",
)


def layer(module: str) -> str:
    """The top-level package (or top-level module) a module belongs to; `aim_pulumi` for the front door
    and for `aim_pulumi._version`, where the front door reads the version from."""
    top = ".".join(module.split(".")[:2])
    return "aim_pulumi" if top == "aim_pulumi._version" else top


# The API's front door (`aim_pulumi/api/__init__.py`): the contract's readers serve every version the
# installation serves, so it asks `aim_pulumi.versions` for the kinds at call time. That is the one
# upward import allowed, and only there; no module reads through those readers (tested below).
FRONT_DOOR_IMPORTS = {("aim_pulumi.api", "aim_pulumi.versions")}
FRONT_DOOR_READERS = {"parse", "load_manifests", "admission_problems"}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a layer to a layer above it, as `module -> target` (the front doors aside)."""
    found = []
    for module, targets in sorted(graph.items()):
        mine = layer(module)
        if mine == "aim_pulumi":
            continue
        for target in sorted(targets):
            theirs = layer(target)
            if (module, target) in FRONT_DOOR_IMPORTS:
                continue
            if theirs != "aim_pulumi" and ORDER.index(theirs) < ORDER.index(mine):
                found.append(f"{module} -> {target}")
    return found


def test_every_layer_is_ordered() -> None:
    assert {layer(m) for m in MODULES} - {"aim_pulumi"} == set(ORDER)


def test_no_layer_imports_a_layer_above_it() -> None:
    upward = upward_imports(GRAPH)
    assert not upward, "imports pointing up:\n" + "\n".join(upward)


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        (
            {"aim_pulumi.schemas.children": {"aim_pulumi.api.errors"}},
            ["aim_pulumi.schemas.children -> aim_pulumi.api.errors"],
        ),
        ({"aim_pulumi.api.io": {"aim_pulumi.schemas.validator", "aim_pulumi.api.errors"}}, []),
        (
            {"aim_pulumi.resolve.plan": {"aim_pulumi.resources.service"}},
            ["aim_pulumi.resolve.plan -> aim_pulumi.resources.service"],
        ),
        ({"aim_pulumi.cli.main": {"aim_pulumi.provider"}}, []),
    ],
)
def test_an_upward_import_is_found(graph: dict[str, set[str]], expected: list[str]) -> None:
    assert upward_imports(graph) == expected


def names_read_through_the_front_door(source: str) -> set[str]:
    """The names `from aim_pulumi import ...` takes that are not a subpackage or module of it."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "aim_pulumi":
            names.update(a.name for a in node.names if f"aim_pulumi.{a.name}" not in MODULES)
    return names


def test_a_layer_reads_only_the_version_through_the_front_door() -> None:
    read = {
        f"{module}: {name}"
        for module, path in MODULES.items()
        if layer(module) != "aim_pulumi"
        for name in names_read_through_the_front_door(path.read_text(encoding="utf-8"))
        if name != "__version__"
    }
    assert not read, f"names read through aim_pulumi/__init__.py: {sorted(read)}"


def test_the_front_door_reader_tells_names_from_modules() -> None:
    source = "from aim_pulumi import api, __version__\nfrom aim_pulumi import AIMService\n"
    assert names_read_through_the_front_door(source) == {"__version__", "AIMService"}


def readers_taken_from_the_api_front_door(source: str) -> set[str]:
    """The contract's readers a module takes from `aim_pulumi.api` itself (not `aim_pulumi.api.io`)."""
    taken: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "aim_pulumi.api":
            taken.update(a.name for a in node.names if a.name in FRONT_DOOR_READERS)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "api"
            and node.attr in FRONT_DOOR_READERS
        ):
            taken.add(node.attr)
    return taken


def test_no_module_reads_through_the_api_front_door() -> None:
    """A module reads with `aim_pulumi.api.io` and the kinds it was handed: its dependencies stay downward."""
    read = {
        f"{module}: {name}"
        for module, path in MODULES.items()
        if module != "aim_pulumi.api"
        for name in readers_taken_from_the_api_front_door(path.read_text(encoding="utf-8"))
    }
    assert not read, f"readers taken from aim_pulumi.api's front door: {sorted(read)}"


def test_the_api_front_door_reader_finder_finds_both_forms() -> None:
    source = "from aim_pulumi.api import parse, AIMProfile\nx = api.load_manifests(p)\ny = api.io.parse(d)\n"
    assert readers_taken_from_the_api_front_door(source) == {"parse", "load_manifests"}
