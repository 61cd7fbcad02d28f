"""The recording as a tree: program order at the top, children in the order a reader follows a service.

`tree_order` is the order of the `--json` plan (`plan_document.plan_document`) and of the resources
`import` matches; the command line prints the same tree (`aim_pulumi/cli/tree.py`), its children
sorted by `child_order`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aim_pulumi.offline.recording import PlanRecording, RecordedResource

__all__ = ["KUBERNETES_PREFIX", "child_order", "parents", "tree_order"]

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


def child_order(r: RecordedResource) -> tuple[int, int, str]:
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
        for child in sorted(children.get(r.urn, []), key=child_order):
            visit(child, depth + 1)

    for top in children.get("", []):
        visit(top, 0)
    return out
