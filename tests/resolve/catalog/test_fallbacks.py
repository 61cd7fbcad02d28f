"""Profile-generation fallbacks (behaviour §6): matching, generated fields, primary, embedded default."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.api import AIMService, to_manifest
from aim_pulumi.resolve.catalog.fallbacks import (
    fallback_matches,
    generated_profiles,
    specificity,
)
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.children.names import generated_profile_name
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.plan.service import plan_service
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config
from aim_pulumi.resolve.selection.select import select_profile
from tests.versions import Catalog, parse

G = "aim.eai.amd.com"
NS = "ml-team"


def model(name: str = "qwen-small", *, cluster: bool = False, **spec: Any) -> Any:
    spec.setdefault("modelId", "Qwen/Qwen3.5-0.8B")
    metadata: dict[str, Any] = {"name": name}
    if not cluster:
        metadata["namespace"] = NS
    return parse(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMClusterModel" if cluster else "AIMModel",
            "metadata": metadata,
            "spec": spec,
        }
    )


def fallback(name: str, vendor: str = "nvidia", gpu_type: str = "gpu", **extra: Any) -> dict[str, Any]:
    match = {"acceleratorVendor": vendor, "acceleratorType": gpu_type, **extra.pop("match", {})}
    runtime = {"image": f"{name}:1.0", "engine": "vllm", **extra.pop("runtime", {})}
    return {"name": name, "match": match, "runtime": runtime, **extra}


def rc_spec(*fallbacks: dict[str, Any]) -> dict[str, Any]:
    return {"model": {"profileGeneration": {"fallbacks": list(fallbacks)}}}


def rc(spec: dict[str, Any], *, cluster: bool = False, ns: str = NS, name: str = "default") -> Any:
    metadata: dict[str, Any] = {"name": name}
    if not cluster:
        metadata["namespace"] = ns
    return parse(
        {
            "apiVersion": f"{G}/v1alpha1",
            "kind": "AIMClusterRuntimeConfig" if cluster else "AIMRuntimeConfig",
            "metadata": metadata,
            "spec": spec,
        }
    )


def names(profiles: Any) -> list[str]:
    return [p.spec.profile_id for p in profiles]


# --------------------------------------------------------------------------------------------------
# Seed: "Namespace and cluster fallback lists merge by name"


def test_seed_fallback_lists_merge_by_name() -> None:
    cluster = rc(
        rc_spec(
            fallback("nvidia-vllm", priority=10, runtime={"image": "vllm/vllm-openai:v0.17.1-cu130"}),
            fallback("amd-vllm", vendor="amd"),
        ),
        cluster=True,
    )
    namespaced = rc(
        rc_spec(
            fallback("nvidia-vllm", runtime={"image": "team/vllm:2.0", "engineEnv": {"A": "1"}}),
            fallback("nvidia-sglang", runtime={"engine": "sglang"}),
        )
    )
    catalog = Catalog([cluster, namespaced, model()])
    merged = resolve_runtime_config(catalog, NS)
    assert merged is not None
    generated = generated_profiles(model(), merged.spec, None)
    assert names(generated) == ["nvidia-vllm", "amd-vllm", "nvidia-sglang"]
    replaced = to_manifest(generated[0])["spec"]
    # The namespace entry replaces the cluster entry whole: its priority is gone, its image and env are in.
    assert replaced["image"] == "team/vllm:2.0" and replaced["engineEnv"] == {"A": "1"}
    assert [p.metadata.name for p in catalog.generated_profiles_of(model())] == [
        p.metadata.name for p in generated
    ]


# --------------------------------------------------------------------------------------------------
# Matching (§6.2)


MATCHES = [
    pytest.param({}, {"acceleratorVendor": "nvidia"}, True, id="model-without-accelerator-takes-any"),
    pytest.param({"vendor": "nvidia"}, {"acceleratorVendor": "NVIDIA"}, True, id="vendor-caseless"),
    pytest.param({"vendor": "amd"}, {"acceleratorVendor": "nvidia"}, False, id="vendor-disagrees"),
    pytest.param({"model": "H100"}, {"acceleratorVendor": "nvidia"}, True, id="fallback-unconstrained-model"),
    pytest.param({"model": "H100"}, {"acceleratorModel": "h100"}, True, id="model-caseless"),
    pytest.param({"model": "H100"}, {"acceleratorModel": "A100"}, False, id="model-disagrees"),
    pytest.param(
        {"partitioningMode": "CPX"},
        {"acceleratorPartitioningMode": "SPX"},
        False,
        id="partitioning-disagrees",
    ),
    pytest.param(
        {"partitioningMode": ""}, {"acceleratorPartitioningMode": "SPX"}, True, id="empty-axis-never-rejects"
    ),
]


@pytest.mark.parametrize(("accelerator", "match", "expected"), MATCHES)
def test_fallback_matches(accelerator: dict[str, Any], match: dict[str, Any], expected: bool) -> None:
    assert fallback_matches({"name": "f", "match": match}, accelerator) is expected


def test_generated_profiles_keep_runtime_config_order_and_skip_image_models() -> None:
    spec = rc_spec(fallback("b"), fallback("a-amd", vendor="amd"), fallback("a"))
    assert names(generated_profiles(model(accelerator={"vendor": "nvidia"}), spec, None)) == ["b", "a"]
    image_model: Any = parse(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMModel",
            "metadata": {"name": "img", "namespace": NS},
            "spec": {"image": "amdenterpriseai/aim-x:1.0"},
        }
    )
    assert generated_profiles(image_model, spec, None) == []


# --------------------------------------------------------------------------------------------------
# Generated profile fields (§6.3)


def test_generated_profile_fields() -> None:
    source_model = model(
        "qwen-small",
        aimId="qwen/qwen3.5",
        accelerator={"count": 4, "model": "H100"},
        source={"uri": "s3://bucket/qwen", "size": "2Gi", "precision": "bf16"},
    )
    spec = rc_spec(
        fallback(
            "nvidia-vllm",
            match={"acceleratorModel": "A-ignored", "acceleratorPartitioningMode": "MIG"},
            runtime={
                "engineArgs": {"max-model-len": 8192},
                "engineEnv": {"VLLM_X": "1"},
                "containerEnv": [{"name": "E", "value": "v"}],
                "resources": {"requests": {"cpu": "4"}},
                "imagePullSecrets": [{"name": "regcred"}],
                "serviceAccountName": "runner",
            },
        )
    )
    # A model axis that disagrees with the match rejects the fallback.
    assert generated_profiles(source_model, spec, None) == []
    spec["model"]["profileGeneration"]["fallbacks"][0]["match"]["acceleratorModel"] = "h100"
    (generated,) = generated_profiles(source_model, spec, None)
    manifest = to_manifest(generated)
    assert manifest["kind"] == "AIMProfile"
    assert manifest["metadata"]["namespace"] == NS
    assert manifest["metadata"]["name"] == generated_profile_name("qwen-small", "nvidia-vllm", "qwen/qwen3.5")
    assert manifest["metadata"]["labels"] == {
        "app.kubernetes.io/managed-by": "aim-pulumi",
        f"{G}/profile-role": "deployable",
        f"{G}/profile-origin": "generated",
        f"{G}/source-model": "qwen-small",
        f"{G}/source-model-scope": "namespace",
    }
    assert manifest["metadata"]["annotations"] == {f"{G}/profile-generation-fallback": "nvidia-vllm"}
    assert manifest["spec"] == {
        "aimId": "qwen/qwen3.5",
        "modelId": "Qwen/Qwen3.5-0.8B",
        "profileId": "nvidia-vllm",
        "image": "nvidia-vllm:1.0",
        "engine": "vllm",
        "type": "unoptimized",
        "autoSelectionPolicy": "optimized",
        "primary": True,
        "engineArgs": {"max-model-len": 8192},
        "engineEnv": {"VLLM_X": "1"},
        "containerEnv": [{"name": "E", "value": "v"}],
        "resources": {"requests": {"cpu": "4"}},
        "imagePullSecrets": [{"name": "regcred"}],
        "serviceAccountName": "runner",
        "precision": "bf16",
        "acceleratorVendor": "nvidia",
        "acceleratorType": "gpu",
        "acceleratorModel": "H100",
        "acceleratorPartitioningMode": "MIG",
        "acceleratorCount": 4,
        "modelSources": [{"modelId": "Qwen/Qwen3.5-0.8B", "sourceUri": "s3://bucket/qwen", "size": "2Gi"}],
    }


def test_generated_profile_defaults_and_cluster_kind() -> None:
    spec = rc_spec(fallback("f", type="preview", autoSelectionPolicy="any"))
    (generated,) = generated_profiles(model("big", cluster=True), spec, None)
    manifest = to_manifest(generated)
    assert manifest["kind"] == "AIMClusterProfile" and "namespace" not in manifest["metadata"]
    assert manifest["metadata"]["labels"][f"{G}/source-model-scope"] == "cluster"
    assert manifest["spec"]["aimId"] == "Qwen/Qwen3.5-0.8B"
    assert manifest["spec"]["acceleratorCount"] == 1
    assert (manifest["spec"]["type"], manifest["spec"]["autoSelectionPolicy"]) == ("preview", "any")
    assert manifest["spec"]["modelSources"] == [
        {"modelId": "Qwen/Qwen3.5-0.8B", "sourceUri": "hf://Qwen/Qwen3.5-0.8B"}
    ]
    assert "precision" not in manifest["spec"]


@pytest.mark.parametrize(
    ("model_spec", "cluster", "expected"),
    [
        pytest.param({"runtimeConfigName": "team"}, False, "team", id="namespace-model-names-its-config"),
        pytest.param(
            {"runtimeConfigName": "platform"}, True, "platform", id="cluster-model-names-its-config"
        ),
        pytest.param({"runtimeConfigName": ""}, False, None, id="empty-name-means-default-not-carried"),
        pytest.param({}, False, None, id="model-without-config-name"),
    ],
)
def test_generated_profile_carries_the_models_runtime_config(
    model_spec: dict[str, Any], cluster: bool, expected: str | None
) -> None:
    (generated,) = generated_profiles(model("m", cluster=cluster, **model_spec), rc_spec(fallback("f")), None)
    assert to_manifest(generated)["spec"].get("runtimeConfigName") == expected


def test_shared_cache_of_a_generated_profile_uses_the_models_runtime_config() -> None:
    team = rc(
        {
            **rc_spec(fallback("nvidia-vllm", autoSelectionPolicy="any")),
            "storage": {"defaultStorageClassName": "team-nvme"},
        },
        name="team",
    )
    catalog = Catalog([model(runtimeConfigName="team", source={"size": "2Gi"}), team])
    svc = parse(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMService",
            "metadata": {
                "name": "chat",
                "namespace": NS,
                "annotations": {f"{G}/reconciler-pipeline": "profile"},
            },
            "spec": {"model": {"name": "qwen-small"}, "caching": {"mode": "Shared"}},
        }
    )
    assert isinstance(svc, AIMService)
    plan = plan_service(svc, catalog)
    assert [(c.mode, c.storage_class_name) for c in plan.caches] == [("Shared", "team-nvme")]


# --------------------------------------------------------------------------------------------------
# Primary (§6.4)


PRIMARY = [
    pytest.param([fallback("a"), fallback("b", priority=5)], None, "b", id="highest-priority"),
    pytest.param(
        [
            fallback("a", match={"acceleratorPartitioningMode": "MIG"}),
            fallback("b", match={"acceleratorModel": "H100"}),
        ],
        None,
        "b",
        id="model-specificity-beats-partitioning",
    ),
    pytest.param(
        [fallback("z", priority=1), fallback("a", priority=1, match={"acceleratorPartitioningMode": "MIG"})],
        None,
        "a",
        id="partitioning-specificity-beats-none",
    ),
    pytest.param([fallback("b"), fallback("a")], None, "a", id="name-ascending"),
    pytest.param(
        [fallback("amd", vendor="amd", priority=100), fallback("nv")],
        [{"vendor": "nvidia", "type": "gpu", "devices": 8}],
        "nv",
        id="available-before-priority",
    ),
]


@pytest.mark.parametrize(("fallbacks", "pools", "primary"), PRIMARY)
def test_primary_choice(
    fallbacks: list[dict[str, Any]], pools: list[dict[str, Any]] | None, primary: str
) -> None:
    inventory = Inventory.from_config(pools) if pools is not None else None
    everything = generated_profiles(model(), rc_spec(*fallbacks), None)
    retained = [p.metadata.name for p in everything]
    generated = generated_profiles(model(), rc_spec(*fallbacks), inventory, retained=retained)
    assert [p.spec.profile_id for p in generated if p.spec.primary] == [primary]


def test_specificity() -> None:
    assert specificity(fallback("a")) == 0
    assert specificity(fallback("a", match={"acceleratorModel": "H100"})) == 2
    assert (
        specificity(fallback("a", match={"acceleratorModel": "H100", "acceleratorPartitioningMode": "MIG"}))
        == 3
    )


# --------------------------------------------------------------------------------------------------
# Hardware and retention (§6.2)


NVIDIA = Inventory.from_config([{"vendor": "nvidia", "type": "gpu", "model": "H100", "devices": 8}])


def test_inventory_skips_fallbacks_without_hardware() -> None:
    spec = rc_spec(fallback("nv"), fallback("amd", vendor="amd"))
    assert names(generated_profiles(model(), spec, NVIDIA)) == ["nv"]
    assert names(generated_profiles(model(accelerator={"count": 16}), spec, NVIDIA)) == []
    assert names(generated_profiles(model(), spec, None)) == ["nv", "amd"]


def test_retained_profile_is_kept_not_available() -> None:
    spec = rc_spec(fallback("nv"), fallback("amd", vendor="amd"))
    amd_name = generated_profile_name("qwen-small", "amd", "Qwen/Qwen3.5-0.8B")
    generated = generated_profiles(model(), spec, NVIDIA, retained=[amd_name])
    assert names(generated) == ["nv", "amd"]
    statuses = {p.spec.profile_id: to_manifest(p).get("status") for p in generated}
    assert statuses == {"nv": None, "amd": {"status": "NotAvailable"}}
    assert [p.spec.profile_id for p in generated if p.spec.primary] == ["nv"]


def _service(previous: str | None = None, **annotations: str) -> AIMService:
    manifest: dict[str, Any] = {
        "apiVersion": f"{G}/v1alpha2",
        "kind": "AIMService",
        "metadata": {"name": "chat", "namespace": NS, "annotations": annotations},
        "spec": {"model": {"name": "qwen-small"}},
    }
    if previous is not None:
        manifest["status"] = {"resolvedProfile": {"kind": "AIMProfile", "name": previous, "namespace": NS}}
    svc = parse(manifest)
    assert isinstance(svc, AIMService)
    return svc


def test_selection_keeps_a_binding_to_a_profile_whose_hardware_disappeared() -> None:
    amd_only = Inventory.from_config([{"vendor": "amd", "type": "gpu", "devices": 8}])
    catalog = Catalog([model()], inventory=amd_only)
    assert catalog.generated_profiles_of(model()) == ()
    bound = generated_profile_name("qwen-small", "nvidia-vllm", "Qwen/Qwen3.5-0.8B")
    result = select_profile(_service(previous=bound), catalog)
    assert result.profile.metadata.name == bound and result.rebound_from is None
    assert to_manifest(result.profile)["status"] == {"status": "NotAvailable"}
    assert result.explanation is not None and result.explanation.candidates[0].available is False
    with pytest.raises(AIMResolutionError) as info:
        select_profile(_service(), catalog)
    assert info.value.reason == "ProfileNotFound"


# --------------------------------------------------------------------------------------------------
# Embedded default (§6.4)


def test_embedded_default_generates_the_nvidia_vllm_profile() -> None:
    catalog = Catalog([model()])
    result = select_profile(_service(), catalog)
    spec = to_manifest(result.profile)["spec"]
    assert spec["image"] == "vllm/vllm-openai:v0.17.1-cu130"
    assert (spec["engine"], spec["acceleratorVendor"], spec["acceleratorType"]) == ("vllm", "nvidia", "gpu")
    assert spec["engineArgs"] == {"max-model-len": 8192, "gpu-memory-utilization": 0.9}
    assert (spec["type"], spec["autoSelectionPolicy"], spec["primary"]) == ("unoptimized", "any", True)
    assert "resources" not in spec
    assert result.explanation is not None and result.explanation.selection_pass == 2


def test_without_embedded_default_nothing_is_generated() -> None:
    catalog = Catalog([model()], embed_default=False)
    assert catalog.generated_profiles_of(model()) == ()
    with pytest.raises(AIMResolutionError) as info:
        select_profile(_service(), catalog)
    assert info.value.field == "spec.model.name"


def test_declared_cluster_default_replaces_the_embedded_one() -> None:
    declared = rc(rc_spec(fallback("amd-vllm", vendor="amd")), cluster=True)
    catalog = Catalog([model(), declared])
    assert names(catalog.generated_profiles_of(model())) == ["amd-vllm"]


def test_model_with_missing_runtime_config_reports_reference_not_found() -> None:
    catalog = Catalog([model(runtimeConfigName="missing")])
    with pytest.raises(AIMResolutionError) as info:
        select_profile(_service(), catalog)
    err = info.value
    assert (err.reason, err.field) == (
        "ReferenceNotFound",
        "spec.runtimeConfigName",
    )
    assert err.object_ref == f"AIMModel/{NS}/qwen-small"
