"""What a service adopted from the AIM operator keeps of the objects the operator made.

`aim-pulumi import` writes an adopted AIMService with the annotation `aim.eai.amd.com/adopted`, a
JSON object recorded from the live objects, so that the first `pulumi up` leaves running pods
alone:

- `caches`: planned cache PVC or download Job name -> the operator's name for the same cache. The
  operator names its caches differently; a plan that kept its own names would create new PVCs and
  download the weights again, and a rename is a replacement. The names are substituted throughout
  the plan (PVC, Job, the InferenceService's volumes and mounts), so the service mounts the PVC it
  mounts today.
- `objects`: by `Kind/name`, the fields of an adopted cache PVC or download Job that
  pulumi-kubernetes replaces the object for and the API server filled in (`keep_fields`).
- `inferenceService`: the operator's InferenceService as it runs (`labels` and `annotations`: the
  live value of each key the plan sets differently, null for a key the live object lacks;
  `predictor`: the live `spec.predictor`), and `plan`: the digest of the InferenceService the
  project plans for the service (`material_digest`). KServe copies an InferenceService's labels and
  annotations onto the predictor pods and rebuilds them on any predictor change, so the project's
  own bookkeeping (`app.kubernetes.io/managed-by: aim-pulumi`, Pulumi's await annotations, the
  profile-hash annotation) and the container defaults the live object carries would restart the
  model. While the service plans the very InferenceService it planned at import, the live values
  are kept (the replica bounds, which roll nothing, always come from the plan); once anything
  else about it changes, pods roll anyway and the plan's own InferenceService is applied whole.

Pure: no pulumi import, so `aim-pulumi plan` and the components apply the same rule.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from aim_pulumi.resolve.plan.result import ServicePlan

__all__ = [
    "ADOPTED_ANNOTATION",
    "adopt_plan",
    "adopted_record",
    "fields_digest",
    "keep_adopted",
    "keep_adopted_inference_service",
    "keep_fields",
    "material_digest",
    "planned_cache_names",
    "rename_caches",
]

ADOPTED_ANNOTATION = "aim.eai.amd.com/adopted"
# Predictor fields KServe applies without a new pod template: always the plan's.
REPLICA_BOUNDS = ("minReplicas", "maxReplicas")


def adopted_record(annotations: Mapping[str, Any] | None) -> dict[str, Any]:
    """The service's adoption record, or {} when it has none (or one that is not a JSON object)."""
    text = (annotations or {}).get(ADOPTED_ANNOTATION)
    if not isinstance(text, str):
        return {}
    try:
        record = json.loads(text)
    except ValueError:
        return {}
    return record if isinstance(record, dict) else {}


