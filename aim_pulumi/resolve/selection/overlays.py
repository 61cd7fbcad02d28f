"""Profile overlays (behaviour §5): a service's private variant of the profile it names.

The overlay becomes the effective profile (ConfigMap, env, cache keys, InferenceService), so that an
override takes part in cache identity instead of only in the container env. It is internal: no
AIMProfile object is emitted, and it is never a selection candidate (it carries the overlay-service
annotation, which the selection filters drop).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from aim_pulumi.api import AIM_GROUP, AIMClusterProfile, AIMProfile, AIMServiceObject, to_manifest
from aim_pulumi.api.io import parse
from aim_pulumi.resolve.children.names import overlay_profile_name
from aim_pulumi.resolve.objects import OVERLAY_SERVICE_ANNOTATION
from aim_pulumi.resolve.runtime_config.merge import merge_env

AnyProfile = AIMProfile | AIMClusterProfile

BASE_IMAGE_ANNOTATION = f"{AIM_GROUP}/base-image"


def _non_empty(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != {}


def effective_overrides(service: AIMServiceObject) -> dict[str, Any]:
    """The `spec.profileOverrides` fields that change anything (`{}` and empty fields change nothing)."""
    # The fields as written (set ones only, camelCase): which are present is what the overlay reads.
    typed = service.spec.profile_overrides
    overrides = typed.model_dump(by_alias=True, exclude_unset=True) if typed is not None else {}
    out: dict[str, Any] = {}
    for key, value in overrides.items():
        if key == "acceleratorCount":
            if value is not None:
                out[key] = value
        elif _non_empty(value):
            out[key] = value
    return out


def build_overlay(seed_profile: AnyProfile, service: AIMServiceObject) -> AIMProfile | None:
    """The overlay AIMProfile of `service` over `seed_profile`, or None when no override applies.

    Labels are only role `deployable` and origin `derived` (the overlay belongs to no model); the one
    annotation names the service. The seed's status is inherited with the rest of its content.
    """
    overrides = effective_overrides(service)
    if not overrides:
        return None
    seed = to_manifest(seed_profile)
    spec: dict[str, Any] = copy.deepcopy(dict(seed.get("spec") or {}))

    if "modelSources" in overrides:
        sources = copy.deepcopy(list(overrides["modelSources"]))
        spec["modelSources"] = sources
        first_id = (sources[0] or {}).get("modelId") if sources else None
        if first_id:
            spec["modelId"] = first_id
        base_image = (seed_profile.metadata.annotations or {}).get(BASE_IMAGE_ANNOTATION)
        if base_image:
            spec["image"] = base_image
    for key in ("acceleratorModel", "acceleratorPartitioningMode", "acceleratorCount"):
        if key in overrides:
            spec[key] = overrides[key]
    if "containerEnv" in overrides:
        spec["containerEnv"] = merge_env(spec.get("containerEnv") or [], overrides["containerEnv"])
    if "engineEnv" in overrides:
        engine_env: dict[str, Any] = dict(spec.get("engineEnv") or {})
        engine_env.update(overrides["engineEnv"])
        spec["engineEnv"] = engine_env
    if "engineArgs" in overrides:
        engine_args: dict[str, Any] = dict(spec.get("engineArgs") or {})
        engine_args.update(copy.deepcopy(dict(overrides["engineArgs"])))
        spec["engineArgs"] = engine_args
    # AIMClusterProfile has no caching; an AIMProfile seed keeps its own.
    namespace = service.metadata.namespace or "default"
    manifest: dict[str, Any] = {
        "apiVersion": f"{AIM_GROUP}/v1alpha2",
        "kind": "AIMProfile",
        "metadata": {
            "name": overlay_profile_name(
                seed_profile.metadata.name, service.metadata.name, service.effective_uid
            ),
            "namespace": namespace,
            "labels": {f"{AIM_GROUP}/profile-role": "deployable", f"{AIM_GROUP}/profile-origin": "derived"},
            "annotations": {OVERLAY_SERVICE_ANNOTATION: service.metadata.name},
        },
        "spec": spec,
    }
    status = seed.get("status")
    if isinstance(status, Mapping) and status:
        manifest["status"] = copy.deepcopy(dict(status))
    overlay = parse(manifest)
    assert isinstance(overlay, AIMProfile)
    return overlay
