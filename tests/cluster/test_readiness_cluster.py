"""What Pulumi waits for, and what the service's status then says, against the real API server.

Each test deploys the `cluster-service` fixture program (one cached, routed service) in a namespace
of its own, with the controllers the test needs played by the status writer, and destroys it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from cluster import StackFactory, TestCluster
from harness import RealStack
from status_writer import StatusWriter

pytestmark = pytest.mark.cluster

ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
JOB = ("batch/v1", "Job")
PVC = ("v1", "PersistentVolumeClaim")


def service_status(stack: RealStack) -> dict[str, Any] | None:
    """The AIMService's status as the state holds it (None if no `up` recorded one)."""
    for resource in stack.state_resources():
        if resource["type"] == "aim:index:AIMService":
            status: dict[str, Any] | None = (resource.get("outputs") or {}).get("status")
            return status
    return None


def conditions(status: dict[str, Any] | None) -> dict[str, tuple[str, str]]:
    return {c["type"]: (c["status"], c["reason"]) for c in (status or {}).get("conditions") or []}


def reads(stack: RealStack) -> list[str]:
    """The resources the stack reads rather than manages: none, the program reads the route back
    itself (Pulumi reads only for a service with an explicit provider)."""
    return sorted(r["urn"].rsplit("::", 1)[-1] for r in stack.state_resources() if r.get("external"))


@pytest.mark.parametrize("read_back", [True, False], ids=["default", "read-back-off"])
def test_up_waits_for_the_inference_service_and_the_download(
    service_stack: StackFactory, cluster: TestCluster, read_back: bool
) -> None:
    namespace = "ready-wait" + ("" if read_back else "-read-back-off")
    stack = service_stack(namespace, **({} if read_back else {"aim:readBackStatus": "false"}))
    with StatusWriter(cluster.kube, [namespace], delay=6) as writer:
        started = time.monotonic()
        stack.up()
        took = time.monotonic() - started
    assert {kind for kind, _, _ in writer.written} == {"InferenceService", "Job", "HTTPRoute"}
    # The Job's completion came 6 s after it was created, the InferenceService 6 s after that.
    assert took >= 12, f"pulumi up took {took:.1f} s: it did not wait for what the writer reported late"
    after_up = conditions(service_status(stack))
    assert after_up["ProfileCacheReady"] == ("True", "CacheReady")
    assert after_up["InferenceServiceReady"] == ("True", "RuntimeReady")
    if read_back:
        # Pulumi does not wait for a route (a gateway may never answer), but the program reads it
        # again once the InferenceService is ready: what the gateway wrote by then is in the status
        # of this `up`, and no read resource is in the state (`status_read.py`).
        assert reads(stack) == []
        assert after_up["HTTPRouteReady"] == ("True", "HTTPRouteAccepted")
        assert after_up["Ready"] == ("True", "AllComponentsReady")
        assert (service_status(stack) or {})["status"] == "Running"
    else:
        # No read after the apply: the route's status is what its own apply read, before the
        # gateway (6 s later) answered; nothing claims an acceptance nobody had reported.
        assert reads(stack) == []
        assert after_up["HTTPRouteReady"][1] == "HTTPRoutePending"
        assert (service_status(stack) or {})["status"] == "Starting"
    stack.pulumi("preview", "--expect-no-changes")
    stack.up("--refresh")
    assert (service_status(stack) or {})["status"] == "Running"
    assert conditions(service_status(stack))["HTTPRouteReady"] == ("True", "HTTPRouteAccepted")
    stack.pulumi("preview", "--refresh", "--expect-no-changes")


def test_an_inference_service_never_ready_fails_up_naming_the_service(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    stack = service_stack("ready-timeout", **{"aim:readyTimeoutSeconds": "15"})
    with StatusWriter(cluster.kube, ["ready-timeout"], inference_services=False):
        done = stack.pulumi("up", "--yes", "--skip-preview", check=False)
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "chat-isvc" in output, output[-3000:]
    assert "AIMService ready-timeout/chat: waiting up to 15 s for InferenceService" in output, output[-3000:]
    assert "to report condition=Ready" in output
    # Nothing claims a readiness nobody reported: the failed up recorded no Ready service.
    assert conditions(service_status(stack)).get("InferenceServiceReady", ("", ""))[0] != "True"


def test_a_download_that_never_completes_fails_up_and_creates_no_inference_service(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    stack = service_stack("download-timeout", **{"aim:downloadTimeoutSeconds": "15"})
    done = stack.pulumi("up", "--yes", "--skip-preview", check=False)
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "chat-download-" in output, output[-3000:]
    assert "AIMService download-timeout/chat: waiting up to 15 s for download Job" in output, output[-3000:]
    assert cluster.kube.list(*ISVC, "download-timeout") == []
    assert conditions(service_status(stack)).get("ProfileCacheReady", ("", ""))[0] != "True"


@pytest.mark.parametrize(
    "storage_class", ["immediate", "wait-for-consumer", ""], ids=["immediate", "wffc", "none"]
)
def test_cache_pvcs_are_never_awaited_whatever_their_class(
    service_stack: StackFactory, cluster: TestCluster, storage_class: str
) -> None:
    """No provisioner runs here, so no PVC ever binds: `up` must not wait for it (the download Job,
    which a WaitForFirstConsumer class needs before it binds, comes after the PVC)."""
    namespace = f"pvc-{storage_class or 'none'}"
    stack = service_stack(namespace, **({"storageClass": storage_class} if storage_class else {}))
    with StatusWriter(cluster.kube, [namespace]):
        stack.up()
    (pvc,) = cluster.kube.list(*PVC, namespace)
    assert pvc["status"].get("phase") == "Pending"
    assert pvc["spec"].get("storageClassName") == (storage_class or None)
    assert [j["metadata"]["name"] for j in cluster.kube.list(*JOB, namespace)]
    assert [i["metadata"]["name"] for i in cluster.kube.list(*ISVC, namespace)]


def test_skip_await_then_a_refreshing_up_records_what_became_ready(
    service_stack: StackFactory, cluster: TestCluster
) -> None:
    stack = service_stack("skip-await", **{"aim:skipAwait": "true"})
    stack.up()
    planned = conditions(service_status(stack))
    assert planned["InferenceServiceReady"] == ("False", "CreatingRuntime")
    # The status came from what the engine observed, which a preview reads the same way.
    stack.pulumi("preview", "--expect-no-changes")
    with StatusWriter(cluster.kube, ["skip-await"]) as writer:
        while len(writer.written) < 3:
            time.sleep(0.2)
    stack.up("--refresh")
    assert conditions(service_status(stack))["Ready"] == ("True", "AllComponentsReady")
    stack.pulumi("preview", "--refresh", "--expect-no-changes")
