"""The AIM policy pack under the real engine: `pulumi preview --policy-pack` runs the repository's pack
through the Python language host (RunPlugin of an analyzer, as upstream runs Python packs), refuses
the quickstart when it breaks a mandatory policy, naming the policy and the service, and reports the
same violations as `aim-pulumi plan --policy-pack` does offline."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from harness import REPO, RealStack, toolchain_dir

pytestmark = pytest.mark.real_engine

PROGRAM = REPO / "examples" / "quickstart"
CONFIG = {
    "all": "disabled",
    "aim-allowed-images": {"enforcementLevel": "mandatory", "registries": ["ghcr.io"]},
    "aim-images-pinned-by-digest": "advisory",
}


def pack_directory(where: Path) -> Path:
    """The repository's pack, whose virtualenv (`venv`, as its PulumiPolicy.yaml names it) is this
    interpreter's, with aim_pulumi and pulumi-policy installed."""
    pack = where / "pack"
    shutil.copytree(REPO / "policy", pack, ignore=shutil.ignore_patterns("venv", "__pycache__"))
    (pack / "venv").symlink_to(sys.prefix, target_is_directory=True)
    return pack


def offline_verdicts(config_file: Path) -> tuple[int, list[str]]:
    """`aim-pulumi plan --policy-pack` of the same program: its exit code and violation lines."""
    done = subprocess.run(
        [
            sys.executable, "-m", "aim_pulumi.cli", "plan", str(PROGRAM), "--no-color",
            "--policy-pack", str(REPO / "policy"), "--policy-pack-config", str(config_file),
        ],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    tail = done.stdout.split("\nPolicies: ", 1)[1].splitlines()
    return done.returncode, [line.strip() for line in tail[1:-1]]


def test_preview_refuses_a_mandatory_violation_and_agrees_with_the_offline_plan(tmp_path: Path) -> None:
    config_file = tmp_path / "policy-config.json"
    config_file.write_text(json.dumps(CONFIG))
    stack = RealStack(PROGRAM, tmp_path, toolchain_dir())
    pack = pack_directory(tmp_path)

    done = stack.pulumi(
        "preview", "--policy-pack", str(pack), "--policy-pack-config", str(config_file), check=False
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output

    code, verdicts = offline_verdicts(config_file)
    assert code == 1
    assert [v.split(":", 1)[0] for v in verdicts] == [
        "[mandatory] aim-allowed-images",
        "[advisory] aim-images-pinned-by-digest",
        "[advisory] aim-images-pinned-by-digest",
    ]
    for verdict in verdicts:
        level, rest = verdict.split(" ", 1)
        policy, message = rest.split(": ", 1)
        assert policy in output and level.strip("[]") in output
        assert message in output, f"{message!r} is not in the preview's output:\n{output}"
    assert "AIMService ml-team/qwen-chat" in output


def test_preview_passes_when_every_violation_is_advisory(tmp_path: Path) -> None:
    config_file = tmp_path / "policy-config.json"
    config_file.write_text(json.dumps({**CONFIG, "aim-allowed-images": "disabled"}))
    stack = RealStack(PROGRAM, tmp_path, toolchain_dir())
    done = stack.pulumi(
        "preview", "--policy-pack", str(pack_directory(tmp_path)), "--policy-pack-config", str(config_file)
    )
    assert "aim-images-pinned-by-digest" in done.stdout
    assert "is not pinned by digest" in done.stdout
    code, verdicts = offline_verdicts(config_file)
    assert (code, len(verdicts)) == (0, 2)
