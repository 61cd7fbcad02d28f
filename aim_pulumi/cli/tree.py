"""The recording's tree as text: `tree_lines`, the `pulumi preview`-like tree, and `resource_label`.

The tree itself (parents, and the order children are listed in) is the offline package's
(`aim_pulumi/offline/tree.py`), shared with the `--json` plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from aim_pulumi.cli.common import one_line
from aim_pulumi.cli.render import Palette, as_mapping, table
from aim_pulumi.offline.recording import plain
from aim_pulumi.offline.tree import KUBERNETES_PREFIX, child_order, parents

if TYPE_CHECKING:
    from aim_pulumi.offline.recording import PlanRecording, RecordedResource


def kubernetes_identity(r: RecordedResource) -> str | None:
    """`Kind namespace/name` of a Kubernetes child, from its recorded manifest.

    Only `kind` and `metadata` are unwrapped: a tree of thousands of children would otherwise copy
    every child's whole manifest to print two of its fields.
    """
    if not r.type.startswith(KUBERNETES_PREFIX):
        return None
    metadata = as_mapping(plain(r.inputs.get("metadata")))
    kind = str(plain(r.inputs.get("kind")) or r.type.rsplit(":", 1)[-1])
    name = str(metadata.get("name") or "?")
    namespace = metadata.get("namespace")
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def resource_label(r: RecordedResource) -> str:
    """How a resource is named in the tree: its Kubernetes identity, else `Class pulumi-name`."""
    identity = kubernetes_identity(r)
    if identity is not None:
        return one_line(identity)
    short = r.type.rsplit(":", 1)[-1].rsplit("/", 1)[-1]
    return one_line(f"{short} {r.name}")


def tree_lines(
    recording: PlanRecording, palette: Palette, markers: Mapping[str, str] | None = None
) -> list[str]:
    """The `pulumi preview`-like tree; `markers` maps a URN to `+`, `~`, `-` or ` ` (default `+`)."""
    _, children = parents(recording)
    rows: list[tuple[str, list[str]]] = []

    def visit(r: RecordedResource, lead: str, branch: str) -> None:
        marker = (markers or {}).get(r.urn, "+")
        rows.append((marker, [f"{marker} {lead}{branch}{resource_label(r)}", r.type, r.name]))
        kids = sorted(children.get(r.urn, []), key=child_order)
        inner = lead + ("" if not branch else ("   " if branch.startswith("└") else "│  "))
        for position, child in enumerate(kids):
            visit(child, inner, "└─ " if position == len(kids) - 1 else "├─ ")

    for top in children.get("", []):
        visit(top, "", "")
    lines = table(["  Resource", "Pulumi type", "Pulumi name"], [cells for _, cells in rows], indent=" ")
    painted = [palette.bold(lines[0])]
    for (marker, _), line in zip(rows, lines[1:], strict=True):
        painted.append(_paint_marker(palette, marker, line))
    return painted


def _paint_marker(palette: Palette, marker: str, line: str) -> str:
    if marker == "+":
        return palette.create(line)
    if marker == "~":
        return palette.update(line)
    if marker == "-":
        return palette.delete(line)
    return palette.dim(line)
