"""The status writer's order, without a cluster: what it answers for first, and what it holds back.

The cluster tests that claim a settled cluster right after `pulumi up` rely on it (the AIMService
reads its route and ScaledObject back once its InferenceService is Ready), so it is checked
directly, against an in-memory API server, where no timing can hide a wrong order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from status_writer import ISVC, ROUTE, SCALED_OBJECT, StatusWriter


class MemoryKube:
    """`list` and a status `patch` over objects held in memory, with every patch recorded."""

    def __init__(self) -> None:
        self.objects: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.patched: list[tuple[str, str]] = []

    def add(self, kind: tuple[str, str], namespace: str, name: str, spec: Mapping[str, Any]) -> None:
        self.objects[(kind[1], namespace, name)] = {
            "apiVersion": kind[0],
            "kind": kind[1],
            "metadata": {"name": name, "namespace": namespace, "generation": 1},
            "spec": dict(spec),
        }

    def list(self, api_version: str, kind: str, namespace: str | None = None) -> list[dict[str, Any]]:
        return [o for (k, ns, _), o in sorted(self.objects.items()) if k == kind and ns == namespace]

    def patch(
        self,
        api_version: str,
        kind: str,
        namespace: str,
        name: str,
        patch: Mapping[str, Any],
        *,
        field_manager: str = "",
        subresource: str = "",
    ) -> dict[str, Any]:
        assert subresource == "status"
        found = self.objects[(kind, namespace, name)]
        found["status"] = dict(patch["status"])
        self.patched.append((kind, name))
        return found


def _writer(kube: MemoryKube, **options: Any) -> StatusWriter:
    return StatusWriter(kube, ["ns"], jobs=False, **options)  # type: ignore[arg-type]


def test_a_sweep_answers_for_routes_and_scaled_objects_before_it_makes_an_inference_service_ready() -> None:
    kube = MemoryKube()
    kube.add(ISVC, "ns", "svc", {})
    kube.add(ROUTE, "ns", "svc-route", {"parentRefs": [{"name": "gw"}]})
    kube.add(SCALED_OBJECT, "ns", "svc-predictor", {})
    _writer(kube)._sweep("ns")
    assert kube.patched == [
        ("HTTPRoute", "svc-route"),
        ("ScaledObject", "svc-predictor"),
        ("InferenceService", "svc"),
    ]


def test_inference_services_wait_until_every_route_and_scaled_object_named_first_is_answered() -> None:
    kube = MemoryKube()
    kube.add(ISVC, "ns", "svc", {})
    writer = _writer(
        kube, answered_first=[("HTTPRoute", "ns", "svc-route"), ("ScaledObject", "ns", "svc-predictor")]
    )
    writer._sweep("ns")
    # Neither exists yet: KServe's Ready is held, whatever the sweeps in between.
    writer._sweep("ns")
    assert kube.patched == []
    kube.add(ROUTE, "ns", "svc-route", {"parentRefs": [{"name": "gw"}]})
    writer._sweep("ns")
    assert kube.patched == [("HTTPRoute", "svc-route")]
    kube.add(SCALED_OBJECT, "ns", "svc-predictor", {})
    writer._sweep("ns")
    assert kube.patched == [
        ("HTTPRoute", "svc-route"),
        ("ScaledObject", "svc-predictor"),
        ("InferenceService", "svc"),
    ]


def test_answered_first_names_only_what_the_writer_answers_for_and_other_namespaces_are_not_held() -> None:
    kube = MemoryKube()
    kube.add(ISVC, "ns", "svc", {})
    kube.add(ISVC, "other", "svc", {})
    writer = StatusWriter(
        kube,  # type: ignore[arg-type]
        ["ns", "other"],
        jobs=False,
        routes=False,
        answered_first=[("HTTPRoute", "ns", "svc-route"), ("ScaledObject", "other", "svc-predictor")],
    )
    writer._sweep("ns")
    writer._sweep("other")
    # The route is someone else's to answer (routes=False): it holds nothing back.
    assert kube.patched == [("InferenceService", "svc")]
