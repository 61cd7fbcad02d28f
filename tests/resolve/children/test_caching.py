"""Model caching decisions (behaviour §12, env §10.2, labels §11, names §14)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.children.caching import (
    DEFAULT_DOWNLOAD_IMAGE,
    CacheConsumer,
    CacheProfile,
    CacheSettings,
    cache_mode,
    caching_enabled,
    plan_caches,
    pvc_size_gi,
    shrink_guard,
)
from aim_pulumi.resolve.children.names import cache_job_name, cache_pvc_name
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.runtime_config.merge import merge_runtime_config_specs
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resolve.types import CachePlan, Diagnostic

GI = 1024**3
NS = "ml-team"
SERVICE = "qwen-chat"
SERVICE_UID = "9c1f6a52-3f5e-5b7e-9d55-2f0d6c1e7a10"
PROFILE = "qwen-qwen3-32b-mi300x-fp8-latency"

HF_SOURCE: dict[str, Any] = {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "10Gi"}
S3_SOURCE: dict[str, Any] = {"modelId": "acme/llama", "sourceUri": "s3://models/acme/llama", "size": "2Gi"}


def profile(**changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "aimId": "qwen/qwen3-32b",
        "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
        "modelSources": [dict(HF_SOURCE)],
        "caching": {"enabled": True},
    }
    spec.update(changes)
    return spec


def declared_size(source: Mapping[str, Any], **_: Any) -> int:
    """Sizes from the declared quantity only, so these tests never reach a network."""
    from aim_pulumi.resolve.children.source_size import declared_size_bytes

    return declared_size_bytes(source["size"])


def plan(**kwargs: Any) -> tuple[list[CachePlan], list[Diagnostic]]:
    args: dict[str, Any] = {
        "mode": "Shared",
        "namespace": NS,
        "service_name": SERVICE,
        "service_uid": SERVICE_UID,
        "profile_name": PROFILE,
        "profile_spec": profile(),
        "rc_spec": None,
        "size_of": declared_size,
    }
    args.update(kwargs)
    cache_profile = CacheProfile(
        args.pop("namespace"),
        args.pop("profile_name"),
        args.pop("profile_spec"),
        args.pop("profile_kind", "AIMProfile"),
    )
    consumer = CacheConsumer(
        name=args.pop("service_name"),
        uid=args.pop("service_uid"),
        storage=args.pop("service_storage", None),
        env=args.pop("service_env", None),
        caching=args.pop("service_caching", None),
        labels=args.pop("parent_labels", ()),
        label_match=args.pop("label_match", None),
    )
    return plan_caches(args.pop("mode"), cache_profile, consumer, **args)


def one(**kwargs: Any) -> CachePlan:
    plans, _ = plan(**kwargs)
    assert len(plans) == 1
    return plans[0]


def env_map(cache: CachePlan) -> dict[str, Any]:
    return {str(var["name"]): var.get("value", var.get("valueFrom")) for var in cache.job_env}


def env(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"name": name, "value": value} for name, value in pairs]


# -------------------------------------------------------------------------------------- when


@pytest.mark.parametrize(
    ("kind", "profile_spec", "service_spec", "expected"),
    [
        pytest.param("AIMProfile", profile(), {}, True, id="namespace-profile-caching-enabled"),
        pytest.param("AIMProfile", profile(caching={"enabled": False}), {}, False, id="profile-disabled"),
        pytest.param("AIMProfile", profile(caching=None), {}, False, id="profile-without-caching-block"),
        pytest.param("AIMProfile", profile(caching={}), {}, False, id="profile-caching-enabled-unset"),
        pytest.param("AIMClusterProfile", profile(), {}, False, id="cluster-profile-cannot-enable-caching"),
        pytest.param(
            "AIMClusterProfile", profile(caching=None), {"caching": {}}, True, id="service-block-on-cluster"
        ),
        pytest.param(
            "AIMProfile",
            profile(caching={"enabled": False}),
            {"caching": {"mode": "Dedicated"}},
            True,
            id="service-block-wins-over-disabled-profile",
        ),
        pytest.param("AIMProfile", profile(modelSources=[]), {"caching": {}}, False, id="no-model-sources"),
        pytest.param("AIMProfile", profile(modelSources=None), {}, False, id="model-sources-absent"),
    ],
)
def test_caching_enabled(
    kind: str, profile_spec: dict[str, Any], service_spec: dict[str, Any], expected: bool
) -> None:
    assert caching_enabled(kind, profile_spec, service_spec) is expected


@pytest.mark.parametrize(
    ("service_spec", "expected"),
    [
        pytest.param({}, "Shared", id="no-caching-block"),
        pytest.param({"caching": {}}, "Shared", id="block-without-mode"),
        pytest.param({"caching": {"mode": None}}, "Shared", id="null-mode"),
        pytest.param({"caching": {"mode": "Shared"}}, "Shared", id="shared"),
        pytest.param({"caching": {"mode": "Dedicated"}}, "Dedicated", id="dedicated"),
    ],
)
def test_cache_mode(service_spec: dict[str, Any], expected: str) -> None:
    assert cache_mode(service_spec) == expected


def service_manifest(api_version: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": f"aim.eai.amd.com/{api_version}",
        "kind": "AIMService",
        "metadata": {"name": SERVICE, "namespace": NS},
        "spec": spec,
    }


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        pytest.param(
            service_manifest("v1alpha2", {"model": {"name": "m"}, "caching": {"mode": "Auto"}}),
            "Shared",
            id="legacy-auto",
        ),
        pytest.param(
            service_manifest("v1alpha2", {"model": {"name": "m"}, "caching": {"mode": "Always"}}),
            "Shared",
            id="legacy-always",
        ),
        pytest.param(
            service_manifest("v1alpha2", {"model": {"name": "m"}, "caching": {"mode": "Never"}}),
            "Dedicated",
            id="legacy-never",
        ),
        pytest.param(
            service_manifest("v1alpha1", {"model": {"ref": "m"}, "cacheModel": True}),
            "Shared",
            id="v1alpha1-cache-model-true",
        ),
        pytest.param(
            service_manifest("v1alpha1", {"model": {"ref": "m"}, "cacheModel": False}),
            "Dedicated",
            id="v1alpha1-cache-model-false",
        ),
    ],
)
def test_cache_mode_of_legacy_spellings_after_the_api(manifest: dict[str, Any], expected: str) -> None:
    from aim_pulumi.api import to_manifest
    from tests.versions import parse

    spec = to_manifest(parse(manifest))["spec"]
    assert cache_mode(spec) == expected
    assert caching_enabled("AIMClusterProfile", profile(caching=None), spec) is True


def test_unknown_cache_mode_is_an_invalid_spec() -> None:
    with pytest.raises(AIMResolutionError) as err:
        cache_mode({"caching": {"mode": "Sometimes"}})
    assert (err.value.reason, err.value.field) == ("InvalidSpec", "spec.caching.mode")


# ------------------------------------------------------------------------------------- names


def test_one_plan_per_model_source_in_order() -> None:
    sources = [dict(HF_SOURCE), dict(S3_SOURCE)]
    plans, diagnostics = plan(profile_spec=profile(modelSources=sources))
    assert [p.source["sourceUri"] for p in plans] == [s["sourceUri"] for s in sources]
    assert len({p.pvc_name for p in plans}) == 2
    assert diagnostics == []


@pytest.mark.parametrize("mode", ["Shared", "Dedicated"])
def test_names_come_from_the_cache_name_helpers(mode: str) -> None:
    cache = one(mode=mode)
    owner = {"service": SERVICE, "service_uid": SERVICE_UID} if mode == "Dedicated" else {}
    expected_pvc = cache_pvc_name(HF_SOURCE, mode=mode, namespace=NS, profile=PROFILE, **owner)  # type: ignore[arg-type]
    expected_job = cache_job_name(HF_SOURCE, mode=mode, namespace=NS, profile=PROFILE, **owner)  # type: ignore[arg-type]
    assert (cache.pvc_name, cache.job_name) == (expected_pvc, expected_job)
    assert cache.mount_path == "/workspace/cache/Qwen/Qwen3-32B"


def test_shared_caches_of_two_services_on_one_profile_are_the_same_cache() -> None:
    first = one(service_name="chat-a", service_uid="uid-a")
    second = one(service_name="chat-b", service_uid="uid-b")
    assert first == second
    assert first.key == (NS, PROFILE, HF_SOURCE["sourceUri"])


def test_dedicated_caches_are_per_service() -> None:
    first = one(mode="Dedicated", service_name="chat-a", service_uid="uid-a")
    second = one(mode="Dedicated", service_name="chat-b", service_uid="uid-b")
    assert first.pvc_name != second.pvc_name
    assert first.job_name != second.job_name
    assert first.pvc_name.startswith("chat-a-")


def test_shared_and_dedicated_caches_never_share_a_name() -> None:
    assert one(mode="Shared").pvc_name != one(mode="Dedicated").pvc_name


@pytest.mark.parametrize(
    ("second", "field", "taken"),
    [
        pytest.param(
            {"modelId": "other/model", "sourceUri": HF_SOURCE["sourceUri"], "size": "1Gi"},
            "spec.modelSources[1].sourceUri",
            HF_SOURCE["sourceUri"],
            id="same-source-uri",
        ),
        pytest.param(
            {"modelId": HF_SOURCE["modelId"], "sourceUri": "hf://Qwen/Qwen3-32B-Base", "size": "1Gi"},
            "spec.modelSources[1].modelId",
            "/workspace/cache/Qwen/Qwen3-32B",
            id="same-model-id-same-mount",
        ),
        pytest.param(
            {"modelId": "Qwen/../Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B-Base", "size": "1Gi"},
            "spec.modelSources[1].modelId",
            "/workspace/cache/Qwen/Qwen3-32B",
            id="dot-dot-removal-collides",
        ),
    ],
)
def test_sources_that_would_share_a_volume_or_mount_are_invalid(
    second: dict[str, Any], field: str, taken: str
) -> None:
    with pytest.raises(AIMResolutionError) as err:
        plan(profile_spec=profile(modelSources=[dict(HF_SOURCE), second]))
    assert (err.value.reason, err.value.field) == ("InvalidSpec", field)
    assert err.value.object_ref == f"AIMProfile/{NS}/{PROFILE}"
    assert taken in err.value.message
    assert field.replace("[1]", "[0]") in err.value.message


def test_duplicate_sources_fail_before_any_source_is_sized() -> None:
    sized: list[str] = []

    def recording_size(source: Mapping[str, Any], **_: Any) -> int:
        sized.append(str(source["sourceUri"]))
        return GI

    with pytest.raises(AIMResolutionError):
        plan(profile_spec=profile(modelSources=[dict(HF_SOURCE), dict(HF_SOURCE)]), size_of=recording_size)
    assert sized == [HF_SOURCE["sourceUri"]]


def test_mount_path_falls_back_to_the_pvc_name_without_model_id() -> None:
    source = {"sourceUri": "s3://models/weights", "size": "1Gi"}
    cache = one(profile_spec=profile(modelSources=[source]))
    assert cache.mount_path == f"/workspace/cache/{cache.pvc_name}"


@pytest.mark.parametrize(
    ("uri", "index"),
    [
        pytest.param("gs://bucket/model", 0, id="gcs-scheme"),
        pytest.param("https://huggingface.co/Qwen/Qwen3-32B", 0, id="https-url"),
        pytest.param("/data/models/qwen", 0, id="local-path"),
        pytest.param("hf://", 0, id="hf-without-repo"),
        pytest.param("s3:///prefix", 0, id="s3-without-bucket"),
        pytest.param("oci://registry/model", 1, id="second-source-named"),
    ],
)
def test_unsupported_sources_are_invalid_specs(uri: str, index: int) -> None:
    sources = [dict(HF_SOURCE), {"modelId": "x/y", "sourceUri": uri, "size": "1Gi"}]
    if index == 0:
        sources = [sources[1]]
    with pytest.raises(AIMResolutionError) as err:
        plan(profile_spec=profile(modelSources=sources))
    assert err.value.reason == "InvalidSpec"
    assert err.value.field == f"spec.modelSources[{index}].sourceUri"
    assert err.value.object_ref == f"AIMProfile/{NS}/{PROFILE}"
    assert uri in err.value.message


def test_sizing_errors_name_the_profile_and_the_source() -> None:
    from aim_pulumi.resolve.children.source_size import source_size_bytes

    source = {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}
    with pytest.raises(AIMResolutionError) as err:
        plan(profile_spec=profile(modelSources=[source]), size_of=source_size_bytes)
    assert err.value.reason == "CacheSizeUnknown"
    assert err.value.field == "spec.modelSources[0].size"
    assert err.value.object_ref == f"AIMProfile/{NS}/{PROFILE}"
    assert "hf://Qwen/Qwen3-32B" in str(err.value)


# ------------------------------------------------------------------------------ storage class

DEDICATED = "Dedicated"
SHARED = "Shared"


@pytest.mark.parametrize(
    ("mode", "profile_class", "inline_storage", "rc_spec", "expected"),
    [
        pytest.param(SHARED, None, None, None, None, id="nothing-set-cluster-default"),
        pytest.param(
            SHARED, None, None, {"storage": {"defaultStorageClassName": "rc"}}, "rc", id="rc-storage-default"
        ),
        pytest.param(
            SHARED, None, None, {"defaultStorageClassName": "legacy"}, "legacy", id="rc-deprecated-spelling"
        ),
        pytest.param(
            SHARED,
            None,
            None,
            {"defaultStorageClassName": "legacy", "storage": {"defaultStorageClassName": "new"}},
            "new",
            id="rc-storage-spelling-wins-over-deprecated",
        ),
        pytest.param(
            SHARED,
            "profile",
            None,
            {"storage": {"defaultStorageClassName": "rc"}},
            "profile",
            id="profile-class-wins-over-rc",
        ),
        pytest.param(
            DEDICATED,
            None,
            {"defaultStorageClassName": "inline"},
            {"storage": {"defaultStorageClassName": "rc"}},
            "inline",
            id="dedicated-inline-wins-over-rc",
        ),
        pytest.param(
            DEDICATED,
            "profile",
            {"defaultStorageClassName": "inline"},
            {"storage": {"defaultStorageClassName": "rc"}},
            "profile",
            id="profile-class-wins-over-inline",
        ),
        pytest.param(
            SHARED,
            None,
            {"defaultStorageClassName": "inline"},
            {"storage": {"defaultStorageClassName": "rc"}},
            "rc",
            id="shared-ignores-inline",
        ),
        pytest.param(
            SHARED,
            "",
            None,
            {"storage": {"defaultStorageClassName": "rc"}},
            "rc",
            id="empty-profile-class-is-unset",
        ),
        pytest.param(
            SHARED,
            None,
            None,
            {"storage": {"defaultStorageClassName": ""}},
            None,
            id="empty-rc-class-is-unset",
        ),
    ],
)
def test_storage_class_precedence(
    mode: str,
    profile_class: str | None,
    inline_storage: dict[str, Any] | None,
    rc_spec: dict[str, Any] | None,
    expected: str | None,
) -> None:
    spec = profile(storageClassName=profile_class) if profile_class is not None else profile()
    cache = one(mode=mode, profile_spec=spec, rc_spec=rc_spec, service_storage=inline_storage)
    assert cache.storage_class_name == expected


# ----------------------------------------------------------------------------- size / headroom


@pytest.mark.parametrize(
    ("size", "mode", "inline_storage", "rc_spec", "expected_gi"),
    [
        pytest.param("10Gi", SHARED, None, None, 11, id="default-headroom-10-percent"),
        pytest.param("10Gi", SHARED, None, {"storage": {"pvcHeadroomPercent": 0}}, 10, id="zero-headroom"),
        pytest.param("10Gi", SHARED, None, {"storage": {"pvcHeadroomPercent": 25}}, 13, id="rc-headroom"),
        pytest.param("10Gi", SHARED, None, {"pvcHeadroomPercent": 50}, 15, id="rc-deprecated-headroom"),
        pytest.param(
            "10Gi",
            DEDICATED,
            {"pvcHeadroomPercent": 100},
            {"storage": {"pvcHeadroomPercent": 25}},
            20,
            id="dedicated-inline-headroom-wins",
        ),
        pytest.param(
            "10Gi",
            DEDICATED,
            {"pvcHeadroomPercent": 0},
            {"storage": {"pvcHeadroomPercent": 25}},
            10,
            id="dedicated-inline-zero-is-present",
        ),
        pytest.param(
            "10Gi",
            SHARED,
            {"pvcHeadroomPercent": 100},
            {"storage": {"pvcHeadroomPercent": 25}},
            13,
            id="shared-ignores-inline-headroom",
        ),
        pytest.param("1Gi", SHARED, None, None, 2, id="1.1Gi-rounds-up"),
        pytest.param("100Mi", SHARED, None, None, 1, id="small-source-is-one-gi"),
        pytest.param("0", SHARED, None, None, 1, id="empty-source-still-one-gi"),
        pytest.param("10G", SHARED, None, None, 11, id="decimal-suffix-10.24Gi-rounds-up"),
        pytest.param("20Gi", SHARED, None, {"storage": {"pvcHeadroomPercent": 5}}, 21, id="exact-21Gi"),
        pytest.param(
            "1000Mi", SHARED, None, {"storage": {"pvcHeadroomPercent": 3}}, 2, id="1030Mi-crosses-one-gi"
        ),
        pytest.param(
            "1000Mi", SHARED, None, {"storage": {"pvcHeadroomPercent": 2}}, 1, id="1020Mi-stays-one-gi"
        ),
    ],
)
def test_pvc_size(
    size: str,
    mode: str,
    inline_storage: dict[str, Any] | None,
    rc_spec: dict[str, Any] | None,
    expected_gi: int,
) -> None:
    source = {**HF_SOURCE, "size": size}
    cache = one(
        mode=mode,
        profile_spec=profile(modelSources=[source]),
        rc_spec=rc_spec,
        service_storage=inline_storage,
    )
    assert cache.size_gi == expected_gi


@settings(max_examples=150, deadline=None)
@given(size=st.integers(min_value=0, max_value=2**50), headroom=st.integers(min_value=0, max_value=500))
def test_pvc_size_is_the_smallest_whole_gi_that_fits(size: int, headroom: int) -> None:
    gi = pvc_size_gi(size, headroom)
    needed = size * (100 + headroom)  # x100 to stay in integers
    assert gi >= 1
    assert gi * GI * 100 >= needed
    assert gi == 1 or (gi - 1) * GI * 100 < needed


# --------------------------------------------------------------------------- download env


def env_scenario(name: str, layers: set[str], mode: str = DEDICATED) -> dict[str, Any]:
    """Plan inputs in which every layer named in `layers` sets `name` to the layer's own name."""

    def layer(label: str) -> list[dict[str, str]]:
        return env((name, label)) if label in layers else []

    cluster = {"env": layer("cluster-rc")}
    namespace = {"env": layer("namespace-rc")} if "namespace-rc" in layers else None
    caching: dict[str, Any] = {"enabled": True}
    if "profile-caching-env" in layers:
        caching["env"] = layer("profile-caching-env")
    source = {**S3_SOURCE, "env": layer("source-env")}
    rc_spec = merge_runtime_config_specs(cluster, namespace)
    if "typed-s3" in layers:
        rc_spec["artifact"] = {"s3": {"region": "typed-s3"}}
    return {
        "mode": mode,
        "profile_spec": profile(
            modelSources=[source], caching=caching, containerEnv=layer("profile-container-env")
        ),
        "rc_spec": rc_spec,
        "service_env": layer("service-env"),
        "service_caching": {"env": layer("service-caching-env")},
    }


