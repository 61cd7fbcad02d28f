"""The TypeScript and Pulumi YAML quickstarts: complete projects that declare what the Python one does.

No Pulumi CLI runs here, so the YAML program is read as the engine would hand it to the component
provider: each resource's properties go through the provider's input mapping (which keeps only
what the schema knows and turns enum values into their members) and construct the component, in
program order. The recorded plan must be the Python quickstart's, child for child.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pulumi
import yaml

from aim_pulumi.offline.engine import run_program
from aim_pulumi.provider import AIMComponentProvider
from aim_pulumi.resources import COMPONENTS
from aim_pulumi.resources.registry import reset_registry

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
COMPONENT_CLASSES = {f"aim:index:{c.__name__}": c for c in COMPONENTS}


def _project(name: str) -> dict[str, Any]:
    project: dict[str, Any] = yaml.safe_load((EXAMPLES / name / "Pulumi.yaml").read_text())
    return project


def test_the_typescript_quickstart_is_a_node_project_using_the_provider() -> None:
    project = _project("quickstart-ts")
    package = json.loads((EXAMPLES / "quickstart-ts" / "package.json").read_text())
    program = (EXAMPLES / "quickstart-ts" / "index.ts").read_text()

    assert project["runtime"] == "nodejs" and project["packages"] == {"aim": "../.."}
    assert {"@pulumi/pulumi", "@pulumi/aim"} <= set(package["dependencies"])
    assert package["main"] == "index.ts"
    for declared in ('new aim.AIMModel("qwen3-8b"', 'new aim.AIMService(\n    "qwen-chat"'):
        assert declared in program


def _yaml_program(provider: AIMComponentProvider) -> Any:
    project = _project("quickstart-yaml")
    declared: dict[str, pulumi.Resource] = {}

    def program() -> None:
        for name, resource in project["resources"].items():
            component = COMPONENT_CLASSES[resource["type"]]
            definition = provider._component_defs[component.__name__]
            args = provider.map_inputs(resource["properties"], definition)
            assert args == resource["properties"], "every property is in the schema"
            depends = [declared[ref.strip("${}")] for ref in resource.get("options", {}).get("dependsOn", [])]
            declared[name] = component(name, args, pulumi.ResourceOptions(depends_on=depends))

    return program


def test_the_yaml_quickstart_plans_what_the_python_quickstart_plans() -> None:
    project = _project("quickstart-yaml")
    assert project["runtime"] == "yaml" and project["packages"] == {"aim": "../.."}

    try:
        from_yaml = run_program(_yaml_program(AIMComponentProvider()), project="aim-quickstart", stack="dev")
        reset_registry()
        from_python = run_program(EXAMPLES / "quickstart", project="aim-quickstart", stack="dev")
    finally:
        reset_registry()

    def children(recording: Any) -> list[tuple[str, str, Any]]:
        return [(r.type, r.name, r.inputs) for r in recording.resources]

    assert children(from_yaml) == children(from_python)
    assert len(from_python.resources) == 8
