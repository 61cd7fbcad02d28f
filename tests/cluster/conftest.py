"""The session's test cluster: started once for `pytest -m cluster`, always stopped at the end.

Its absence fails the tests instead of skipping them: `.ci/run` builds the cluster (and the real-engine
toolchain) in the steps before, and a cluster test that silently skipped would hide a gap.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "real_engine"))
# The README's and docs' blocks these tests run (docblocks.lane_block).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))

from cluster import StackFactory, TestCluster, built
from harness import REPO, RealStack, toolchain_dir

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "cluster-service"


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestCluster]:
    if built() is None:
        pytest.fail(
            "the test cluster is not built: run `bash scripts/test-cluster.sh build` first", pytrace=False
        )
    started = TestCluster.start(tmp_path_factory.mktemp("cluster"))
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def service_stack(tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster) -> Iterator[StackFactory]:
    """Stacks of the `cluster-service` program, each in a namespace of its own (created), destroyed
    with their namespace at the end of the test."""
    made: list[tuple[RealStack, str]] = []

    def make(namespace: str, *, stack_name: str = "dev", **config: str) -> RealStack:
        cluster.kube.ensure_namespace(namespace)
        stack = RealStack(
            PROGRAM,
            tmp_path_factory.mktemp(namespace),
            toolchain_dir(),
            stack_name,
            kubeconfig=cluster.kubeconfig,
        )
        stack.config("cluster-service:namespace", namespace)
        for key, value in config.items():
            stack.config(key if ":" in key else f"cluster-service:{key}", value)
        made.append((stack, namespace))
        return stack

    yield make
    for stack, namespace in made:
        stack.pulumi("destroy", "--yes", "--skip-preview", check=False)
        cluster.kube.delete("v1", "Namespace", None, namespace)
