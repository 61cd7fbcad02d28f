"""The stack's life beyond one clean `up`: an interrupted apply, two stacks sharing a cache, and a
program that declares its own Namespace, against the real API server."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest
from cluster import StackFactory, TestCluster
from docblocks import lane_block
from harness import REPO, RealStack, toolchain_dir
from kube import wait_until
from live import mismatches
from status_writer import StatusWriter

pytestmark = pytest.mark.cluster

ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
JOB = ("batch/v1", "Job")
PVC = ("v1", "PersistentVolumeClaim")


def planned_manifests(stack: RealStack) -> list[dict[str, Any]]:
    return list(stack.offline_manifests().values())


# The recovery after a killed CLI, as docs/cluster.md gives it: the stack's lock, the operations the
# state records as begun (a create the provider may or may not have finished), then the update.
RECOVERY_BLOCK = lane_block("cluster", "recovery")
RECOVERY = [RECOVERY_BLOCK.argv(command) for command in RECOVERY_BLOCK.commands()]


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_an_interrupted_up_converges_with_the_documented_recovery(
    service_stack: StackFactory, cluster: TestCluster, sent: signal.Signals
) -> None:
    namespace = f"interrupt-{sent.name.lower()}"
    stack = service_stack(namespace)
    # Nothing marks the InferenceService Ready: `up` is waiting for it when the signal comes.
    with StatusWriter(cluster.kube, [namespace], inference_services=False):
        process = stack.spawn("up", "--yes", "--skip-preview")
        try:
            wait_until(lambda: cluster.kube.list(*ISVC, namespace), 180, "the InferenceService to be created")
            # As a terminal's Ctrl-C (or a killed CI job) reaches the CLI and the plugins it started.
            os.killpg(process.pid, sent)
            process.wait(timeout=180)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    assert process.returncode != 0
    with StatusWriter(cluster.kube, [namespace]):
        for step in RECOVERY:
            assert step[0] == "pulumi", f"{RECOVERY_BLOCK.id}: {step}"
            stack.pulumi(*step[1:])
    stack.pulumi("preview", "--expect-no-changes")
    assert mismatches(cluster.kube, planned_manifests(stack)) == {}


def test_two_stacks_sharing_a_cache_neither_take_it_over_nor_delete_it(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    """Two teams deploy the same model with a Shared cache in one namespace: one cache identity."""
    namespace = "two-teams"
    first = service_stack(namespace, stack_name="team-a", cacheMode="Shared", serviceName="team-a")
    second = service_stack(namespace, stack_name="team-b", cacheMode="Shared", serviceName="team-b")
    with StatusWriter(cluster.kube, [namespace]):
        first.up()
        (pvc,) = cluster.kube.list(*PVC, namespace)
        (job,) = cluster.kube.list(*JOB, namespace)
        second.up()
    # The same objects, not replaced; each stack's field manager, named after the stack, co-owns them.
    assert [p["metadata"]["uid"] for p in cluster.kube.list(*PVC, namespace)] == [pvc["metadata"]["uid"]]
    assert [j["metadata"]["uid"] for j in cluster.kube.list(*JOB, namespace)] == [job["metadata"]["uid"]]
    managers = {m["manager"] for m in cluster.kube.list(*PVC, namespace)[0]["metadata"]["managedFields"]}
    expected = {"aim-pulumi-cluster-service-team-a", "aim-pulumi-cluster-service-team-b"}
    assert {m for m in managers if m.startswith("aim-pulumi-")} == expected, managers
    second.destroy()
    # The second team's services are gone, the shared cache and the first team's service are not.
    assert [p["metadata"]["uid"] for p in cluster.kube.list(*PVC, namespace)] == [pvc["metadata"]["uid"]]
    assert [j["metadata"]["uid"] for j in cluster.kube.list(*JOB, namespace)] == [job["metadata"]["uid"]]
    services = sorted(
        i["metadata"]["labels"]["aim.eai.amd.com/service"] for i in cluster.kube.list(*ISVC, namespace)
    )
    assert services == ["team-a"]
    first.pulumi("refresh", "--yes", "--expect-no-changes")
    first.pulumi("preview", "--expect-no-changes")


@pytest.fixture
def namespaced_stack(tmp_path_factory: pytest.TempPathFactory, cluster: TestCluster) -> Iterator[RealStack]:
    program = REPO / "tests" / "fixtures" / "programs" / "with-namespace"
    stack = RealStack(
        program, tmp_path_factory.mktemp("with-namespace"), toolchain_dir(), kubeconfig=cluster.kubeconfig
    )
    yield stack
    stack.pulumi("destroy", "--yes", "--skip-preview", check=False)


def test_destroy_removes_a_namespace_the_program_declared(
    namespaced_stack: RealStack, cluster: TestCluster
) -> None:
    with StatusWriter(cluster.kube, ["ml-team"]):
        namespaced_stack.up()
    assert mismatches(cluster.kube, planned_manifests(namespaced_stack)) == {}
    namespaced_stack.destroy()
    # The namespace controller empties it and the API server lets it go.
    wait_until(
        lambda: cluster.kube.find("v1", "Namespace", None, "ml-team") is None, 120, "ml-team to be gone"
    )
    assert not [r for r in namespaced_stack.state_resources() if not r["type"].startswith("pulumi:")]