ALL_LAYERS = [
    "cluster-rc",
    "namespace-rc",
    "profile-container-env",
    "profile-caching-env",
    "service-env",
    "service-caching-env",
    "source-env",
]


@pytest.mark.parametrize(
    ("name", "layers", "expected"),
    [
        pytest.param("AIM_DOWNLOADER_PROTOCOL", set(), "XET,HF_TRANSFER", id="operator-default"),
        pytest.param("AIM_DOWNLOADER_PROTOCOL", {"cluster-rc"}, "cluster-rc", id="cluster-rc-over-default"),
        pytest.param(
            "AIM_DOWNLOADER_PROTOCOL",
            {"cluster-rc", "namespace-rc"},
            "namespace-rc",
            id="namespace-rc-over-cluster-rc",
        ),
        pytest.param(
            "AIM_DOWNLOADER_PROTOCOL",
            {"cluster-rc", "namespace-rc", "profile-container-env"},
            "profile-container-env",
            id="profile-container-env-over-rc",
        ),
        pytest.param(
            "AIM_DOWNLOADER_PROTOCOL",
            {"cluster-rc", "namespace-rc", "profile-caching-env"},
            "profile-caching-env",
            id="profile-caching-env-over-rc",
        ),
        pytest.param(
            "HF_HOME",
            {"profile-container-env", "profile-caching-env"},
            "profile-caching-env",
            id="profile-caching-env-replaces-container-env",
        ),
        pytest.param(
            "HF_HOME",
            {"cluster-rc", "profile-caching-env", "service-env"},
            "service-env",
            id="dedicated-service-env-over-profile",
        ),
        pytest.param(
            "HF_HOME",
            {"namespace-rc", "profile-caching-env", "service-env", "service-caching-env"},
            "service-caching-env",
            id="dedicated-service-caching-env-over-service-env",
        ),
        pytest.param("STALL_TIMEOUT", set(ALL_LAYERS), "source-env", id="source-env-over-every-other-layer"),
        pytest.param("AWS_REGION", {*ALL_LAYERS, "typed-s3"}, "typed-s3", id="typed-s3-is-final"),
        pytest.param("AWS_REGION", set(ALL_LAYERS), "source-env", id="no-typed-s3-no-override"),
    ],
)
def test_download_env_precedence(name: str, layers: set[str], expected: str) -> None:
    cache = one(**env_scenario(name, layers))
    assert env_map(cache)[name] == expected


