"""The cache PVC and the download Job of one model source (behaviour §12), shaped from a `CachePlan`.

Every decision (names, size, class, env, labels, image) is already in the plan; these builders only
give it the Kubernetes shape, so the same plan always yields the same manifests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aim_pulumi.adopt.record import keep_fields
from aim_pulumi.manifests._common import TIMEOUT_SECONDS, metadata, plain, sorted_map
from aim_pulumi.resolve.children.caching import CA_MOUNT_PATH, DOWNLOAD_MOUNT_PATH
from aim_pulumi.resolve.types import CachePlan

CACHE_VOLUME = "cache"
CA_VOLUME = "s3-ca"
DOWNLOAD_CONTAINER = "model-download"
BACKOFF_LIMIT = 2

# The downloader image runs as an unprivileged user; fsGroup makes the fresh volume writable for it.
POD_SECURITY_CONTEXT: dict[str, Any] = {
    "runAsUser": 1000,
    "runAsGroup": 1000,
    "fsGroup": 1000,
    "runAsNonRoot": True,
}


JOB_FIXED_AT_CREATION = ("spec", "metadata.labels", "metadata.annotations")
"""A download Job is what its creation decided, and no `pulumi up` changes it.

Kubernetes refuses any change to a Job's pod template, so pulumi-kubernetes would replace the Job
for one, which downloads the weights again (a Dedicated cache) or, for a Shared cache's retained
Job, applies the new template onto the old Job and fails. Most of the template's inputs are not
the download's own (the runtime config's env is copied in for the server, `aim:downloadImage` only
matters to a download still to run), so a change to them must not touch a Job that exists: the
operator likewise creates a download Job only when it is missing and never updates it. Its
metadata is fixed too: what the annotations say (`pulumi.com/timeoutSeconds`, `skipAwait`) only
matters to the await of its creation, and an in-place update of a Job whose template is ignored
makes pulumi-kubernetes record the live template (with the `controller-uid` and `job-name` labels
the API server adds), which the next preview then shows as a replacement. Its name is not fixed:
a new cache identity is a new Job. The Pulumi layer registers Jobs with these paths in
`ignoreChanges`; running a download again is an explicit step (docs/cluster.md): delete the Job,
then `pulumi up --refresh` creates it anew."""


PVC_FIXED_AT_CREATION = ("spec.accessModes", "spec.storageClassName")
"""What a cache PVC keeps from its creation: its access modes and StorageClass, which Kubernetes
refuses to change.

