"""An upgrade from v0.1.0 and from an earlier 0.2.0 development state, against the real API server:
no replacement, no rollout.

Each (`PREVIOUS_RELEASES`, by commit: a clone may have no tags; the 0.2.0 one is the package work
before the day-2, capacity and derivation changes) is installed in a virtualenv
of its own and deploys the `cluster-service` fixture program, Dedicated and Shared; the same stack
is then previewed and updated by this checkout, as a user does who upgrades the package and leaves
the program alone. Nothing may be replaced (an InferenceService, a cache PVC or download Job), and
no predictor may roll: KServe copies an InferenceService's labels and annotations into the
predictor's pod template, so the predictor spec, labels and annotations of every InferenceService
must come through unchanged. What the preview shows on upgrade, kind by kind, is
`test_upgrade_cluster.py`'s (against CHANGELOG.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from cluster import StackFactory, TestCluster
from harness import REPO, RealStack, changed_steps
from status_writer import StatusWriter

pytestmark = pytest.mark.cluster

# v0.1.0, and the 0.2.0 work before day 2; what the upgrade from v0.2.0 shows is test_upgrade_cluster.py's.
PREVIOUS_RELEASES = {
    "v0-1-0": "82905e58643b0f1be5c33c685e433a803bb85342",
    "pre-day-2": "b9bca3718eac7c38423d70fdd85a70506f4e4b28",
}
ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
JOB = ("batch/v1", "Job")
PVC = ("v1", "PersistentVolumeClaim")


@pytest.fixture(scope="module", params=sorted(PREVIOUS_RELEASES))
def previous_release(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    """The release's label and the bin directory of a virtualenv holding it (from its commit)."""
    commit = PREVIOUS_RELEASES[request.param]
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        pytest.fail(
            f"commit {commit[:12]} is not in this clone (clone with history): "
            f"{archive.stderr.decode(errors='replace').strip()}",
            pytrace=False,
        )
    root = tmp_path_factory.mktemp(request.param)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(root / "src", filter="data")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=300)
    python = root / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "uv"], check=True, timeout=600)
    subprocess.run(
        [
            str(root / "venv" / "bin" / "uv"),
            "pip",
            "install",
            "-q",
            "--python",
            str(python),
            str(root / "src"),
        ],
        check=True,
        timeout=900,
    )
    yield request.param, python.parent


def rollout_inputs(isvc: dict[str, Any]) -> dict[str, Any]:
    """What KServe builds the predictor's pod template from."""
    meta = isvc["metadata"]
    return {
        "labels": meta.get("labels") or {},
        "annotations": meta.get("annotations") or {},
        "predictor": isvc["spec"]["predictor"],
    }


def reads(stack: RealStack) -> list[str]:
    """The resources the stack reads rather than manages (a route's read-back after the apply)."""
    return sorted(r["urn"].rsplit("::", 1)[-1] for r in stack.state_resources() if r.get("external"))


def live(cluster: TestCluster, namespace: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for kind in (ISVC, JOB, PVC):
        for obj in cluster.kube.list(*kind, namespace):
            found[f"{kind[1]}/{obj['metadata']['name']}"] = obj
    return found


@pytest.mark.parametrize("mode", ["Dedicated", "Shared"])
def test_an_upgrade_from_the_previous_release_replaces_nothing_and_rolls_no_predictor(
    service_stack: StackFactory, cluster: TestCluster, previous_release: tuple[str, Path], mode: str
) -> None:
    label, previous_bin = previous_release
    namespace = f"upgrade-{label}-{mode.lower()}"
    stack = service_stack(namespace, cacheMode=mode)
    current_path = stack.env["PATH"]
    with StatusWriter(cluster.kube, [namespace]):
        stack.env["PATH"] = os.pathsep.join([str(previous_bin), current_path])
        stack.up()
        before = live(cluster, namespace)
        # The previous release deployed it: it had no read of the route after the apply.
        assert not reads(stack)
        stack.env["PATH"] = current_path
        steps = changed_steps(stack.preview("--diff"))
        assert not [key for key, op in steps.items() if op in ("replace", "delete", "create")], steps
        stack.up()
    after = live(cluster, namespace)
    # This version reads the route back once the InferenceService is ready (`aim:readBackStatus`),
    # from the program, with no read resource in the state (`status_read.py`).
    assert reads(stack) == []
    assert sorted(after) == sorted(before)
    assert {k: o["metadata"]["uid"] for k, o in after.items()} == {
        k: o["metadata"]["uid"] for k, o in before.items()
    }
    rolled = [
        key
        for key, obj in after.items()
        if key.startswith("InferenceService/") and rollout_inputs(obj) != rollout_inputs(before[key])
    ]
    assert rolled == [], {k: (rollout_inputs(before[k]), rollout_inputs(after[k])) for k in rolled}
    stack.pulumi("preview", "--expect-no-changes")
