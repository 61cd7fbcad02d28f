"""Hand-made plans for the manifest builder tests: sensible defaults, every field overridable."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.types import (
    AwaitPlan,
    CachePlan,
    ContainerPlan,
    ProfileConfigPlan,
    RoutePlan,
    ScaledObjectPlan,
    ScalingPlan,
)

NAMESPACE = "ml-team"
SERVICE = "qwen-chat"
ISVC = "qwen-chat-5d0f2c1a"
PREDICTOR = f"{ISVC}-predictor"

SERVICE_LABELS = {
    "app.kubernetes.io/managed-by": "aim-pulumi",
    "aim.eai.amd.com/service": SERVICE,
}

PROFILE_SPEC: dict[str, Any] = {
    "aimId": "qwen/qwen3-32b",
    "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
    "acceleratorType": "gpu",
    "acceleratorVendor": "amd",
    "acceleratorModel": "MI300X",
    "acceleratorCount": 1,
    "precision": "fp8",
    "metric": "latency",
    "modelSources": [{"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "64Gi"}],
}


def container_plan(**changes: Any) -> ContainerPlan:
    base = ContainerPlan(
        image=PROFILE_SPEC["image"],
        env=(
            {"name": "AIM_PROFILE_ID", "value": "custom/qwen/qwen3-32b/vllm-mi300x-fp8-tp1-latency"},
            {"name": "AIM_ID", "value": ""},
            {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
        ),
        resources={"limits": {"amd.com/gpu": 1}, "requests": {"amd.com/gpu": 1, "cpu": "8"}},
    )
    return replace(base, **changes)


def profile_config_plan(**changes: Any) -> ProfileConfigPlan:
    base = ProfileConfigPlan(
        name="qwen-chat-profile-0a1b2c3d",
        file_name="vllm-mi300x-fp8-tp1-latency.yaml",
        content="aim_id: qwen/qwen3-32b\nengine_args: {}\n",
        mount_path="/workspace/aim-runtime/profiles/custom/qwen/qwen3-32b",
        labels={**SERVICE_LABELS, "app.kubernetes.io/component": "inference"},
    )
    return replace(base, **changes)


def route_plan(**changes: Any) -> RoutePlan:
    base = RoutePlan(
        name="qwen-chat-7e3a9b10",
        namespace=NAMESPACE,
        path="/ml-team/qwen-chat",
        parent_ref={"name": "inference-gateway", "namespace": "gateways"},
        backend_service=PREDICTOR,
        labels={**SERVICE_LABELS, "app.kubernetes.io/component": "routing"},
    )
    return replace(base, **changes)


def activation_trigger() -> dict[str, Any]:
    return {
        "type": "external",
        "metadata": {
            "scalerAddress": "keda-otel-scaler.keda.svc:4318",
            "metricQuery": "sum(envoy_http_lua_aim_activation_requests_n7_ml_x2dteam_r18_qwen_x2dchat)",
            "targetValue": "1000000000",
            "operationOverTime": "avg",
        },
    }


def metric_trigger() -> dict[str, Any]:
    return {
        "type": "external",
        "metadata": {
            "scalerAddress": "keda-otel-scaler.keda.svc:4318",
            "metricQuery": (
                f'sum(vllm:num_requests_running{{namespace="{NAMESPACE}",deployment="{PREDICTOR}"}})'
            ),
            "targetValue": "1",
            "operationOverTime": "avg",
        },
    }


def scaled_object_plan(**changes: Any) -> ScaledObjectPlan:
    base = ScaledObjectPlan(
        name=PREDICTOR,
        namespace=NAMESPACE,
        target_name=PREDICTOR,
        min_replicas=1,
        max_replicas=5,
        triggers=(metric_trigger(),),
        labels={**SERVICE_LABELS, "app.kubernetes.io/component": "autoscaling"},
    )
    return replace(base, **changes)


def cache_plan(**changes: Any) -> CachePlan:
    base = CachePlan(
        mode="Shared",
        namespace=NAMESPACE,
        profile_name="qwen-qwen3-32b-mi300x-fp8-latency",
        source=PROFILE_SPEC["modelSources"][0],
        pvc_name="qwen-qwen3-32b-cache-1f2e3d4c",
        job_name="qwen-qwen3-32b-download-1f2e3d4c",
        size_gi=71,
        access_mode="ReadWriteMany",
        mount_path="/workspace/cache/Qwen/Qwen3-32B",
        job_image="ghcr.io/silogen/aim-artifact-downloader:0.2.0",
        job_env=({"name": "MOUNT_PATH", "value": "/cache/models"},),
        pvc_labels={"app.kubernetes.io/managed-by": "aim-pulumi", "app.kubernetes.io/component": "cache"},
        job_labels={"app.kubernetes.io/managed-by": "aim-pulumi", "app.kubernetes.io/component": "download"},
    )
    return replace(base, **changes)


def fixed_scaling(replicas: int = 1) -> ScalingPlan:
    return ScalingPlan(min_replicas=replicas, max_replicas=replicas, autoscaler_class="none")


def autoscaling(min_replicas: int = 1, max_replicas: int = 5, *, triggers: bool = True) -> ScalingPlan:
    scaled = None
    if triggers:
        trigger_list = (activation_trigger(), metric_trigger()) if min_replicas == 0 else (metric_trigger(),)
        scaled = scaled_object_plan(
            min_replicas=min_replicas,
            max_replicas=max_replicas,
            triggers=trigger_list,
            polling_interval=5 if min_replicas == 0 else None,
            cooldown_period=300 if min_replicas == 0 else None,
        )
    return ScalingPlan(
        min_replicas=min_replicas,
        max_replicas=max_replicas,
        autoscaler_class="external",
        scaled_object=scaled,
    )


def service_plan(**changes: Any) -> ServicePlan:
    base = ServicePlan(
        name=SERVICE,
        namespace=NAMESPACE,
        uid="0b4d6f3e-2a36-5d0e-9d51-3c5c0d3b7e11",
        pipeline="profile",
        isvc_name=ISVC,
        route_name="qwen-chat-7e3a9b10",
        predictor_name=PREDICTOR,
        profile_name="qwen-qwen3-32b-mi300x-fp8-latency",
        profile_spec=PROFILE_SPEC,
        profile_hash="9c1e0a7b",
        container=container_plan(),
        scaling=fixed_scaling(),
        isvc_labels={
            **SERVICE_LABELS,
            "app.kubernetes.io/component": "inference",
            "aim.eai.amd.com/profile": "qwen-qwen3-32b-mi300x-fp8-latency",
        },
        wait=AwaitPlan(),
        profile_config=profile_config_plan(),
    )
    return replace(base, **changes)
