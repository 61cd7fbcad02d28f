"""Changes to a deployed stack: the real preview changes exactly what `aim-pulumi plan --diff` predicts.

One stack of the `rebind` fixture program (a service bound through a selector) is taken through the
steps in order: deploy, a newer image on the bound profile, a better profile (the sticky binding holds),
then force-rebind, applied, after which a preview changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from harness import REPO, RealStack, changed_steps, current_plan, toolchain_dir

from aim_pulumi.offline.plan_diff import diff_plans

pytestmark = pytest.mark.real_engine

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "rebind"
NEWER_IMAGE = "amdenterpriseai/aim-qwen-qwen3-32b:0.8.6"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealStack]:
    deployed = RealStack(PROGRAM, tmp_path_factory.mktemp("rebind"), toolchain_dir())
    deployed.up()
    yield deployed


def predicted(old: dict[str, Any], new: dict[str, Any]) -> dict[tuple[str, str], str]:
    """What `plan --diff` says changes. Components have no inputs in the engine's state, so only their
    creation and deletion are steps; updates count for the resources a provider diffs."""
    diff = diff_plans(old, new)
    return {
        (c.type, c.name): c.action
        for c in diff.changes
        if c.action in ("create", "delete") or c.type.startswith(("kubernetes:", "pulumi-python:dynamic"))
    }


@pytest.fixture(scope="module")
def deployed_plan(stack: RealStack) -> dict[str, Any]:
    return current_plan(stack)


def _step(stack: RealStack, deployed_plan: dict[str, Any], **config: str) -> dict[tuple[str, str], str]:
    for key, value in config.items():
        stack.config(f"rebind:{key}", value)
    real = changed_steps(stack.preview())
    assert real == predicted(deployed_plan, current_plan(stack, deployed_plan))
    return real


def test_newer_image_updates_the_inference_service_as_predicted(
    stack: RealStack, deployed_plan: dict[str, Any]
) -> None:
    stack.pulumi("preview", "--expect-no-changes")
    real = _step(stack, deployed_plan, image=NEWER_IMAGE)
    assert real == {("kubernetes:serving.kserve.io/v1beta1:InferenceService", "qwen-isvc"): "update"}
    stack.config("rebind:image", deployed_image(deployed_plan))


def test_better_profile_keeps_the_binding_and_the_children(
    stack: RealStack, deployed_plan: dict[str, Any]
) -> None:
    real = _step(stack, deployed_plan, better="true")
    assert not [key for key in real if key[0].startswith("kubernetes:")]


def test_force_rebind_moves_the_children_to_the_better_profile(
    stack: RealStack, deployed_plan: dict[str, Any]
) -> None:
    real = _step(stack, deployed_plan, better="true", forceRebind="true")
    assert ("kubernetes:serving.kserve.io/v1beta1:InferenceService", "qwen-isvc") in real


def test_after_a_rebind_the_next_preview_changes_nothing(stack: RealStack) -> None:
    """Finding 7: the run after a rebind updated the binding alone (it cleared the rebind it had
    recorded), so `pulumi preview --expect-no-changes` after a rebind failed."""
    stack.config("rebind:better", "true")
    stack.config("rebind:forceRebind", "true")
    stack.up()
    stack.pulumi("preview", "--expect-no-changes")


def deployed_image(plan: dict[str, Any]) -> str:
    for r in plan["resources"]:
        if r["type"] == "kubernetes:serving.kserve.io/v1beta1:InferenceService":
            image: str = r["inputs"]["spec"]["predictor"]["containers"][0]["image"]
            return image
    raise AssertionError("no InferenceService in the plan")
