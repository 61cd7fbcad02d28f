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

SOURCE_MODEL_LABEL = f"{AIM_GROUP}/source-model"
SOURCE_MODEL_SCOPE_LABEL = f"{AIM_GROUP}/source-model-scope"
PROFILE_ORIGIN_LABEL = f"{AIM_GROUP}/profile-origin"
OVERLAY_SERVICE_ANNOTATION = f"{AIM_GROUP}/overlay-service"
FORCE_REBIND_ANNOTATION = f"{AIM_GROUP}/force-rebind"
PATCH_FORCE = "pulumi.com/patchForce"
"""pulumi-kubernetes' annotation for a child it applies with force. Every child carries it: the
program owns every field it sets, as the operator's reconcile loop does. With server-side apply, a
field someone changed by hand (`kubectl patch`, `kubectl label`) belongs to that field manager;
`pulumi up --refresh` then takes it back instead of failing with a field-manager conflict, and
`pulumi preview --refresh` shows it as an update. Shared caches carry it too
(`aim_pulumi/manifests/cache.py`): a conflict there would stop the whole stack, not just the cache.
The builders set it (`aim_pulumi/manifests/_common.py`), adoption reads it (which adopted children
need their field ownership reset: `aim_pulumi/adopt/removal.py`)."""
STACK_FIELD_MANAGER_PREFIX = "aim-pulumi-"
"""How the field manager a stack applies its Shared caches under begins (`aim-pulumi-<project>-<stack>`,
`aim_pulumi/manifests/_common.py:stack_field_manager`); adoption reads it to recognise another
stack's share of an object (`aim_pulumi/adopt/removal.py`)."""

# The core's namespaced kinds, for lookups by kind name; an object's own scope is its class's `SCOPE`
# (a version's folder serves kinds of its own: `aim_pulumi/resolve/catalog/extension.py`).
NAMESPACED_KINDS = frozenset({"AIMService", "AIMProfile", "AIMModel", "AIMRuntimeConfig", "AIMProfileSet"})
PROFILE_KINDS = frozenset({"AIMProfile", "AIMClusterProfile"})
PROFILE_SET_KINDS = frozenset({"AIMProfileSet", "AIMClusterProfileSet"})
MODEL_KINDS = frozenset({"AIMModel", "AIMClusterModel"})
RUNTIME_CONFIG_KINDS = frozenset({"AIMRuntimeConfig", "AIMClusterRuntimeConfig"})

Key = tuple[str, str, str]  # (kind, namespace or "", name)


def object_key(obj: AIMKind) -> Key:
    namespace = obj.metadata.namespace if obj.SCOPE == "Namespace" else None
    return (obj.KIND, namespace or "", obj.metadata.name)


def object_ref(obj: AIMKind) -> ObjectRef:
    """The status reference of an object: cluster objects carry `namespace: ""`."""
    kind, namespace, name = object_key(obj)
    scope: Scope = obj.SCOPE
    return ObjectRef(kind=kind, name=name, namespace=namespace, scope=scope, uid=obj.effective_uid)
