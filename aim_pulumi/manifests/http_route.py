"""The Gateway API HTTPRoute of a routed AIMService (behaviour §8)."""

from __future__ import annotations

from typing import Any

from aim_pulumi.manifests._common import metadata, plain
from aim_pulumi.resolve.types import RoutePlan

API_VERSION = "gateway.networking.k8s.io/v1"
KIND = "HTTPRoute"
BACKEND_PORT = 80
BLOCKED_PATH = "/__aim_blocked__"
BLOCKED_ENDPOINTS = ("/v1/load_lora_adapter", "/v1/unload_lora_adapter")


def _backend(route: RoutePlan) -> dict[str, Any]:
    return {
        "group": "",
        "kind": "Service",
        "name": route.backend_service,
        "namespace": route.namespace,
        "port": BACKEND_PORT,
    }


def _blocked_rule(route: RoutePlan, endpoint: str) -> dict[str, Any]:
    """LoRA adapter loading is rewritten to a path nothing serves: adapters must not be changed remotely."""
    prefix = "" if route.path == "/" else route.path
    return {
        "matches": [{"path": {"type": "Exact", "value": f"{prefix}{endpoint}"}}],
        "filters": [
            {
                "type": "URLRewrite",
                "urlRewrite": {"path": {"type": "ReplaceFullPath", "replaceFullPath": BLOCKED_PATH}},
            }
        ],
        "backendRefs": [_backend(route)],
    }


def _prefix_rule(route: RoutePlan) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "matches": [{"path": {"type": "PathPrefix", "value": route.path}}],
        "filters": [
            {
                "type": "URLRewrite",
                "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/"}},
            }
        ],
        "backendRefs": [_backend(route)],
    }
    if route.request_timeout:
        rule["timeouts"] = {"request": route.request_timeout}
    return rule


def build_http_route(route: RoutePlan, *, skip_await: bool = False) -> dict[str, Any]:
    """The route §8 shapes: two blocked LoRA rules, then the service prefix rewritten to `/`."""
    spec: dict[str, Any] = {"parentRefs": [plain(route.parent_ref)]}
    if route.hostnames:
        spec["hostnames"] = list(route.hostnames)
    spec["rules"] = [*(_blocked_rule(route, endpoint) for endpoint in BLOCKED_ENDPOINTS), _prefix_rule(route)]
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": metadata(
            route.name, route.namespace, route.labels, route.annotations, skip_await=skip_await
        ),
        "spec": spec,
    }
