"""The KServe InferenceService of one AIMService (behaviour §13), current v1beta1 shape only."""

from __future__ import annotations

from typing import Any

from aim_pulumi.manifests._common import TIMEOUT_SECONDS, WAIT_FOR, metadata, plain, sorted_map
from aim_pulumi.resolve.plan.result import ServicePlan

API_VERSION = "serving.kserve.io/v1beta1"
KIND = "InferenceService"
CONTAINER_NAME = "kserve-container"
CONTAINER_PORT = 8000
SHM_SIZE = "8Gi"
PROFILE_VOLUME = "aim-profile"
AUTOSCALER_CLASS = "serving.kserve.io/autoscalerClass"
DEPLOYMENT_MODE = "serving.kserve.io/deploymentMode"
PROFILE_HASH = "aim.eai.amd.com/profile-hash"


def isvc_annotations(plan: ServicePlan) -> dict[str, str]:
    """Control and await annotations per §13.4 over the plan's propagated ones (controls win).

    A predictor held at zero replicas is never Ready, so it gets no waitFor.
    """
    notes = dict(plan.isvc_annotations)
    notes[AUTOSCALER_CLASS] = plan.scaling.autoscaler_class
    notes[DEPLOYMENT_MODE] = plan.deployment_mode
    wait = plan.wait
    if not wait.skip_await and wait.wait_for and plan.scaling.min_replicas > 0:
        notes[WAIT_FOR] = wait.wait_for
        if wait.timeout_seconds is not None:
            notes[TIMEOUT_SECONDS] = str(wait.timeout_seconds)
    return notes


def _volumes(plan: ServicePlan) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    mounts: list[dict[str, Any]] = [{"name": "dshm", "mountPath": "/dev/shm"}]
    volumes: list[dict[str, Any]] = [
        {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": SHM_SIZE}}
    ]
    if plan.profile_config is not None:
        mounts.append({"name": PROFILE_VOLUME, "mountPath": plan.profile_config.mount_path, "readOnly": True})
        volumes.append({"name": PROFILE_VOLUME, "configMap": {"name": plan.profile_config.name}})
    for cache in plan.caches:
        mounts.append({"name": cache.pvc_name, "mountPath": cache.mount_path})
        volumes.append({"name": cache.pvc_name, "persistentVolumeClaim": {"claimName": cache.pvc_name}})
    return mounts, volumes


def _container(plan: ServicePlan, mounts: list[dict[str, Any]]) -> dict[str, Any]:
    spec = plan.container
    container: dict[str, Any] = {"name": CONTAINER_NAME, "image": spec.image, "imagePullPolicy": "Always"}
    if spec.command is not None:
        container["command"] = list(spec.command)
    if spec.args is not None:
        container["args"] = list(spec.args)
    container["ports"] = [{"name": "http", "containerPort": CONTAINER_PORT, "protocol": "TCP"}]
    if spec.env:
        container["env"] = plain(spec.env)
    if spec.resources:
        container["resources"] = sorted_map(spec.resources)
    container["volumeMounts"] = mounts
    return container


def build_inference_service(plan: ServicePlan) -> dict[str, Any]:
    """The ISVC exactly as §13 shapes it; the plan has already decided every value."""
    mounts, volumes = _volumes(plan)
    predictor: dict[str, Any] = {
        "minReplicas": plan.scaling.min_replicas,
        "maxReplicas": plan.scaling.max_replicas,
        "annotations": {PROFILE_HASH: plan.profile_hash},
    }
    if plan.container.image_pull_secrets:
        predictor["imagePullSecrets"] = [{"name": name} for name in plan.container.image_pull_secrets]
    if plan.container.service_account_name:
        predictor["serviceAccountName"] = plan.container.service_account_name
    if plan.container.priority_class_name:
        predictor["priorityClassName"] = plan.container.priority_class_name
    predictor["containers"] = [_container(plan, mounts)]
    predictor["volumes"] = volumes
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": metadata(
            plan.isvc_name,
            plan.namespace,
            plan.isvc_labels,
            isvc_annotations(plan),
            skip_await=plan.wait.skip_await,
        ),
        "spec": {"predictor": predictor},
    }
