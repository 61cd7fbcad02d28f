"""The components also work as a Python component provider: the Analyzer accepts every class."""

from __future__ import annotations

import json

import pytest
from pulumi.provider.experimental.analyzer import Analyzer
from pulumi.provider.experimental.component import ComponentProvider

from aim_pulumi.resources import COMPONENTS


@pytest.mark.parametrize("component", COMPONENTS, ids=[c.__name__ for c in COMPONENTS])
def test_the_analyzer_accepts_each_component(component: type) -> None:
    result = Analyzer("aim").analyze([component])

    definition = result["component_definitions"][component.__name__]
    assert "spec" in definition.inputs or "path" in definition.inputs
    assert definition.outputs, "every component exports outputs"
    assert all(prop.optional for prop in definition.inputs.values()), "args TypedDicts are total=False"


def test_the_service_schema_lists_the_component_options() -> None:
    result = Analyzer("aim").analyze([COMPONENTS[0]])

    service = result["component_definitions"]["AIMService"]
    assert set(service.inputs) == {
        "name",
        "namespace",
        "labels",
        "annotations",
        "spec",
        "strict",
        "skipAwait",
        "waitFor",
        "gatewayProvider",
        "forceRebind",
        "waitForCache",
    }
    assert {"status", "resolvedProfile", "inferenceServiceName", "routePath"} <= set(service.outputs)


def test_a_component_provider_builds_one_schema_for_all_components() -> None:
    provider = ComponentProvider(list(COMPONENTS), "aim")

    schema = json.loads(str(provider.schema))
    assert sorted(schema["resources"]) == sorted(f"aim:index:{c.__name__}" for c in COMPONENTS)
    assert all(resource["isComponent"] for resource in schema["resources"].values())
