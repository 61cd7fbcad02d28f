"""Which input changes make Pulumi replace a resource instead of updating it in place.

`plan --diff` lists replacements apart from updates because a replaced InferenceService or PVC is
deleted and created again (a PVC loses its downloaded model). The answer per kind is what
pulumi-kubernetes does: a changed name or namespace always replaces; the fields Kubernetes
declares immutable on update replace (the provider's force-new list); a resource's own
`replaceOnChanges` option adds paths. This module is the one place that knows it; the diff only
asks `is_replacement`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["is_replacement", "replacement_fields"]

# Every Kubernetes object: the identity of the object in the cluster.
_ALWAYS = ("apiVersion", "kind", "metadata.name", "metadata.namespace")

# Fields immutable after create, by kind (the suffix of the Pulumi type token).
_IMMUTABLE: dict[str, tuple[str, ...]] = {
    "PersistentVolumeClaim": (
        "spec.accessModes",
        "spec.selector",
        "spec.storageClassName",
        "spec.volumeMode",
        "spec.volumeName",
        "spec.dataSource",
        "spec.dataSourceRef",
        "spec.resources.limits",
    ),
    "Job": ("spec.selector", "spec.template", "spec.completions", "spec.completionMode"),
    "Service": ("spec.clusterIP", "spec.clusterIPs", "spec.ipFamilies"),
    "Secret": ("type",),
}


def replacement_fields(type_token: str) -> tuple[str, ...]:
    """The input paths whose change replaces a resource of this Pulumi type (empty: never)."""
    if not type_token.startswith("kubernetes:"):
        return ()
    kind = type_token.rsplit(":", 1)[-1]
    return _ALWAYS + _IMMUTABLE.get(kind, ())


def _covers(prefix: str, path: str) -> bool:
    if prefix in ("*", "**"):
        return True
    prefix = prefix.removeprefix("inputs.")
    return path == prefix or path.startswith((prefix + ".", prefix + "["))


def is_replacement(type_token: str, path: str, replace_on_changes: Iterable[str] = ()) -> bool:
    """Does a change at `path` (the diff's dotted form) replace a resource of this type?"""
    fields: Sequence[str] = (*replacement_fields(type_token), *replace_on_changes)
    return any(_covers(field, path) for field in fields)
