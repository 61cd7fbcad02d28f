"""Where the AIM documentation (the seeds) wins over the vendored AIM CRDs.

The AIM CRD schemas are checked as vendored, with exactly these relaxations: each one is a field or
shape a seed documents that the CRD lacks (or a rule the project decided against), so a manifest
written from the documentation is not refused by the schema the documentation describes. Nothing is
ever tightened here, and the typed models still check the shape of what an overlay admits. The
docs/differences.md "Where it differs from the operator" lists the same entries. A version's folder keeps the
relaxations of its own kinds with their model classes (`AIMKind.SCHEMA_RELAXATIONS`, the v1alpha1
ones in `aim_pulumi/resolve/legacy/overlays.py`), and the checks of those classes pass them here as
`extra`: nothing is registered, so a schema is relaxed exactly as the class that reads it says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aim_pulumi.schemas.registry import GroupVersionKind

#: A property the schema accepts with any value (the typed models check its shape).
ANY_VALUE: Mapping[str, Any] = {"x-kubernetes-preserve-unknown-fields": True}
#: Why every served version of AIMService takes an inline runtime config.
INLINE_RUNTIME_CONFIG = "seed 000: a service may carry an inline runtimeConfig block on its spec"
_V2 = "aim.eai.amd.com/v1alpha2"


@dataclass(frozen=True, eq=False)
class SeedOverlay:
    """One relaxation of a CRD node: the node is reached by property names (`[]` = list items).

    Compared and hashed by identity (each is a constant), so the schema caches can key on a tuple
    of them.
    """

    kinds: tuple[GroupVersionKind, ...]
    path: tuple[str, ...]
    why: str
    add_properties: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    optional: tuple[str, ...] = ()
    drop_rules: tuple[str, ...] = ()


OVERLAYS: tuple[SeedOverlay, ...] = (
    SeedOverlay(
        kinds=((_V2, "AIMService"),),
        path=("spec",),
        add_properties={"runtimeConfig": ANY_VALUE},
        why=INLINE_RUNTIME_CONFIG,
    ),
    SeedOverlay(
        kinds=((_V2, "AIMProfile"), (_V2, "AIMClusterProfile")),
        path=("spec",),
        add_properties={"runtimeConfigName": {"type": "string"}, "storageClassName": {"type": "string"}},
        why=(
            "seed 000: services, profiles, models and caches all name their runtime config "
            "(runtimeConfigName), and profiles may set spec.storageClassName directly"
        ),
    ),
    SeedOverlay(
        kinds=((_V2, "AIMProfile"), (_V2, "AIMClusterProfile")),
        path=(),
        drop_rules=(
            "spec.aimId and spec.modelSources must both be set (deployable profile) or both be empty "
            "(base profile)",
        ),
        why=(
            "AIM images carry their model, so a profile with an aimId and no modelSources is "
            "deployable (behaviour §16.13); a profile with neither is a base profile either way"
        ),
    ),
)


#: What a class adds to `OVERLAYS` for its own kind (`AIMKind.SCHEMA_RELAXATIONS`).
Relaxations = tuple[SeedOverlay, ...]


def _node(schema: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    node = schema
    for step in path:
        node = node["items"] if step == "[]" else node["properties"][step]
    return node


def apply_overlays(schema: dict[str, Any], gvks: list[GroupVersionKind], extra: Relaxations = ()) -> None:
    """Relax a prepared CRD schema of one of `gvks` in place, as `OVERLAYS` and then `extra` say."""
    for overlay in (*OVERLAYS, *extra):
        if not any(gvk in overlay.kinds for gvk in gvks):
            continue
        node = _node(schema, overlay.path)
        if overlay.add_properties:
            node.setdefault("properties", {}).update(overlay.add_properties)
        if overlay.optional and "required" in node:
            node["required"] = [name for name in node["required"] if name not in overlay.optional]
        if overlay.drop_rules and "x-kubernetes-validations" in node:
            node["x-kubernetes-validations"] = [
                rule
                for rule in node["x-kubernetes-validations"]
                if rule.get("message") not in overlay.drop_rules
            ]
