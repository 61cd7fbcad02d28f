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

from cluster import TestCluster, built


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
