"""Profile-generation fallbacks (behaviour §6): generic runtimes for models declared by ID.

A model declared as `spec.modelId` has no published AIM image and so no published profiles; the
runtime config's fallbacks say which generic runtime serves which hardware class, and each matching
fallback yields one self-contained profile. Nothing here reads the catalog: the caller passes the
model, its merged runtime-config spec and the inventory, so the rule can be tested on its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from aim_pulumi.api import (
    AIM_GROUP,
    AIMClusterModel,
    AIMClusterProfile,
    AIMModel,
    AIMProfile,
    AIMValidationError,
)
from aim_pulumi.api.io import parse
from aim_pulumi.api.model import ModelAccelerator, ModelSourceSpec, ModelSpec
from aim_pulumi.resolve.children.labels import MANAGED_BY, MANAGED_BY_LABEL
from aim_pulumi.resolve.children.names import generated_profile_name
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.scalars import text

if TYPE_CHECKING:
    from aim_pulumi.resolve.selection.candidate import InventoryView

AnyModel = AIMModel | AIMClusterModel
AnyProfile = AIMProfile | AIMClusterProfile

FALLBACK_ANNOTATION = f"{AIM_GROUP}/profile-generation-fallback"
_RUNTIME_FIELDS = (
    "engineArgs",
    "engineEnv",
    "containerEnv",
    "resources",
    "imagePullSecrets",
    "serviceAccountName",
)


def _axis_agrees(model_value: Any, match_value: Any) -> bool:
    """An axis rejects only when both sides set it and they differ (case-insensitive)."""
    left, right = text(model_value).strip().lower(), text(match_value).strip().lower()
    return not left or not right or left == right


def fallback_matches(fallback: Mapping[str, Any], accelerator: Mapping[str, Any]) -> bool:
    """Whether a fallback's `match` serves a model's `accelerator` block (§6.2, hardware aside)."""
    return _serves(
        fallback, accelerator.get("vendor"), accelerator.get("model"), accelerator.get("partitioningMode")
    )


def _serves(fallback: Mapping[str, Any], vendor: Any, model: Any, partitioning_mode: Any) -> bool:
    # The fallback is a merged runtime-config value (a mapping, its fields present or absent).
    match = fallback.get("match") or {}
    return (
        _axis_agrees(vendor, match.get("acceleratorVendor"))
        and _axis_agrees(model, match.get("acceleratorModel"))
        and _axis_agrees(partitioning_mode, match.get("acceleratorPartitioningMode"))
    )


def rc_fallbacks(merged_rc_spec: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    """`model.profileGeneration.fallbacks` of a merged runtime-config spec (already merged by name)."""
    model = (merged_rc_spec or {}).get("model") or {}
    generation = model.get("profileGeneration") or {}
    return [f for f in generation.get("fallbacks") or () if isinstance(f, Mapping)]


def _matching(spec: ModelSpec, merged_rc_spec: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    if not text(spec.model_id):
        return []
    accelerator = spec.accelerator or ModelAccelerator()
    return [
        f
        for f in rc_fallbacks(merged_rc_spec)
        if _serves(f, accelerator.vendor, accelerator.model, accelerator.partitioning_mode)
    ]


def specificity(fallback: Mapping[str, Any]) -> int:
    """Hardware-match specificity of §6.4: accelerator model +2, partitioning mode +1."""
    match = fallback.get("match") or {}
    return (2 if text(match.get("acceleratorModel")) else 0) + (
        1 if text(match.get("acceleratorPartitioningMode")) else 0
    )


def _priority(fallback: Mapping[str, Any]) -> int:
    value = fallback.get("priority")
    return int(value) if value is not None else 0


def _profile_manifest(model: AnyModel, fallback: Mapping[str, Any]) -> dict[str, Any]:
    """The generated profile as a manifest: what the model and the fallback set, and nothing else."""
    spec = model.spec
    model_name = model.metadata.name
    model_id = text(spec.model_id)
    aim_id = text(spec.aim_id) or model_id
    accelerator = spec.accelerator
    source = spec.source or ModelSourceSpec()
    match: Mapping[str, Any] = fallback.get("match") or {}
    runtime: Mapping[str, Any] = fallback.get("runtime") or {}
    fallback_name = text(fallback.get("name"))
    cluster = isinstance(model, AIMClusterModel)

    profile_spec: dict[str, Any] = {
        "aimId": aim_id,
        "modelId": model_id,
        "profileId": fallback_name,
        "image": text(runtime.get("image")),
        "type": text(fallback.get("type")) or "unoptimized",
        "autoSelectionPolicy": text(fallback.get("autoSelectionPolicy")) or "optimized",
        "primary": False,
    }
    if runtime.get("engine") is not None:
        profile_spec["engine"] = runtime["engine"]
    for key in _RUNTIME_FIELDS:
        if runtime.get(key) is not None:
            profile_spec[key] = runtime[key]
    if text(source.precision):
        profile_spec["precision"] = source.precision
    for field, value in (
        ("acceleratorVendor", match.get("acceleratorVendor")),
        ("acceleratorType", match.get("acceleratorType")),
        (
            "acceleratorModel",
            (accelerator.model if accelerator is not None else None) or match.get("acceleratorModel"),
        ),
        (
            "acceleratorPartitioningMode",
            (accelerator.partitioning_mode if accelerator is not None else None)
            or match.get("acceleratorPartitioningMode"),
        ),
    ):
        if text(value):
            profile_spec[field] = value
    # An unset accelerator block means one device, as an unset count in a set block does.
    profile_spec["acceleratorCount"] = accelerator.count if accelerator is not None else 1
    if text(spec.runtime_config_name):
        profile_spec["runtimeConfigName"] = spec.runtime_config_name
    model_source: dict[str, Any] = {
        "modelId": model_id,
        "sourceUri": text(source.uri) or f"hf://{model_id}",
    }
    if source.size is not None:
        model_source["size"] = source.size
    profile_spec["modelSources"] = [model_source]

    metadata: dict[str, Any] = {
        "name": generated_profile_name(model_name, fallback_name, aim_id),
        "labels": {
            MANAGED_BY_LABEL: MANAGED_BY,
            f"{AIM_GROUP}/profile-role": "deployable",
            f"{AIM_GROUP}/profile-origin": "generated",
            f"{AIM_GROUP}/source-model": model_name,
            f"{AIM_GROUP}/source-model-scope": "cluster" if cluster else "namespace",
        },
        "annotations": {FALLBACK_ANNOTATION: fallback_name},
    }
    if not cluster:
        metadata["namespace"] = model.metadata.namespace
    return {
        "apiVersion": f"{AIM_GROUP}/v1alpha2",
        "kind": "AIMClusterProfile" if cluster else "AIMProfile",
        "metadata": metadata,
        "spec": profile_spec,
    }


def _hardware_present(manifest: Mapping[str, Any], inventory: InventoryView | None) -> bool:
    if inventory is None:
        return True
    spec = manifest["spec"]
    return inventory.has(
        text(spec.get("acceleratorVendor")),
        text(spec.get("acceleratorType")),
        text(spec.get("acceleratorModel")),
        text(spec.get("acceleratorPartitioningMode")),
        spec.get("acceleratorCount"),
    )


def generated_profiles(
    model: AnyModel,
    merged_rc_spec: Mapping[str, Any] | None,
    inventory: InventoryView | None,
    retained: Iterable[str] = (),
) -> list[AnyProfile]:
    """The profiles an ID-backed model gets from its runtime config's fallbacks (§6.2-6.4).

    With an inventory, a fallback whose hardware is absent yields nothing unless its profile name is
    in `retained` (a service is still bound to it): then it is kept with `status.status: NotAvailable`.
    Exactly one result is `primary` (§6.4). Image-backed models get no profiles. Result order is the
    runtime config's fallback order. A model's `runtimeConfigName` carries onto its profiles: the
    config that set the model up also configures what its profiles set up, such as a Shared cache
    (a profile resolves its own runtime config, §3).
    """
    if not text(model.spec.model_id):
        return []
    keep = frozenset(retained)
    produced: list[tuple[Mapping[str, Any], dict[str, Any], bool]] = []
    for fallback in _matching(model.spec, merged_rc_spec):
        manifest = _profile_manifest(model, fallback)
        present = _hardware_present(manifest, inventory)
        if not present:
            if manifest["metadata"]["name"] not in keep:
                continue
            manifest["status"] = {"status": "NotAvailable"}
        produced.append((fallback, manifest, present))
    if not produced:
        return []
    pool = [p for p in produced if p[2]] or produced
    best = min(pool, key=lambda p: (-_priority(p[0]), -specificity(p[0]), text(p[0].get("name"))))
    best[1]["spec"]["primary"] = True
    out: list[AnyProfile] = []
    for fallback, manifest, _present in produced:
        try:
            profile = parse(manifest)
        except AIMValidationError as err:
            # The bad value was written in a runtime config's fallback (or the model), not in the
            # generated profile nobody wrote: say so instead of naming a profile that does not exist.
            raise AIMResolutionError(
                "spec.modelId",
                "InvalidSpec",
                f"the profile generated for this model from runtime config fallback "
                f"{text(fallback.get('name'))!r} is invalid: {err.field}: {err.message}",
                object_ref=model.object_ref,
            ) from None
        assert isinstance(profile, AIMProfile | AIMClusterProfile)
        out.append(profile)
    return out
