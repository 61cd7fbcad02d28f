"""The outputs a program reads from an AIMService, for a routed and an unrouted service.

Each output is asserted as registered (what `pulumi stack output` and other languages see) and
as the typed attribute a Python program applies over; both must agree.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from aim_pulumi.resolve.children.names import inference_service_name
from aim_pulumi.resources import AIMModel, AIMService
from aim_pulumi.resources.service_status import route_endpoint
from tests.conftest import Recorder
from tests.resources.catalog import GATEWAY, NS, PIPELINE

MODEL_SPEC: Any = {"modelId": "Qwen/Qwen3-8B", "accelerator": {"vendor": "nvidia", "count": 1}}
PROFILE = "m-nvidia-vllm-ee6a55f8"


def _program(routing: dict[str, Any] | None, seen: dict[str, Any]) -> Any:
    def program() -> None:
        AIMModel("m", namespace=NS, spec=MODEL_SPEC)
        spec: Any = {"model": {"name": "m"}}
        if routing is not None:
            spec["routing"] = routing
        chat = AIMService("chat", namespace=NS, annotations=PIPELINE, spec=spec)
        for attribute in ("status", "resolved_profile", "inference_service_name", "route_path", "endpoint"):
            getattr(chat, attribute).apply(lambda value, a=attribute: seen.__setitem__(a, value))

    return program


@pytest.mark.parametrize(
    ("routing", "endpoint"),
    [
        pytest.param(
            {
                "enabled": True,
                "gatewayRef": dict(GATEWAY),
                "pathTemplate": "/chat/{.metadata.name}",
                "hostnames": ["*.example.com", "ai.example.com", "b.example.com"],
            },
            "ai.example.com/chat/chat",
            id="routed-with-a-hostname",
        ),
        pytest.param(
            {"enabled": True, "gatewayRef": dict(GATEWAY), "pathTemplate": "/chat/{.metadata.name}"},
            "/chat/chat",
            id="routed-without-hostnames",
        ),
        pytest.param(None, None, id="unrouted"),
    ],
)
def test_service_outputs(recording: Recorder, routing: dict[str, Any] | None, endpoint: str | None) -> None:
    seen: dict[str, Any] = {}
    rec = recording(_program(routing, seen))

    outputs = rec.outputs_of("chat")
    isvc = next(r for r in rec.resources if r.type.endswith(":InferenceService"))
    routed = routing is not None
    assert outputs["inferenceServiceName"] == isvc.manifest["metadata"]["name"]
    assert outputs["inferenceServiceName"] == inference_service_name("chat", NS)
    assert outputs["resolvedProfile"] == {
        "kind": "AIMProfile",
        "name": PROFILE,
        "namespace": NS,
        "scope": "Namespace",
        "uid": outputs["status"]["resolvedProfile"]["uid"],
    }
    assert outputs["status"]["status"] == "Starting"
    assert outputs["status"]["reconcilerPipeline"] == "profile"
    ready = {c["type"]: c["status"] for c in outputs["status"]["conditions"]}
    assert ready["ProfileReady"] == "True"
    assert ("HTTPRouteReady" in ready) is routed
    assert outputs.get("routePath") == ("/chat/chat" if routed else None)
    assert outputs.get("endpoint") == endpoint
    if routed:
        assert outputs["status"]["routing"] == {"path": "/chat/chat"}
        route = next(r for r in rec.resources if r.type.endswith(":HTTPRoute"))
        assert route.manifest["spec"].get("hostnames") == routing.get("hostnames")  # type: ignore[union-attr]
    else:
        assert "routing" not in outputs["status"]
        assert not any(r.type.endswith(":HTTPRoute") for r in rec.resources)
    # The typed attributes hold the very values registered.
    assert seen["status"] == outputs["status"]
    assert seen["resolved_profile"] == outputs["resolvedProfile"]
    assert seen["inference_service_name"] == outputs["inferenceServiceName"]
    assert seen["route_path"] == outputs.get("routePath")
    assert seen["endpoint"] == endpoint


def test_a_degraded_route_has_no_endpoint(recording: Recorder) -> None:
    """Routing on but no gateway: no HTTPRoute, so no path and nothing a client could call."""
    seen: dict[str, Any] = {}
    rec = recording(_program({"enabled": True, "hostnames": ["ai.example.com"]}, seen))

    outputs = rec.outputs_of("chat")
    assert outputs["status"]["status"] == "Degraded"
    assert outputs.get("routePath") is None
    assert outputs.get("endpoint") is None
    assert seen["endpoint"] is None


@pytest.mark.parametrize(
    ("hostnames", "path", "expected"),
    [
        ((), "/a", "/a"),
        (("*.example.com",), "/a", "/a"),
        (("x.example.com", "y.example.com"), "/a", "x.example.com/a"),
        (("x.example.com",), None, None),
    ],
)
def test_route_endpoint(hostnames: tuple[str, ...], path: str | None, expected: str | None) -> None:
    assert route_endpoint(hostnames, path) == expected


def test_catalog_outputs_are_typed_statuses(recording: Recorder) -> None:
    seen: dict[str, Any] = {}

    def program() -> None:
        model = AIMModel("m", namespace=NS, spec=MODEL_SPEC)
        model.status.apply(lambda s: seen.__setitem__("model", s))
        pulumi.export("generated", model.status.apply(lambda s: s.get("generatedProfiles")))

    rec = recording(program)

    assert seen["model"] == {"status": "Ready", "source": "modelId", "generatedProfiles": [PROFILE]}
    assert rec.outputs_of("m")["status"] == seen["model"]