@pytest.mark.parametrize(
    "layers",
    [
        pytest.param({"service-env"}, id="service-env"),
        pytest.param({"service-caching-env"}, id="service-caching-env"),
        pytest.param({"service-env", "service-caching-env"}, id="both"),
    ],
)
def test_shared_cache_ignores_service_env_with_a_warning(layers: set[str]) -> None:
    plans, diagnostics = plan(**env_scenario("HF_HOME", {"profile-caching-env", *layers}, mode=SHARED))
    assert env_map(plans[0])["HF_HOME"] == "profile-caching-env"
    assert [(d.level, d.reason) for d in diagnostics] == [("warn", "CacheInputIgnored")]
    assert SERVICE in diagnostics[0].message


def test_shared_cache_warns_about_ignored_storage() -> None:
    _, diagnostics = plan(service_storage={"pvcHeadroomPercent": 50})
    assert len(diagnostics) == 1
    assert "spec.storage" in diagnostics[0].message


def test_shared_cache_without_service_inputs_has_no_warning() -> None:
    _, diagnostics = plan(service_caching={"mode": "Shared"}, service_env=[])
    assert diagnostics == []


def test_profile_container_env_feeds_the_download_only_without_caching_env() -> None:
    spec = profile(containerEnv=env(("ONLY_IN_CONTAINER", "1")), caching={"enabled": True, "env": []})
    assert "ONLY_IN_CONTAINER" not in env_map(one(profile_spec=spec))
    spec = profile(containerEnv=env(("ONLY_IN_CONTAINER", "1")))
    assert env_map(one(profile_spec=spec))["ONLY_IN_CONTAINER"] == "1"


