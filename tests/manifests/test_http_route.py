"""The HTTPRoute builder: §8 rules, parentRef as given, optional hostnames/timeouts, schema validity."""

from __future__ import annotations

from typing import Any

import pytest
from factories import NAMESPACE, PREDICTOR, route_plan

from aim_pulumi.manifests import build_http_route
from aim_pulumi.resolve.types import RoutePlan
from aim_pulumi.schemas import validate_manifest

BACKEND = {"group": "", "kind": "Service", "name": PREDICTOR, "namespace": NAMESPACE, "port": 80}

ROUTES = {
    "default": route_plan(),
    "root-path": route_plan(path="/"),
    "hostnames": route_plan(hostnames=("chat.example.com", "api.example.com")),
    "timeout": route_plan(request_timeout="300s"),
    "compound-timeout": route_plan(request_timeout="1h30m"),
    "annotations": route_plan(annotations={"example.com/owner": "ml", "a.example.com/x": "1"}),
    "full-parent-ref": route_plan(
        parent_ref={
            "group": "gateway.networking.k8s.io",
            "kind": "Gateway",
            "name": "inference-gateway",
            "namespace": "gateways",
            "sectionName": "https",
            "port": 443,
        }
    ),
    "percent-encoded-path": route_plan(path="/ml-team/a%20b"),
}


@pytest.mark.parametrize("route", list(ROUTES.values()), ids=list(ROUTES))
def test_every_route_validates_with_cel_rules(route: RoutePlan) -> None:
    assert validate_manifest(build_http_route(route)) == []


def test_default_route_shape() -> None:
    manifest = build_http_route(route_plan())
    assert manifest["apiVersion"] == "gateway.networking.k8s.io/v1"
    assert manifest["kind"] == "HTTPRoute"
    assert manifest["metadata"] == {
        "name": "qwen-chat-7e3a9b10",
        "namespace": NAMESPACE,
        "labels": {
            "aim.eai.amd.com/service": "qwen-chat",
            "app.kubernetes.io/component": "routing",
            "app.kubernetes.io/managed-by": "aim-pulumi",
        },
        "annotations": {"pulumi.com/patchForce": "true"},
    }
    spec = manifest["spec"]
    assert spec["parentRefs"] == [{"name": "inference-gateway", "namespace": "gateways"}]
    assert "hostnames" not in spec
    assert spec["rules"] == [
        {
            "matches": [{"path": {"type": "Exact", "value": "/ml-team/qwen-chat/v1/load_lora_adapter"}}],
            "filters": [
                {
                    "type": "URLRewrite",
                    "urlRewrite": {
                        "path": {"type": "ReplaceFullPath", "replaceFullPath": "/__aim_blocked__"}
                    },
                }
            ],
            "backendRefs": [BACKEND],
        },
        {
            "matches": [{"path": {"type": "Exact", "value": "/ml-team/qwen-chat/v1/unload_lora_adapter"}}],
            "filters": [
                {
                    "type": "URLRewrite",
                    "urlRewrite": {
                        "path": {"type": "ReplaceFullPath", "replaceFullPath": "/__aim_blocked__"}
                    },
                }
            ],
            "backendRefs": [BACKEND],
        },
        {
            "matches": [{"path": {"type": "PathPrefix", "value": "/ml-team/qwen-chat"}}],
            "filters": [
                {
                    "type": "URLRewrite",
                    "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/"}},
                }
            ],
            "backendRefs": [BACKEND],
        },
    ]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("/", ["/v1/load_lora_adapter", "/v1/unload_lora_adapter", "/"], id="root-has-no-prefix"),
        pytest.param(
            "/team/chat",
            ["/team/chat/v1/load_lora_adapter", "/team/chat/v1/unload_lora_adapter", "/team/chat"],
            id="nested-path",
        ),
    ],
)
def test_match_values(path: str, expected: list[str]) -> None:
    rules = build_http_route(route_plan(path=path))["spec"]["rules"]
    assert [rule["matches"][0]["path"]["value"] for rule in rules] == expected


@pytest.mark.parametrize(
    ("timeout", "expected"),
    [
        pytest.param(None, [None, None, None], id="unset"),
        pytest.param("", [None, None, None], id="empty"),
        pytest.param("90s", [None, None, {"request": "90s"}], id="prefix-rule-only"),
    ],
)
def test_timeouts_only_when_set(timeout: str | None, expected: list[Any]) -> None:
    rules = build_http_route(route_plan(request_timeout=timeout))["spec"]["rules"]
    assert [rule.get("timeouts") for rule in rules] == expected


def test_hostnames_and_annotations_are_copied() -> None:
    manifest = build_http_route(ROUTES["hostnames"])
    assert manifest["spec"]["hostnames"] == ["chat.example.com", "api.example.com"]
    annotated = build_http_route(ROUTES["annotations"])
    assert annotated["metadata"]["annotations"] == {
        "a.example.com/x": "1",
        "example.com/owner": "ml",
        "pulumi.com/patchForce": "true",
    }


def test_parent_ref_is_passed_as_given() -> None:
    manifest = build_http_route(ROUTES["full-parent-ref"])
    assert manifest["spec"]["parentRefs"] == [dict(ROUTES["full-parent-ref"].parent_ref)]


@pytest.mark.parametrize(
    ("skip", "expected"),
    [
        pytest.param(
            True, {"pulumi.com/patchForce": "true", "pulumi.com/skipAwait": "true"}, id="skip-await"
        ),
        pytest.param(False, {"pulumi.com/patchForce": "true"}, id="await"),
    ],
)
def test_skip_await(skip: bool, expected: dict[str, str] | None) -> None:
    manifest = build_http_route(route_plan(), skip_await=skip)
    assert manifest["metadata"].get("annotations") == expected
    assert validate_manifest(manifest) == []
