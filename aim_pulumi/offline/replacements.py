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

# Any Kubernetes object: a rename or a move to another namespace is a new object.
_ALWAYS = ("metadata.name", "metadata.namespace")

# Fields pulumi-kubernetes replaces the object for (its provider's `forceNew` list), by Pulumi type.
# ConfigMap and Secret contents count as immutable: the provider's default
# (`enableConfigMapMutable` / `enableSecretMutable` off).
_FORCE_NEW: dict[str, tuple[str, ...]] = {
    "kubernetes:core/v1:ConfigMap": ("data", "binaryData"),
    "kubernetes:core/v1:Secret": ("type", "data", "stringData"),
    "kubernetes:core/v1:PersistentVolumeClaim": (
        "spec.accessModes",
        "spec.selector",
        "spec.storageClassName",
        "spec.volumeName",
    ),
    "kubernetes:batch/v1:Job": ("spec.completions", "spec.parallelism", "spec.selector", "spec.template"),
    "kubernetes:core/v1:Service": ("spec.clusterIP",),
}


def replacement_fields(type_token: str) -> tuple[str, ...]:
    """The input paths whose change replaces a resource of this Pulumi type (empty: never)."""
    if not type_token.startswith("kubernetes:"):
        return ()
    return _ALWAYS + _FORCE_NEW.get(type_token, ())


def _covers(prefix: str, path: str) -> bool:
    if prefix in ("*", "**"):
        return True
    prefix = prefix.removeprefix("inputs.")
    return path == prefix or path.startswith((prefix + ".", prefix + "["))


def is_replacement(type_token: str, path: str, replace_on_changes: Iterable[str] = ()) -> bool:
    """Does a change at `path` (the diff's dotted form) replace a resource of this type?"""
    fields: Sequence[str] = (*replacement_fields(type_token), *replace_on_changes)
    return any(_covers(field, path) for field in fields)