pulumi-kubernetes would replace the PVC for a change of them (`aim:cacheAccessMode`, a runtime
config's `storage.defaultStorageClassName`, a profile's `storageClassName`). A Dedicated cache's
replacement is an empty volume its download Job, fixed at creation, never fills; a Shared cache's
PVC is retained, so its replacement applied the new spec onto the old PVC, failed, and failed again
at every later `up`. The Pulumi layer registers cache PVCs with these paths in `ignoreChanges` and
warns with `kept_at_creation` where the live PVC differs from the plan; recreating the cache is an
explicit step (docs/cluster.md). `aim-pulumi import` reports such a difference on a live PVC as
kept at creation, as the first `up` leaves it (`aim_pulumi.adopt.matching`)."""

PVC_FIXED_FIELDS = ("accessModes", "storageClassName")


def kept_at_creation(
    pvc: Mapping[str, Any], job_name: str, live_spec: Mapping[str, Any] | None
) -> str | None:
    """The warning for a cache PVC whose live spec keeps what the plan would change, or None.

    `live_spec` is the PVC's spec as Pulumi knows it, its fields under their Kubernetes names; a
    PVC not created yet, or one whose spec is unknown, warrants nothing.
    """
    if not live_spec:
        return None
    planned = pvc.get("spec") or {}
    kept = []
    for field in PVC_FIXED_FIELDS:
        live = live_spec.get(field)
        wanted = planned.get(field)
        # A plan that names no class leaves the cluster's default, whatever the live PVC got; a
        # field the live spec does not report (None) is not known to differ.
        if wanted is None or live is None:
            continue
        if list(live if isinstance(live, list) else [live]) != list(
            wanted if isinstance(wanted, list) else [wanted]
        ):
            kept.append(f"spec.{field} {_shown(live)} (the program asks for {_shown(wanted)})")
    if not kept:
        return None
    meta = pvc.get("metadata") or {}
    name, namespace = meta.get("name"), meta.get("namespace")
    return (
        f"CacheKeptAtCreation: PersistentVolumeClaim {namespace}/{name} keeps {'; '.join(kept)}: "
        "Kubernetes fixes them when the claim is created. To recreate the cache with the new values "
        f"(its weights are downloaded again): kubectl delete -n {namespace} job/{job_name} pvc/{name} "
        "&& pulumi up --refresh"
    )


def _shown(value: Any) -> str:
    return ",".join(str(v) for v in value) if isinstance(value, list) else str(value)


def build_cache_pvc(plan: CachePlan) -> dict[str, Any]:
    """The PVC the download Job fills and the InferenceService mounts.

    Pulumi never waits for it to bind (`skipAwait`, whatever the service's await settings): under a
    StorageClass that binds on first consumer it binds only once the download Job's pod exists, and
    the Job is created after the PVC, so a wait for `Bound` would never end. Whether the weights are
    there is what the download Job's completion says, and that is what Pulumi waits for.
    """
    spec: dict[str, Any] = {
        "accessModes": [plan.access_mode],
        "volumeMode": "Filesystem",
        "resources": {"requests": {"storage": f"{plan.size_gi}Gi"}},
    }
    if plan.storage_class_name:
        spec["storageClassName"] = plan.storage_class_name
    pvc = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": metadata(plan.pvc_name, plan.namespace, plan.pvc_labels, skip_await=True),
        "spec": spec,
    }
    return keep_fields(pvc, plan.adopted.get("PersistentVolumeClaim"))


def _ca_volume(ca_bundle: Any) -> dict[str, Any]:
    if str(ca_bundle.get("kind", "ConfigMap")) == "Secret":
        return {"name": CA_VOLUME, "secret": {"secretName": str(ca_bundle["name"])}}
    return {"name": CA_VOLUME, "configMap": {"name": str(ca_bundle["name"])}}


def build_download_job(plan: CachePlan) -> dict[str, Any]:
    """The Job that downloads one model source onto its PVC.

    No `ttlSecondsAfterFinished`: a Job the cluster deletes would be recreated by the next `pulumi up`.
    No `pulumi.com/replaceUnready` either: after a `pulumi refresh` it would replace a download still
    in progress on the next `up`, restarting it. A failed download is retried on purpose: delete the
    Job, then `pulumi up --refresh` (`JOB_FIXED_AT_CREATION`, docs/cluster.md).
    """
    annotations = {TIMEOUT_SECONDS: str(plan.timeout_seconds)}
    volume_mounts: list[dict[str, Any]] = [{"name": CACHE_VOLUME, "mountPath": DOWNLOAD_MOUNT_PATH}]
    volumes: list[dict[str, Any]] = [
        {"name": CACHE_VOLUME, "persistentVolumeClaim": {"claimName": plan.pvc_name}}
    ]
    if plan.ca_bundle:
        volume_mounts.append({"name": CA_VOLUME, "mountPath": CA_MOUNT_PATH, "readOnly": True})
        volumes.append(_ca_volume(plan.ca_bundle))
    container: dict[str, Any] = {
        "name": DOWNLOAD_CONTAINER,
        "image": plan.job_image,
        "imagePullPolicy": "IfNotPresent",
        "args": [str(plan.source.get("sourceUri", ""))],
        "env": [plain(var) for var in plan.job_env],
        "volumeMounts": volume_mounts,
    }
    pod_spec: dict[str, Any] = {
        "restartPolicy": "Never",
        "securityContext": dict(POD_SECURITY_CONTEXT),
    }
    if plan.image_pull_secrets:
        pod_spec["imagePullSecrets"] = [{"name": name} for name in plan.image_pull_secrets]
    if plan.service_account_name:
        pod_spec["serviceAccountName"] = plan.service_account_name
    pod_spec["containers"] = [container]
    pod_spec["volumes"] = volumes
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata(
            plan.job_name,
            plan.namespace,
            plan.job_labels,
            annotations,
            skip_await=plan.skip_await,
        ),
        "spec": {
            "backoffLimit": BACKOFF_LIMIT,
            "template": {"metadata": {"labels": sorted_map(plan.job_labels)}, "spec": pod_spec},
        },
    }
    return keep_fields(job, plan.adopted.get("Job"))
