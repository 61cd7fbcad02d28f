"""Inference container rules: resources (§13.3), pod identity (§13.2), env (§10.1), ConfigMap (§13.1),
direct vLLM (§13.5), profile hash and cache mount paths."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.children.container import (
    ContainerDefaults,
    accelerator_resources,
    build_container_plan,
    build_profile_config_plan,
    cache_mount_path,
    container_resources,
    inference_env,
    is_direct_vllm,
    pod_identity,
    profile_config_content,
    profile_config_document,
    profile_config_file_name,
    profile_hash,
    profile_resources,
    served_model_id,
    vllm_args,
)
from aim_pulumi.resolve.children.names import profile_configmap_name

AIM_PROFILE: dict[str, Any] = {
    "aimId": "qwen/qwen3-32b",
    "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
    "engine": "vllm",
    "acceleratorType": "gpu",
    "acceleratorVendor": "amd",
    "acceleratorModel": "MI300X",
    "acceleratorCount": 2,
    "precision": "fp8",
    "metric": "latency",
    "type": "optimized",
    "modelSources": [{"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}],
    "engineArgs": {"max-model-len": 8192},
    "engineEnv": {"VLLM_USE_V1": "1"},
}

VLLM_PROFILE: dict[str, Any] = {
    "aimId": "meta-llama/Llama-3.1-8B",
    "modelId": "meta-llama/Llama-3.1-8B",
    "image": "vllm/vllm-openai:v0.17.1-cu130",
    "engine": "vllm",
    "acceleratorType": "gpu",
    "acceleratorVendor": "nvidia",
    "acceleratorCount": 1,
    "engineArgs": {"max-model-len": 8192, "gpu-memory-utilization": 0.9},
    "engineEnv": {"VLLM_LOGGING_LEVEL": "INFO", "CUDA_DEVICE_ORDER": "PCI_BUS_ID"},
}


def _env_map(env: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {item["name"]: item.get("value", item.get("valueFrom")) for item in env}


# ------------------------------------------------------------------------------------------ resources


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        pytest.param(
            {"acceleratorType": "gpu", "acceleratorVendor": "amd", "acceleratorCount": 1},
            {"limits": {"amd.com/gpu": 1}, "requests": {"amd.com/gpu": 1}},
            id="amd-gpu-one",
        ),
        pytest.param(
            {"acceleratorType": "gpu", "acceleratorCount": 8},
            {"limits": {"amd.com/gpu": 8}, "requests": {"amd.com/gpu": 8}},
            id="vendor-unset-is-amd",
        ),
        pytest.param(
            {"acceleratorType": "gpu", "acceleratorVendor": "nvidia", "acceleratorCount": 4},
            {"limits": {"nvidia.com/gpu": 4}, "requests": {"nvidia.com/gpu": 4}},
            id="nvidia-gpu-four",
        ),
        pytest.param(
            {"acceleratorType": "gpu", "acceleratorVendor": "NVIDIA", "acceleratorCount": 2},
            {"limits": {"nvidia.com/gpu": 2}, "requests": {"nvidia.com/gpu": 2}},
            id="vendor-case-insensitive",
        ),
        pytest.param({"acceleratorType": "cpu", "acceleratorCount": 2}, {}, id="cpu-no-devices"),
        pytest.param({"acceleratorType": "gpu", "acceleratorCount": 0}, {}, id="gpu-count-zero"),
        pytest.param({"acceleratorType": "gpu"}, {}, id="gpu-count-absent"),
        pytest.param({"acceleratorVendor": "amd", "acceleratorCount": 1}, {}, id="type-absent"),
    ],
)
def test_accelerator_default(profile: dict[str, Any], expected: dict[str, Any]) -> None:
    assert accelerator_resources(profile) == expected
    assert profile_resources(profile) == expected


@pytest.mark.parametrize(
    ("spec_resources", "status", "expected"),
    [
        pytest.param(
            {"requests": {"cpu": "8", "memory": "64Gi"}, "limits": {"memory": "64Gi"}},
            None,
            {
                "limits": {"amd.com/gpu": 2, "memory": "64Gi"},
                "requests": {"amd.com/gpu": 2, "cpu": "8", "memory": "64Gi"},
            },
            id="spec-adds-keys-to-default",
        ),
        pytest.param(
            {"limits": {"amd.com/gpu": 1}},
            None,
            {"limits": {"amd.com/gpu": 1}, "requests": {"amd.com/gpu": 2}},
            id="spec-overrides-device-count-per-key",
        ),
        pytest.param(
            {"requests": {"cpu": "8"}},
            {"resources": {"requests": {"cpu": "16"}, "limits": {"memory": "128Gi"}}},
            {
                "limits": {"amd.com/gpu": 2, "memory": "128Gi"},
                "requests": {"amd.com/gpu": 2, "cpu": "16"},
            },
            id="status-wins-per-key",
        ),
        pytest.param(
            None,
            {"resources": {"claims": [{"name": "gpu"}]}},
            {"claims": [{"name": "gpu"}], "limits": {"amd.com/gpu": 2}, "requests": {"amd.com/gpu": 2}},
            id="status-claims",
        ),
        pytest.param(
            None, {}, {"limits": {"amd.com/gpu": 2}, "requests": {"amd.com/gpu": 2}}, id="status-empty"
        ),
    ],
)
def test_profile_resources_layers(
    spec_resources: dict[str, Any] | None, status: dict[str, Any] | None, expected: dict[str, Any]
) -> None:
    profile = {"acceleratorType": "gpu", "acceleratorCount": 2}
    if spec_resources is not None:
        profile["resources"] = spec_resources
    assert profile_resources(profile, status) == expected


PROFILE_RES: dict[str, Any] = {
    "requests": {"amd.com/gpu": 1, "cpu": "8", "memory": "64Gi"},
    "limits": {"amd.com/gpu": 1, "memory": "64Gi"},
    "claims": [{"name": "profile-claim"}],
}


@pytest.mark.parametrize(
    ("service", "expected"),
    [
        pytest.param(None, PROFILE_RES, id="no-service-resources"),
        pytest.param({}, PROFILE_RES, id="empty-service-resources"),
        pytest.param(
            {"requests": {"memory": "128Gi"}},
            {
                "claims": [{"name": "profile-claim"}],
                "limits": {"amd.com/gpu": 1, "memory": "64Gi"},
                "requests": {"amd.com/gpu": 1, "cpu": "8", "memory": "128Gi"},
            },
            id="one-request-key-replaced-rest-kept",
        ),
        pytest.param(
            {"limits": {"cpu": "16"}, "requests": {"ephemeral-storage": "10Gi"}},
            {
                "claims": [{"name": "profile-claim"}],
                "limits": {"amd.com/gpu": 1, "cpu": "16", "memory": "64Gi"},
                "requests": {"amd.com/gpu": 1, "cpu": "8", "ephemeral-storage": "10Gi", "memory": "64Gi"},
            },
            id="new-keys-added",
        ),
        pytest.param(
            {"claims": [{"name": "svc-a"}, {"name": "svc-b"}]},
            {
                "claims": [{"name": "svc-a"}, {"name": "svc-b"}],
                "limits": {"amd.com/gpu": 1, "memory": "64Gi"},
                "requests": {"amd.com/gpu": 1, "cpu": "8", "memory": "64Gi"},
            },
            id="claims-replaced-whole",
        ),
    ],
)
def test_container_resources_merge_per_key(service: dict[str, Any] | None, expected: dict[str, Any]) -> None:
    assert container_resources(PROFILE_RES, service) == expected


def test_container_resources_do_not_alias_inputs() -> None:
    merged = container_resources(PROFILE_RES, {"requests": {"cpu": "2"}})
    merged["requests"]["cpu"] = "99"
    merged["claims"].append({"name": "x"})
    assert PROFILE_RES["requests"]["cpu"] == "8"
    assert PROFILE_RES["claims"] == [{"name": "profile-claim"}]


# ------------------------------------------------------------------------------------- pod identity


@pytest.mark.parametrize(
    ("service", "profile", "expected"),
    [
        pytest.param({}, {}, ((), None, None), id="nothing"),
        pytest.param(
            {"imagePullSecrets": [{"name": "svc"}, {"name": "shared"}]},
            {"imagePullSecrets": [{"name": "shared"}, {"name": "prof"}]},
            (("svc", "shared", "prof"), None, None),
            id="secrets-merged-service-first-deduplicated",
        ),
        pytest.param(
            {}, {"imagePullSecrets": [{"name": "prof"}]}, (("prof",), None, None), id="profile-secrets-only"
        ),
        pytest.param(
            {"serviceAccountName": "svc-sa"},
            {"serviceAccountName": "prof-sa"},
            ((), "svc-sa", None),
            id="sa-service",
        ),
        pytest.param(
            {"serviceAccountName": ""},
            {"serviceAccountName": "prof-sa"},
            ((), "prof-sa", None),
            id="sa-profile",
        ),
        pytest.param({"priorityClassName": "high"}, {}, ((), None, "high"), id="priority-from-service"),
        pytest.param({"priorityClassName": ""}, {}, ((), None, None), id="priority-empty-omitted"),
    ],
)
def test_pod_identity(
    service: dict[str, Any], profile: dict[str, Any], expected: tuple[tuple[str, ...], str | None, str | None]
) -> None:
    identity = pod_identity(service, profile)
    assert (
        identity.image_pull_secrets,
        identity.service_account_name,
        identity.priority_class_name,
    ) == expected


# ---------------------------------------------------------------------------------- profile config


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        pytest.param(AIM_PROFILE, "vllm-mi300x-fp8-tp2-latency.yaml", id="full"),
        pytest.param(
            {"aimId": "x", "acceleratorCount": 1}, "vllm-none-auto-tp1-default.yaml", id="fallbacks"
        ),
        pytest.param({"aimId": "x"}, "vllm-none-auto-tp0-default.yaml", id="no-count"),
        pytest.param(
            {
                "aimId": "x",
                "engine": "sglang",
                "acceleratorModel": "MI325X",
                "acceleratorCount": 8,
                "metric": "throughput",
            },
            "sglang-mi325x-auto-tp8-throughput.yaml",
            id="other-engine-lowercased-model",
        ),
    ],
)
def test_profile_config_file_name(profile: dict[str, Any], expected: str) -> None:
    assert profile_config_file_name(profile) == expected


def test_profile_config_content() -> None:
    content = profile_config_content(AIM_PROFILE)
    assert yaml.safe_load(content) == {
        "aim_id": "qwen/qwen3-32b",
        "model_id": "Qwen/Qwen3-32B",
        "metadata": {
            "engine": "vllm",
            "accelerator_model": "MI300X",
            "accelerator_type": "gpu",
            "accelerator_count": 2,
            "manual_selection_only": False,
            "metric": "latency",
            "precision": "fp8",
            "type": "optimized",
        },
        "engine_args": {"max-model-len": 8192},
        "env_vars": {"VLLM_USE_V1": "1"},
    }
    top_keys = [line.split(":")[0] for line in content.splitlines() if not line.startswith(" ")]
    assert top_keys == sorted(top_keys)


def test_profile_config_content_defaults_to_empty_maps() -> None:
    document = yaml.safe_load(profile_config_content({"aimId": "a/b"}))
    assert document["engine_args"] == {}
    assert document["env_vars"] == {}
    assert document["model_id"] == "a/b"


def test_profile_config_content_is_independent_of_key_order() -> None:
    reordered = dict(reversed(list(AIM_PROFILE.items())))
    reordered["engineArgs"] = {"b": 1, "a": {"z": 1, "y": 2}}
    original = {**AIM_PROFILE, "engineArgs": {"a": {"y": 2, "z": 1}, "b": 1}}
    assert profile_config_content(reordered) == profile_config_content(original)


def test_build_profile_config_plan() -> None:
    labels = {"b": "2", "a": "1"}
    plan = build_profile_config_plan("qwen-chat", AIM_PROFILE, labels)
    assert plan is not None
    assert plan.name == profile_configmap_name("qwen-chat")
    assert plan.file_name == "vllm-mi300x-fp8-tp2-latency.yaml"
    assert plan.content == profile_config_content(AIM_PROFILE)
    assert plan.mount_path == "/workspace/aim-runtime/profiles/custom/qwen/qwen3-32b"
    assert list(plan.labels) == ["a", "b"]
    assert build_profile_config_plan("qwen-chat", VLLM_PROFILE, labels) is None


# ------------------------------------------------------------------------------------- profile hash


def test_profile_hash_is_eight_hex() -> None:
    digest = profile_hash(AIM_PROFILE)
    assert len(digest) == 8
    assert int(digest, 16) >= 0


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.6"}, id="image"),
        pytest.param({"acceleratorCount": 4}, id="count"),
        pytest.param({"engineArgs": {"max-model-len": 16384}}, id="nested-value"),
        pytest.param({"engineEnv": {}}, id="emptied-map"),
        pytest.param({"primary": False}, id="added-false"),
    ],
)
def test_profile_hash_changes_with_content(change: dict[str, Any]) -> None:
    assert profile_hash({**AIM_PROFILE, **change}) != profile_hash(AIM_PROFILE)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


def _reverse_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reverse_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reverse_keys(item) for item in value]
    return value


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=6))
def test_profile_hash_ignores_key_order(spec: dict[str, Any]) -> None:
    assert profile_hash(_reverse_keys(spec)) == profile_hash(spec)


# -------------------------------------------------------------------------------------- direct vLLM


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        pytest.param({"acceleratorVendor": "nvidia", "engine": "vllm"}, True, id="nvidia-vllm"),
        pytest.param({"acceleratorVendor": "NVIDIA", "engine": "vLLM"}, True, id="case-insensitive"),
        pytest.param({"acceleratorVendor": "amd", "engine": "vllm"}, False, id="amd-vllm-uses-aim-runtime"),
        pytest.param({"acceleratorVendor": "nvidia", "engine": "sglang"}, False, id="nvidia-other-engine"),
        pytest.param({"acceleratorVendor": "nvidia"}, False, id="engine-unset"),
        pytest.param({"engine": "vllm"}, False, id="vendor-unset"),
    ],
)
def test_is_direct_vllm(profile: dict[str, Any], expected: bool) -> None:
    assert is_direct_vllm(profile) is expected


MANAGED = [
    "$(AIM_VLLM_MODEL)",
    "--served-model-name=m/x",
    "--host=0.0.0.0",
    "--port=8000",
    "--tensor-parallel-size=1",
]


@pytest.mark.parametrize(
    ("engine_args", "expected_tail"),
    [
        pytest.param({}, [], id="no-args"),
        pytest.param({"enforce-eager": True}, ["--enforce-eager"], id="true"),
        pytest.param({"enable-prefix-caching": False}, ["--no-enable-prefix-caching"], id="false"),
        pytest.param({"disable-log-stats": None}, ["--disable-log-stats"], id="null"),
        pytest.param({"max-model-len": 8192}, ["--max-model-len=8192"], id="integer"),
        pytest.param({"gpu-memory-utilization": 0.9}, ["--gpu-memory-utilization=0.9"], id="float"),
        pytest.param({"dtype": "bfloat16"}, ["--dtype=bfloat16"], id="string"),
        pytest.param({"chat-template": ""}, ["--chat-template="], id="empty-string"),
        pytest.param(
            {"allowed-origins": ["a.example", "b.example"]},
            ["--allowed-origins=a.example", "--allowed-origins=b.example"],
            id="list-repeats-flag",
        ),
        pytest.param({"middleware": []}, [], id="empty-list-no-flag"),
        pytest.param({"ports": [1, 2]}, ["--ports=1", "--ports=2"], id="list-of-numbers"),
        pytest.param(
            {"override-generation-config": {"top_k": 2, "temperature": 0.5}},
            ['--override-generation-config={"temperature":0.5,"top_k":2}'],
            id="object-compact-json-sorted",
        ),
        pytest.param({"max_num_seqs": 64}, ["--max-num-seqs=64"], id="underscore-to-dash"),
        pytest.param({"--swap-space": 4}, ["--swap-space=4"], id="leading-dashes-stripped"),
        pytest.param(
            {"zeta": 1, "alpha": True, "mid_key": "v"},
            ["--alpha", "--mid-key=v", "--zeta=1"],
            id="sorted-key-order",
        ),
    ],
)
def test_vllm_args_rendering(engine_args: dict[str, Any], expected_tail: list[str]) -> None:
    profile = {"aimId": "m/x", "acceleratorVendor": "nvidia", "engine": "vllm", "acceleratorCount": 1}
    profile["engineArgs"] = engine_args
    assert list(vllm_args(profile)) == MANAGED + expected_tail


@pytest.mark.parametrize(
    ("engine_args", "count", "expected"),
    [
        pytest.param(
            {"served-model-name": "alias"},
            2,
            [
                "$(AIM_VLLM_MODEL)",
                "--host=0.0.0.0",
                "--port=8000",
                "--tensor-parallel-size=2",
                "--served-model-name=alias",
            ],
            id="served-model-name-from-args",
        ),
        pytest.param(
            {"served_model_name": "alias"},
            2,
            [
                "$(AIM_VLLM_MODEL)",
                "--host=0.0.0.0",
                "--port=8000",
                "--tensor-parallel-size=2",
                "--served-model-name=alias",
            ],
            id="served-model-name-underscored",
        ),
        pytest.param(
            {"tensor-parallel-size": 4},
            2,
            [
                "$(AIM_VLLM_MODEL)",
                "--served-model-name=m/x",
                "--host=0.0.0.0",
                "--port=8000",
                "--tensor-parallel-size=4",
            ],
            id="tp-from-args",
        ),
        pytest.param(
            {"--tensor_parallel_size": 4},
            2,
            [
                "$(AIM_VLLM_MODEL)",
                "--served-model-name=m/x",
                "--host=0.0.0.0",
                "--port=8000",
                "--tensor-parallel-size=4",
            ],
            id="tp-dashed-underscored",
        ),
        pytest.param(
            {},
            0,
            ["$(AIM_VLLM_MODEL)", "--served-model-name=m/x", "--host=0.0.0.0", "--port=8000"],
            id="no-tp-without-devices",
        ),
    ],
)
def test_vllm_managed_flags_not_duplicated(
    engine_args: dict[str, Any], count: int, expected: list[str]
) -> None:
    profile = {"aimId": "m/x", "acceleratorVendor": "nvidia", "engine": "vllm", "acceleratorCount": count}
    profile["engineArgs"] = engine_args
    args = list(vllm_args(profile))
    assert args == expected
    flags = [arg.split("=")[0] for arg in args]
    assert len(flags) == len(set(flags))


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        pytest.param(
            {"modelId": "a/m", "modelSources": [{"modelId": "b/s"}], "aimId": "c/i"}, "a/m", id="model-id"
        ),
        pytest.param({"modelSources": [{"modelId": "b/s"}], "aimId": "c/i"}, "b/s", id="first-source"),
        pytest.param(
            {"modelSources": [{"sourceUri": "s3://b/p"}], "aimId": "c/i"}, "c/i", id="source-without-id"
        ),
        pytest.param({"aimId": "c/i"}, "c/i", id="aim-id"),
    ],
)
def test_served_model_id(profile: dict[str, Any], expected: str) -> None:
    assert served_model_id(profile) == expected


# ------------------------------------------------------------------------------------------ env


def test_env_worked_chain_all_five_layers() -> None:
    rc = {
        "env": [
            {"name": "A", "value": "rc"},
            {"name": "SHARED", "value": "rc"},
            {"name": "AIM_ID", "value": "rc"},
        ]
    }
    profile = {
        **AIM_PROFILE,
        "containerEnv": [
            {"name": "SHARED", "value": "profile"},
            {"name": "B", "value": "profile"},
            {"name": "AIM_CACHE_PATH", "value": "profile"},
        ],
    }
    service = {
        "env": [{"name": "SHARED", "value": "service"}, {"name": "C", "value": "service"}],
        "profileOverrides": {
            "containerEnv": [{"name": "SHARED", "value": "override"}, {"name": "AIM_ID", "value": "x"}]
        },
    }
    env = inference_env(profile, service, rc)
    assert [(item["name"], item["value"]) for item in env] == [
        ("A", "rc"),
        ("SHARED", "override"),
        ("AIM_ID", "x"),
        ("B", "profile"),
        ("AIM_CACHE_PATH", "/workspace/cache"),
        ("AIM_PROFILE_ID", "custom/qwen/qwen3-32b/vllm-mi300x-fp8-tp2-latency"),
        ("AIM_MODEL_ID", "Qwen/Qwen3-32B"),
        ("C", "service"),
    ]


COMPUTED_PROFILE_ID = "custom/qwen/qwen3-32b/vllm-mi300x-fp8-tp2-latency"


@pytest.mark.parametrize(
    ("rc_env", "profile_env", "service_env", "override_env", "expected"),
    [
        pytest.param([], [], [], [], COMPUTED_PROFILE_ID, id="runtime-points-at-the-mounted-profile-file"),
        # upstream TestBuildInferenceServiceFromProfile_FrameworkEnvVarsWinOverProfile
        pytest.param(
            [],
            [{"name": "AIM_PROFILE_ID", "value": "from-profile"}],
            [],
            [],
            COMPUTED_PROFILE_ID,
            id="framework-env-wins-over-the-profile-containerEnv",
        ),
        pytest.param(
            [{"name": "AIM_PROFILE_ID", "value": "rc"}],
            [],
            [],
            [],
            COMPUTED_PROFILE_ID,
            id="framework-env-wins-over-the-runtime-config-env",
        ),
        # upstream TestBuildInferenceServiceFromProfile_UserOverridesWinOverFramework
        pytest.param(
            [],
            [{"name": "AIM_PROFILE_ID", "value": "from-profile"}],
            [],
            [{"name": "AIM_PROFILE_ID", "value": "user"}],
            "user",
            id="profileOverrides-containerEnv-wins-over-the-framework",
        ),
        pytest.param(
            [], [], [{"name": "AIM_PROFILE_ID", "value": "service"}], [], "service", id="service-env-wins"
        ),
    ],
)
def test_runtime_profile_id(
    rc_env: list[dict[str, str]],
    profile_env: list[dict[str, str]],
    service_env: list[dict[str, str]],
    override_env: list[dict[str, str]],
    expected: str,
) -> None:
    service = {"env": service_env, "profileOverrides": {"containerEnv": override_env}}
    env = inference_env({**AIM_PROFILE, "containerEnv": profile_env}, service, {"env": rc_env})
    assert [item["value"] for item in env if item["name"] == "AIM_PROFILE_ID"] == [expected]


@pytest.mark.parametrize(
    ("labels", "profile", "rc_env", "expected"),
    [
        pytest.param(
            {"aim.eai.amd.com/template": "t"},
            {"profileId": "mi300x-fp16-latency-unopt"},
            [{"name": "AIM_PROFILE_ID", "value": "rc"}],
            "mi300x-fp16-latency-unopt",
            id="template-profile-id-outranks-the-runtime-config-env",
        ),
        pytest.param(
            {"aim.eai.amd.com/template": "t"},
            {"profileId": "p", "containerEnv": [{"name": "AIM_PROFILE_ID", "value": "template-env"}]},
            [],
            "template-env",
            id="template-env-outranks-the-template-profile-id",
        ),
        pytest.param(
            {}, {"profileId": "p"}, [], COMPUTED_PROFILE_ID, id="profileId-alone-is-a-selection-field"
        ),
        pytest.param(
            {"aim.eai.amd.com/template": "t"}, {}, [], COMPUTED_PROFILE_ID, id="template-without-profile-id"
        ),
    ],
)
def test_template_profile_runs_the_template_profile_id(
    labels: dict[str, str], profile: dict[str, Any], rc_env: list[dict[str, str]], expected: str
) -> None:
    """§10.3: the operator's template container serves the template's profile id, below its env."""
    from aim_pulumi.resolve.legacy.template_profile import template_runtime_profile_id

    spec = {**AIM_PROFILE, **profile}
    runtime_id = template_runtime_profile_id(labels, spec)
    defaults = ContainerDefaults(runtime_profile_id=runtime_id)
    plan = build_container_plan({}, spec, rc_spec={"env": rc_env}, defaults=defaults)
    assert [item["value"] for item in plan.env if item["name"] == "AIM_PROFILE_ID"] == [expected]


LAYERS = ("rc", "profile", "service", "override")


def _layered_inputs(
    name: str, layers: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    rc: dict[str, Any] = {"env": [{"name": name, "value": "rc"}]} if "rc" in layers else {}
    profile: dict[str, Any] = dict(AIM_PROFILE)
    if "profile" in layers:
        profile["containerEnv"] = [{"name": name, "value": "profile"}]
    service: dict[str, Any] = {}
    if "service" in layers:
        service["env"] = [{"name": name, "value": "service"}]
    if "override" in layers:
        service["profileOverrides"] = {"containerEnv": [{"name": name, "value": "override"}]}
    return rc, profile, service


@pytest.mark.parametrize(
    ("name", "layers", "expected"),
    [
        pytest.param("X", ("rc",), "rc", id="rc-only"),
        pytest.param("X", ("rc", "profile"), "profile", id="profile-over-rc"),
        pytest.param("X", ("rc", "profile", "service"), "service", id="service-over-profile"),
        pytest.param("X", LAYERS, "override", id="override-over-all"),
        pytest.param("X", ("rc", "override"), "override", id="override-over-rc"),
        pytest.param("AIM_CACHE_PATH", ("rc", "profile"), "/workspace/cache", id="framework-over-profile"),
        pytest.param("AIM_CACHE_PATH", ("profile", "service"), "service", id="service-over-framework"),
        pytest.param("AIM_MODEL_ID", ("rc", "override"), "override", id="override-over-framework"),
    ],
)
def test_env_precedence(name: str, layers: tuple[str, ...], expected: str) -> None:
    rc, profile, service = _layered_inputs(name, layers)
    assert _env_map(inference_env(profile, service, rc))[name] == expected


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        pytest.param(
            AIM_PROFILE,
            {
                "AIM_PROFILE_ID": "custom/qwen/qwen3-32b/vllm-mi300x-fp8-tp2-latency",
                "AIM_ID": "",
                "AIM_CACHE_PATH": "/workspace/cache",
                "AIM_MODEL_ID": "Qwen/Qwen3-32B",
            },
            id="with-model-sources",
        ),
        pytest.param(
            {k: v for k, v in AIM_PROFILE.items() if k != "modelSources"},
            {
                "AIM_PROFILE_ID": "custom/qwen/qwen3-32b/vllm-mi300x-fp8-tp2-latency",
                "AIM_ID": "qwen/qwen3-32b",
            },
            id="self-contained-image",
        ),
    ],
)
def test_framework_vars(profile: dict[str, Any], expected: dict[str, str]) -> None:
    assert _env_map(inference_env(profile, {}, None)) == expected


@pytest.mark.parametrize(
    ("override_env", "expected"),
    [
        pytest.param(None, "profile-override", id="default-is-profile-overrides"),
        pytest.param([{"name": "X", "value": "legacy-override"}], "legacy-override", id="given-replaces-it"),
        pytest.param([], "service", id="given-empty-leaves-service-env"),
    ],
)
def test_override_env_is_the_final_layer(override_env: list[dict[str, str]] | None, expected: str) -> None:
    service = {
        "env": [{"name": "X", "value": "service"}],
        "profileOverrides": {"containerEnv": [{"name": "X", "value": "profile-override"}]},
    }
    env = inference_env(AIM_PROFILE, service, None, override_env=override_env)
    assert _env_map(env)["X"] == expected


def test_engine_env_is_not_container_env_for_aim_runtime() -> None:
    names = {item["name"] for item in inference_env(AIM_PROFILE, {}, None)}
    assert "VLLM_USE_V1" not in names


def test_env_merge_deep_merges_engine_args_json() -> None:
    rc = {"env": [{"name": "AIM_ENGINE_ARGS", "value": '{"a": 1, "n": {"x": 1}}'}]}
    service = {"env": [{"name": "AIM_ENGINE_ARGS", "value": '{"b": 2, "n": {"y": 2}}'}]}
    value = _env_map(inference_env(AIM_PROFILE, service, rc))["AIM_ENGINE_ARGS"]
    assert json.loads(value) == {"a": 1, "b": 2, "n": {"x": 1, "y": 2}}


def test_secret_env_passes_through() -> None:
    secret = {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}}
    env = inference_env(AIM_PROFILE, {"env": [secret]}, None)
    assert secret in env


@pytest.mark.parametrize(
    ("cache_mount", "expected"),
    [
        pytest.param(
            None,
            [
                ("CUDA_DEVICE_ORDER", "PCI_BUS_ID"),
                ("VLLM_LOGGING_LEVEL", "INFO"),
                ("AIM_VLLM_MODEL", "meta-llama/Llama-3.1-8B"),
                ("HF_HUB_OFFLINE", "0"),
                ("TRANSFORMERS_OFFLINE", "0"),
            ],
            id="not-cached",
        ),
        pytest.param(
            "/workspace/cache/meta-llama/Llama-3.1-8B",
            [
                ("CUDA_DEVICE_ORDER", "PCI_BUS_ID"),
                ("VLLM_LOGGING_LEVEL", "INFO"),
                ("AIM_VLLM_MODEL", "/workspace/cache/meta-llama/Llama-3.1-8B"),
                ("HF_HUB_OFFLINE", "1"),
                ("TRANSFORMERS_OFFLINE", "1"),
            ],
            id="cached",
        ),
    ],
)
def test_direct_vllm_env_replaces_framework_layer(
    cache_mount: str | None, expected: list[tuple[str, str]]
) -> None:
    env = inference_env(VLLM_PROFILE, {}, None, cache_mount=cache_mount)
    assert [(item["name"], item["value"]) for item in env] == expected


def test_direct_vllm_keeps_other_layers() -> None:
    rc = {"env": [{"name": "HF_HUB_OFFLINE", "value": "rc"}, {"name": "R", "value": "rc"}]}
    profile = {**VLLM_PROFILE, "containerEnv": [{"name": "P", "value": "profile"}]}
    service = {
        "env": [{"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"}],
        "profileOverrides": {"containerEnv": [{"name": "AIM_VLLM_MODEL", "value": "/models/x"}]},
    }
    env = _env_map(inference_env(profile, service, rc))
    assert env["R"] == "rc"
    assert env["P"] == "profile"
    assert env["HF_HUB_OFFLINE"] == "0"
    assert env["VLLM_LOGGING_LEVEL"] == "DEBUG"
    assert env["AIM_VLLM_MODEL"] == "/models/x"
    assert not any(name.startswith("AIM_PROFILE") or name == "AIM_ID" for name in env)


@pytest.mark.parametrize(
    ("model_id", "pvc", "expected"),
    [
        pytest.param("Qwen/Qwen3-32B", "pvc-a", "/workspace/cache/Qwen/Qwen3-32B", id="org-and-repo"),
        pytest.param("../../etc/passwd", "pvc-a", "/workspace/cache/etc/passwd", id="dotdot-removed"),
        pytest.param("a/../b", "pvc-a", "/workspace/cache/a/b", id="inner-dotdot"),
        pytest.param("", "pvc-a", "/workspace/cache/pvc-a", id="empty-falls-back-to-pvc"),
        pytest.param(None, "pvc-a", "/workspace/cache/pvc-a", id="none-falls-back-to-pvc"),
        pytest.param("..", "pvc-a", "/workspace/cache/pvc-a", id="only-dotdot-falls-back"),
        pytest.param("model.v1", "pvc-a", "/workspace/cache/model.v1", id="single-dot-kept"),
    ],
)
def test_cache_mount_path(model_id: str | None, pvc: str, expected: str) -> None:
    assert cache_mount_path(model_id, pvc) == expected


# ------------------------------------------------------------------------------------------ plans


def test_build_container_plan_for_the_aim_runtime() -> None:
    service = {
        "imagePullSecrets": [{"name": "svc"}],
        "resources": {"requests": {"memory": "64Gi"}},
        "priorityClassName": "high",
        "env": [{"name": "S", "value": "1"}],
    }
    plan = build_container_plan(service, AIM_PROFILE, rc_spec={"env": [{"name": "R", "value": "1"}]})
    assert plan.image == AIM_PROFILE["image"]
    assert plan.command is None
    assert plan.args is None
    assert plan.resources == {
        "limits": {"amd.com/gpu": 2},
        "requests": {"amd.com/gpu": 2, "memory": "64Gi"},
    }
    assert plan.image_pull_secrets == ("svc",)
    assert plan.priority_class_name == "high"
    assert plan.service_account_name is None
    assert plan.env[0]["name"] == "R"
    assert _env_map(plan.env)["S"] == "1"


def test_build_container_plan_for_direct_vllm() -> None:
    plan = build_container_plan(
        {},
        VLLM_PROFILE,
        profile_status={"resources": {"requests": {"cpu": "4"}}},
        cache_mount="/workspace/cache/m",
    )
    assert plan.command == ("vllm", "serve")
    assert plan.args == vllm_args(VLLM_PROFILE)
    assert plan.resources == {"limits": {"nvidia.com/gpu": 1}, "requests": {"cpu": "4", "nvidia.com/gpu": 1}}
    assert _env_map(plan.env)["AIM_VLLM_MODEL"] == "/workspace/cache/m"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param(1, 1.0, id="integer-and-float"),
        pytest.param(1, True, id="integer-and-boolean"),
        pytest.param("1", 1, id="string-and-integer"),
        pytest.param(["a"], "a", id="list-and-string"),
    ],
)
def test_remembered_profile_files_tell_apart_values_yaml_writes_differently(first: Any, second: Any) -> None:
    """Rendering is remembered per document; values that YAML writes differently never share a file."""
    spec = {"aimId": "org/model", "engineArgs": {"x": first}}
    other = {"aimId": "org/model", "engineArgs": {"x": second}}
    for candidate, value in ((spec, first), (other, second), (spec, first)):
        content = profile_config_content(candidate)
        assert yaml.safe_load(content)["engine_args"] == {"x": value}
        assert type(yaml.safe_load(content)["engine_args"]["x"]) is type(value)
        expected = yaml.safe_dump(
            profile_config_document(candidate), sort_keys=True, default_flow_style=False, allow_unicode=True
        )
        assert content == expected
