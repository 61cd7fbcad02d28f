"""Every example plans offline and every manifest it would apply passes the vendored schemas."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from aim_pulumi.cli.__main__ import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "__main__.py").is_file())


def test_the_documented_examples_exist() -> None:
    assert NAMES == [
        "autoscaling",
        "custom-weights",
        "model-id",
        "multi-team",
        "quickstart",
        "yaml-manifests",
    ]


@pytest.mark.parametrize("name", NAMES)
def test_example_is_a_complete_pulumi_project(name: str) -> None:
    project = yaml.safe_load((EXAMPLES / name / "Pulumi.yaml").read_text())
    assert project["runtime"] == "python"
    assert project["name"] and project["description"]
    assert (EXAMPLES / name / "README.md").read_text().startswith("# ")


@pytest.mark.parametrize("name", NAMES)
def test_example_names_its_dependencies(name: str) -> None:
    """`pulumi install` reads requirements.txt; it installs this checkout, which brings the SDKs."""
    lines = [
        line.strip()
        for line in (EXAMPLES / name / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines == ["../.."]
    root = (EXAMPLES / name / lines[0]).resolve()
    assert 'name = "aim-pulumi"' in (root / "pyproject.toml").read_text()


@pytest.mark.parametrize("name", NAMES)
def test_example_plans_and_validates(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code = main(["plan", str(EXAMPLES / name), "--validate"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""
    assert "manifests valid against the vendored schemas" in captured.out
    assert "warning:" not in captured.out
