"""`aim-pulumi import --format python`: the adopted AIM objects as a Python program instead of YAML.

The program declares each object with its component's `from_object` (the typed object parsed from
the same document `aim/` would hold: `metadata.uid`, the sticky binding's `status.resolvedProfile`
and the adoption record all kept), so it plans exactly the children the YAML plans; only the
Pulumi names differ (`from_object` names a component `<namespace>-<name>`, without an AIMStack
above it), and `import.json` is written from the plan of this program, so it names its resources.
A kind a folder adds has no component of its own (v1alpha1's templates): the program declares its
objects with an `AIMStack` over the YAML file the folder names for it (`templates.yaml`) beside the
program, which adds them to the program's catalog as `AIMStack` does with any such object
(`KindSurface.program_file` of the extension the CLI serves).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from aim_pulumi.versions import EXTENSION

__all__ = ["PROGRAM_FILE", "python_program"]

PROGRAM_FILE = "__main__.py"
_HEADER = '''"""The AIM objects `aim-pulumi import` read from the operator's deployment, declared in Python.

Each object is the document the operator ran, without what the API server and the operator set,
except what the plan reads: an AIMService's uid (its default route path and Dedicated cache names),
its `status.resolvedProfile` (where the sticky binding starts) and its `aim.eai.amd.com/adopted`
record (what it keeps of the operator's objects, so the first `pulumi up` restarts no model).
`import.json` beside this file names the resources it declares: run `pulumi import --file` with it
before the first `pulumi up`.
"""

from pathlib import Path

import pulumi

import aim_pulumi as aim
'''


def _literal(value: Any, depth: int = 0) -> str:
    """A Python literal of plain data, one key or item a line (as a formatter would lay it out)."""
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, Mapping) and value:
        items = [f"{inner}{_literal(str(k))}: {_literal(v, depth + 1)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value:
        items = [f"{inner}{_literal(v, depth + 1)}," for v in value]
        return "[\n" + "\n".join(items) + f"\n{pad}]"
    if isinstance(value, Mapping):
        return "{}"
    if isinstance(value, str):
        # Double quotes (a JSON string is a Python literal too), single where that spares escapes.
        return repr(value) if '"' in value and "'" not in value else json.dumps(value)
    return repr(value)


def python_program(documents: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The program's files (`__main__.py`, and one YAML file per file a folder's kinds go to), by name.

    `documents` are the cleaned AIM objects in declaration order (catalog first, services last).
    """
    import yaml

    # Objects of kinds without a component, by the file they go to (files in order of first use).
    surfaces = EXTENSION.kind_surfaces if EXTENSION is not None else ()
    to_file = {surface.kind: surface for surface in surfaces if surface.program_file}
    by_file: dict[str, list[Mapping[str, Any]]] = {}
    comments: dict[str, str] = {}
    for document in documents:
        surface = to_file.get(str(document.get("kind")))
        if surface is not None:
            by_file.setdefault(surface.program_file, []).append(document)
            comments.setdefault(surface.program_file, surface.program_comment)
    lines = [_HEADER]
    files: dict[str, str] = {}
    for name, declared_by_stack in by_file.items():
        files[name] = yaml.safe_dump_all(declared_by_stack, sort_keys=False, width=4096)
        stack = name.rsplit(".", 1)[0]
        lines.append(
            comments[name] + f'aim.AIMStack("{stack}", {{"path": str(Path(__file__).parent / "{name}")}})\n'
        )
    if not by_file:
        lines[0] = lines[0].replace("from pathlib import Path\n\n", "")
    lines.append("services = {}\n")
    for document in documents:
        kind = str(document.get("kind"))
        if kind in to_file:
            continue
        metadata = document.get("metadata") or {}
        declared = f"aim.{kind}.from_object(\n    aim.parse(\n        {_literal(document, 2)}\n    )\n)"
        if kind == "AIMService":
            key = f"{metadata.get('namespace') or 'default'}/{metadata.get('name')}"
            lines.append(f"services[{_literal(key)}] = {declared}\n")
        else:
            lines.append(f"{declared}\n")
    lines.append('pulumi.export("services", {key: service.status for key, service in services.items()})\n')
    files[PROGRAM_FILE] = "\n".join(lines)
    return files
