"""`catalogAs: data` under the real engine: switching a deployed stack's catalog to data of its
AIMStack deletes the catalog components and changes no child, as `aim-pulumi plan --diff` says.

One stack of the `catalog-as-data` fixture (AIM YAML through AIMStack) is deployed with its catalog
as components, then switched to data, then back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from harness import REPO, RealStack, changed_steps, current_plan, toolchain_dir

from aim_pulumi.offline.plan_diff import diff_plans

pytestmark = pytest.mark.real_engine

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "catalog-as-data"
CATALOG_TYPES = ("aim:index:AIMClusterProfile", "aim:index:AIMModel", "aim:index:AIMRuntimeConfig")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealStack]:
    deployed = RealStack(PROGRAM, tmp_path_factory.mktemp("catalog-as-data"), toolchain_dir())
    deployed.up()
    yield deployed


def predicted(old: dict[str, Any], new: dict[str, Any]) -> dict[tuple[str, str], str]:
    """What `plan --diff` says changes: components only by creation and deletion (no inputs in state)."""
    return {
        (c.type, c.name): c.action
        for c in diff_plans(old, new).changes
        if c.action in ("create", "delete") or c.type.startswith(("kubernetes:", "pulumi-python:dynamic"))
    }


def _switch(stack: RealStack, catalog_as: str) -> tuple[dict[tuple[str, str], str], dict[str, Any]]:
    before = current_plan(stack)
    stack.config("catalog-as-data:catalogAs", catalog_as)
    after = current_plan(stack, before)
    real = changed_steps(stack.preview())
    assert real == predicted(before, after)
    return real, after


def test_switching_to_data_deletes_the_catalog_components_and_nothing_else(stack: RealStack) -> None:
    real, plan = _switch(stack, "data")

    assert real == {
        ("aim:index:AIMClusterProfile", "aim-aimclusterprofile-qwen3-8b-mi300x-fp8"): "delete",
        ("aim:index:AIMModel", "aim-aimmodel-ml-team-qwen3-8b"): "delete",
        ("aim:index:AIMRuntimeConfig", "aim-aimruntimeconfig-ml-team-default"): "delete",
    }
    stack.up()
    stack.pulumi("preview", "--expect-no-changes")
    outputs = stack.stack_outputs()
    assert set(outputs["catalog"]) == {
        "AIMClusterProfile/qwen3-8b-mi300x-fp8",
        "AIMModel/ml-team/qwen3-8b",
        "AIMRuntimeConfig/ml-team/default",
    }
    assert outputs["catalog"] == plan["outputs"]["catalog"], "the engine's output is the offline plan's"
    assert outputs["catalog"]["AIMModel/ml-team/qwen3-8b"]["generatedProfiles"]
    assert not [r for r in stack.state_resources() if r["type"] in CATALOG_TYPES]


def test_switching_back_creates_them_again(stack: RealStack) -> None:
    real, _ = _switch(stack, "components")

    assert set(real.values()) == {"create"}
    assert {key[0] for key in real} == set(CATALOG_TYPES)
