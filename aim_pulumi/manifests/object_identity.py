"""One Kubernetes object per program: two declarations of one object overwrite each other.

The API server keys an object by its group, kind, namespace and name; Pulumi keys a resource by
its URN. Two Pulumi resources (two services named alike, a service's child and a plain object of
an AIM directory at the same name) that describe one Kubernetes object both apply, each one's
fields win in turn, and every later `preview --refresh` shows drift. So the program refuses them
before anything registers, naming both declarations. A Shared cache is the one object several
services declare on purpose: it is one declaration (its key), however many services mount it.

Pure: plain manifests and the caller's labels for whoever declared them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

__all__ = ["CLUSTER_SCOPED_KINDS", "Collision", "ObjectKey", "collisions", "object_key", "object_text"]

# Built-in kinds that live outside any namespace (an object of another kind without a namespace is
# in `default`, as kubectl and the Kubernetes provider place it).
CLUSTER_SCOPED_KINDS = frozenset(
    {
        "Namespace", "Node", "PersistentVolume", "StorageClass", "CSIDriver", "CSINode", "VolumeAttachment",
        "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "APIService", "PriorityClass",
        "IngressClass", "RuntimeClass", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
        "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "CertificateSigningRequest",
        "AIMClusterModel", "AIMClusterProfile", "AIMClusterRuntimeConfig",
        "AIMClusterModelSource", "AIMClusterProfileSet",
    }
)  # fmt: skip

ObjectKey = tuple[str, str, str, str]
"""(API group, kind, namespace, name): what the API server keys an object by."""

OwnerT = TypeVar("OwnerT")


def object_key(manifest: Mapping[str, Any]) -> ObjectKey:
    """The object's key; the version is not part of it (one object is served at several)."""
    metadata = manifest.get("metadata")
    metadata = metadata if isinstance(metadata, Mapping) else {}
    kind = str(manifest.get("kind") or "")
    namespace = metadata.get("namespace")
    if kind in CLUSTER_SCOPED_KINDS:
        namespace = ""
    elif not isinstance(namespace, str) or not namespace:
        namespace = "default"
    return (
        str(manifest.get("apiVersion") or "").rpartition("/")[0],
        kind,
        namespace,
        str(metadata.get("name")),
    )


def object_text(key: ObjectKey) -> str:
    """`InferenceService ml/chat-1a2b3c4d`, `Namespace ml`: the object as a message names it."""
    _, kind, namespace, name = key
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


@dataclass(frozen=True)
class Collision(Generic[OwnerT]):
    """One Kubernetes object declared by two owners: `first` in declaration order, then `second`."""

    key: ObjectKey
    first: OwnerT
    second: OwnerT


def collisions(
    declared: Iterable[tuple[OwnerT, Iterable[Mapping[str, Any]]]],
    claimed: Mapping[ObjectKey, OwnerT] | None = None,
) -> list[Collision[OwnerT]]:
    """Every object two different owners declare, once per (object, second owner).

    `declared` is each owner with its objects, in the order the program declared them; `claimed`
    holds what earlier rounds registered (a Construct call of the component provider, a service
    declared inside an `apply`). An owner that lists one object twice (equal owners) is one
    declaration: that is how a Shared cache is listed by each of its services.
    """
    seen: dict[ObjectKey, OwnerT] = dict(claimed or {})
    found: list[Collision[OwnerT]] = []
    reported: set[tuple[ObjectKey, Any]] = set()
    for owner, manifests in declared:
        for manifest in manifests:
            key = object_key(manifest)
            first = seen.setdefault(key, owner)
            if first == owner or (key, owner) in reported:
                continue
            reported.add((key, owner))
            found.append(Collision(key, first, owner))
    return found
