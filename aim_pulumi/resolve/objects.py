"""The identity of AIM objects and the well-known labels and annotations every room reads.

An object is known by (kind, namespace, name), with cluster kinds carrying an empty namespace, so
that the catalog, the selection and the status references all speak of the same object the same way.
"""

from __future__ import annotations

from aim_pulumi.api import AIM_GROUP, AIMClusterModel, AIMClusterProfile, AIMKind, AIMModel, AIMProfile
from aim_pulumi.api.admission import (
    PROFILE_ROLE_LABEL as PROFILE_ROLE_LABEL,  # one definition, shared with admission
)
from aim_pulumi.resolve.types import ObjectRef, Scope

AnyProfile = AIMProfile | AIMClusterProfile
AnyModel = AIMModel | AIMClusterModel

GROUP = AIM_GROUP
SOURCE_MODEL_LABEL = f"{GROUP}/source-model"
SOURCE_MODEL_SCOPE_LABEL = f"{GROUP}/source-model-scope"
PROFILE_ORIGIN_LABEL = f"{GROUP}/profile-origin"
OVERLAY_SERVICE_ANNOTATION = f"{GROUP}/overlay-service"
FORCE_REBIND_ANNOTATION = f"{GROUP}/force-rebind"

# A version's folder adds its namespaced kinds when the seam loads it (`aim_pulumi.api.extensions`).
NAMESPACED_KINDS: set[str] = {"AIMService", "AIMProfile", "AIMModel", "AIMRuntimeConfig"}
PROFILE_KINDS = frozenset({"AIMProfile", "AIMClusterProfile"})
MODEL_KINDS = frozenset({"AIMModel", "AIMClusterModel"})
RUNTIME_CONFIG_KINDS = frozenset({"AIMRuntimeConfig", "AIMClusterRuntimeConfig"})

Key = tuple[str, str, str]  # (kind, namespace or "", name)


def object_key(obj: AIMKind) -> Key:
    namespace = obj.metadata.namespace if obj.KIND in NAMESPACED_KINDS else None
    return (obj.KIND, namespace or "", obj.metadata.name)


def object_ref(obj: AIMKind) -> ObjectRef:
    """The status reference of an object: cluster objects carry `namespace: ""`."""
    kind, namespace, name = object_key(obj)
    scope: Scope = "Namespace" if kind in NAMESPACED_KINDS else "Cluster"
    return ObjectRef(kind=kind, name=name, namespace=namespace, scope=scope, uid=obj.effective_uid)
