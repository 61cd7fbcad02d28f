"""Profiles discovered from an AIM image, made as the operator makes them from its discovery cache.

The operator's image discovery (`internal/v1alpha2/aimmodel/reconcile.go`, `aimprofile/catalog.go`,
`aimprofile/provenance.go`, `aimprofile/node_match.go`) reads each profile file of the image into
one catalog entry and materialises one AIMProfile (AIMClusterProfile for a cluster model) per
entry whose hardware the cluster has. Here the files come from the lock (`ImageRecord`), the
cluster's hardware from `aim:inventory`, and the rule is a plain function of both and the model,
as `fallbacks.generated_profiles` is for ID-backed models:

- profile file: `aim_id` (default: the image's `AIM_ID`), `model_id`, `metadata{engine, metric,
  precision, type, primary, manual_selection_only, variant, features, accelerator_model (legacy
  `gpu`), accelerator_type (`gpu` when only the legacy fields are set), accelerator_count (legacy
  `gpu_count`)}`, `engine_args`, `env_vars`; `profileId` is the file's name without `.yaml`;
  `modelSources` is `hf://<model_id>`; the image is the model's `spec.image`;
- `$AIM_ID/` files win: when the image names an `AIM_ID` and has files under it, `general/` files
  are dropped (a base image keeps its `general/` files);
- role `deployable` with an aimId and model sources, else `base`; origin `discovered`;
- `primary` from the file when it says so, else whether a `com.amd.aim.model.recommendedDeployments`
  entry matches (by profileId, or by gpuModel/gpuCount/precision/metric, empty fields matching any);
- name `derived_name([model, profileId], [model, profileId])`, label `app.kubernetes.io/managed-by`,
  annotations model uid/name/namespace, base image, `profile-source: image`, `profile-copyable`;
  pull secrets and service account copied from the model;
- supported when the profile asks for no accelerator or the inventory offers it (no inventory:
  every profile is supported, as no node detector runs).

A file that makes no valid profile (a metric the CRD does not know, say) is left out and named in
`DiscoveredModel.problems`, as the operator's apply of that one profile would fail; the others
stand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from aim_pulumi.api import (
    AIM_GROUP,
    AIMClusterModel,
    AIMClusterProfile,
    AIMProfile,
    AIMValidationError,
)
from aim_pulumi.api.io import parse
from aim_pulumi.api.limits import load_yaml_documents
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.records import ImageRecord, LockedProfile
from aim_pulumi.discovery.reference import parse_reference
from aim_pulumi.resolve.children.labels import MANAGED_BY, MANAGED_BY_LABEL
from aim_pulumi.resolve.children.names import derived_name
from aim_pulumi.resolve.objects import (
    PROFILE_ORIGIN_LABEL,
    PROFILE_ROLE_LABEL,
    SOURCE_MODEL_LABEL,
    SOURCE_MODEL_SCOPE_LABEL,
    AnyModel,
    AnyProfile,
)
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.candidate import InventoryView

__all__ = [
    "BASE_IMAGE_ANNOTATION",
    "MODEL_NAME_ANNOTATION",
    "PROFILE_SOURCE_ANNOTATION",
    "RECOMMENDED_DEPLOYMENTS_LABEL",
    "DiscoveredModel",
    "DiscoveredOrigin",
    "discovered_profile_name",
    "discovered_profiles",
]

MODEL_UID_ANNOTATION = f"{AIM_GROUP}/model-uid"
MODEL_NAME_ANNOTATION = f"{AIM_GROUP}/model-name"
MODEL_NAMESPACE_ANNOTATION = f"{AIM_GROUP}/model-namespace"
BASE_IMAGE_ANNOTATION = f"{AIM_GROUP}/base-image"
PROFILE_SOURCE_ANNOTATION = f"{AIM_GROUP}/profile-source"
PROFILE_COPYABLE_ANNOTATION = f"{AIM_GROUP}/profile-copyable"
RECOMMENDED_DEPLOYMENTS_LABEL = "com.amd.aim.model.recommendedDeployments"
_EXTENDED_RESOURCES_IGNORED = frozenset({"cpu", "memory", "ephemeral-storage"})


@dataclass(frozen=True)
class DiscoveredOrigin:
    """Where a discovered profile came from: what `explain` names."""

    image: str
    digest: str
    path: str
    layer: str


@dataclass(frozen=True)
class DiscoveredModel:
    """What an image-backed model gets from its image: profiles, the unsupported ones, its status."""

    supported: tuple[AnyProfile, ...]
    unsupported: tuple[AnyProfile, ...]
    origins: Mapping[str, DiscoveredOrigin]
    status: Mapping[str, Any]
    problems: tuple[str, ...] = ()


@dataclass
class _Item:
    file: LockedProfile
    profile_id: str
    spec: dict[str, Any]
    primary_explicit: bool
    hardware: tuple[str, str, int]
    entries: tuple[str, str] = ("", "")
    extra: dict[str, Any] = field(default_factory=dict)


def discovered_profile_name(model_name: str, profile_id: str) -> str:
    return derived_name([model_name, profile_id], [model_name, profile_id])


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _item(file: LockedProfile, record: ImageRecord, image: str) -> _Item:
    documents = [d for d in load_yaml_documents(file.content) if d is not None]
    parsed = _mapping(documents[0]) if documents else {}
    metadata = _mapping(parsed.get("metadata"))
    accelerator_model = text(metadata.get("accelerator_model"))
    legacy_gpu = not accelerator_model and bool(text(metadata.get("gpu")))
    accelerator_model = accelerator_model or text(metadata.get("gpu"))
    count = _int(metadata.get("accelerator_count"))
    legacy_count = False
    if count is None and _int(metadata.get("gpu_count")) is not None:
        count = _int(metadata.get("gpu_count"))
        legacy_count = True
    accelerator_type = text(metadata.get("accelerator_type"))
    if not accelerator_type and (legacy_gpu or legacy_count):
        accelerator_type = "gpu"
    aim_id = text(parsed.get("aim_id")) or record.aim_id
    model_id = text(parsed.get("model_id"))
    profile_id = file.path.rsplit("/", 1)[-1].removesuffix(".yaml")
    spec: dict[str, Any] = {"image": image, "profileId": profile_id}
    if aim_id:
        spec["aimId"] = aim_id
    if model_id:
        spec["modelId"] = model_id
        spec["modelSources"] = [{"modelId": model_id, "sourceUri": f"hf://{model_id}"}]
    for key, value in (
        ("engine", text(metadata.get("engine"))),
        ("variant", text(metadata.get("variant"))),
        ("metric", text(metadata.get("metric"))),
        ("precision", text(metadata.get("precision"))),
        ("type", text(metadata.get("type"))),
        ("acceleratorModel", accelerator_model),
        ("acceleratorType", accelerator_type),
    ):
        if value:
            spec[key] = value
    primary = metadata.get("primary")
    spec["primary"] = primary is True
    if metadata.get("manual_selection_only") is True:
        spec["manualSelectionOnly"] = True
    if count:
        spec["acceleratorCount"] = count
    features = metadata.get("features")
    if isinstance(features, list) and features:
        spec["features"] = [text(f) for f in features]
    engine_args = parsed.get("engine_args")
    if isinstance(engine_args, Mapping) and engine_args:
        spec["engineArgs"] = dict(engine_args)
    env_vars = parsed.get("env_vars")
    if isinstance(env_vars, Mapping) and env_vars:
        spec["engineEnv"] = {str(k): text(v) for k, v in env_vars.items()}
    return _Item(
        file=file,
        profile_id=profile_id,
        spec=spec,
        primary_explicit=isinstance(primary, bool),
        hardware=(accelerator_type, accelerator_model, count or 0),
    )


def _deduplicated(items: list[_Item], aim_id: str) -> list[_Item]:
    """`$AIM_ID/` wins over `general/` (the operator's `dedupCatalogItems`)."""
    if not aim_id:
        return items
    bound = f"{aim_id}/"
    if not any(i.file.path.startswith(bound) for i in items):
        return items
    return [i for i in items if not i.file.path.startswith("general/")]


def recommended_deployments(record: ImageRecord) -> list[Mapping[str, Any]]:
    raw = record.labels.get(RECOMMENDED_DEPLOYMENTS_LABEL, "")
    if not raw:
        return []
    try:
        value = json.loads(raw)
    except ValueError:
        return []
    return [d for d in value if isinstance(d, Mapping)] if isinstance(value, list) else []


def matches_recommended(spec: Mapping[str, Any], deployments: Sequence[Mapping[str, Any]]) -> bool:
    for rd in deployments:
        profile_id = text(rd.get("profileId"))
        if profile_id:
            if profile_id == text(spec.get("profileId")):
                return True
            continue
        gpu_model = text(rd.get("gpuModel"))
        if gpu_model and gpu_model.lower() != text(spec.get("acceleratorModel")).lower():
            continue
        gpu_count = _int(rd.get("gpuCount")) or 0
        if gpu_count and gpu_count != (spec.get("acceleratorCount") or 0):
            continue
        precision = text(rd.get("precision"))
        if precision and precision.lower() != text(spec.get("precision")).lower():
            continue
        metric = text(rd.get("metric"))
        if metric and metric.lower() != text(spec.get("metric")).lower():
            continue
        return True
    return False


def supported(spec: Mapping[str, Any], inventory: InventoryView | None) -> bool:
    """The operator's `isSupportedProfile`, with the inventory standing in for the cluster's nodes."""
    model, count = text(spec.get("acceleratorModel")), spec.get("acceleratorCount") or 0
    requests = _mapping(_mapping(spec.get("resources")).get("requests"))
    needs = bool(model) or count > 0 or any(k not in _EXTENDED_RESOURCES_IGNORED for k in requests)
    if not needs or inventory is None:
        return True
    return inventory.has(
        text(spec.get("acceleratorVendor")),
        text(spec.get("acceleratorType")),
        model,
        text(spec.get("acceleratorPartitioningMode")),
        count,
    )


def _version(image: str) -> str:
    try:
        return parse_reference(image).version_tag if "@" not in image else ""
    except DiscoveryError:
        return ""


def _hardware_groups(items: Iterable[tuple[_Item, bool]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str, int, bool], list[dict[str, str]]] = {}
    for item, ok in items:
        key = (*item.hardware, ok)
        entry = {k: item.spec[k] for k in ("metric", "precision") if item.spec.get(k)}
        groups.setdefault(key, []).append(entry)
    out = []
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[2], not k[3])):
        kind, model, count, ok = key
        group: dict[str, Any] = {"supported": ok}
        if kind:
            group["acceleratorType"] = kind
        if model:
            group["acceleratorModel"] = model
        if count:
            group["acceleratorCount"] = count
        group["profiles"] = sorted(groups[key], key=lambda e: (e.get("metric", ""), e.get("precision", "")))
        out.append(group)
    return out


