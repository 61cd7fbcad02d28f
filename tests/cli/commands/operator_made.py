"""What the AIM operator leaves on a cluster for some AIM YAML: the objects `aim-pulumi import` adopts.

`operator_deployment(docs)` plans the AIM objects as the project does and turns each planned child
into the one the operator would have made, where the two are known to differ:

- labels `app.kubernetes.io/managed-by: aim-engine`, and none of Pulumi's annotations;
- ownerReferences to the AIMService the child belongs to (a Shared cache to the first service
  that uses it, as the operator's cache objects are owned);
- on the InferenceService no `aim.eai.amd.com/profile-hash` predictor annotation, and the
  container defaults the server fills in (`terminationMessagePath`, `terminationMessagePolicy`);
- cache PVCs and download Jobs under names of the operator's own (`operator_cache_name`), mounted
  by the InferenceServices under those names; the PVCs bound under the default StorageClass and the
  Jobs with the defaults the API server writes (`completions`, pod defaults), fields pulumi-kubernetes
  replaces an object for when they differ from what `pulumi import` read;
- KServe's predictor Service, owned by its InferenceService;
- each AIMService with the `status.resolvedProfile` the operator recorded.

Used by the offline tests and by the cluster test, which creates these objects in a namespace.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import io
import json
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from aim_pulumi.adopt.record import rename_caches
from aim_pulumi.cli.commands import plan as plan_command
from aim_pulumi.schemas.crds import crd_schema
from aim_pulumi.schemas.defaulting import apply_defaults

AIM = "aim.eai.amd.com"
SERVICE_LABEL = f"{AIM}/service"
PROFILE_HASH = f"{AIM}/profile-hash"
CONTAINER_DEFAULTS = {"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}


def operator_cache_name(planned: str) -> str:
    """The operator's name for a cache object the plan names `planned`: another hash suffix."""
    stem = planned.rsplit("-", 1)[0]
    return f"{stem}-{hashlib.sha256(('operator:' + planned).encode()).hexdigest()[:8]}"


def _uid(*parts: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(parts)))


def plan_document(docs: Sequence[Mapping[str, Any]], work: Path) -> dict[str, Any]:
    """`aim-pulumi plan --json` of the AIM objects, secrets shown."""
    source = work / "aim"
    source.mkdir(parents=True, exist_ok=True)
    (source / "objects.yaml").write_text(yaml.safe_dump_all(list(docs), sort_keys=False))
    parser = argparse.ArgumentParser(prog="aim-pulumi")
    plan_command.register(parser.add_subparsers(dest="command"))
    target = work / "plan.json"
    args = parser.parse_args(["plan", str(source), "--json", str(target), "--quiet", "--show-secrets"])
    err = io.StringIO()
    assert args.func(args, stdout=io.StringIO(), stderr=err) == 0, err.getvalue()
    document: dict[str, Any] = json.loads(target.read_text())
    return document


def _owner(service: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": service["apiVersion"],
        "kind": "AIMService",
        "name": service["metadata"]["name"],
        "uid": service["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def _as_operator_made(manifest: dict[str, Any]) -> dict[str, Any]:
    obj = copy.deepcopy(manifest)
    metadata = obj["metadata"]
    labels = dict(metadata.get("labels") or {})
    labels["app.kubernetes.io/managed-by"] = "aim-engine"
    metadata["labels"] = labels
    annotations = {
        k: v for k, v in (metadata.get("annotations") or {}).items() if not k.startswith("pulumi.com/")
    }
    if annotations:
        metadata["annotations"] = annotations
    else:
        metadata.pop("annotations", None)
    if obj["kind"] == "PersistentVolumeClaim":
        # Bound, under the cluster's default StorageClass (which the plan does not name).
        obj["spec"].setdefault("storageClassName", "immediate")
        obj["spec"]["volumeName"] = f"pvc-{metadata['name']}"
    if obj["kind"] == "Job":
        # Defaults the API server writes into every Job (it adds the selector and labels itself).
        obj["spec"].update(completions=1, parallelism=1)
        obj["spec"]["template"]["spec"].update(terminationGracePeriodSeconds=30, dnsPolicy="ClusterFirst")
    if obj["kind"] == "InferenceService":
        predictor = obj["spec"]["predictor"]
        notes = {k: v for k, v in (predictor.get("annotations") or {}).items() if k != PROFILE_HASH}
        if notes:
            predictor["annotations"] = notes
        else:
            predictor.pop("annotations", None)
        for container in predictor.get("containers") or []:
            container.update(CONTAINER_DEFAULTS)
    return obj


def operator_deployment(docs: Sequence[Mapping[str, Any]], work: Path) -> list[dict[str, Any]]:
    """The AIM objects (with uids and the operator's status) and the children the operator made."""
    aim: list[dict[str, Any]] = []
    for doc in docs:
        obj = copy.deepcopy(dict(doc))
        meta = obj["metadata"]
        meta.setdefault("uid", _uid(obj["kind"], meta.get("namespace", ""), meta["name"]))
        aim.append(obj)
    plan = plan_document(aim, work)
    services = {
        f"{o['metadata']['namespace']}/{o['metadata']['name']}": o for o in aim if o["kind"] == "AIMService"
    }
    statuses: Mapping[str, Any] = next(
        (r.get("outputs") or {}).get("services") or {}
        for r in plan["resources"]
        if r["type"] == "aim:index:AIMStack"
    )
    for key, service in services.items():
        resolved = (statuses.get(key) or {}).get("resolvedProfile")
        status: dict[str, Any] = {"status": "Running"}
        if resolved and resolved.get("name"):
            status["resolvedProfile"] = {k: v for k, v in resolved.items() if v}
        service["status"] = status
    children = [
        copy.deepcopy(r["inputs"])
        for r in plan["resources"]
        if r.get("custom") and str(r["type"]).startswith("kubernetes:")
    ]
    names = {
        c["metadata"]["name"]: operator_cache_name(c["metadata"]["name"])
        for c in children
        if c["kind"] in ("PersistentVolumeClaim", "Job")
    }
    made: list[dict[str, Any]] = []
    cache_owner: dict[str, dict[str, Any]] = {}
    for manifest in sorted(children, key=lambda c: (c["kind"], c["metadata"]["name"])):
        obj = _as_operator_made(rename_caches(manifest, names))
        # What the API server stores: the CRD's defaults filled in (an HTTPRoute parent's `kind`).
        schema = crd_schema(obj["apiVersion"], obj["kind"])
        obj = copy.deepcopy(apply_defaults(obj, schema)) if schema is not None else obj
        meta = obj["metadata"]
        meta["uid"] = _uid(obj["kind"], meta["namespace"], meta["name"])
        service = services.get(f"{meta['namespace']}/{(meta.get('labels') or {}).get(SERVICE_LABEL)}")
        if obj["kind"] == "InferenceService" and service is not None:
            for claim in _claims(obj):
                cache_owner.setdefault(claim, service)
        if service is not None:
            meta["ownerReferences"] = [_owner(service)]
        made.append(obj)
    for obj in made:
        meta = obj["metadata"]
        if not meta.get("ownerReferences"):
            claim = (
                meta["name"] if obj["kind"] == "PersistentVolumeClaim" else next(iter(_job_claims(obj)), "")
            )
            if claim in cache_owner:
                meta["ownerReferences"] = [_owner(cache_owner[claim])]
    for obj in [o for o in made if o["kind"] == "InferenceService"]:
        meta = obj["metadata"]
        made.append(
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": {
                    "name": f"{meta['name']}-predictor",
                    "namespace": meta["namespace"],
                    "uid": _uid("Service", meta["namespace"], meta["name"]),
                    "labels": {"serving.kserve.io/inferenceservice": meta["name"]},
                    "ownerReferences": [
                        {
                            "apiVersion": obj["apiVersion"],
                            "kind": "InferenceService",
                            "name": meta["name"],
                            "uid": meta["uid"],
                            "controller": True,
                        }
                    ],
                },
                "spec": {"ports": [{"name": "http", "port": 80, "targetPort": 8000}]},
            }
        )
    return aim + made


