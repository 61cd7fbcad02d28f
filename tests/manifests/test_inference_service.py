"""The InferenceService builder: §13 shape, volumes, await annotations, and schema validity."""

from __future__ import annotations

from typing import Any

import pytest
from factories import (
    ISVC,
    NAMESPACE,
    autoscaling,
    cache_plan,
    container_plan,
    fixed_scaling,
    route_plan,
    service_plan,
)

from aim_pulumi.manifests import build_inference_service, build_service_manifests
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.types import AwaitPlan
from aim_pulumi.schemas import validate_manifest


def _predictor(manifest: dict[str, Any]) -> dict[str, Any]:
    predictor: dict[str, Any] = manifest["spec"]["predictor"]
    return predictor


def _container(manifest: dict[str, Any]) -> dict[str, Any]:
    container: dict[str, Any] = _predictor(manifest)["containers"][0]
    return container


def _assert_valid(manifest: dict[str, Any]) -> None:
    assert validate_manifest(manifest) == []


PLANS = {
    "fixed-one-replica": service_plan(),
    "fixed-three-replicas": service_plan(scaling=fixed_scaling(3)),
    "autoscaling": service_plan(scaling=autoscaling(1, 5)),
    "scale-from-zero": service_plan(scaling=autoscaling(0, 3)),
    "skip-await": service_plan(wait=AwaitPlan(skip_await=True)),
    "no-wait-for": service_plan(wait=AwaitPlan(wait_for=None)),
    "shared-cache": service_plan(caches=(cache_plan(),)),
    "two-dedicated-caches": service_plan(
        caches=(
            cache_plan(
                mode="Dedicated", pvc_name="qwen-chat-a-cache-11111111", mount_path="/workspace/cache/a"
            ),
            cache_plan(
                mode="Dedicated", pvc_name="qwen-chat-b-cache-22222222", mount_path="/workspace/cache/b"
            ),
        )
    ),
    "direct-vllm": service_plan(
        profile_config=None,
        container=container_plan(
            image="vllm/vllm-openai:v0.17.1-cu130",
            command=("vllm", "serve"),
            args=("$(AIM_VLLM_MODEL)", "--served-model-name=m", "--host=0.0.0.0", "--port=8000"),
            resources={"limits": {"nvidia.com/gpu": 1}, "requests": {"nvidia.com/gpu": 1}},
        ),
    ),
    "pod-identity": service_plan(
        container=container_plan(
            image_pull_secrets=("svc-registry", "profile-registry"),
            service_account_name="inference",
            priority_class_name="high",
        )
    ),
    "no-resources-no-env": service_plan(container=container_plan(resources={}, env=())),
    "raw-deployment": service_plan(deployment_mode="RawDeployment"),
}


@pytest.mark.parametrize("plan", list(PLANS.values()), ids=list(PLANS))
def test_every_shape_validates_against_the_kserve_schema(plan: ServicePlan) -> None:
    _assert_valid(build_inference_service(plan))


def test_default_shape_follows_section_13() -> None:
    manifest = build_inference_service(service_plan())
    assert manifest["apiVersion"] == "serving.kserve.io/v1beta1"
    assert manifest["kind"] == "InferenceService"
    assert manifest["metadata"]["name"] == ISVC
    assert manifest["metadata"]["namespace"] == NAMESPACE
    assert manifest["metadata"]["labels"]["app.kubernetes.io/component"] == "inference"
    assert manifest["metadata"]["annotations"] == {
        "pulumi.com/patchForce": "true",
        "pulumi.com/timeoutSeconds": "1800",
        "pulumi.com/waitFor": "condition=Ready",
        "serving.kserve.io/autoscalerClass": "none",
        "serving.kserve.io/deploymentMode": "Standard",
    }
    predictor = _predictor(manifest)
    assert set(predictor) == {"minReplicas", "maxReplicas", "annotations", "containers", "volumes"}
    assert "model" not in predictor
    assert predictor["annotations"] == {"aim.eai.amd.com/profile-hash": "9c1e0a7b"}
    container = _container(manifest)
    assert container["name"] == "kserve-container"
    assert container["image"] == "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"
    assert container["imagePullPolicy"] == "Always"
    assert container["ports"] == [{"name": "http", "containerPort": 8000, "protocol": "TCP"}]
    assert "command" not in container
    assert "args" not in container
    assert container["resources"] == {
        "limits": {"amd.com/gpu": 1},
        "requests": {"amd.com/gpu": 1, "cpu": "8"},
    }
    assert container["env"][2] == {
        "name": "HF_TOKEN",
        "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}},
    }


