"""Each example plans what its README says it demonstrates (issue: the newcomer's first ten minutes).

A README that drifts from its example misleads exactly the reader it was written for, so every
claim a README makes about the plan (names, paths, env, labels, scaling, caches) is checked here
against the offline plan of the example.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aim_pulumi.cli.execution import execute
from aim_pulumi.cli.project import load_program
from aim_pulumi.offline.plan_document import kubernetes_manifests, plan_document

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@functools.cache
def planned(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the `--json` document, the `--yaml` manifests) of one example, planned once per session."""
    outcome = execute(load_program(str(EXAMPLES / name)))
    assert outcome.error is None and outcome.recording is not None, outcome.error
    return plan_document(outcome.recording), kubernetes_manifests(outcome.recording)


def manifests(name: str, kind: str, namespace: str | None = None) -> list[dict[str, Any]]:
    found = [m for m in planned(name)[1] if m["kind"] == kind]
    return [m for m in found if namespace is None or m["metadata"]["namespace"] == namespace]


def one(name: str, kind: str, namespace: str | None = None) -> dict[str, Any]:
    (found,) = manifests(name, kind, namespace)
    return found


def component_outputs(name: str, component: str) -> dict[str, Any]:
    """The outputs an AIMService component registered, by its Pulumi name."""
    (entry,) = [
        r
        for r in planned(name)[0]["resources"]
        if r["name"] == component and r["type"] == "aim:index:AIMService"
    ]
    value: dict[str, Any] = entry["outputs"]
    return value


def status(name: str, service: str) -> dict[str, Any]:
    value: dict[str, Any] = component_outputs(name, service)["status"]
    return value


def container(isvc: dict[str, Any]) -> dict[str, Any]:
    (kserve,) = isvc["spec"]["predictor"]["containers"]
    assert kserve["name"] == "kserve-container"
    return dict(kserve)


def env(entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in entries}


def owners(name: str, kind: str) -> list[str]:
    """The Pulumi type of the parent of every `kind` child of an example (who deletes it with itself)."""
    resources = planned(name)[0]["resources"]
    types = {r["name"]: r["type"] for r in resources}
    return [types[r["parent"]] for r in resources if r["type"].endswith(f":{kind}")]


def quickstart() -> None:
    profile = status("quickstart", "qwen-chat")["resolvedProfile"]
    assert profile["name"].startswith("qwen3-8b-nvidia-vllm-")  # generated from the embedded fallback
    route = one("quickstart", "HTTPRoute")
    assert route["spec"]["parentRefs"] == [{"name": "inference-gateway", "namespace": "gateway-system"}]
    uid = status("quickstart", "qwen-chat")["routing"]["path"].split("/")[-1]
    assert route["spec"]["rules"][-1]["matches"][0]["path"]["value"] == f"/ml-team/{uid}"
    job = one("quickstart", "Job")
    for kind in ("PersistentVolumeClaim", "Job"):  # Shared: owned by the stack, not by the service
        assert owners("quickstart", kind) == ["aim:index:AIMSharedCache"]
    assert job["spec"]["template"]["spec"]["containers"][0]["args"] == ["hf://Qwen/Qwen3-8B"]
    assert container(one("quickstart", "InferenceService"))["image"].startswith("vllm/vllm-openai:")


def multi_team() -> None:
    routes = {r["metadata"]["namespace"]: r for r in manifests("multi-team", "HTTPRoute")}
    paths = {ns: r["spec"]["rules"][-1]["matches"][0]["path"]["value"] for ns, r in routes.items()}
    assert paths == {"team-a": "/team-a/support-bot", "team-b": "/team-b/assistant"}
    for route in routes.values():
        assert route["spec"]["parentRefs"] == [{"name": "platform-gateway", "namespace": "gateway-system"}]
        assert route["spec"]["rules"][-1]["timeouts"] == {"request": "300s"}
    levels = {
        ns: env(container(one("multi-team", "InferenceService", ns))["env"])["VLLM_LOGGING_LEVEL"]
        for ns in ("team-a", "team-b")
    }
    assert levels == {"team-a": "DEBUG", "team-b": "INFO"}
    for namespace, project in (("team-a", "support-bot"), ("team-b", "code-review")):
        for kind in ("InferenceService", "HTTPRoute"):
            labels = one("multi-team", kind, namespace)["metadata"]["labels"]
            assert labels["org.example/team"] == namespace
            assert labels["org.example/project"] == project
            assert "internal.example/cost-center" not in labels
    for service in ("team-a-assistant", "team-b-assistant"):
        assert status("multi-team", service)["resolvedProfile"]["kind"] == "AIMClusterProfile"


