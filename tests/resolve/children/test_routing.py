"""Routing (behaviour §8): effective settings, route plan, degradations and HTTPRouteReady."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.resolve.children.names import http_route_name
from aim_pulumi.resolve.children.routing import effective_routing, plan_route
from aim_pulumi.resolve.types import Condition, Diagnostic, RoutePlan

ISVC = "qwen-chat-faa5534a"
GATEWAY = {"name": "inference-gateway", "namespace": "gateways"}
SEED_RC = {
    "routing": {
        "enabled": True,
        "gatewayRef": GATEWAY,
        "pathTemplate": "/ml/{.metadata.namespace}/{.metadata.labels['project']}",
    }
}


def service(spec: dict[str, Any] | None = None, labels: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMService",
        "metadata": {
            "name": "qwen-chat",
            "namespace": "ml-team",
            "uid": "0b6f7d9e-1c2a-5f1e-9d55-3b8f2f0c7a11",
            "labels": {"project": "conversational-ai"} if labels is None else labels,
            "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
        },
        "spec": {"model": {"name": "qwen-qwen3-32b"}, **(spec or {})},
    }


@pytest.mark.parametrize(
    ("service_spec", "rc_spec", "expected"),
    [
        pytest.param({}, None, {"enabled": False}, id="nothing-set-disabled"),
        pytest.param({}, SEED_RC, {**SEED_RC["routing"]}, id="inherits-runtime-config"),
        pytest.param(
            {"routing": {"enabled": False}},
            SEED_RC,
            {**SEED_RC["routing"], "enabled": False},
            id="service-disables",
        ),
        pytest.param(
            {"routing": {"gatewayRef": {"name": "team-gw"}}},
            SEED_RC,
            {**SEED_RC["routing"], "gatewayRef": {"name": "team-gw"}},
            id="service-gateway-ref-replaces-whole",
        ),
        pytest.param(
            {"routing": {"annotations": {"b/x": "svc"}, "hostnames": ["svc.example"]}},
            {
                "routing": {
                    "annotations": {"a/x": "rc", "b/x": "rc"},
                    "hostnames": ["rc.example", "x.example"],
                }
            },
            {"enabled": False, "annotations": {"a/x": "rc", "b/x": "svc"}, "hostnames": ["svc.example"]},
            id="annotations-per-key-hostnames-replaced",
        ),
        pytest.param(
            {"routing": {"pathTemplate": None, "requestTimeout": "30s"}},
            {"routing": {"pathTemplate": "/rc", "requestTimeout": "60s"}},
            {"enabled": False, "pathTemplate": "/rc", "requestTimeout": "30s"},
            id="null-inherits-scalar-wins",
        ),
    ],
)
def test_effective_routing(
    service_spec: dict[str, Any], rc_spec: dict[str, Any] | None, expected: dict[str, Any]
) -> None:
    assert effective_routing(service_spec, rc_spec) == expected


def test_seed_inheriting_service_gets_runtime_config_path() -> None:
    labels = {"app.kubernetes.io/component": "routing"}
    plan, conditions, diagnostics = plan_route(
        service=service(), rc_spec=SEED_RC, isvc_name=ISVC, labels=labels
    )
    assert plan == RoutePlan(
        name=http_route_name("qwen-chat", "ml-team"),
        namespace="ml-team",
        path="/ml/ml-team/conversational-ai",
        parent_ref=GATEWAY,
        backend_service=f"{ISVC}-predictor",
        labels=labels,
    )
    assert conditions == [
        Condition(
            "HTTPRouteReady",
            "Unknown",
            "HTTPRoutePending",
            f"HTTPRoute {plan.name} is waiting for the gateway",
        )
    ]
    assert diagnostics == []


@pytest.mark.parametrize(
    ("service_spec", "rc_spec", "expected_path"),
    [
        pytest.param(
            {"routing": {"pathTemplate": "/custom/{.metadata.name}"}},
            SEED_RC,
            "/custom/qwen-chat",
            id="seed-override",
        ),
        pytest.param(
            {"routing": {"pathTemplate": ""}},
            SEED_RC,
            "/ml-team/0b6f7d9e-1c2a-5f1e-9d55-3b8f2f0c7a11",
            id="service-empty-template-selects-default",
        ),
        pytest.param(
            {"routing": {"enabled": True, "gatewayRef": GATEWAY}},
            None,
            "/ml-team/0b6f7d9e-1c2a-5f1e-9d55-3b8f2f0c7a11",
            id="no-template-anywhere-default",
        ),
    ],
)
def test_path_precedence(
    service_spec: dict[str, Any], rc_spec: dict[str, Any] | None, expected_path: str
) -> None:
    plan, _, _ = plan_route(service=service(service_spec), rc_spec=rc_spec, isvc_name=ISVC)
    assert plan is not None
    assert plan.path == expected_path


def test_route_carries_hostnames_annotations_timeout_and_gateway_as_given() -> None:
    gateway = {
        "group": "gateway.networking.k8s.io",
        "kind": "Gateway",
        "name": "gw",
        "sectionName": "https",
        "port": 443,
    }
    rc = {"routing": {"enabled": True, "gatewayRef": gateway, "annotations": {"a/x": "rc", "b/y": "rc"}}}
    spec = {
        "routing": {"hostnames": ["chat.example"], "annotations": {"b/y": "svc"}, "requestTimeout": "120s"}
    }
    plan, _, _ = plan_route(service=service(spec), rc_spec=rc, isvc_name=ISVC)
    assert plan is not None
    assert plan.parent_ref == gateway
    assert plan.hostnames == ("chat.example",)
    assert plan.annotations == {"a/x": "rc", "b/y": "svc"}
    assert plan.request_timeout == "120s"


@pytest.mark.parametrize(
    ("service_spec", "rc_spec"),
    [
        pytest.param({}, None, id="nothing-set"),
        pytest.param({"routing": {"enabled": False}}, SEED_RC, id="service-disables-runtime-config-routing"),
        pytest.param(
            {}, {"routing": {"enabled": False, "gatewayRef": GATEWAY}}, id="runtime-config-disabled"
        ),
    ],
)
def test_disabled_routing_plans_nothing(service_spec: dict[str, Any], rc_spec: dict[str, Any] | None) -> None:
    assert plan_route(service=service(service_spec), rc_spec=rc_spec, isvc_name=ISVC) == (None, [], [])


@pytest.mark.parametrize(
    ("service_spec", "rc_spec", "labels", "reason", "message_part"),
    [
        pytest.param(
            {"routing": {"enabled": True}},
            None,
            None,
            "GatewayNotConfigured",
            "no gatewayRef",
            id="no-gateway-ref",
        ),
        pytest.param(
            {"routing": {"enabled": True, "gatewayRef": {"namespace": "gateways"}}},
            None,
            None,
            "GatewayNotConfigured",
            "no gatewayRef",
            id="gateway-ref-without-name",
        ),
        pytest.param(
            {},
            SEED_RC,
            {},
            "PathTemplateInvalid",
            "from the runtime config",
            id="runtime-config-template-references-missing-label",
        ),
        pytest.param(
            {"routing": {"pathTemplate": "/{.metadata.labels['team']}"}},
            SEED_RC,
            None,
            "PathTemplateInvalid",
            "from the service",
            id="service-template-references-missing-label",
        ),
        pytest.param(
            {"routing": {"pathTemplate": "/" + "x" * 250}},
            SEED_RC,
            None,
            "PathTemplateInvalid",
            "at most 200",
            id="path-too-long",
        ),
    ],
)
def test_degraded_routing(
    service_spec: dict[str, Any],
    rc_spec: dict[str, Any] | None,
    labels: dict[str, str] | None,
    reason: str,
    message_part: str,
) -> None:
    plan, conditions, diagnostics = plan_route(
        service=service(service_spec, labels), rc_spec=rc_spec, isvc_name=ISVC
    )
    assert plan is None
    assert [(c.type, c.status, c.reason) for c in conditions] == [("HTTPRouteReady", "False", reason)]
    assert message_part in conditions[0].message
    assert diagnostics == [Diagnostic("warn", reason, conditions[0].message)]
