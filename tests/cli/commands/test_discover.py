"""`aim-pulumi discover` without a registry: what it does when there is nothing to read.

The reads themselves are tested against a real registry in `tests/discovery` (`pytest -m registry`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main

ROOT = Path(__file__).resolve().parents[3]


def test_a_program_without_images_gets_no_lock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "quickstart"
    shutil.copytree(ROOT / "examples" / "quickstart", program)
    assert main(["discover", str(program)]) == 0
    assert "names no AIM image or model source" in capsys.readouterr().out
    assert not (program / "aim.lock.yaml").exists()
    assert main(["discover", str(program), "--check"]) == 0


def test_a_damaged_lock_is_a_usage_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "quickstart"
    shutil.copytree(ROOT / "examples" / "quickstart", program)
    (program / "aim.lock.yaml").write_text("version: 99\n")
    assert main(["discover", str(program)]) == 2
    err = capsys.readouterr().err
    assert "InvalidLock" in err and str(program / "aim.lock.yaml") in err
    assert main(["plan", str(program)]) == 1  # a plan cannot trust it either