def _claims(isvc: Mapping[str, Any]) -> list[str]:
    volumes = isvc["spec"]["predictor"].get("volumes") or []
    return [v["persistentVolumeClaim"]["claimName"] for v in volumes if "persistentVolumeClaim" in v]


def _job_claims(job: Mapping[str, Any]) -> list[str]:
    volumes = job["spec"]["template"]["spec"].get("volumes") or []
    return [v["persistentVolumeClaim"]["claimName"] for v in volumes if "persistentVolumeClaim" in v]


def as_list(objects: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The objects as `kubectl get -o yaml` prints several."""
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": list(objects)}


def operator_derivations(docs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The profile sets and derived profiles the operator made for `docs`: a model's child set owned by
    the model, each derived profile owned by its set, labelled and annotated as the operator's
    profile-set and profile controllers leave them, with the status they report."""
    from aim_pulumi.api import parse, to_manifest
    from aim_pulumi.resolve.catalog.store import Catalog
    from aim_pulumi.resolve.derivation.sources import extract_tag

    objects = [parse(doc) for doc in docs]
    catalog = Catalog(objects, embed_default=False)
    by_ref = {o.object_ref: doc for o, doc in zip(objects, docs, strict=True)}
    made: list[dict[str, Any]] = []
    for profile_set in catalog.profile_sets():
        derivation = catalog.derivation(profile_set)
        assert derivation is not None
        set_manifest = to_manifest(profile_set)
        set_uid = _uid(
            set_manifest["kind"], set_manifest["metadata"].get("namespace", ""), profile_set.metadata.name
        )
        model_name = profile_set.metadata.annotations.get(f"{AIM}/model-name")
        if model_name is not None:  # the model's child: the operator made it, owned by the model
            model = by_ref[f"AIMModel/{profile_set.metadata.namespace}/{model_name}"]
            meta = set_manifest["metadata"]
            meta["labels"]["app.kubernetes.io/managed-by"] = "aim-engine"
            meta["annotations"][f"{AIM}/model-uid"] = model["metadata"].get("uid") or _uid(
                "AIMModel", meta["namespace"], model_name
            )
            meta["uid"] = set_uid
            meta["ownerReferences"] = [
                {
                    "apiVersion": f"{AIM}/v1alpha2",
                    "kind": "AIMModel",
                    "name": model_name,
                    "uid": meta["annotations"][f"{AIM}/model-uid"],
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ]
            set_manifest["status"] = {"status": "Ready"}
            made.append(set_manifest)
        else:
            set_uid = by_ref[profile_set.object_ref]["metadata"].get("uid") or set_uid
        for derived in derivation.profiles:
            profile = to_manifest(derived.profile)
            meta = profile["metadata"]
            meta["labels"]["app.kubernetes.io/managed-by"] = "aim-engine"
            meta["annotations"][f"{AIM}/profile-set-uid"] = set_uid
            meta["uid"] = _uid(profile["kind"], meta.get("namespace", ""), meta["name"])
            meta["ownerReferences"] = [
                {
                    "apiVersion": f"{AIM}/v1alpha2",
                    "kind": set_manifest["kind"],
                    "name": profile_set.metadata.name,
                    "uid": set_uid,
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ]
            profile["status"] = {
                "status": "Ready",
                "deployable": True,
                "origin": "derived",
                "version": extract_tag(profile["spec"]["image"]),
            }
            made.append(profile)
    return made
