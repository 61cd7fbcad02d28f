"""ARCHITECTURE.md names real code: every path exists, every `file.py:name` is defined there, and the
table of resolve/ rooms lists every module of each room, so the map cannot drift from the tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
RESOLVE = ROOT / "aim_pulumi" / "resolve"

CODE = re.findall(r"`([^`]+)`", re.sub(r"^```.*?^```", "", DOC, flags=re.MULTILINE | re.DOTALL))
PATHS = sorted({c for c in CODE if re.fullmatch(r"(aim_pulumi|tests)/[\w/.]*", c)})
SYMBOLS = sorted({c for c in CODE if re.fullmatch(r"(aim_pulumi|tests)/[\w/]+\.py:[\w.]+", c)})
ROOM_ROWS = re.findall(r"^\| `aim_pulumi/resolve/(\w*)/?`[^|]*\|(.*)\|$", DOC, flags=re.MULTILINE)


def defined_names(path: Path) -> set[str]:
    """Top-level functions, classes and assignments, plus `Class.method` for methods."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            names.update(
                f"{node.name}.{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_map_names_code() -> None:
    assert len(PATHS) > 20 and len(SYMBOLS) > 30 and len(ROOM_ROWS) >= 7


@pytest.mark.parametrize("path", PATHS)
def test_every_named_path_exists(path: str) -> None:
    assert (ROOT / path).exists(), f"ARCHITECTURE.md names {path}, which does not exist"


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_named_function_or_class_is_defined_where_the_map_says(symbol: str) -> None:
    path, name = symbol.split(":")
    assert (ROOT / path).is_file(), f"ARCHITECTURE.md names {path}, which does not exist"
    assert name in defined_names(ROOT / path), f"ARCHITECTURE.md says {path} defines {name}; it does not"


def test_every_room_of_resolve_is_in_the_table() -> None:
    rooms = {p.name for p in RESOLVE.iterdir() if (p / "__init__.py").exists()}
    assert rooms | {""} == {name for name, _ in ROOM_ROWS}


@pytest.mark.parametrize(("room", "row"), ROOM_ROWS, ids=[name or "shared" for name, _ in ROOM_ROWS])
def test_the_table_lists_exactly_the_modules_of_each_room(room: str, row: str) -> None:
    folder = RESOLVE / room
    listed = {c for c in re.findall(r"`([\w]+\.py)`", row)}
    present = {p.name for p in folder.glob("*.py") if p.name != "__init__.py"}
    assert listed == present, f"resolve/{room or ''} modules {sorted(present)} vs the map's {sorted(listed)}"