@pytest.mark.parametrize(
    ("scaling", "expected"),
    [
        pytest.param(fixed_scaling(1), (1, 1, "none"), id="fixed-one"),
        pytest.param(fixed_scaling(4), (4, 4, "none"), id="fixed-four"),
        pytest.param(autoscaling(2, 6), (2, 6, "external"), id="autoscaling"),
        pytest.param(autoscaling(0, 3), (0, 3, "external"), id="scale-from-zero"),
    ],
)
def test_replica_bounds_and_autoscaler_class(scaling: Any, expected: tuple[int, int, str]) -> None:
    manifest = build_inference_service(service_plan(scaling=scaling))
    predictor = _predictor(manifest)
    annotations = manifest["metadata"]["annotations"]
    assert (
        predictor["minReplicas"],
        predictor["maxReplicas"],
        annotations["serving.kserve.io/autoscalerClass"],
    ) == (expected)


@pytest.mark.parametrize(
    ("plan", "expected"),
    [
        pytest.param(
            service_plan(), {"wait": "condition=Ready", "timeout": "1800"}, id="default-waits-ready"
        ),
        pytest.param(
            service_plan(wait=AwaitPlan(wait_for="jsonpath={.status.url}", timeout_seconds=600)),
            {"wait": "jsonpath={.status.url}", "timeout": "600"},
            id="custom-wait-and-timeout",
        ),
        pytest.param(
            service_plan(wait=AwaitPlan(timeout_seconds=None)),
            {"wait": "condition=Ready"},
            id="no-timeout",
        ),
        pytest.param(service_plan(wait=AwaitPlan(wait_for=None)), {}, id="wait-for-removed"),
        pytest.param(service_plan(scaling=autoscaling(0, 2)), {}, id="min-zero-never-ready"),
        pytest.param(service_plan(wait=AwaitPlan(skip_await=True)), {"skip": "true"}, id="skip-await"),
    ],
)
def test_await_annotations(plan: ServicePlan, expected: dict[str, str]) -> None:
    annotations = build_inference_service(plan)["metadata"]["annotations"]
    found = {
        key: annotations[annotation]
        for key, annotation in (
            ("wait", "pulumi.com/waitFor"),
            ("timeout", "pulumi.com/timeoutSeconds"),
            ("skip", "pulumi.com/skipAwait"),
        )
        if annotation in annotations
    }
    assert found == expected


def test_deployment_mode_comes_from_the_plan() -> None:
    annotations = build_inference_service(service_plan(deployment_mode="RawDeployment"))["metadata"][
        "annotations"
    ]
    assert annotations["serving.kserve.io/deploymentMode"] == "RawDeployment"


def test_volumes_for_profile_config_and_caches() -> None:
    caches = (
        cache_plan(pvc_name="qwen-a-cache-11111111", mount_path="/workspace/cache/org/a"),
        cache_plan(pvc_name="qwen-b-cache-22222222", mount_path="/workspace/cache/org/b"),
    )
    manifest = build_inference_service(service_plan(caches=caches))
    assert _container(manifest)["volumeMounts"] == [
        {"name": "dshm", "mountPath": "/dev/shm"},
        {
            "name": "aim-profile",
            "mountPath": "/workspace/aim-runtime/profiles/custom/qwen/qwen3-32b",
            "readOnly": True,
        },
        {"name": "qwen-a-cache-11111111", "mountPath": "/workspace/cache/org/a"},
        {"name": "qwen-b-cache-22222222", "mountPath": "/workspace/cache/org/b"},
    ]
    assert _predictor(manifest)["volumes"] == [
        {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "8Gi"}},
        {"name": "aim-profile", "configMap": {"name": "qwen-chat-profile-0a1b2c3d"}},
        {"name": "qwen-a-cache-11111111", "persistentVolumeClaim": {"claimName": "qwen-a-cache-11111111"}},
        {"name": "qwen-b-cache-22222222", "persistentVolumeClaim": {"claimName": "qwen-b-cache-22222222"}},
    ]
    _assert_valid(manifest)