def test_engine_env_never_reaches_the_download() -> None:
    cache = one(profile_spec=profile(engineEnv={"VLLM_USE_V1": "1"}))
    assert "VLLM_USE_V1" not in env_map(cache)


def test_operator_defaults_come_first_in_documented_order() -> None:
    cache = one()
    names = [var["name"] for var in cache.job_env]
    assert names == [
        "AIM_DOWNLOADER_PROTOCOL",
        "TMPDIR",
        "HF_HOME",
        "EXPECTED_SIZE_BYTES",
        "MOUNT_PATH",
        "TARGET_DIR",
        "ARTIFACT_NAME",
        "ARTIFACT_NAMESPACE",
        "STALL_TIMEOUT",
        "DU_TIMEOUT",
        "AIM_HF_EXCLUDE",
    ]
    values = env_map(cache)
    assert values["EXPECTED_SIZE_BYTES"] == str(10 * GI)
    assert values["ARTIFACT_NAME"] == cache.pvc_name
    assert values["ARTIFACT_NAMESPACE"] == NS
    assert values["MOUNT_PATH"] == values["TARGET_DIR"] == "/cache/models"
    assert (values["TMPDIR"], values["HF_HOME"]) == ("/tmp/", "/tmp/.hf")
    assert (values["STALL_TIMEOUT"], values["DU_TIMEOUT"]) == ("120", "300")


