"""The Pulumi YAML quickstart under the real engine, through the component provider.

The engine runs the YAML program with the YAML language host and starts this checkout's component
provider as the `aim` package (PulumiPlugin.yaml, through the Python language host's RunPlugin);
every component is one Construct call. What it renders must be what the Python quickstart plans
offline: the same program in another language, the same deployment. The interpreter that has
aim_pulumi is off PATH, as it is for a TypeScript or YAML team: only the provider's virtualenv has it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import quickstart_lifecycle
from harness import (
    PROVIDER_BINDING,
    REPO,
    RealStack,
    component_provider_program,
    toolchain_dir,
    twin_offline_plan,
)

pytestmark = pytest.mark.real_engine

PROGRAM = REPO / "examples" / "quickstart-yaml"
PYTHON_TWIN = REPO / "examples" / "quickstart"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealStack]:
    workdir = tmp_path_factory.mktemp("quickstart-yaml")
    yield RealStack(
        component_provider_program(PROGRAM, workdir), workdir, toolchain_dir(), python_on_path=False
    )


@pytest.fixture(scope="module")
def python_plan(
    stack: RealStack, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Any], dict[tuple[str, str, str, str], dict[str, Any]]]:
    """The offline plan of the Python quickstart, with the YAML stack's own stack config."""
    return twin_offline_plan(stack, PYTHON_TWIN, tmp_path_factory.mktemp("quickstart-offline"))


# The lifecycle every language shares (quickstart_lifecycle.py), on this language's stack, in order;
# the YAML quickstart's outputs are its own, so its binding test is below.
test_preview_plans_the_python_quickstarts_resources = (
    quickstart_lifecycle.test_preview_plans_the_python_quickstarts_resources
)
test_up_renders_what_the_python_quickstart_plans_offline = (
    quickstart_lifecycle.test_up_renders_what_the_python_quickstart_plans_offline
)


def test_the_provider_serves_the_sticky_binding(stack: RealStack) -> None:
    stack.ensure_up()
    outputs = json.loads(stack.pulumi("stack", "output", "--json", "--show-secrets").stdout)
    [binding] = [r for r in stack.state_resources() if r["type"] == PROVIDER_BINDING]

    profile = outputs["status"]["resolvedProfile"]
    assert binding["outputs"]["bound"] == f"AIMProfile/{profile['namespace']}/{profile['name']}"
    assert binding["outputs"]["service"] == "ml-team/qwen-chat"
    assert binding["id"] == "ml-team/qwen-chat"


test_second_preview_expects_no_changes = quickstart_lifecycle.test_second_preview_expects_no_changes
test_destroy_keeps_only_what_the_offline_plan_retains = (
    quickstart_lifecycle.test_destroy_keeps_only_what_the_offline_plan_retains
)
