"""The planner: one AIMService against a catalog, every decision sequenced as the operator does."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.resolve import AIMResolutionError, Settings, plan_service
from aim_pulumi.schemas import validate_manifest
from tests.versions import Catalog, parse

PROFILE_PIPELINE = {"aim.eai.amd.com/reconciler-pipeline": "profile"}


def obj(kind: str, name: str, spec: dict[str, Any], *, namespace: str | None = "ml-team", **meta: Any) -> Any:
    version = {
        "AIMProfile": "v1alpha2",
        "AIMClusterProfile": "v1alpha2",
        "AIMService": "v1alpha2",
        "AIMModel": "v1alpha2",
        "AIMClusterModel": "v1alpha2",
    }.get(kind, "v1alpha1")
    metadata: dict[str, Any] = {"name": name, **meta}
    if namespace is not None and not kind.startswith("AIMCluster"):
        metadata["namespace"] = namespace
    return parse(
        {"apiVersion": f"aim.eai.amd.com/{version}", "kind": kind, "metadata": metadata, "spec": spec}
    )


def profile(name: str, **spec: Any) -> Any:
    labels = {"aim.eai.amd.com/source-model": spec.pop("model", "qwen")}
    base = {
        "aimId": "qwen/qwen3-32b",
        "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
        "type": "optimized",
        "acceleratorType": "gpu",
        "acceleratorVendor": "amd",
        "acceleratorModel": "MI300X",
        "acceleratorCount": 1,
        "modelSources": [{"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "60Gi"}],
    }
    base.update(spec)
    return obj("AIMProfile", name, base, labels=labels)


def service(name: str = "qwen-chat", annotations: dict[str, str] | None = None, **spec: Any) -> Any:
    return obj("AIMService", name, spec, annotations=annotations or dict(PROFILE_PIPELINE))


def manifests(plan: Any) -> list[dict[str, Any]]:
    docs = build_service_manifests(plan)
    for cache in plan.caches:
        docs += [build_cache_pvc(cache), build_download_job(cache)]
    return docs


GATEWAY = {"enabled": True, "gatewayRef": {"name": "inference-gateway", "namespace": "gateways"}}


def test_by_model_plans_profile_route_and_every_manifest_validates() -> None:
    catalog = Catalog([profile("qwen-fp8", caching={"enabled": True})])
    plan = plan_service(service(model={"name": "qwen"}, routing=GATEWAY), catalog)
    assert plan.profile_name == "qwen-fp8"
    assert plan.pipeline == "profile"
    assert plan.route is not None and plan.route.path == f"/ml-team/{plan.uid}"
    assert [c.mode for c in plan.caches] == ["Shared"]
    kinds = [m["kind"] for m in manifests(plan)]
    assert kinds == ["InferenceService", "ConfigMap", "HTTPRoute", "PersistentVolumeClaim", "Job"]
    for manifest in manifests(plan):
        assert validate_manifest(manifest) == [], manifest["kind"]


def test_conditions_follow_the_documented_order() -> None:
    catalog = Catalog([profile("qwen-fp8", caching={"enabled": True})])
    svc = service(
        model={"name": "qwen"},
        routing=GATEWAY,
        minReplicas=1,
        maxReplicas=3,
        autoScaling={
            "metrics": [
                {
                    "type": "PodMetric",
                    "podmetric": {
                        "metric": {"metricNames": ["vllm:num_requests_running"]},
                        "target": {"type": "Value", "value": "1"},
                    },
                }
            ]
        },
    )
    plan = plan_service(svc, catalog)
    assert [c.type for c in plan.conditions] == [
        "RuntimeConfigReady",
        "ConfigValid",
        "ProfileReady",
        "ProfileCacheReady",
        "InferenceServiceReady",
        "HTTPRouteReady",
        "HPAReady",
        "Ready",
    ]
    assert plan.status["status"] == "Starting"
    assert plan.status["runtime"] == {"minReplicas": 1, "maxReplicas": 3}


@pytest.mark.parametrize(
    ("routing", "reason"),
    [
        pytest.param({"enabled": True}, "GatewayNotConfigured", id="enabled-without-gateway"),
        pytest.param(
            {**GATEWAY, "pathTemplate": "/{.metadata.labels.missing}"},
            "PathTemplateInvalid",
            id="bad-template",
        ),
    ],
)
def test_degradations_keep_the_inference_service_and_fail_under_strict(
    routing: dict[str, Any], reason: str
) -> None:
    catalog = Catalog([profile("qwen-fp8")])
    plan = plan_service(service(model={"name": "qwen"}, routing=routing), catalog)
    assert plan.route is None
    assert plan.status["status"] == "Degraded"
    assert [d.reason for d in plan.diagnostics if d.level == "warn"] == [reason]
    assert build_service_manifests(plan)[0]["kind"] == "InferenceService"
    with pytest.raises(AIMResolutionError) as raised:
        plan_service(service(model={"name": "qwen"}, routing=routing), catalog, Settings(strict=True))
    assert raised.value.reason == reason


def test_missing_default_config_is_reported_not_raised() -> None:
    catalog = Catalog([profile("qwen-fp8")], embed_default=False)
    plan = plan_service(service(model={"name": "qwen"}), catalog)
    assert plan.conditions[0].reason == "DefaultConfigNotFound"
    assert plan.runtime_config is None
    assert "resolvedRuntimeConfig" not in plan.status
    assert any(d.reason == "DefaultConfigNotFound" and d.level == "info" for d in plan.diagnostics)


def test_hard_errors_name_the_service_field_and_reason() -> None:
    catalog = Catalog([profile("qwen-fp8")])
    with pytest.raises(AIMResolutionError) as raised:
        plan_service(service(model={"name": "qwen"}, runtimeConfigName="missing"), catalog)
    assert raised.value.reason == "ReferenceNotFound"
    assert raised.value.field == "spec.runtimeConfigName"
    assert raised.value.object_ref == "AIMService/ml-team/qwen-chat"
    with pytest.raises(AIMResolutionError) as raised:
        plan_service(service(model={"name": "other"}), catalog)
    assert raised.value.reason == "ProfileNotFound"


@pytest.mark.parametrize(
    "service_spec",
    [
        pytest.param({"model": {"name": "qwen"}}, id="by-model"),
        pytest.param(
            {
                "profile": {"name": "qwen-fp8"},
                "profileOverrides": {"containerEnv": [{"name": "A", "value": "1"}]},
            },
            id="overlay-names-its-seed",
        ),
    ],
)
def test_missing_runtime_config_of_a_shared_cache_names_the_profile(service_spec: dict[str, Any]) -> None:
    catalog = Catalog([profile("qwen-fp8", caching={"enabled": True}, runtimeConfigName="missing")])
    with pytest.raises(AIMResolutionError) as raised:
        plan_service(service(**service_spec), catalog)
    assert raised.value.reason == "ReferenceNotFound"
    assert raised.value.field == "spec.runtimeConfigName"
    assert raised.value.object_ref == "AIMProfile/ml-team/qwen-fp8"
    assert "AIMService/ml-team/qwen-chat" in raised.value.message


def test_inline_runtime_config_beats_namespace_config() -> None:
    rc = obj("AIMRuntimeConfig", "default", {"routing": {**GATEWAY, "pathTemplate": "/rc/{.metadata.name}"}})
    catalog = Catalog([profile("qwen-fp8"), rc])
    inline = plan_service(
        service(
            model={"name": "qwen"}, runtimeConfig={"routing": {"pathTemplate": "/inline/{.metadata.name}"}}
        ),
        catalog,
    )
    direct = plan_service(
        service(model={"name": "qwen"}, routing={"pathTemplate": "/svc/{.metadata.name}"}), catalog
    )
    plain = plan_service(service(model={"name": "qwen"}), catalog)
    assert (inline.route and inline.route.path, direct.route and direct.route.path) == (
        "/inline/qwen-chat",
        "/svc/qwen-chat",
    )
    assert plain.route is not None and plain.route.path == "/rc/qwen-chat"
    assert plain.status["resolvedRuntimeConfig"]["scope"] == "Namespace"


def test_cache_never_shrinks_below_the_previous_size() -> None:
    catalog = Catalog([profile("qwen-fp8", caching={"enabled": True})])
    svc = service(model={"name": "qwen"})
    fresh = plan_service(svc, catalog)
    pvc = fresh.caches[0].pvc_name
    grown = plan_service(svc, catalog, previous_cache_sizes={pvc: fresh.caches[0].size_gi + 40})
    assert grown.caches[0].size_gi == fresh.caches[0].size_gi + 40
    assert any(d.level == "warn" for d in grown.diagnostics)


def test_planning_is_deterministic() -> None:
    catalog = Catalog(
        [profile("qwen-fp8", caching={"enabled": True}), profile("qwen-fp16", precision="fp16")]
    )
    svc = service(model={"name": "qwen"}, routing=GATEWAY)
    assert manifests(plan_service(svc, catalog)) == manifests(plan_service(copy.deepcopy(svc), catalog))


# A v1alpha1 service on a template and its `migrate` output plan the same children (issue 7 item 4).
LEGACY_MODEL = {
    "apiVersion": "aim.eai.amd.com/v1alpha1",
    "kind": "AIMModel",
    "metadata": {"name": "qwen-qwen3-32b", "namespace": "ml-research"},
    "spec": {"image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"},
}
LEGACY_TEMPLATE = {
    "apiVersion": "aim.eai.amd.com/v1alpha1",
    "kind": "AIMServiceTemplate",
    "metadata": {"name": "qwen3-32b-throughput", "namespace": "ml-research"},
    "spec": {
        "modelName": "qwen-qwen3-32b",
        "metric": "throughput",
        "precision": "fp8",
        "hardware": {"gpu": {"requests": 2, "model": "MI300X"}},
        "caching": {"enabled": True},
        "modelSources": [{"name": "Qwen/Qwen3-32B", "sourceURI": "hf://Qwen/Qwen3-32B", "size": "16Gi"}],
    },
}
LEGACY_SERVICE = {
    "apiVersion": "aim.eai.amd.com/v1alpha1",
    "kind": "AIMService",
    "metadata": {"name": "qwen-chat", "namespace": "ml-research"},
    "spec": {
        "model": {"name": "qwen-qwen3-32b"},
        "template": {"name": "qwen3-32b-throughput"},
        "routing": GATEWAY,
    },
}


def test_legacy_service_and_its_migration_plan_identical_children() -> None:
    from aim_pulumi.resolve.legacy.migration import migrate_objects

    legacy = [copy.deepcopy(d) for d in (LEGACY_MODEL, LEGACY_TEMPLATE, LEGACY_SERVICE)]
    migrated = migrate_objects(legacy).objects
    before = plan_service(parse(legacy[2]), Catalog([parse(legacy[0]), parse(legacy[1])]))
    after = plan_service(parse(migrated[2]), Catalog([parse(migrated[0]), parse(migrated[1])]))
    assert before.pipeline == "template" and after.pipeline == "profile"
    assert before.status["resolvedTemplate"]["name"] == "qwen3-32b-throughput"
    assert manifests(before) == manifests(after)


def test_legacy_override_env_outranks_service_env_as_after_migration() -> None:
    """§10.3: `spec.overrides.env` wins over `spec.env`, as `profileOverrides.containerEnv` does."""
    from aim_pulumi.resolve.legacy.migration import migrate_objects

    template = copy.deepcopy(LEGACY_TEMPLATE)
    template["spec"]["env"] = [{"name": "LEVEL", "value": "template"}]
    svc = copy.deepcopy(LEGACY_SERVICE)
    svc["spec"]["env"] = [{"name": "LEVEL", "value": "service"}, {"name": "ONLY_SERVICE", "value": "s"}]
    svc["spec"]["overrides"] = {"env": [{"name": "LEVEL", "value": "override"}]}
    legacy = [copy.deepcopy(LEGACY_MODEL), template, svc]
    migrated = migrate_objects(copy.deepcopy(legacy)).objects
    before = plan_service(parse(legacy[2]), Catalog([parse(legacy[0]), parse(legacy[1])]))
    after = plan_service(parse(migrated[2]), Catalog([parse(migrated[0]), parse(migrated[1])]))
    env = {item["name"]: item.get("value") for item in before.container.env}
    assert (env["LEVEL"], env["ONLY_SERVICE"]) == ("override", "s")
    assert manifests(before) == manifests(after)


@pytest.mark.parametrize(
    ("model_id", "expected_mount"),
    [
        pytest.param("acme/served", "/workspace/cache/acme/served", id="cache-of-the-served-model"),
        pytest.param(None, "/workspace/cache/acme/draft", id="first-source-when-no-model-id"),
    ],
)
def test_direct_vllm_serves_the_weights_of_its_own_model(model_id: str | None, expected_mount: str) -> None:
    """§13.5: AIM_VLLM_MODEL is the cache mount of the served model, not of whichever source is first."""
    sources = [
        {"modelId": "acme/draft", "sourceUri": "hf://acme/draft", "size": "1Gi"},
        {"modelId": "acme/served", "sourceUri": "hf://acme/served", "size": "1Gi"},
    ]
    extra = {"modelId": model_id} if model_id else {}
    vllm = profile(
        "vllm",
        acceleratorVendor="nvidia",
        engine="vllm",
        modelSources=sources,
        caching={"enabled": True},
        **extra,
    )
    plan = plan_service(service(profile={"name": "vllm"}), Catalog([vllm]))
    env = {item["name"]: item.get("value") for item in plan.container.env}
    assert env["AIM_VLLM_MODEL"] == expected_mount
    assert expected_mount in {cache.mount_path for cache in plan.caches}