def material_digest(isvc: Mapping[str, Any]) -> str:
    """A digest of what the InferenceService puts in its pods: labels, annotations, predictor.

    The replica bounds are left out (they roll nothing), and key order does not count.
    """
    metadata = isvc.get("metadata") or {}
    predictor = dict((isvc.get("spec") or {}).get("predictor") or {})
    for key in REPLICA_BOUNDS:
        predictor.pop(key, None)
    body = {
        "labels": metadata.get("labels") or {},
        "annotations": metadata.get("annotations") or {},
        "predictor": predictor,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _override(values: Mapping[str, Any], kept: Any) -> dict[str, Any]:
    out = dict(values)
    if isinstance(kept, Mapping):
        for key, value in kept.items():
            if value is None:
                out.pop(str(key), None)
            else:
                out[str(key)] = str(value)
    return dict(sorted(out.items()))


def keep_adopted_inference_service(isvc: dict[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """`isvc` with the operator's values kept, when the plan still plans what it planned at import."""
    kept = record.get("inferenceService")
    if not isinstance(kept, Mapping) or kept.get("plan") != material_digest(isvc):
        return isvc
    live_predictor = kept.get("predictor")
    if not isinstance(live_predictor, Mapping):
        return isvc
    out = copy.deepcopy(isvc)
    metadata = out.setdefault("metadata", {})
    for field in ("labels", "annotations"):
        values = _override(metadata.get(field) or {}, kept.get(field))
        if values:
            metadata[field] = values
        else:
            metadata.pop(field, None)
    planned = out.setdefault("spec", {}).get("predictor") or {}
    predictor = {k: copy.deepcopy(v) for k, v in live_predictor.items() if k not in REPLICA_BOUNDS}
    for key in REPLICA_BOUNDS:
        if key in planned:
            predictor[key] = planned[key]
    out["spec"]["predictor"] = predictor
    return out


def rename_caches(value: Any, names: Mapping[str, str]) -> Any:
    """`value` (a plan, a manifest) with every planned cache name replaced by the operator's name.

    Cache names end in a hash of their identity, so a string equal to one is that name; a mount
    path or env value that ends with one (`/workspace/model-cache/<pvc>`) is renamed too. Plain
    data and (frozen) dataclasses are rebuilt where something changed, anything else kept as is.
    """
    if not names:
        return value
    if isinstance(value, str):
        if value in names:
            return names[value]
        for old, new in names.items():
            if value.endswith("/" + old):
                return value[: -len(old)] + new
        return value
    if isinstance(value, Mapping):
        return {rename_caches(k, names): rename_caches(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [rename_caches(v, names) for v in value]
    if isinstance(value, tuple):
        return tuple(rename_caches(v, names) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            old = getattr(value, f.name)
            new = rename_caches(old, names)
            if new is not old and new != old:
                changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value


def adopt_plan(plan: ServicePlan, record: Mapping[str, Any]) -> ServicePlan:
    """The plan with the operator's cache names (`caches` of the record) in place of its own, and
    each cache carrying what its PVC and Job keep (`objects` of the record, by `Kind/name`)."""
    names = record.get("caches")
    objects = record.get("objects")
    if not isinstance(objects, Mapping):
        objects = {}
    if not isinstance(names, Mapping) or not names:
        names = {}
        if not objects:
            return plan
    names = {str(k): str(v) for k, v in names.items()}
    caches = tuple(
        dataclasses.replace(
            cache,
            adopted={
                kind: objects[f"{kind}/{name}"]
                for kind, name in (("PersistentVolumeClaim", cache.pvc_name), ("Job", cache.job_name))
                if isinstance(objects.get(f"{kind}/{name}"), Mapping)
            },
        )
        for cache in rename_caches(plan.caches, names)
    )
    return dataclasses.replace(
        plan,
        caches=caches,
        container=rename_caches(plan.container, names),
        status=rename_caches(plan.status, names),
        conditions=rename_caches(plan.conditions, names),
        diagnostics=rename_caches(plan.diagnostics, names),
    )


def planned_cache_names(record: Mapping[str, Any]) -> dict[str, str]:
    """The operator's cache name -> the name the plan gives the same cache (the record reversed)."""
    names = record.get("caches")
    if not isinstance(names, Mapping):
        return {}
    return {str(v): str(k) for k, v in names.items()}


def keep_adopted(manifests: list[dict[str, Any]], record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A service's own children with what the record keeps (the InferenceService's live values)."""
    if not record:
        return manifests
    return [
        keep_adopted_inference_service(m, record)
        if m.get("kind") == "InferenceService"
        and str(m.get("apiVersion", "")).startswith("serving.kserve.io/")
        else m
        for m in manifests
    ]


_ABSENT = None


def _at(manifest: Mapping[str, Any], path: str) -> Any:
    value: Any = manifest
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return _ABSENT
        value = value[part]
    return value


def fields_digest(manifest: Mapping[str, Any], paths: Iterable[str]) -> str:
    """A digest of the values `manifest` holds at `paths` (dotted, no list items; null if absent)."""
    body = {path: _at(manifest, path) for path in sorted(paths)}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def keep_fields(manifest: dict[str, Any], kept: Mapping[str, Any] | None) -> dict[str, Any]:
    """`manifest` with the live values of `kept["fields"]`, while it plans what it planned at import.

    Used for an adopted cache's PVC and Job: pulumi-kubernetes replaces them when a field of its
    replacing set (a Job's `template`, `selector`, `completions`; a PVC's `storageClassName`,
    `volumeName`) differs from what `pulumi import` read, and the API server fills those in (the
    Job controller's selector and template labels, pod defaults, the default StorageClass, the
    bound volume). `kept["plan"]` is the digest of the planned values at those fields at import
    (`fields_digest`): once the plan asks for something else there, the planned values apply.
    """
    if not kept:
        return manifest
    fields = kept.get("fields")
    if not isinstance(fields, Mapping) or not fields or kept.get("plan") != fields_digest(manifest, fields):
        return manifest
    out = copy.deepcopy(manifest)
    for path, value in sorted(fields.items()):
        parts = str(path).split(".")
        target = out
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = copy.deepcopy(value)
    return out
