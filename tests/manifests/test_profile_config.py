"""The profile ConfigMap builder: one data key named after the profile file, schema validity."""

from __future__ import annotations

import pytest
import yaml
from factories import NAMESPACE, profile_config_plan

from aim_pulumi.manifests import build_profile_config
from aim_pulumi.resolve.children.container import build_profile_config_plan
from aim_pulumi.resolve.types import ProfileConfigPlan
from aim_pulumi.schemas import validate_manifest

AIM_PROFILE = {
    "aimId": "meta-llama/llama-3.1-8b-instruct",
    "image": "amdenterpriseai/aim-llama:0.8.5",
    "engine": "vllm",
    "acceleratorType": "gpu",
    "acceleratorVendor": "amd",
    "acceleratorModel": "MI325X",
    "acceleratorCount": 8,
    "precision": "bf16",
    "metric": "throughput",
    "engineArgs": {"max-model-len": 32768, "enable-chunked-prefill": True},
    "engineEnv": {"VLLM_USE_TRITON_FLASH_ATTN": "0"},
}

LABELS = {"app.kubernetes.io/component": "inference", "app.kubernetes.io/managed-by": "aim-pulumi"}

PLANS = {
    "hand-made": profile_config_plan(),
    "from-profile": build_profile_config_plan("llama-chat", AIM_PROFILE, LABELS),
}


@pytest.mark.parametrize("plan", list(PLANS.values()), ids=list(PLANS))
def test_configmap_validates(plan: ProfileConfigPlan | None) -> None:
    assert plan is not None
    assert validate_manifest(build_profile_config(plan, NAMESPACE)) == []


def test_shape() -> None:
    plan = profile_config_plan()
    manifest = build_profile_config(plan, NAMESPACE)
    assert manifest["apiVersion"] == "v1"
    assert manifest["kind"] == "ConfigMap"
    assert manifest["metadata"]["name"] == plan.name
    assert manifest["metadata"]["namespace"] == NAMESPACE
    assert manifest["metadata"]["labels"] == dict(sorted(plan.labels.items()))
    assert manifest["data"] == {plan.file_name: plan.content}
    assert manifest["metadata"]["annotations"] == {"pulumi.com/patchForce": "true"}


def test_content_from_a_profile_round_trips() -> None:
    plan = PLANS["from-profile"]
    assert plan is not None
    manifest = build_profile_config(plan, NAMESPACE)
    (file_name,) = manifest["data"]
    assert file_name == "vllm-mi325x-bf16-tp8-throughput.yaml"
    document = yaml.safe_load(manifest["data"][file_name])
    assert document["engine_args"] == {"enable-chunked-prefill": True, "max-model-len": 32768}
    assert document["env_vars"] == {"VLLM_USE_TRITON_FLASH_ATTN": "0"}


@pytest.mark.parametrize(
    ("skip", "expected"),
    [
        pytest.param(
            True, {"pulumi.com/patchForce": "true", "pulumi.com/skipAwait": "true"}, id="skip-await"
        ),
        pytest.param(False, {"pulumi.com/patchForce": "true"}, id="await"),
    ],
)
def test_skip_await(skip: bool, expected: dict[str, str] | None) -> None:
    manifest = build_profile_config(profile_config_plan(), NAMESPACE, skip_await=skip)
    assert manifest["metadata"].get("annotations") == expected
    assert validate_manifest(manifest) == []
