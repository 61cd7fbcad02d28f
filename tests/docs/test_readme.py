"""The README's examples are programs too: they must keep working as the code changes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from aim_pulumi.schemas import validate_manifest
from tests.versions import parse

README = Path(__file__).resolve().parents[2] / "README.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(), flags=re.S)


def test_quick_start_has_exactly_the_two_documented_commands() -> None:
    quick_start = README.read_text().split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [line for line in _blocks("")[0].splitlines() if line.strip()]
    # The main job installs what it needs, not the test tools.
    assert commands[0].startswith("pip install -e . && aim-pulumi plan examples/quickstart")
    assert commands[1].startswith("pip install -e '.[test]' && pytest")
    assert len(commands) == 2
    assert "aim-pulumi plan examples/quickstart" in quick_start


def test_python_example_plans_valid_children(recording: Any) -> None:
    source = next(block for block in _blocks("python") if "AIMService(" in block)
    result = recording(lambda: exec(compile(source, "README.md", "exec"), {}))
    kinds = sorted(r.inputs.get("kind", "") for r in result.resources if r.type.startswith("kubernetes:"))
    assert kinds == ["HTTPRoute", "InferenceService", "Job", "PersistentVolumeClaim"]
    for resource in result.resources:
        if resource.type.startswith("kubernetes:") and "kind" in resource.inputs:
            assert validate_manifest(resource.inputs) == [], resource.name


def test_yaml_example_is_a_valid_aim_service() -> None:
    import yaml

    service = parse(yaml.safe_load(_blocks("yaml")[0]))
    assert service.kind == "AIMService"