@pytest.mark.parametrize(
    ("mode", "rc_spec", "inline_storage", "include", "exclude"),
    [
        pytest.param(SHARED, None, None, None, "*/*", id="default-excludes-subdirectories"),
        pytest.param(
            SHARED, {"storage": {"downloadFilter": {}}}, None, None, None, id="explicit-empty-filter"
        ),
        pytest.param(
            SHARED,
            {"storage": {"downloadFilter": {"include": ["*.safetensors", "*.json"]}}},
            None,
            "*.safetensors,*.json",
            None,
            id="include-only-replaces-default",
        ),
        pytest.param(
            SHARED,
            {"storage": {"downloadFilter": {"include": ["*"], "exclude": ["*.bin", "original/*"]}}},
            None,
            "*",
            "*.bin,original/*",
            id="include-and-exclude",
        ),
        pytest.param(
            SHARED,
            {"storage": {"downloadFilter": {"exclude": []}}},
            None,
            None,
            None,
            id="empty-list-sets-nothing",
        ),
        pytest.param(
            DEDICATED,
            {"storage": {"downloadFilter": {"exclude": ["*.bin"]}}},
            {"downloadFilter": {"include": ["*.gguf"]}},
            "*.gguf",
            "*.bin",
            id="dedicated-inline-filter-merges-over-rc",
        ),
        pytest.param(
            SHARED,
            {"storage": {"downloadFilter": {"exclude": ["*.bin"]}}},
            {"downloadFilter": {"include": ["*.gguf"]}},
            None,
            "*.bin",
            id="shared-ignores-inline-filter",
        ),
    ],
)
def test_download_filter_env(
    mode: str,
    rc_spec: dict[str, Any] | None,
    inline_storage: dict[str, Any] | None,
    include: str | None,
    exclude: str | None,
) -> None:
    values = env_map(one(mode=mode, rc_spec=rc_spec, service_storage=inline_storage))
    assert values.get("AIM_HF_INCLUDE") == include
    assert values.get("AIM_HF_EXCLUDE") == exclude


