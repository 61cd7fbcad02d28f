"""A new user's path, run as the docs write it: the toolchain's CLI on PATH, a test cluster with the
stand-in for KServe and the Job controller, a Python project whose virtualenv `pulumi install`
makes, `pulumi preview` and `pulumi up` against the cluster, then the clean-up.

The shell blocks of docs/installation-configuration.md's "Try it for real here" (`lane=cluster`,
named `try-it-setup`, `try-it-project`, `try-it-clean-up`) run in order in one bash, unchanged but
for where they write: `/tmp/aim-try` and `$HOME` are this test's temporary directories (the caches
of the toolchain, the cluster and pip stay the machine's, as they are a user's). The toolchain and
the cluster must be built (`.ci/run` builds both first).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from harness import REPO

pytestmark = pytest.mark.cluster

PAGE = REPO / "docs" / "installation-configuration.md"


def lane_block(lane: str, name: str) -> str:
    """The code of the page's block whose info string is `sh lane=LANE name=NAME`."""
    found = re.findall(rf"^```sh lane={lane} name={name}\n(.*?)^```", PAGE.read_text(), flags=re.M | re.S)
    assert len(found) == 1, f"{PAGE.name} has {len(found)} blocks named {name}"
    return str(found[0])


def documented_blocks() -> list[str]:
    return [
        lane_block("cluster", "try-it-setup"),
        lane_block("cluster", "try-it-project"),
        lane_block("cluster", "try-it-clean-up"),
    ]


def test_the_documented_path_previews_and_deploys_to_the_test_cluster(tmp_path: Path) -> None:
    blocks = documented_blocks()
    state, home = tmp_path / "aim-try", tmp_path / "home"
    home.mkdir()
    script = "\n".join(blocks).replace("/tmp/aim-try", str(state))
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PULUMI_", "KUBECONFIG"))},
        "HOME": str(home),
        "XDG_CACHE_HOME": cache,
        "GOPATH": os.environ.get("GOPATH") or str(Path.home() / "go"),
    }
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    log = f"{done.stdout[-8000:]}\n{done.stderr[-6000:]}"
    try:
        assert done.returncode == 0, log
        preview = done.stdout[done.stdout.index("Previewing update") : done.stdout.index("Updating (dev)")]
        # A clean run: no plugin-version or other warning from the CLI, the provider or the program.
        assert "warning" not in preview.lower(), preview
        assert (
            "aim:index:AIMService" in preview
            and "kubernetes:serving.kserve.io/v1beta1:InferenceService" in preview
        )
        update = done.stdout[done.stdout.index("Updating (dev)") :]
        assert re.search(r"Resources:\s+\+ \d+ created", update), update
        # `pulumi install` made the project's virtualenv and installed the checkout into it.
        assert (home / "aim-try" / "venv" / "bin" / "python").exists()
        written = (state / "stand-in.log").read_text()
        assert re.search(r"^ready: InferenceService ml-team/qwen-chat-\w+$", written, flags=re.M), written
        assert re.search(r"^complete: Job ml-team/qwen-qwen3-8b-download-\w+$", written, flags=re.M), written
        assert "Resources:" in done.stdout.split("Destroying (dev)")[1]
    finally:
        subprocess.run(["bash", str(REPO / "scripts" / "test-cluster.sh"), "stop", str(state)], check=False)
