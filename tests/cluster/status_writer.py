"""Plays the controllers the test cluster lacks, and only their status writes.

The cluster has no kubelet, no Job controller, no KServe controller, no KEDA and no gateway, so no
InferenceService ever becomes Ready, no download Job completes, no ScaledObject is ready and no
route is accepted on its own. Where a test needs one that does, a `StatusWriter` thread writes what
those controllers would write, through the status subresource: KServe's `Ready` condition on an
InferenceService, the Job controller's `Complete` (or `Failed`) conditions on a Job, a gateway
controller's `Accepted` on an HTTPRoute, KEDA's `Ready` and `Active` on a ScaledObject. It changes
nothing else, and only objects in the namespaces it is given (every namespace when it is given
none). `mark_predictor_crashing` writes what KServe reports for a predictor whose container is
killed (a test calls it once, by hand).

It is also the stand-in a person trying `pulumi up` against the test cluster runs beside it
(`scripts/test-cluster.sh stand-in DIR`, docs/installation-configuration.md): without it, `up`
waits up to an hour for a Job and InferenceServices nothing will ever make ready. It stays here,
beside the cluster it completes, rather than in the package: it fakes controllers, it decides
nothing AIM does.

    python tests/cluster/status_writer.py KUBECONFIG [--namespace NS ...] [--delay SECONDS]
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kube import ApiError, Kube

ISVC = ("serving.kserve.io/v1beta1", "InferenceService")
JOB = ("batch/v1", "Job")
ROUTE = ("gateway.networking.k8s.io/v1", "HTTPRoute")
SCALED_OBJECT = ("keda.sh/v1alpha1", "ScaledObject")
GATEWAY_CONTROLLER = "example.com/test-gateway-controller"
_TIME = "2026-01-01T00:00:00Z"


def _has_condition(obj: dict[str, Any], kind: str) -> bool:
    conditions = (obj.get("status") or {}).get("conditions") or []
    return any(c.get("type") == kind and c.get("status") == "True" for c in conditions)


def _generation(obj: dict[str, Any]) -> int:
    return int(obj["metadata"].get("generation") or 1)


def _observed_current(obj: dict[str, Any]) -> bool:
    """The controller has reconciled the latest spec (as KServe does after each update)."""
    return int((obj.get("status") or {}).get("observedGeneration") or 0) >= _generation(obj)


def mark_inference_service_ready(kube: Kube, namespace: str, name: str, generation: int = 1) -> None:
    """What KServe writes once the predictor of `generation` serves: `Ready` and its parts True, a URL,
    and the generation it observed (Pulumi's await takes a `Ready` of an older generation as stale)."""
    conditions = [
        {"type": kind, "status": "True", "lastTransitionTime": _TIME}
        for kind in ("IngressReady", "PredictorReady", "Ready")
    ]
    status = {
        "conditions": conditions,
        "url": f"http://{name}.{namespace}.example.com",
        "observedGeneration": generation,
    }
    kube.patch(
        *ISVC, namespace, name, {"status": status}, field_manager="kserve-controller", subresource="status"
    )


def mark_job(kube: Kube, namespace: str, name: str, *, failed: bool = False) -> None:
    """What the Job controller writes when the Job's pod succeeded (or ran out of retries)."""
    if failed:
        conditions = [
            {"type": "FailureTarget", "status": "True", "reason": "BackoffLimitExceeded",
             "message": "Job has reached the specified backoff limit", "lastTransitionTime": _TIME},
            {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
             "message": "Job has reached the specified backoff limit", "lastTransitionTime": _TIME},
        ]  # fmt: skip
        status: dict[str, Any] = {"startTime": _TIME, "failed": 3, "conditions": conditions}
    else:
        conditions = [
            {"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached",
             "message": "Reached expected number of succeeded pods", "lastTransitionTime": _TIME},
            {"type": "Complete", "status": "True", "reason": "CompletionsReached",
             "message": "Reached expected number of succeeded pods", "lastTransitionTime": _TIME},
        ]  # fmt: skip
        status = {"startTime": _TIME, "completionTime": _TIME, "succeeded": 1, "conditions": conditions}
    kube.patch(
        *JOB, namespace, name, {"status": status}, field_manager="job-controller", subresource="status"
    )


def mark_route_accepted(kube: Kube, namespace: str, route: dict[str, Any]) -> None:
    """What a gateway controller writes for each parent that accepted the route."""
    generation = int(route["metadata"].get("generation") or 1)
    parents = [
        {
            "parentRef": parent,
            "controllerName": GATEWAY_CONTROLLER,
            "conditions": [
                {"type": kind, "status": "True", "reason": kind, "message": "",
                 "observedGeneration": generation, "lastTransitionTime": _TIME}
                for kind in ("Accepted", "ResolvedRefs")
            ],
        }
        for parent in route["spec"].get("parentRefs") or []
    ]  # fmt: skip
    name = route["metadata"]["name"]
    kube.patch(
        *ROUTE,
        namespace,
        name,
        {"status": {"parents": parents}},
        field_manager="gateway",
        subresource="status",
    )


def mark_scaled_object_ready(kube: Kube, namespace: str, name: str) -> None:
    """What KEDA writes once it has validated the ScaledObject's triggers and created its HPA."""
    conditions = [
        {"type": "Ready", "status": "True", "reason": "ScaledObjectReady",
         "message": "ScaledObject is defined correctly and is ready for scaling"},
        {"type": "Active", "status": "True", "reason": "ScalerActive", "message": "Scaling is performed"},
        {"type": "Fallback", "status": "False", "reason": "NoFallbackFound",
         "message": "No fallbacks are active"},
    ]  # fmt: skip
    status = {"conditions": conditions, "hpaName": f"keda-hpa-{name}", "originalReplicaCount": 1}
    kube.patch(
        *SCALED_OBJECT, namespace, name, {"status": status}, field_manager="keda", subresource="status"
    )


def add_ready_node(kube: Kube, manifest: dict[str, Any]) -> None:
    """Create a Node as a kubelet registers one: the object, then its `status` (with `Ready`) through
    the status subresource; then lift the not-ready taint admission puts on a new node, leaving the
    node's own taints, as the node lifecycle controller does once the node is Ready."""
    name = manifest["metadata"]["name"]
    kube.create({k: v for k, v in manifest.items() if k != "status"})
    ready = {"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "ready"}
    status = {**manifest["status"], "conditions": [ready]}
    kube.patch("v1", "Node", None, name, {"status": status}, field_manager="kubelet", subresource="status")
    taints = (manifest.get("spec") or {}).get("taints") or None
    kube.patch("v1", "Node", None, name, {"spec": {"taints": taints}}, field_manager="node-controller")


def mark_predictor_crashing(kube: Kube, namespace: str, name: str) -> None:
    """What KServe writes once the predictor's container was OOM-killed and loops in CrashLoopBackOff:
    the Deployment unavailable, `Ready` False, and the model `FailedToLoad` with the exit code."""
    found = kube.get(*ISVC, namespace, name)
    reason, message = "MinimumReplicasUnavailable", "Deployment does not have minimum availability."
    conditions = [
        {"type": kind, "status": "False", "reason": reason, "message": message, "lastTransitionTime": _TIME}
        for kind in ("PredictorReady", "Ready")
    ] + [{"type": "IngressReady", "status": "True", "lastTransitionTime": _TIME}]
    model = {
        "transitionStatus": "BlockedByFailedLoad",
        "states": {"activeModelState": "", "targetModelState": "FailedToLoad"},
        "lastFailureInfo": {"reason": "ModelLoadFailed", "message": "OOMKilled", "exitCode": 137},
    }
    status = {
        "conditions": conditions,
        "modelStatus": model,
        "observedGeneration": _generation(found),
    }
    kube.patch(
        *ISVC, namespace, name, {"status": status}, field_manager="kserve-controller", subresource="status"
    )


class StatusWriter:
    """A thread that marks every InferenceService Ready, every Job Complete, every HTTPRoute
    accepted by its gateways and every ScaledObject ready in `namespaces` (in every namespace when
    `namespaces` is empty).

    `delay` seconds pass between first seeing an object and writing its status, so a test can tell
    that Pulumi waited for it.

    Each sweep answers for the routes and ScaledObjects before the InferenceServices, and
    `answered_first` (kind, namespace, name of HTTPRoutes and ScaledObjects a test knows will be
    created) holds every InferenceService of a namespace back from Ready until each of those in
    that namespace exists and carries its status. That is the order of a real cluster, where a
    gateway and KEDA answer in seconds and a predictor takes minutes to load its model, and the
    order the AIMService relies on: it reads its route and ScaledObject back once Pulumi has seen
    its InferenceService Ready (resources/service_record.py `_read_back`). Without it, an `up`
    could read them between the write of Ready and the writes that follow, and a refresh right
    after would find the later writes as changes of those reads: a race of the stand-in, not of a
    settled cluster.
    """

    def __init__(
        self,
        kube: Kube,
        namespaces: Iterable[str],
        *,
        inference_services: bool = True,
        jobs: bool = True,
        routes: bool = True,
        scaled_objects: bool = True,
        delay: float = 0.0,
        answered_first: Iterable[tuple[str, str, str]] = (),
        log_to: Any = None,
    ) -> None:
        self.kube = kube
        self.log_to = log_to
        self._reported = 0
        self.namespaces = sorted(set(namespaces))
        self.inference_services = inference_services
        self.jobs = jobs
        self.routes = routes
        self.scaled_objects = scaled_objects
        self.delay = delay
        answering = {"HTTPRoute": routes, "ScaledObject": scaled_objects}
        self.answered_first = frozenset(k for k in answered_first if answering.get(k[0]))
        self.written: list[tuple[str, str, str]] = []
        self._seen: dict[tuple[str, str, str], float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="status-writer", daemon=True)
        self._clock = 0.0

    def __enter__(self) -> StatusWriter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def wait(self) -> None:
        """Run in the foreground until the thread is stopped (`stop`, or a signal's handler)."""
        self._thread.start()
        while self._thread.is_alive():
            self._thread.join(timeout=0.5)

    def stop(self) -> None:
        self._stop.set()

    def _watched(self) -> list[str]:
        if self.namespaces:
            return self.namespaces
        return sorted(ns["metadata"]["name"] for ns in self.kube.list("v1", "Namespace"))

    def _run(self) -> None:
        interval = 0.25
        while not self._stop.wait(interval):
            self._clock += interval
            try:
                namespaces = self._watched()
            except (ApiError, OSError):
                continue  # the API server is starting or going away; the next sweep sees it
            for namespace in namespaces:
                try:
                    self._sweep(namespace)
                except ApiError:
                    continue  # a namespace being created or deleted; the next sweep sees it

    def _due(self, key: tuple[str, str, str]) -> bool:
        first = self._seen.setdefault(key, self._clock)
        return self._clock - first >= self.delay

    def _sweep(self, namespace: str) -> None:
        # Routes and ScaledObjects first: an InferenceService made Ready in this sweep is then
        # never Ready before what this sweep answers for them (see the class docstring).
        answered: set[tuple[str, str, str]] = set()
        if self.routes:
            for obj in self.kube.list(*ROUTE, namespace):
                key = ("HTTPRoute", namespace, obj["metadata"]["name"])
                if (obj.get("status") or {}).get("parents"):
                    answered.add(key)
                elif self._due(key):
                    mark_route_accepted(self.kube, namespace, obj)
                    self.written.append(key)
                    answered.add(key)
        if self.scaled_objects:
            for obj in self.kube.list(*SCALED_OBJECT, namespace):
                key = ("ScaledObject", namespace, obj["metadata"]["name"])
                if _has_condition(obj, "Ready"):
                    answered.add(key)
                elif self._due(key):
                    mark_scaled_object_ready(self.kube, namespace, obj["metadata"]["name"])
                    self.written.append(key)
                    answered.add(key)
        if self.jobs:
            for obj in self.kube.list(*JOB, namespace):
                name = obj["metadata"]["name"]
                key = ("Job", namespace, name)
                if not _has_condition(obj, "Complete") and self._due(key):
                    mark_job(self.kube, namespace, name)
                    self.written.append(key)
        held = any(k[1] == namespace and k not in answered for k in self.answered_first)
        if self.inference_services and not held:
            for obj in self.kube.list(*ISVC, namespace):
                name = obj["metadata"]["name"]
                key = ("InferenceService", namespace, name)
                current = _has_condition(obj, "Ready") and _observed_current(obj)
                if not current and self._due((*key[:2], f"{name}@{_generation(obj)}")):
                    mark_inference_service_ready(self.kube, namespace, name, _generation(obj))
                    self.written.append(key)
        if self.log_to is not None:
            while self._reported < len(self.written):
                kind, namespace, name = self.written[self._reported]
                print(f"{_WORDS[kind]}: {kind} {namespace}/{name}", file=self.log_to, flush=True)
                self._reported += 1


_WORDS = {"InferenceService": "ready", "Job": "complete", "HTTPRoute": "accepted", "ScaledObject": "ready"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="status_writer.py",
        description="Stand in for KServe, the Job controller, a gateway and KEDA on the test cluster: "
        "mark every InferenceService Ready, every Job Complete, every HTTPRoute accepted and every "
        "ScaledObject ready, until stopped.",
    )
    parser.add_argument("kubeconfig", type=Path, help="the test cluster's kubeconfig (DIR/kubeconfig)")
    parser.add_argument(
        "-n", "--namespace", action="append", default=[], help="only this namespace (repeatable); default all"
    )
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each write")
    args = parser.parse_args(argv)
    writer = StatusWriter(Kube(args.kubeconfig), args.namespace, delay=args.delay, log_to=sys.stdout)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: writer.stop())
    where = ", ".join(args.namespace) or "every namespace"
    print(
        f"standing in for KServe, the Job controller, a gateway and KEDA in {where} (Ctrl-C stops)",
        flush=True,
    )
    writer.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