def test_download_filter_reaches_the_size_function() -> None:
    seen: list[tuple[Any, Any, str]] = []

    def recording(source: Mapping[str, Any], **kwargs: Any) -> int:
        seen.append((kwargs["s3_settings"], kwargs["download_filter"], kwargs["field"]))
        return 5

    s3 = {"region": "eu-west-1"}
    rc = {"storage": {"downloadFilter": {"include": ["*.gguf"]}}, "artifact": {"s3": s3}}
    cache = one(profile_spec=profile(modelSources=[S3_SOURCE]), rc_spec=rc, size_of=recording)
    assert seen == [(s3, {"include": ["*.gguf"]}, "spec.modelSources[0]")]
    assert env_map(cache)["EXPECTED_SIZE_BYTES"] == "5"


# ------------------------------------------------------------------------------------ S3 env

S3_FULL: dict[str, Any] = {
    "endpoint": "https://minio.storage.svc:9000",
    "region": "eu-central-1",
    "addressingStyle": "path",
    "signatureVersion": "v4",
    "auth": {"mode": "static", "credentialsSecretRef": {"name": "s3-creds"}},
}


def s3_cache(s3: Mapping[str, Any], source: Mapping[str, Any] = S3_SOURCE) -> CachePlan:
    return one(profile_spec=profile(modelSources=[source]), rc_spec={"artifact": {"s3": s3}})


def secret_ref(name: str, key: str) -> dict[str, Any]:
    return {"secretKeyRef": {"name": name, "key": key}}


def test_typed_s3_settings_become_env() -> None:
    values = env_map(s3_cache(S3_FULL))
    assert values["AWS_ENDPOINT_URL"] == "https://minio.storage.svc:9000"
    assert values["AWS_REGION"] == "eu-central-1"
    assert values["AIM_S3_ADDRESSING_STYLE"] == "path"
    assert values["AIM_S3_SIGNATURE_VERSION"] == "v4"
    assert values["AIM_S3_AUTH_MODE"] == "static"
    assert values["AWS_ACCESS_KEY_ID"] == secret_ref("s3-creds", "accessKeyId")
    assert values["AWS_SECRET_ACCESS_KEY"] == secret_ref("s3-creds", "secretAccessKey")
    assert "AWS_SESSION_TOKEN" not in values


def test_static_credentials_with_custom_keys_and_a_session_token() -> None:
    ref = {"name": "s3", "accessKeyIdKey": "id", "secretAccessKeyKey": "secret", "sessionTokenKey": "token"}
    values = env_map(s3_cache({"auth": {"mode": "static", "credentialsSecretRef": ref}}))
    assert values["AWS_ACCESS_KEY_ID"] == secret_ref("s3", "id")
    assert values["AWS_SECRET_ACCESS_KEY"] == secret_ref("s3", "secret")
    assert values["AWS_SESSION_TOKEN"] == secret_ref("s3", "token")