def test_direct_vllm_has_command_args_and_no_profile_volume() -> None:
    manifest = build_inference_service(PLANS["direct-vllm"])
    container = _container(manifest)
    assert container["command"] == ["vllm", "serve"]
    assert container["args"][0] == "$(AIM_VLLM_MODEL)"
    assert [m["name"] for m in container["volumeMounts"]] == ["dshm"]
    assert [v["name"] for v in _predictor(manifest)["volumes"]] == ["dshm"]


@pytest.mark.parametrize(
    ("container", "expected"),
    [
        pytest.param(container_plan(), {}, id="nothing-set"),
        pytest.param(
            container_plan(
                image_pull_secrets=("a", "b"), service_account_name="sa", priority_class_name="pc"
            ),
            {
                "imagePullSecrets": [{"name": "a"}, {"name": "b"}],
                "serviceAccountName": "sa",
                "priorityClassName": "pc",
            },
            id="all-set",
        ),
        pytest.param(
            container_plan(service_account_name="", priority_class_name=""), {}, id="empty-strings-omitted"
        ),
    ],
)
def test_pod_identity_fields(container: Any, expected: dict[str, Any]) -> None:
    predictor = _predictor(build_inference_service(service_plan(container=container)))
    keys = ("imagePullSecrets", "serviceAccountName", "priorityClassName")
    assert {key: predictor[key] for key in keys if key in predictor} == expected


def test_empty_resources_and_env_are_omitted() -> None:
    container = _container(build_inference_service(PLANS["no-resources-no-env"]))
    assert "resources" not in container
    assert "env" not in container


def test_builder_does_not_alias_the_plan() -> None:
    plan = service_plan()
    manifest = build_inference_service(plan)
    _container(manifest)["env"][0]["value"] = "changed"
    _container(manifest)["resources"]["limits"]["amd.com/gpu"] = 8
    assert plan.container.env[0]["value"] != "changed"
    assert plan.container.resources["limits"]["amd.com/gpu"] == 1


def test_identical_plans_build_identical_manifests() -> None:
    assert build_inference_service(service_plan()) == build_inference_service(service_plan())
    reordered = service_plan(isvc_labels=dict(reversed(list(service_plan().isvc_labels.items()))))
    assert list(build_inference_service(reordered)["metadata"]["labels"]) == sorted(reordered.isvc_labels)


SERVICE_CHILDREN = {
    "isvc-and-configmap": (service_plan(), ["InferenceService", "ConfigMap"]),
    "direct-vllm-isvc-only": (PLANS["direct-vllm"], ["InferenceService"]),
    "routed": (
        service_plan(route=route_plan()),
        ["InferenceService", "ConfigMap", "HTTPRoute"],
    ),
    "everything": (
        service_plan(route=route_plan(), scaling=autoscaling(0, 3)),
        ["InferenceService", "ConfigMap", "HTTPRoute", "ScaledObject"],
    ),
    "autoscaling-without-triggers": (
        service_plan(scaling=autoscaling(1, 3, triggers=False)),
        ["InferenceService", "ConfigMap"],
    ),
}


@pytest.mark.parametrize(("plan", "kinds"), list(SERVICE_CHILDREN.values()), ids=list(SERVICE_CHILDREN))
def test_service_children_in_fixed_order_and_valid(plan: ServicePlan, kinds: list[str]) -> None:
    manifests = build_service_manifests(plan)
    assert [m["kind"] for m in manifests] == kinds
    for manifest in manifests:
        assert manifest["metadata"]["namespace"] == NAMESPACE
        _assert_valid(manifest)


@pytest.mark.parametrize("skip", [True, False], ids=["skip-await", "await"])
def test_skip_await_reaches_every_child(skip: bool) -> None:
    plan = service_plan(route=route_plan(), scaling=autoscaling(1, 3), wait=AwaitPlan(skip_await=skip))
    manifests = build_service_manifests(plan)
    assert len(manifests) == 4
    for manifest in manifests:
        annotations = manifest["metadata"].get("annotations", {})
        assert (annotations.get("pulumi.com/skipAwait") == "true") is skip
        if skip:
            assert "pulumi.com/waitFor" not in annotations
        _assert_valid(manifest)
