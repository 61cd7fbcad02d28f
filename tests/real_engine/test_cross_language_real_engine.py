"""The Pulumi YAML quickstart under the real engine, through the component provider.

The engine runs the YAML program with the YAML language host and starts this checkout's component
provider as the `aim` package (PulumiPlugin.yaml, through the Python language host's RunPlugin);
every component is one Construct call. What it renders must be what the Python quickstart plans
offline: the same program in another language, the same deployment. The interpreter that has
aim_pulumi is off PATH, as it is for a TypeScript or YAML team: only the provider's virtualenv has it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
import quickstart_lifecycle
from harness import (
    REPO,
    RealStack,
    component_provider_program,
    offline_plan,
    toolchain_dir,
    urn_name,
    urn_type,
)

from aim_pulumi.schemas import validate_manifest

pytestmark = pytest.mark.real_engine

PROGRAM = REPO / "examples" / "quickstart-yaml"
PYTHON_TWIN = REPO / "examples" / "quickstart"
_INFRA = ("pulumi:pulumi:Stack", "pulumi:providers:")
# The one resource whose type differs by language: a Python program's binding is a dynamic resource.
_PYTHON_BINDING, _PROVIDER_BINDING = "pulumi-python:dynamic/aim:Binding", "aim:index:Binding"


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
    workdir = tmp_path_factory.mktemp("quickstart-offline")
    twin = workdir / "quickstart"
    shutil.copytree(PYTHON_TWIN, twin)
    config = f"Pulumi.{stack.stack}.yaml"
    shutil.copy(stack.dir / config, twin / config)
    return offline_plan(twin, stack.stack, workdir)


def _resources(urns: Mapping[str, str | None]) -> set[tuple[str, str, str | None]]:
    """(type, name, parent type) of every program resource; the binding under its provider type."""

    def kind(urn: str) -> str:
        found = urn_type(urn)
        return _PROVIDER_BINDING if found == _PYTHON_BINDING else found

    return {
        (kind(urn), urn_name(urn), kind(parent) if parent else None)
        for urn, parent in urns.items()
        if not urn_type(urn).startswith(_INFRA)
    }


def _parent(urn: str | None) -> str | None:
    return None if urn is None or urn_type(urn) == "pulumi:pulumi:Stack" else urn


def test_preview_plans_the_python_quickstarts_resources(
    stack: RealStack, python_plan: tuple[dict[str, Any], Any]
) -> None:
    preview = stack.preview()
    shown = {
        step["urn"]: _parent((step.get("newState") or {}).get("parent")) for step in preview.get("steps", [])
    }
    planned = {r["urn"]: r.get("parentUrn") for r in python_plan[0]["resources"]}

    assert _resources(shown) == _resources(planned)
    assert ("aim:index:Binding", "qwen-chat-binding", "aim:index:AIMService") in _resources(shown)


def test_up_renders_what_the_python_quickstart_plans_offline(
    stack: RealStack, python_plan: tuple[Any, dict[tuple[str, str, str, str], dict[str, Any]]]
) -> None:
    stack.up()
    rendered = stack.rendered()

    assert [key for key in rendered if key[1] == "InferenceService"] != []
    assert rendered == python_plan[1]
    for key, manifest in rendered.items():
        assert validate_manifest(manifest) == [], key


def test_the_provider_serves_the_sticky_binding(stack: RealStack) -> None:
    stack.ensure_up()
    outputs = json.loads(stack.pulumi("stack", "output", "--json", "--show-secrets").stdout)
    [binding] = [r for r in stack.state_resources() if r["type"] == _PROVIDER_BINDING]

    profile = outputs["status"]["resolvedProfile"]
    assert binding["outputs"]["bound"] == f"AIMProfile/{profile['namespace']}/{profile['name']}"
    assert binding["outputs"]["service"] == "ml-team/qwen-chat"
    assert binding["id"] == "ml-team/qwen-chat"


# The lifecycle every language shares (quickstart_lifecycle.py), on this language's stack, in order.
test_second_preview_expects_no_changes = quickstart_lifecycle.test_second_preview_expects_no_changes
test_destroy_keeps_only_what_the_offline_plan_retains = (
    quickstart_lifecycle.test_destroy_keeps_only_what_the_offline_plan_retains
)
