"""What an adopted service keeps of the operator's objects: the record `aim-pulumi import` writes.

The record (`aim.eai.amd.com/adopted`, read back at plan time by `aim_pulumi.adopt.record`) names
the operator's caches where it named them differently (`cache_names`), the fields of an adopted
cache PVC or Job that would replace it (`REPLACING_FIELDS`) and the API server filled in, and the
live InferenceService when every pod-rolling difference from the plan is `keepable`. The report
then says, per adopted child, what the record keeps (`note_kept`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from aim_pulumi.adopt.dump import Dump, object_key
from aim_pulumi.adopt.live_diff import REPLACING_FIELDS, Change, diff_manifest, same, same_scalar
from aim_pulumi.adopt.matching import Adoption, PlannedStack
from aim_pulumi.adopt.record import fields_digest, material_digest, rename_caches
from aim_pulumi.api import AIM_GROUP
from aim_pulumi.resolve.children.labels import SERVICE_LABEL
from aim_pulumi.schemas.crds import crd_schema
from aim_pulumi.schemas.defaulting import apply_defaults, schema_at

__all__ = ["adoption_records", "cache_names", "keepable", "note_kept", "operator_names"]


# Annotation prefixes that steer nothing in KServe: the project's and Pulumi's bookkeeping.
_BOOKKEEPING_ANNOTATIONS = ("pulumi.com/", f"{AIM_GROUP}/")
_PREDICTOR_ANNOTATIONS = ".spec.predictor.annotations."


def _covers(live: Any, planned: Any) -> bool:
    """Whether `live` holds every field of `planned` with the same value (and maybe more)."""
    if isinstance(planned, Mapping):
        return isinstance(live, Mapping) and all(
            k in live and _covers(live[k], v) for k, v in planned.items()
        )
    if isinstance(planned, list):
        return (
            isinstance(live, list)
            and len(live) == len(planned)
            and all(_covers(q, p) for p, q in zip(planned, live, strict=True))
        )
    return same_scalar(planned, live)


def keepable(change: Change) -> bool:
    """A pod-rolling difference that only the project's bookkeeping or the server's defaults make.

    Keeping the live value leaves the model running as the operator deployed it: a label (labels
    steer no serving), a Pulumi or AIM annotation, the predictor's profile-hash annotation, or an
    atomic list of the predictor whose live value holds every planned field and more (defaults
    KServe or the API server filled in). Any other difference changes what runs.
    """
    path = "." + change.path
    if path.startswith(".metadata.labels."):
        return True
    if path.startswith(".metadata.annotations."):
        return path[len(".metadata.annotations.") :].startswith(_BOOKKEEPING_ANNOTATIONS)
    if path.startswith(_PREDICTOR_ANNOTATIONS):
        return path[len(_PREDICTOR_ANNOTATIONS) :].startswith(f"{AIM_GROUP}/")
    if path.startswith(".spec.predictor.") and isinstance(change.planned, list):
        schema = schema_at(crd_schema("serving.kserve.io/v1beta1", "InferenceService"), path)
        return _covers(
            change.live, apply_defaults(change.planned, schema) if schema is not None else change.planned
        )
    return False


def _claims(pod_spec: Mapping[str, Any], container: Mapping[str, Any] | None) -> dict[str, str]:
    """mountPath (or, with no container, the volume name) -> PVC claim name, of a pod spec."""
    claims = {
        str(v.get("name")): str((v.get("persistentVolumeClaim") or {}).get("claimName"))
        for v in pod_spec.get("volumes") or []
        if isinstance(v, Mapping) and isinstance(v.get("persistentVolumeClaim"), Mapping)
    }
    if container is None:
        return claims
    return {
        str(m.get("mountPath")): claims[str(m.get("name"))]
        for m in container.get("volumeMounts") or []
        if isinstance(m, Mapping) and str(m.get("name")) in claims
    }


def _predictor_claims(isvc: Mapping[str, Any]) -> dict[str, str]:
    predictor = (isvc.get("spec") or {}).get("predictor") or {}
    containers = predictor.get("containers") or []
    container = containers[0] if containers and isinstance(containers[0], Mapping) else {}
    return _claims(predictor, container)


def _job_claims(job: Mapping[str, Any]) -> set[str]:
    pod = ((job.get("spec") or {}).get("template") or {}).get("spec") or {}
    return set(_claims(pod, None).values())


def cache_names(plan: PlannedStack, dump: Dump) -> dict[str, dict[str, str]]:
    """Per service (`namespace/name`): planned cache PVC and Job name -> the operator's name.

    The planned and the live InferenceService mount each cache at the same path (the model id's);
    where the live one mounts a PVC of another name that exists, that PVC is the cache, and the
    operator's Job that mounts it is its download Job.
    """
    live_by_key = {object_key(o): o for o in dump.live}
    resources = [r for r in plan.resources if r.custom]
    planned_jobs: dict[str, str] = {}
    for r in resources:
        manifest = r.manifest
        if manifest.get("kind") == "Job":
            for claim in _job_claims(manifest):
                planned_jobs[claim] = str((manifest.get("metadata") or {}).get("name"))
    live_jobs: dict[tuple[str, str], str] = {}
    for obj in sorted(dump.live, key=object_key):
        if obj.get("kind") == "Job":
            for claim in _job_claims(obj):
                live_jobs.setdefault((object_key(obj)[2], claim), object_key(obj)[3])
    names: dict[str, dict[str, str]] = {}
    for r in resources:
        manifest = r.manifest
        if manifest.get("kind") != "InferenceService":
            continue
        namespace = object_key(manifest)[2]
        service = ((manifest.get("metadata") or {}).get("labels") or {}).get(SERVICE_LABEL)
        live = live_by_key.get(object_key(manifest))
        if live is None or not service:
            continue
        live_claims = _predictor_claims(live)
        mapping: dict[str, str] = {}
        for mount, planned in _predictor_claims(manifest).items():
            operator = live_claims.get(mount)
            if (
                not operator
                or operator == planned
                or ("", "PersistentVolumeClaim", namespace, operator) not in (live_by_key)
            ):
                continue
            mapping[planned] = operator
            job = live_jobs.get((namespace, operator))
            if planned in planned_jobs and job and job != planned_jobs[planned]:
                mapping[planned_jobs[planned]] = job
        if mapping:
            names[f"{namespace}/{service}"] = mapping
    return names


def _value_at(obj: Mapping[str, Any], path: str) -> Any:
    value: Any = obj
    for part in path.strip(".").split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _kept_cache_fields(
    plan: PlannedStack,
    live_by_key: Mapping[tuple[str, str, str, str], Mapping[str, Any]],
    names: Mapping[str, str],
) -> list[tuple[str, str, dict[str, Any]]]:
    """(service, `Kind/name`, kept) for each adopted cache PVC and Job: the replacing fields to keep.

    A replacing field (`REPLACING_FIELDS`) the plan leaves out, or sets to a part of what the live
    object holds there (the API server's defaults around it), keeps the live value; one the plan
    sets otherwise is a replacement, reported as such. Each service that mounts the cache carries
    the entry (a Shared cache's: every one of them).
    """
    resources = [r for r in plan.resources if r.custom]
    mounted_by: dict[tuple[str, str], set[str]] = {}
    for r in resources:
        manifest = rename_caches(r.manifest, names)
        service = ((manifest.get("metadata") or {}).get("labels") or {}).get(SERVICE_LABEL)
        if manifest.get("kind") == "InferenceService" and service:
            namespace = object_key(manifest)[2]
            for claim in _predictor_claims(manifest).values():
                mounted_by.setdefault((namespace, claim), set()).add(f"{namespace}/{service}")
    out: list[tuple[str, str, dict[str, Any]]] = []
    for r in resources:
        manifest = rename_caches(r.manifest, names)
        kind = str(manifest.get("kind") or "")
        if kind not in ("PersistentVolumeClaim", "Job"):
            continue
        live = live_by_key.get(object_key(manifest))
        if live is None:
            continue
        fields: dict[str, Any] = {}
        for path in REPLACING_FIELDS[kind]:
            planned, held = _value_at(manifest, path), _value_at(live, path)
            if held is None or (planned is not None and (same(planned, held) or not _covers(held, planned))):
                continue
            fields[path.strip(".")] = copy.deepcopy(held)
        if not fields:
            continue
        namespace, name = object_key(manifest)[2], object_key(manifest)[3]
        claims = [name] if kind == "PersistentVolumeClaim" else sorted(_job_claims(manifest))
        services = {s for claim in claims for s in mounted_by.get((namespace, claim), set())}
        kept = {"plan": fields_digest(manifest, fields), "fields": dict(sorted(fields.items()))}
        out.extend((service, f"{kind}/{name}", kept) for service in sorted(services))
    return out


def adoption_records(plan: PlannedStack, dump: Dump) -> dict[str, dict[str, Any]]:
    """Per service (`namespace/name`): the `aim.eai.amd.com/adopted` record its AIM YAML carries.

    `plan` is the plan of the AIM YAML without records. A service gets `caches` when the operator
    named a cache differently, and `inferenceService` when every pod-rolling difference between
    its planned and its live InferenceService is `keepable`: then the first `up` changes nothing
    the pods see. A service whose predictor differs in anything else rolls its pods on the first
    `up` whatever is kept, so it keeps nothing and the report says so.
    """
    records: dict[str, dict[str, Any]] = {}
    live_by_key = {object_key(o): o for o in dump.live}
    for service, mapping in cache_names(plan, dump).items():
        records.setdefault(service, {})["caches"] = dict(sorted(mapping.items()))
    renamed = {str(k): str(v) for r in records.values() for k, v in (r.get("caches") or {}).items()}
    for service, key, fields in _kept_cache_fields(plan, live_by_key, renamed):
        records.setdefault(service, {}).setdefault("objects", {})[key] = fields
    for r in plan.resources:
        manifest = r.manifest
        if not r.custom or manifest.get("kind") != "InferenceService":
            continue
        live = live_by_key.get(object_key(manifest))
        labels = (manifest.get("metadata") or {}).get("labels") or {}
        if live is None or not labels.get(SERVICE_LABEL):
            continue
        key = f"{object_key(manifest)[2]}/{labels[SERVICE_LABEL]}"
        planned = rename_caches(manifest, (records.get(key) or {}).get("caches") or {})
        rolling = [c for c in diff_manifest(planned, live) if c.effect == "rolls-pods"]
        if not rolling or not all(keepable(c) for c in rolling):
            continue
        live_meta = live.get("metadata") or {}
        kept: dict[str, Any] = {"plan": material_digest(planned)}
        for field_name in ("labels", "annotations"):
            prefix = f"metadata.{field_name}."
            values = {
                c.path[len(prefix) :]: (live_meta.get(field_name) or {}).get(c.path[len(prefix) :])
                for c in rolling
                if c.path.startswith(prefix)
            }
            if values:
                kept[field_name] = dict(sorted(values.items()))
        kept["predictor"] = {
            k: copy.deepcopy(v)
            for k, v in ((live.get("spec") or {}).get("predictor") or {}).items()
            if k not in ("minReplicas", "maxReplicas")  # always the plan's: they roll nothing
        }
        records.setdefault(key, {})["inferenceService"] = kept
    return dict(sorted(records.items()))


def operator_names(records: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Every planned cache name the records replace, with the operator's name for it."""
    return {str(k): str(v) for r in records.values() for k, v in (r.get("caches") or {}).items()}


def note_kept(adoption: Adoption, fresh: Adoption, records: Mapping[str, Mapping[str, Any]]) -> None:
    """Mark on each adopted child what its service's record keeps, against the plan without records.

    `fresh` is the adoption of the plan without records, renamed to the operator's cache names
    (`PlannedStack.renamed`), so what is kept is only what else differs.
    """
    # By identity: a renamed cache has another Pulumi name (its suffix hashes the PVC name).
    fresh_changes = {c.key: c.changes for c in fresh.adopted}
    planned_names = {
        operator: planned
        for record in records.values()
        for planned, operator in (record.get("caches") or {}).items()
    }
    for child in adoption.adopted:
        now = {c.path for c in child.changes}
        child.kept = [c for c in fresh_changes.get(child.key, []) if c.path not in now]
        name = child.key[3]
        if name in planned_names:
            child.planned_name = planned_names[name]