def discovered_profiles(
    model: AnyModel,
    record: ImageRecord,
    inventory: InventoryView | None,
    retained: Iterable[str] = (),
) -> DiscoveredModel:
    """The profiles and status an image-backed model gets from what its image holds.

    Profiles whose hardware the inventory lacks are not made, unless their name is in `retained`
    (a service is bound to one): then it is made with `status.status: NotAvailable` and returned
    among `unsupported`, as a generated profile is kept for its binding.
    """
    image = text(model.spec.image)
    cluster = isinstance(model, AIMClusterModel)
    model_name = model.metadata.name
    items: list[_Item] = []
    problems: list[str] = []
    for file in record.profiles:
        try:
            items.append(_item(file, record, image))
        except AIMValidationError as error:
            problems.append(f"{file.path}: {error.message}")
        except yaml.YAMLError as error:
            problems.append(f"{file.path}: not valid YAML ({str(error).splitlines()[0]})")
    items = _deduplicated(items, record.aim_id)
    deployments = recommended_deployments(record)
    keep = frozenset(retained)
    made: list[AnyProfile] = []
    kept_for_binding: list[AnyProfile] = []
    origins: dict[str, DiscoveredOrigin] = {}
    judged: list[tuple[_Item, bool]] = []
    names_seen: set[str] = set()
    for item in sorted(items, key=lambda i: i.file.path):
        name = discovered_profile_name(model_name, item.profile_id)
        if name in names_seen:
            problems.append(
                f"{item.file.path}: profile id {item.profile_id!r} appears twice; the first is kept"
            )
            continue
        names_seen.add(name)
        spec = dict(item.spec)
        if not item.primary_explicit:
            spec["primary"] = matches_recommended(spec, deployments)
        if model.spec.image_pull_secrets:
            spec["imagePullSecrets"] = [s.model_dump(by_alias=True) for s in model.spec.image_pull_secrets]
        if text(model.spec.service_account_name):
            spec["serviceAccountName"] = model.spec.service_account_name
        ok = supported(spec, inventory)
        judged.append((item, ok))
        if not ok and name not in keep:
            continue
        deployable = bool(spec.get("aimId")) and bool(spec.get("modelSources"))
        annotations = {
            MODEL_UID_ANNOTATION: model.effective_uid,
            MODEL_NAME_ANNOTATION: model_name,
            BASE_IMAGE_ANNOTATION: record.base_image,
            PROFILE_SOURCE_ANNOTATION: "image",
            PROFILE_COPYABLE_ANNOTATION: "true",
        }
        metadata: dict[str, Any] = {
            "name": name,
            "labels": {
                MANAGED_BY_LABEL: MANAGED_BY,
                PROFILE_ROLE_LABEL: "deployable" if deployable else "base",
                PROFILE_ORIGIN_LABEL: "discovered",
                SOURCE_MODEL_LABEL: model_name,
                SOURCE_MODEL_SCOPE_LABEL: "cluster" if cluster else "namespace",
            },
            "annotations": annotations,
        }
        if not cluster:
            metadata["namespace"] = model.metadata.namespace
            annotations[MODEL_NAMESPACE_ANNOTATION] = model.metadata.namespace or "default"
        manifest: dict[str, Any] = {
            "apiVersion": f"{AIM_GROUP}/v1alpha2",
            "kind": "AIMClusterProfile" if cluster else "AIMProfile",
            "metadata": metadata,
            "spec": spec,
        }
        if not ok:
            manifest["status"] = {"status": "NotAvailable"}
        try:
            profile = parse(manifest)
        except AIMValidationError as error:
            problems.append(f"{item.file.path}: {error.field}: {error.message}")
            continue
        assert isinstance(profile, AIMProfile | AIMClusterProfile)
        origins[name] = DiscoveredOrigin(image, record.manifest_digest, item.file.path, item.file.layer)
        (made if ok else kept_for_binding).append(profile)
    total = len(judged)
    good = sum(1 for _, ok in judged if ok)
    deployable_count = sum(1 for p in made if p.metadata.labels.get(PROFILE_ROLE_LABEL) == "deployable")
    status: dict[str, Any] = {
        "kind": "Image",
        "aimId": record.aim_id,
        "baseImage": record.base_image,
        "version": _version(image),
        "discoveredProfiles": {
            "total": total,
            "supported": good,
            "unsupported": total - good,
            "byHardware": _hardware_groups(judged),
        },
        "managedProfiles": {
            "total": len(made),
            "deployable": deployable_count,
            "base": len(made) - deployable_count,
        },
    }
    return DiscoveredModel(tuple(made), tuple(kept_for_binding), origins, status, tuple(problems))
