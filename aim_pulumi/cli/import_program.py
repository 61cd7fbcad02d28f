"""`aim-pulumi import --format python`: the adopted AIM objects as a Python program instead of YAML.

The program declares each object with its component's `from_object` (the typed object parsed from
the same document `aim/` would hold: `metadata.uid`, the sticky binding's `status.resolvedProfile`
and the adoption record all kept), so it plans exactly the children the YAML plans; only the
Pulumi names differ (`from_object` names a component `<namespace>-<name>`, without an AIMStack
above it), and `import.json` is written from the plan of this program, so it names its resources.
Templates (legacy v1alpha1) have no component of their own: the program declares them with an
`AIMStack` over `templates.yaml` beside it, which adds them to the program's catalog as `AIMStack`
does with any template.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["PROGRAM_FILE", "TEMPLATES_FILE", "python_program"]

PROGRAM_FILE = "__main__.py"
TEMPLATES_FILE = "templates.yaml"
_TEMPLATE_KINDS = ("AIMServiceTemplate", "AIMClusterServiceTemplate")
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
    """The program's files (`__main__.py`, and `templates.yaml` when there are templates), by name.

    `documents` are the cleaned AIM objects in declaration order (catalog first, services last).
    """
    import yaml

    templates = [d for d in documents if d.get("kind") in _TEMPLATE_KINDS]
    lines = [_HEADER]
    files: dict[str, str] = {}
    if templates:
        files[TEMPLATES_FILE] = yaml.safe_dump_all(templates, sort_keys=False, width=4096)
        lines.append(
            "# Legacy templates have no component: an AIMStack adds them to the program's catalog.\n"
            f'aim.AIMStack("templates", {{"path": str(Path(__file__).parent / "{TEMPLATES_FILE}")}})\n'
        )
    else:
        lines[0] = lines[0].replace("from pathlib import Path\n\n", "")
    lines.append("services = {}\n")
    for document in documents:
        kind = str(document.get("kind"))
        if kind in _TEMPLATE_KINDS:
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
