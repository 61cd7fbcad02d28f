"""The README's and docs' commands that need the real Pulumi CLI, run as a reader runs them.

Each block is taken from its page (`docblocks.lane_block`) and run verbatim by bash in a copy of an
example project, with a shell's environment: the toolchain and this interpreter on PATH (the Pulumi
CLI, its plugins, and the `python3` with aim-pulumi the project's program runs with), a HOME of its
own and nothing of Pulumi's set beyond what a terminal would answer (`PULUMI_SKIP_CONFIRMATIONS`: the
`up` prompt, which has no terminal here).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from harness import REPO, RealStack, manifest_key, offline_plan, toolchain_dir

sys.path.insert(0, str(REPO / "tests" / "docs"))

from docblocks import lane_block

pytestmark = pytest.mark.real_engine

QUICKSTART = REPO / "examples" / "quickstart"
# What a user's shell has that a test process may not, and nothing the blocks set themselves.
CLEARED = ("PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_ACCESS_TOKEN", "PULUMI_HOME")
CLEARED += ("KUBECONFIG",)


def shell_env(home: Path) -> dict[str, str]:
    interpreter_bin = str(Path(sys.executable).parent)
    inherited = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != interpreter_bin]
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(
        HOME=str(home),
        PATH=os.pathsep.join([str(toolchain_dir()), interpreter_bin, *inherited]),
        PULUMI_SKIP_UPDATE_CHECK="1",
        # The plugins are the toolchain's, on PATH (docs/installation-configuration.md).
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION="true",
        PULUMI_SKIP_CONFIRMATIONS="true",
    )
    return env


def rendered(directory: Path) -> dict[tuple[str, str, str, str], dict[str, Any]]:
    found: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for path in sorted(directory.rglob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                found[manifest_key(doc)] = doc
    return found


def test_the_readme_s_first_deployment_renders_what_the_offline_plan_plans(tmp_path: Path) -> None:
    block = lane_block("real_engine", "try-it")
    project = tmp_path / "project"
    shutil.copytree(QUICKSTART, project)
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block.source],
        cwd=project,
        env=shell_env(home),
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    output = f"{done.stdout[-6000:]}\n{done.stderr[-4000:]}"
    assert done.returncode == 0, f"{block.id} exited {done.returncode}\n{output}"
    assert (home / ".pulumi-local").is_dir(), "the state is not where the block says"
    # The stack the block made, as `aim-pulumi plan` reads it (its config is the Kubernetes provider's).
    _, planned = offline_plan(project, "dev", tmp_path)
    assert rendered(project / "rendered") == planned


def test_the_stack_config_set_by_the_cli_is_what_the_components_read(tmp_path: Path) -> None:
    block = lane_block("real_engine", "config-set")
    stack = RealStack(QUICKSTART, tmp_path, toolchain_dir())
    for command in block.commands():
        stack.run(*block.argv(command))
    config = yaml.safe_load((stack.dir / "Pulumi.dev.yaml").read_text())["config"]
    assert config["aim:gatewayProvider"] == "kgateway"
    _, planned = offline_plan(stack.dir, "dev", tmp_path)
    (isvc,) = [m for m in planned.values() if m["kind"] == "InferenceService"]
    assert isvc["metadata"]["annotations"]["pulumi.com/timeoutSeconds"] == "900"
