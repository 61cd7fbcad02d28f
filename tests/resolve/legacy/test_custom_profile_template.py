"""A legacy template's `aimId`, `modelId` and `customProfile`: upstream's custom-profile template path.

The operator writes such a template's profile file (`customProfile.engineArgs` and `envVars`, the
model id, the template's GPU, metric, precision and type, `unoptimized` unless named), mounts it
read-only at `/workspace/aim-runtime/profiles/custom/<aimId>` and tells the runtime `AIM_ID` and
`AIM_PROFILE_ID=custom/<aimId>/vllm-<gpu>-<precision>-tp<count>-<metric>` (upstream e2e
`custom-profiles/custom-profile-direct-template`, `controller/utils/customprofile.go`). The template
converts into a profile whose own file is exactly that, so the legacy service and its migrated
form plan the same children; the CRD's rule (a custom profile needs aimId, modelId, hardware,
metric and precision) is admission's.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMService
from aim_pulumi.manifests import build_service_manifests
from aim_pulumi.resolve import plan_service
from aim_pulumi.resolve.legacy.migration import migrate_objects
from aim_pulumi.resolve.plan.result import ServicePlan
from tests.versions import Catalog, admission_problems, parse

DIRECT = (
    Path(__file__).resolve().parents[2] / "fixtures" / "legacy" / "custom-profile" / "direct-template.yaml"
)
AIM_ID = "meta-llama/Llama-3-8B"
FILE = "vllm-mi300x-fp16-tp1-latency.yaml"


def documents() -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(DIRECT.read_text()) if d]


def plan(docs: list[dict[str, Any]]) -> ServicePlan:
    objects = [parse(d) for d in docs]
    (service,) = [o for o in objects if isinstance(o, AIMService)]
    return plan_service(service, Catalog([o for o in objects if o is not service]))


def children(result: ServicePlan) -> dict[str, dict[str, Any]]:
    return {m["kind"]: m for m in build_service_manifests(result)}


def test_the_template_plans_upstreams_custom_profile_file_mount_and_env() -> None:
    planned = children(plan(documents()))
    isvc = planned["InferenceService"]
    (container,) = isvc["spec"]["predictor"]["containers"]
    env = {item["name"]: item.get("value") for item in container["env"]}
    assert env["AIM_ID"] == AIM_ID
    assert env["AIM_PROFILE_ID"] == f"custom/{AIM_ID}/vllm-mi300x-fp16-tp1-latency"
    config_map = planned["ConfigMap"]
    (mount,) = [m for m in container["volumeMounts"] if m["mountPath"].startswith("/workspace/aim-runtime")]
    assert mount == {
        "name": mount["name"],
        "mountPath": f"/workspace/aim-runtime/profiles/custom/{AIM_ID}",
        "readOnly": True,
    }
    (volume,) = [v for v in isvc["spec"]["predictor"]["volumes"] if v["name"] == mount["name"]]
    assert volume["configMap"] == {"name": config_map["metadata"]["name"]}
    assert list(config_map["data"]) == [FILE]
    profile = yaml.safe_load(config_map["data"][FILE])
    assert profile["aim_id"] == AIM_ID
    assert profile["model_id"] == "test-org/test-model"
    assert profile["engine_args"] == {"dtype": "float16", "gpu-memory-utilization": 0.95}
    assert profile["env_vars"] == {"PYTORCH_TUNABLEOP_ENABLED": "1"}
    assert {k: profile["metadata"][k] for k in ("engine", "metric", "precision", "type")} == {
        "engine": "vllm",
        "metric": "latency",
        "precision": "fp16",
        "type": "unoptimized",
    }
    assert profile["metadata"]["manual_selection_only"] is False


def test_a_type_the_template_names_is_the_files_and_a_declared_profile_id_does_not_replace_its_path() -> None:
    docs = documents()
    template = next(d for d in docs if d["kind"] == "AIMServiceTemplate")
    template["spec"].update(type="preview", profileId="vllm-mi300x-fp16-tp1-latency-shipped")
    planned = children(plan(docs))
    profile = yaml.safe_load(planned["ConfigMap"]["data"][FILE])
    assert profile["metadata"]["type"] == "preview"
    (container,) = planned["InferenceService"]["spec"]["predictor"]["containers"]
    env = {item["name"]: item.get("value") for item in container["env"]}
    assert env["AIM_PROFILE_ID"] == f"custom/{AIM_ID}/vllm-mi300x-fp16-tp1-latency"


def test_the_legacy_service_and_its_migrated_form_plan_identical_children() -> None:
    legacy = documents()
    migrated = migrate_objects(copy.deepcopy(legacy))
    assert migrated.ok, migrated.problems
    service = next(o for o in migrated.objects if o["kind"] == "AIMService")
    assert "allowUnoptimized" not in service["spec"]["profile"]
    assert build_service_manifests(plan(legacy)) == build_service_manifests(plan(list(migrated.objects)))


@pytest.mark.parametrize(
    ("drop", "missing"),
    [
        pytest.param(("aimId",), "aimId", id="no-aim-id"),
        pytest.param(("hardware",), "hardware", id="no-hardware"),
        pytest.param(("modelId", "metric", "precision"), "modelId, metric, precision", id="several"),
    ],
)
def test_a_custom_profile_needs_what_names_and_fills_its_file(drop: tuple[str, ...], missing: str) -> None:
    template = next(d for d in documents() if d["kind"] == "AIMServiceTemplate")
    for key in drop:
        del template["spec"][key]
    (problem,) = admission_problems(template)
    assert (problem.field, problem.reason) == ("spec.customProfile", "InvalidSpec")
    assert problem.message == (
        "when customProfile is set, aimId, modelId, hardware, metric, and precision are required "
        f"(missing: {missing})"
    )


def test_a_template_without_a_custom_profile_needs_none_of_them_and_its_aim_id_is_the_profiles() -> None:
    docs = documents()
    template = next(d for d in docs if d["kind"] == "AIMServiceTemplate")
    del template["spec"]["customProfile"], template["spec"]["modelId"]
    assert admission_problems(template) == []
    planned = children(plan(docs))
    (container,) = planned["InferenceService"]["spec"]["predictor"]["containers"]
    env = {item["name"]: item.get("value") for item in container["env"]}
    # No custom profile: the framework's AIM_ID for a profile with sources, and its own file's id.
    assert env["AIM_ID"] == ""
    assert env["AIM_PROFILE_ID"].startswith(f"custom/{AIM_ID}/")
