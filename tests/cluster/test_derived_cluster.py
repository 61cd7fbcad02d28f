"""A fine-tuned model and a remix on a real API server: `pulumi up` of services on derived profiles,
then a new base version as one reviewable update.

The `finetune` fixture program declares a published profile (copyable, with its image's base image),
an AIMModel whose `spec.profiles` derives the fine-tune (`versionPolicy: latest`, new weights) and a
service by that model, and an AIMProfileSet remixing the published profile (pinned: two GPUs, tensor
parallelism 2, another env) with a service selecting it. The fine-tune's InferenceService runs the
published profile's base runtime (`aim-base:0.8`) with the new weights; the remix's runs the optimised
image with the remix's hardware, arguments and env, under the name the operator gives the derived
profile. Publishing the 0.9.1 profile (`finetune:newer`) is one update: what `plan --diff` predicts
is what `pulumi preview --diff` shows (the fine-tune's InferenceService's image and profile, nothing
else of Kubernetes: the pinned remix stays), and `pulumi up` updates the live object in place; the
sticky binding records the rebind (the old derived profile is gone) and forgets it on the next run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from cluster import TestCluster
from harness import REPO, RealStack, changed_steps, current_plan, toolchain_dir
from status_writer import StatusWriter

from aim_pulumi.offline.plan_diff import diff_plans
from aim_pulumi.resolve.children.names import derived_profile_name

pytestmark = pytest.mark.cluster

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "finetune"
NAMESPACE = "fine-tune"
ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
ISVC_TYPE = "kubernetes:serving.kserve.io/v1beta1:InferenceService"
ISVC_STEP = (ISVC_TYPE, "support-bot-isvc")
# The operator's hash input for the published 0.8.5 profile (upstream `candidateIdentity`: its name,
# aimId, modelId, profileId, engine, metric, type, primary, accelerator model and type, precision,
# count, version and engine arguments), which names the remix's derived profile.
PUBLISHED_IDENTITY = (
    "qwen3-8b-0-8-5|qwen/qwen3-8b|Qwen/Qwen3-8B|vllm-mi300x-fp16-tp1-latency||latency|optimized|true"
    "|MI300X|gpu|fp16|1|0.8.5|"
)


def _isvc(plan: dict[str, Any], service: str = "support-bot") -> dict[str, Any]:
    found: dict[str, Any] = next(
        r["inputs"] for r in plan["resources"] if r["type"] == ISVC_TYPE and r["name"] == f"{service}-isvc"
    )
    return found


def _profile_config(plan: dict[str, Any], service: str) -> str:
    name: str = next(
        r["inputs"]["metadata"]["name"]
        for r in plan["resources"]
        if r["type"] == "kubernetes:core/v1:ConfigMap" and r["name"] == f"{service}-profile-config"
    )
    return name


def _container(isvc: dict[str, Any]) -> dict[str, Any]:
    container: dict[str, Any] = isvc["spec"]["predictor"]["containers"][0]
    return container


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster) -> Iterator[RealStack]:
    cluster.kube.ensure_namespace(NAMESPACE)
    stack = RealStack(
        PROGRAM, tmp_path_factory.mktemp("finetune"), toolchain_dir(), kubeconfig=cluster.kubeconfig
    )
    with StatusWriter(cluster.kube, [NAMESPACE]):
        stack.up()
        yield stack
        stack.destroy()


def test_a_fine_tuned_model_deploys_and_a_new_base_version_is_one_update(
    deployed: RealStack, cluster: TestCluster
) -> None:
    before_plan = current_plan(deployed)
    name = _isvc(before_plan)["metadata"]["name"]
    before = cluster.kube.get(*ISVC, NAMESPACE, name)
    container = _container(before)
    assert container["image"] == "docker.io/amdenterpriseai/aim-base:0.8"
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["AIM_MODEL_ID"] == "acme/qwen3-8b-support"

    remix_name = _isvc(before_plan, "remix-bot")["metadata"]["name"]
    remix = cluster.kube.get(*ISVC, NAMESPACE, remix_name)
    assert remix["metadata"]["labels"]["aim.eai.amd.com/profile"] == derived_profile_name(
        "qwen3-8b-tp2", "vllm-mi300x-fp16-tp1-latency", PUBLISHED_IDENTITY
    )
    remix_container = _container(remix)
    assert remix_container["image"] == "docker.io/amdenterpriseai/aim-qwen-qwen3-8b:0.8.5"
    assert {e["name"]: e.get("value") for e in remix_container["env"]}["VLLM_USE_TRITON_FLASH_ATTN"] == "0"
    assert str(remix_container["resources"]["limits"]["amd.com/gpu"]) == "2"
    profile_file = cluster.kube.get("v1", "ConfigMap", NAMESPACE, _profile_config(before_plan, "remix-bot"))
    [content] = profile_file["data"].values()
    assert "tensor-parallel-size: 2" in content and "accelerator_count: 2" in content
    deployed.pulumi("preview", "--expect-no-changes")

    deployed.config("finetune:newer", "true")
    after_plan = current_plan(deployed, before_plan)
    predicted = {
        (c.type, c.name): c.action
        for c in diff_plans(before_plan, after_plan).changes
        if c.type.startswith("kubernetes:")
    }
    rebinding = deployed.preview("--diff")
    real = changed_steps(rebinding)
    assert "ProfileRebound" in json.dumps(rebinding["diagnostics"]), "the run that rebinds says so"
    kubernetes = {step: op for step, op in real.items() if step[0].startswith("kubernetes:")}
    assert kubernetes == predicted == {ISVC_STEP: "update"}
    assert real[("aim:index:AIMProfile", "qwen3-8b-0-9-1")] == "create"
    deployed.up()
    after = cluster.kube.get(*ISVC, NAMESPACE, name)
    assert after["metadata"]["uid"] == before["metadata"]["uid"]
    assert _container(after)["image"] == "docker.io/amdenterpriseai/aim-base:0.9"
    assert (
        after["metadata"]["labels"]["aim.eai.amd.com/profile"]
        != before["metadata"]["labels"]["aim.eai.amd.com/profile"]
    )
    assert cluster.kube.get(*ISVC, NAMESPACE, remix_name)["metadata"]["uid"] == remix["metadata"]["uid"]
    # Settled: the next run changes nothing (the binding keeps the rebind on record until the next),
    # and says no ProfileRebound again.
    settled = deployed.preview("--diff")
    assert changed_steps(settled) == {}
    assert "ProfileRebound" not in json.dumps(settled)
    deployed.pulumi("preview", "--expect-no-changes")