@pytest.mark.parametrize(
    "lower_layer",
    [
        pytest.param("rc", id="rc-env"),
        pytest.param("source", id="source-env"),
    ],
)
def test_static_credentials_are_never_plain_values(lower_layer: str) -> None:
    plain = env(("AWS_ACCESS_KEY_ID", "AKIAPLAIN"), ("AWS_SECRET_ACCESS_KEY", "plain-secret"))
    source = {**S3_SOURCE, "env": plain} if lower_layer == "source" else S3_SOURCE
    rc = {"artifact": {"s3": S3_FULL}, "env": plain if lower_layer == "rc" else []}
    cache = one(profile_spec=profile(modelSources=[source]), rc_spec=rc)
    credentials = [var for var in cache.job_env if var["name"].startswith("AWS_") and "KEY" in var["name"]]
    assert len(credentials) == 2
    assert all("value" not in var and "secretKeyRef" in var["valueFrom"] for var in credentials)
    assert "plain-secret" not in json.dumps([dict(v) for v in cache.job_env])


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        pytest.param("chain", "chain", id="chain"),
        pytest.param("anonymous", "anonymous", id="anonymous"),
    ],
)
def test_non_static_auth_has_no_credentials_env(mode: str, expected: str) -> None:
    values = env_map(s3_cache({"auth": {"mode": mode}}))
    assert values["AIM_S3_AUTH_MODE"] == expected
    assert "AWS_ACCESS_KEY_ID" not in values
    assert "AWS_SECRET_ACCESS_KEY" not in values


@pytest.mark.parametrize(
    ("ca_ref", "expected_bundle", "expected_path"),
    [
        pytest.param(
            {"kind": "ConfigMap", "name": "corp-ca", "key": "bundle.pem"},
            {"kind": "ConfigMap", "name": "corp-ca", "key": "bundle.pem"},
            "/etc/aim/s3-ca/bundle.pem",
            id="configmap-with-key",
        ),
        pytest.param(
            {"kind": "Secret", "name": "corp-ca"},
            {"kind": "Secret", "name": "corp-ca", "key": "ca.crt"},
            "/etc/aim/s3-ca/ca.crt",
            id="secret-default-key",
        ),
    ],
)
def test_ca_bundle(ca_ref: dict[str, Any], expected_bundle: dict[str, str], expected_path: str) -> None:
    cache = s3_cache({"tls": {"caBundleRef": ca_ref}})
    assert cache.ca_bundle == expected_bundle
    assert env_map(cache)["AWS_CA_BUNDLE"] == expected_path


def test_insecure_skip_verify() -> None:
    cache = s3_cache({"tls": {"insecureSkipVerify": True}})
    assert env_map(cache)["AIM_S3_INSECURE_SKIP_VERIFY"] == "true"
    assert cache.ca_bundle is None


def test_hf_sources_get_no_s3_settings() -> None:
    s3 = {**S3_FULL, "tls": {"caBundleRef": {"kind": "ConfigMap", "name": "corp-ca"}}}
    cache = s3_cache(s3, source=HF_SOURCE)
    assert not any(name.startswith(("AWS_", "AIM_S3_")) for name in env_map(cache))
    assert cache.ca_bundle is None


# ------------------------------------------------------------------------ image and settings


@pytest.mark.parametrize(
    ("rc_image", "setting", "expected"),
    [
        pytest.param(None, None, DEFAULT_DOWNLOAD_IMAGE, id="built-in-default"),
        pytest.param(None, "registry.local/downloader:1", "registry.local/downloader:1", id="stack-setting"),
        pytest.param("rc.local/dl:2", "registry.local/downloader:1", "rc.local/dl:2", id="rc-wins"),
        pytest.param("rc.local/dl:2", None, "rc.local/dl:2", id="rc-only"),
    ],
)
def test_job_image_precedence(rc_image: str | None, setting: str | None, expected: str) -> None:
    rc = {"artifact": {"modelDownloadImage": rc_image}} if rc_image else None
    cache = one(rc_spec=rc, settings=CacheSettings(download_image=setting))
    assert cache.job_image == expected


def test_settings_and_pod_identity_reach_the_plan() -> None:
    spec = profile(
        imagePullSecrets=[{"name": "regcred"}, "other", {"name": "regcred"}], serviceAccountName="dl"
    )
    cache = one(
        profile_spec=spec,
        settings=CacheSettings(access_mode="ReadWriteOnce", timeout_seconds=7200, skip_await=True),
    )
    assert cache.access_mode == "ReadWriteOnce"
    assert cache.timeout_seconds == 7200
    assert cache.skip_await is True
    assert cache.image_pull_secrets == ("regcred", "other")
    assert cache.service_account_name == "dl"


def test_cache_settings_from_stack_settings() -> None:
    stack = Settings.from_config(
        {
            "aim:downloadImage": "registry.local/dl:3",
            "aim:downloadTimeoutSeconds": "900",
            "aim:cacheAccessMode": "ReadWriteOnce",
            "aim:skipAwait": "true",
        }
    )
    assert CacheSettings.from_settings(stack) == CacheSettings(
        "registry.local/dl:3", 900, "ReadWriteOnce", True
    )
    assert one(settings=CacheSettings.from_settings(Settings())).job_image == DEFAULT_DOWNLOAD_IMAGE


