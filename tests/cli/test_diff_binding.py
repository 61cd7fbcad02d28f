"""`plan --diff` starts from the sticky binding the earlier plan recorded, as `pulumi preview` starts
from the state `pulumi up` left: a better profile appearing later does not roll the service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main

PROGRAM = Path(__file__).resolve().parents[1] / "fixtures" / "programs" / "rebind"


@pytest.fixture
def baseline(tmp_path: Path) -> Path:
    path = tmp_path / "old.json"
    assert main(["plan", str(PROGRAM), "--quiet", "--json", str(path)]) == 0
    binding = next(r for r in json.loads(path.read_text())["resources"] if r["name"] == "qwen-binding")
    assert binding["state"]["bound"] == "AIMProfile/inference/qwen3-32b-general"
    return path


def diff(capsys: pytest.CaptureFixture[str], baseline: Path, *config: str) -> str:
    capsys.readouterr()
    args = [arg for item in config for arg in ("--config", item)]
    assert main(["plan", str(PROGRAM), "--no-color", "--diff", str(baseline), *args]) == 0
    return capsys.readouterr().out


def test_a_better_profile_leaves_the_bound_service_alone(
    capsys: pytest.CaptureFixture[str], baseline: Path
) -> None:
    out = diff(capsys, baseline, "better=true")
    assert "kept from the previous binding" in out
    assert "InferenceService" not in out
    assert "1 to create, 1 to update, 0 to replace, 0 to delete" in out


def test_force_rebind_moves_the_service_to_the_better_profile(
    capsys: pytest.CaptureFixture[str], baseline: Path
) -> None:
    out = diff(capsys, baseline, "better=true", "forceRebind=true")
    assert "rebound from qwen3-32b-general (force-rebind)" in out
    assert " ~ InferenceService inference/qwen-" in out