def autoscaling() -> None:
    isvcs = {m["metadata"]["name"].rsplit("-", 1)[0]: m for m in manifests("autoscaling", "InferenceService")}
    for isvc in isvcs.values():
        assert isvc["metadata"]["annotations"]["serving.kserve.io/autoscalerClass"] == "external"
    assert "pulumi.com/waitFor" in isvcs["qwen-busy"]["metadata"]["annotations"]
    assert "pulumi.com/waitFor" not in isvcs["qwen-on-demand"]["metadata"]["annotations"]
    scaled = {
        m["metadata"]["name"].split("-")[1]: m["spec"] for m in manifests("autoscaling", "ScaledObject")
    }
    busy, idle = scaled["busy"], scaled["on"]
    assert (busy["minReplicaCount"], busy["maxReplicaCount"]) == (1, 4)
    (trigger,) = busy["triggers"]
    assert "vllm:num_requests_running" in trigger["metadata"]["metricQuery"]
    assert trigger["metadata"]["targetValue"] == "8"
    assert (idle["minReplicaCount"], idle["maxReplicaCount"]) == (0, 2)
    (activation,) = idle["triggers"]
    assert activation["metadata"]["metricQuery"].startswith("sum(envoy_http_lua_aim_activation_requests_")
    assert idle["cooldownPeriod"] == 300 + 64 * 4  # aim:cooldownSecondsPerGiMemory from Pulumi.dev.yaml


def custom_weights() -> None:
    service = status("custom-weights", "support-bot")
    assert service["resolvedProfile"]["name"] == "qwen3-32b-mi300x-fp16"
    assert service["profileOverlay"]["name"].startswith("qwen3-32b-mi300x-fp16-support-bot-overlay-")
    kserve = container(one("custom-weights", "InferenceService"))
    assert kserve["resources"]["limits"]["amd.com/gpu"] == 2
    variables = env(kserve["env"])
    assert variables["AIM_MODEL_ID"] == "example-org/qwen3-32b-support-ft"
    token = {"secretKeyRef": {"key": "token", "name": "hf-token"}}
    assert variables["HF_TOKEN"] == token
    (profile_file,) = one("custom-weights", "ConfigMap")["data"].values()
    assert "enable-prefix-caching: true" in profile_file and "max-model-len: 32768" in profile_file
    job = one("custom-weights", "Job")
    assert job["spec"]["template"]["spec"]["containers"][0]["args"] == [
        "hf://example-org/qwen3-32b-support-ft"
    ]
    assert env(job["spec"]["template"]["spec"]["containers"][0]["env"])["HF_TOKEN"] == token
    for kind in ("PersistentVolumeClaim", "Job"):  # Dedicated: owned by the service
        assert owners("custom-weights", kind) == ["aim:index:AIMService"]


def model_id() -> None:
    isvcs = {
        m["metadata"]["name"].rsplit("-", 1)[0]: container(m)
        for m in manifests("model-id", "InferenceService")
    }
    nvidia, amd = isvcs["mistral-7b-nvidia"], isvcs["mistral-7b-amd"]
    # The namespace fallback `nvidia-vllm` replaced the embedded one of the same name.
    assert nvidia["image"] == "vllm/vllm-openai:v0.18.0"
    assert nvidia["command"] == ["vllm", "serve"]
    assert amd["image"] == "rocm/vllm:rocm6.4.1_vllm_0.9.1"
    assert [m["metadata"]["name"].split("-profile-")[0] for m in manifests("model-id", "ConfigMap")] == [
        "mistral-7b-amd"
    ]
    outputs = planned("model-id")[0]["outputs"]  # the stack's exports
    assert outputs["mistral-7b-nvidia"]["name"].startswith("mistral-7b-nvidia-nvidia-vllm-")
    assert outputs["mistral-7b-amd"]["name"].startswith("mistral-7b-amd-amd-vllm-")


def yaml_manifests() -> None:
    # The same objects, but for a Shared cache's field manager, which names each one's project.
    yaml_objects, program_objects = planned("yaml-manifests")[1], planned("quickstart")[1]
    assert without_field_manager(yaml_objects) == without_field_manager(program_objects)


def without_field_manager(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = copy.deepcopy(objects)
    for obj in out:
        (obj["metadata"].get("annotations") or {}).pop("pulumi.com/patchFieldManager", None)
    return out


CLAIMS: dict[str, Callable[[], None]] = {
    "quickstart": quickstart,
    "multi-team": multi_team,
    "autoscaling": autoscaling,
    "custom-weights": custom_weights,
    "model-id": model_id,
    "yaml-manifests": yaml_manifests,
}


def test_every_example_has_its_claims_checked() -> None:
    assert sorted(CLAIMS) == sorted(p.name for p in EXAMPLES.iterdir() if (p / "__main__.py").is_file())


@pytest.mark.parametrize("name", sorted(CLAIMS))
def test_example_plans_what_its_readme_says(name: str) -> None:
    CLAIMS[name]()