def test_default_settings() -> None:
    cache = one()
    assert (cache.access_mode, cache.timeout_seconds, cache.skip_await) == ("ReadWriteMany", 3600, False)
    assert cache.service_account_name is None
    assert cache.image_pull_secrets == ()


def test_object_ref_of_a_cluster_profile_has_no_namespace() -> None:
    with pytest.raises(AIMResolutionError) as err:
        plan(
            profile_kind="AIMClusterProfile",
            profile_spec=profile(modelSources=[{"sourceUri": "ftp://x/y", "size": "1Gi"}]),
        )
    assert err.value.object_ref == f"AIMClusterProfile/{PROFILE}"


# -------------------------------------------------------------------------------------- labels


def test_standard_cache_labels() -> None:
    shared = one()
    assert shared.pvc_labels == {
        "aim.eai.amd.com/cache-mode": "shared",
        "aim.eai.amd.com/profile": PROFILE,
        "app.kubernetes.io/component": "cache",
        "app.kubernetes.io/managed-by": "aim-pulumi",
    }
    assert shared.job_labels["app.kubernetes.io/component"] == "download"
    dedicated = one(mode=DEDICATED)
    assert dedicated.pvc_labels["aim.eai.amd.com/cache-mode"] == "dedicated"
    assert dedicated.pvc_labels["aim.eai.amd.com/service"] == SERVICE


PARENT = {
    "org.example/team": "nlp",
    "org.example/cost-center": "eng-ml",
    "aim.eai.amd.com/tier": "gold",
    "unrelated": "x",
    "app.kubernetes.io/component": "frontend",
}


@pytest.mark.parametrize(
    ("parents", "match", "expected"),
    [
        pytest.param([PARENT], None, {"aim.eai.amd.com/tier": "gold"}, id="aim-labels-always-propagate"),
        pytest.param(
            [PARENT],
            ["org.example/*"],
            {"aim.eai.amd.com/tier": "gold", "org.example/team": "nlp", "org.example/cost-center": "eng-ml"},
            id="pattern-match",
        ),
        pytest.param(
            [PARENT],
            ["org.example/team"],
            {"aim.eai.amd.com/tier": "gold", "org.example/team": "nlp"},
            id="exact-key",
        ),
        pytest.param(
            [{"org.example/team": "a"}, {"org.example/team": "b", "org.example/x": "y"}],
            ["org.example/*"],
            {"org.example/team": "a", "org.example/x": "y"},
            id="shared-first-parent-wins",
        ),
        pytest.param([], ["*"], {}, id="no-parents"),
    ],
)
def test_label_propagation(
    parents: Sequence[Mapping[str, str]], match: list[str] | None, expected: dict[str, str]
) -> None:
    cache = one(parent_labels=parents, label_match=match)
    for labels in (cache.pvc_labels, cache.job_labels):
        propagated = {
            k: v
            for k, v in labels.items()
            if k not in {"aim.eai.amd.com/cache-mode", "aim.eai.amd.com/profile"}
            and not k.startswith("app.kubernetes.io/")
        }
        assert propagated == expected
        assert labels["app.kubernetes.io/managed-by"] == "aim-pulumi"
    assert cache.pvc_labels["app.kubernetes.io/component"] == "cache"
    assert cache.job_labels["app.kubernetes.io/component"] == "download"


def test_parent_labels_never_replace_standard_labels() -> None:
    parent = {"aim.eai.amd.com/profile": "other", "aim.eai.amd.com/cache-mode": "dedicated"}
    cache = one(parent_labels=[parent], label_match=["*"])
    assert cache.pvc_labels["aim.eai.amd.com/profile"] == PROFILE
    assert cache.pvc_labels["aim.eai.amd.com/cache-mode"] == "shared"


# --------------------------------------------------------------------------------- shrink guard


@pytest.mark.parametrize(
    ("previous", "new", "expected", "warns"),
    [
        pytest.param(None, 11, 11, False, id="first-deploy"),
        pytest.param(11, 11, 11, False, id="unchanged"),
        pytest.param(11, 20, 20, False, id="growth-expands-in-place"),
        pytest.param(20, 11, 20, True, id="shrink-keeps-previous"),
    ],
)
def test_shrink_guard(previous: int | None, new: int, expected: int, warns: bool) -> None:
    size, diagnostics = shrink_guard(previous, new, pvc_name="qwen-cache-1234abcd")
    assert size == expected
    assert [(d.level, d.reason) for d in diagnostics] == ([("warn", "CacheShrinkRefused")] if warns else [])
    if warns:
        assert "qwen-cache-1234abcd" in diagnostics[0].message
        assert "20Gi" in diagnostics[0].message and "11Gi" in diagnostics[0].message


def test_plans_are_deterministic() -> None:
    kwargs = env_scenario("HF_HOME", set(ALL_LAYERS))
    assert plan(**kwargs) == plan(**kwargs)
