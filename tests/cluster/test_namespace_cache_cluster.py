"""A program that declares its Namespace, against a real API server: a Shared cache in it survives
`destroy` and the removal of its service, two declarations of one object are refused before the
cluster sees any child, and an auto-named Namespace plans and deploys."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from cluster import TestCluster
from harness import REPO, RealStack, toolchain_dir
from kube import wait_until
from status_writer import StatusWriter

pytestmark = pytest.mark.cluster

PROGRAM = REPO / "tests" / "fixtures" / "programs" / "namespace-cache"
ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
JOB = ("batch/v1", "Job")
PVC = ("v1", "PersistentVolumeClaim")
CONFIG_MAP = ("v1", "ConfigMap")


@pytest.fixture
def stacks(tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster) -> Iterator[list[RealStack]]:
    made: list[RealStack] = []
    yield made
    for stack in made:
        stack.pulumi("destroy", "--yes", "--skip-preview", "--exclude-protected", check=False)
    for namespace in ("keeps-cache", "service-removed", "twins"):
        cluster.kube.delete("v1", "Namespace", None, namespace)


def _stack(
    made: list[RealStack], tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster, namespace: str
) -> RealStack:
    workdir = tmp_path_factory.mktemp(namespace)
    stack = RealStack(PROGRAM, workdir, toolchain_dir(), kubeconfig=cluster.kubeconfig)
    stack.config("namespace-cache:namespace", namespace)
    made.append(stack)
    return stack


def _uids(cluster: TestCluster, kind: tuple[str, str], namespace: str) -> list[str]:
    return [o["metadata"]["uid"] for o in cluster.kube.list(*kind, namespace)]


def _refused_destroy(stack: RealStack) -> str:
    """`pulumi destroy` as a user runs it: its preview refuses, so nothing at all is deleted."""
    done = stack.pulumi("destroy", "--yes", check=False)
    assert done.returncode != 0, done.stdout
    return done.stdout + done.stderr


def test_destroy_keeps_the_namespace_of_a_shared_cache(
    stacks: list[RealStack], tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster
) -> None:
    namespace = "keeps-cache"
    stack = _stack(stacks, tmp_path_factory, cluster, namespace)
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
    pvcs, jobs = _uids(cluster, PVC, namespace), _uids(cluster, JOB, namespace)
    assert len(pvcs) == len(jobs) == 1
    guard = cluster.kube.get(*CONFIG_MAP, namespace, "aim-retained-caches")
    assert guard["data"]["caches"].startswith("qwen-qwen3-0-6b-cache-")
    # Pulumi refuses at once: nothing is deleted, the InferenceService included.
    output = _refused_destroy(stack)
    assert "keeps-cache-retained-caches" in output and "cannot be deleted" in output, output
    assert "because it is protected" in " ".join(output.split()), output
    assert cluster.kube.list(*ISVC, namespace)
    # The documented way to keep the weights: everything else goes, the Namespace and its caches stay.
    stack.pulumi("destroy", "--yes", "--skip-preview", "--exclude-protected")
    assert not cluster.kube.list(*ISVC, namespace)
    assert cluster.kube.find("v1", "Namespace", None, namespace) is not None
    assert _uids(cluster, PVC, namespace) == pvcs and _uids(cluster, JOB, namespace) == jobs


def test_removing_the_service_keeps_the_guard_and_deletion_is_a_choice(
    stacks: list[RealStack], tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster
) -> None:
    namespace = "service-removed"
    stack = _stack(stacks, tmp_path_factory, cluster, namespace)
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
        pvcs = _uids(cluster, PVC, namespace)
        stack.config("namespace-cache:service", "false")
        stack.up()
    # The service is gone, its cache is not, and the stack still remembers it.
    assert not cluster.kube.list(*ISVC, namespace)
    assert _uids(cluster, PVC, namespace) == pvcs
    assert "protected" in _refused_destroy(stack)
    assert _uids(cluster, PVC, namespace) == pvcs
    # Asked for explicitly: the protection is lifted, and destroy deletes the Namespace and its weights.
    stack.config("aim:namespaceDeletion", "allow")
    stack.up()
    stack.destroy()
    gone = lambda: cluster.kube.find("v1", "Namespace", None, namespace) is None  # noqa: E731
    wait_until(gone, 120, f"{namespace} to be gone")


def test_two_services_of_one_name_are_refused_before_the_cluster_sees_a_child(
    stacks: list[RealStack], tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster
) -> None:
    namespace = "twins"
    stack = _stack(stacks, tmp_path_factory, cluster, namespace)
    stack.config("namespace-cache:twin", "true")
    preview = stack.pulumi("preview", check=False)
    offline = subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", "plan", ".", "--validate"],
        cwd=stack.dir,
        capture_output=True,
        text=True,
        check=False,
    )
    runs = ((preview.stdout + preview.stderr, preview.returncode), (offline.stderr, offline.returncode))
    for output, code in runs:
        assert code != 0
        assert "DuplicateObject: InferenceService twins/chat-" in output, output
        assert 'AIMService "chat", __main__.py:' in output
        assert 'AIMService "chat-copy", __main__.py:' in output
        assert "Traceback" not in output
    up = stack.pulumi("up", "--yes", "--skip-preview", check=False)
    assert up.returncode != 0
    assert not cluster.kube.list(*ISVC, namespace)
    assert not cluster.kube.list(*PVC, namespace)


def test_an_auto_named_namespace_plans_offline_and_deploys(
    stacks: list[RealStack], tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster
) -> None:
    stack = _stack(stacks, tmp_path_factory, cluster, "auto")
    stack.config("namespace-cache:autoNamed", "true")
    stack.config("aim:skipAwait", "true")
    offline = subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", "plan", ".", "--yaml", "-"],
        cwd=stack.dir,
        capture_output=True,
        text=True,
        check=False,
    )
    assert offline.returncode == 0, offline.stderr
    assert "name: '[unknown]'" in offline.stdout
    stack.up()
    namespace = json.loads(stack.pulumi("stack", "output", "namespace", "--json").stdout)
    assert namespace.startswith("auto-") and namespace != "auto"
    try:
        (isvc,) = cluster.kube.list(*ISVC, namespace)
        assert isvc["metadata"]["name"].startswith("chat-")
        assert len(cluster.kube.list(*PVC, namespace)) == 1
    finally:
        stack.pulumi("destroy", "--yes", "--skip-preview", "--exclude-protected", check=False)
        cluster.kube.delete("v1", "Namespace", None, namespace)
