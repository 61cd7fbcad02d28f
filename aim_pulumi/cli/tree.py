"""The recording as a tree: program order at the top, children in the order a reader follows a service.

`tree_order` is the order of the `--json` plan and `tree_lines` the `pulumi preview`-like text;
both name resources as `resource_label` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from aim_pulumi.cli.common import one_line
from aim_pulumi.cli.render import Palette, as_mapping, table
from aim_pulumi.offline.recording import plain

if TYPE_CHECKING:
    from aim_pulumi.offline.recording import PlanRecording, RecordedResource


KUBERNETES_PREFIX = "kubernetes:"

# Children are listed in the order a reader follows a service: what serves, then what reaches it.
_KIND_ORDER = (
    "InferenceService",
    "Secret",
    "ConfigMap",
    "HTTPRoute",
    "ScaledObject",
    "PersistentVolumeClaim",
    "Job",
)


def parents(
    recording: PlanRecording,
) -> tuple[dict[str, RecordedResource], dict[str, list[RecordedResource]]]:
    by_urn = {r.urn: r for r in recording.resources}
    children: dict[str, list[RecordedResource]] = {}
    for r in recording.resources:
        parent = r.parent if r.parent in by_urn else ""
        children.setdefault(parent, []).append(r)
    return by_urn, children


def _child_order(r: RecordedResource) -> tuple[int, int, str]:
    kind = r.type.rsplit(":", 1)[-1]
    if r.type.startswith(KUBERNETES_PREFIX):
        rank = _KIND_ORDER.index(kind) if kind in _KIND_ORDER else len(_KIND_ORDER)
        return (1, rank, r.name)
    return (0, 0, r.name)


def tree_order(recording: PlanRecording) -> list[tuple[int, RecordedResource]]:
    """Every resource depth-first with its depth: top-level in program order, children sorted."""
    _, children = parents(recording)
    out: list[tuple[int, RecordedResource]] = []

    def visit(r: RecordedResource, depth: int) -> None:
        out.append((depth, r))
        for child in sorted(children.get(r.urn, []), key=_child_order):
            visit(child, depth + 1)

    for top in children.get("", []):
        visit(top, 0)
    return out


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
        kids = sorted(children.get(r.urn, []), key=_child_order)
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
