"""Changes and drift on a deployed stack, against the real API server.

One stack of the `rebind` fixture program (a service bound through a selector, routed) is taken
through the steps in order: a newer image on its profile is an in-place update that `plan --diff`
predicts; then someone edits the live InferenceService with `kubectl patch`, and
`pulumi preview --refresh` shows it while `pulumi up --refresh` puts the declared state back: the
workflow that replaces the operator's reconcile loop.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cluster import TestCluster
from harness import REPO, RealStack, changed_steps, current_plan, toolchain_dir
from status_writer import StatusWriter

from aim_pulumi.offline.plan_diff import diff_plans

pytestmark = pytest.mark.cluster

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "rebind"
NAMESPACE = "inference"
NEWER_IMAGE = "amdenterpriseai/aim-qwen-qwen3-32b:0.8.6"
ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
ISVC_STEP = ("kubernetes:serving.kserve.io/v1beta1:InferenceService", "qwen-isvc")


def isvc_manifest(plan: dict[str, Any]) -> dict[str, Any]:
    for r in plan["resources"]:
        if r["type"] == ISVC_STEP[0]:
            inputs: dict[str, Any] = r["inputs"]
            return inputs
    raise AssertionError("no InferenceService in the plan")


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster) -> Iterator[RealStack]:
    cluster.kube.ensure_namespace(NAMESPACE)
    stack = RealStack(
        PROGRAM, tmp_path_factory.mktemp("rebind"), toolchain_dir(), kubeconfig=cluster.kubeconfig
    )
    with StatusWriter(cluster.kube, [NAMESPACE]):
        stack.up()
        yield stack
        stack.destroy()


def live_isvc(cluster: TestCluster, plan: dict[str, Any]) -> dict[str, Any]:
    return cluster.kube.get(*ISVC, NAMESPACE, isvc_manifest(plan)["metadata"]["name"])


def test_newer_image_is_an_in_place_update_as_predicted(deployed: RealStack, cluster: TestCluster) -> None:
    before_plan = current_plan(deployed)
    before = live_isvc(cluster, before_plan)
    deployed.pulumi("preview", "--expect-no-changes")
    old_image = isvc_manifest(before_plan)["spec"]["predictor"]["containers"][0]["image"]
    deployed.config("rebind:image", NEWER_IMAGE)
    after_plan = current_plan(deployed, before_plan)
    predicted = {
        (c.type, c.name): c.action
        for c in diff_plans(before_plan, after_plan).changes
        if c.type.startswith("kubernetes:")
    }
    real = changed_steps(deployed.preview("--diff"))
    assert real == predicted == {ISVC_STEP: "update"}
    deployed.up()
    after = live_isvc(cluster, after_plan)
    assert after["metadata"]["uid"] == before["metadata"]["uid"]
    assert after["spec"]["predictor"]["containers"][0]["image"] == NEWER_IMAGE != old_image
    deployed.pulumi("preview", "--expect-no-changes")


def test_drift_shows_in_a_refreshing_preview_and_up_refresh_restores_it(
    deployed: RealStack, cluster: TestCluster
) -> None:
    plan = current_plan(deployed)
    declared = isvc_manifest(plan)
    name = declared["metadata"]["name"]
    predictor = declared["spec"]["predictor"]
    env = predictor["containers"][0]["env"]
    index = next(i for i, var in enumerate(env) if "value" in var)
    # What someone with kubectl does: scale it by hand and change an env value.
    cluster.kube.patch(*ISVC, NAMESPACE, name, {"spec": {"predictor": {"minReplicas": 3, "maxReplicas": 5}}})
    cluster.kube.json_patch(
        *ISVC,
        NAMESPACE,
        name,
        [{"op": "replace", "path": f"/spec/predictor/containers/0/env/{index}/value", "value": "edited"}],
    )
    drifted = cluster.kube.get(*ISVC, NAMESPACE, name)["spec"]["predictor"]
    assert (drifted["minReplicas"], drifted["maxReplicas"]) == (3, 5)

    # A plain preview compares with the state, which has not seen the edit; a refreshing one has.
    deployed.pulumi("preview", "--expect-no-changes")
    assert changed_steps(deployed.preview("--refresh")) == {ISVC_STEP: "update"}

    deployed.up("--refresh")
    restored = cluster.kube.get(*ISVC, NAMESPACE, name)["spec"]["predictor"]
    assert restored.get("minReplicas") == predictor.get("minReplicas")
    assert restored.get("maxReplicas") == predictor.get("maxReplicas")
    assert restored["containers"][0]["env"][index] == env[index]
    deployed.pulumi("preview", "--refresh", "--expect-no-changes")
