"""The profile set an `AIMModel.spec.profiles` creates, as the operator writes it.

The model's derivation becomes an AIMProfileSet (an AIMClusterProfileSet for an AIMClusterModel)
named `<model>-profiles-<hash>` beside the model: `derivedFrom.selector` and `derivedFrom.sourceRef`
become the set's selector and source, `versionPolicy`, `version` and `overrides` are copied, and an
`overrides.image` is also the set's `image`. Its `source-model` labels are then propagated to the
derived profiles, so `AIMService.spec.model.name: <model>` selects them like any model's profiles.
The model's `kind` in status is `Custom` for a `role: base` derivation, else `Derived`.
"""

from __future__ import annotations

from typing import Any

from aim_pulumi.api import (
    AIM_GROUP,
    AIMClusterModel,
    AIMClusterProfileSet,
    AIMModel,
    AIMProfileSet,
    to_manifest,
)
from aim_pulumi.api.io import parse
from aim_pulumi.resolve.children.labels import MANAGED_BY, MANAGED_BY_LABEL
from aim_pulumi.resolve.children.names import model_profile_set_name
from aim_pulumi.resolve.objects import SOURCE_MODEL_LABEL, SOURCE_MODEL_SCOPE_LABEL
from aim_pulumi.resolve.scalars import text

AnyModel = AIMModel | AIMClusterModel
AnyProfileSet = AIMProfileSet | AIMClusterProfileSet

MODEL_UID_ANNOTATION = f"{AIM_GROUP}/model-uid"
MODEL_NAME_ANNOTATION = f"{AIM_GROUP}/model-name"
MODEL_NAMESPACE_ANNOTATION = f"{AIM_GROUP}/model-namespace"


def model_kind(model: AnyModel) -> str:
    """The model's `status.kind`: `Image`, `Generated`, `Custom` (a base derivation) or `Derived`."""
    spec = model.spec
    if text(spec.image):
        return "Image"
    if text(spec.model_id):
        return "Generated"
    profiles = spec.profiles
    if profiles is None or profiles.derived_from is None:
        return ""
    return "Custom" if text(profiles.derived_from.selector.role) == "base" else "Derived"


def model_profile_set(model: AnyModel) -> AnyProfileSet | None:
    """The child set of a model with `spec.profiles`, or None for any other model."""
    manifest = to_manifest(model).get("spec") or {}
    profiles = manifest.get("profiles")
    if not isinstance(profiles, dict) or not isinstance(profiles.get("derivedFrom"), dict):
        return None
    derived_from = profiles["derivedFrom"]
    spec: dict[str, Any] = {"selector": derived_from.get("selector") or {}}
    if derived_from.get("sourceRef") is not None:
        spec["sourceRef"] = derived_from["sourceRef"]
    for key in ("versionPolicy", "version"):
        if profiles.get(key) is not None:
            spec[key] = profiles[key]
    overrides = {k: v for k, v in (profiles.get("overrides") or {}).items() if k != "features"}
    if "overrides" in profiles:
        spec["overrides"] = overrides
    if text(overrides.get("image")):
        spec["image"] = overrides["image"]
    cluster = isinstance(model, AIMClusterModel)
    name = model.metadata.name
    metadata: dict[str, Any] = {
        "name": model_profile_set_name(name),
        "labels": {
            MANAGED_BY_LABEL: MANAGED_BY,
            SOURCE_MODEL_LABEL: name,
            SOURCE_MODEL_SCOPE_LABEL: "cluster" if cluster else "namespace",
        },
        "annotations": {MODEL_UID_ANNOTATION: model.effective_uid, MODEL_NAME_ANNOTATION: name},
    }
    if not cluster:
        metadata["namespace"] = model.metadata.namespace
        metadata["annotations"][MODEL_NAMESPACE_ANNOTATION] = model.metadata.namespace
    result = parse(
        {
            "apiVersion": f"{AIM_GROUP}/v1alpha2",
            "kind": "AIMClusterProfileSet" if cluster else "AIMProfileSet",
            "metadata": metadata,
            "spec": spec,
        }
    )
    assert isinstance(result, AIMProfileSet | AIMClusterProfileSet)
    return result
