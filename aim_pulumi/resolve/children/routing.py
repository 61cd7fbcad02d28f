"""Whether a service gets an HTTPRoute, and what it looks like.

A route that cannot be built (no gateway to attach to, a path template that does not render)
degrades the service instead of failing it: the InferenceService is still useful inside the
cluster, and the condition plus warning tell the user what to fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aim_pulumi.resolve.children.names import http_route_name, predictor_name
from aim_pulumi.resolve.children.paths import PATH_TEMPLATE_FIELD, render_path
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.runtime_config.merge import (
    SERVICE_LAYER_REPLACES,
    Layer,
    drop_nulls,
    merge_layers_with_provenance,
)
from aim_pulumi.resolve.types import Condition, Diagnostic, RoutePlan

HTTP_ROUTE_READY = "HTTPRouteReady"
GATEWAY_NOT_CONFIGURED = "GatewayNotConfigured"
PATH_TEMPLATE_INVALID = "PathTemplateInvalid"
HTTP_ROUTE_PENDING = "HTTPRoutePending"


def effective_routing(
    service_spec: Mapping[str, Any] | None, rc_spec: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The service's `spec.routing` over the merged runtime config's `routing`.

    Field by field with presence semantics; the service's `gatewayRef` replaces the inherited one
    whole; annotations merge per key. `enabled` is always present (default false).
    """
    rc_routing = (rc_spec or {}).get("routing")
    service_routing = (service_spec or {}).get("routing")
    merged, _ = merge_layers_with_provenance(
        [
            Layer("RuntimeConfig", {"routing": rc_routing}),
            Layer("AIMService", {"routing": service_routing}, SERVICE_LAYER_REPLACES),
        ]
    )
    routing: dict[str, Any] = merged.get("routing") or {}
    routing["enabled"] = routing.get("enabled") is True
    return routing


def _template_source(service_spec: Mapping[str, Any]) -> str:
    routing = service_spec.get("routing") or {}
    if routing.get("pathTemplate") is not None:
        return "the service"
    return "the runtime config"


def plan_route(
    *,
    service: Mapping[str, Any],
    rc_spec: Mapping[str, Any] | None,
    isvc_name: str,
    labels: Mapping[str, str] | None = None,
    routing: Mapping[str, Any] | None = None,
) -> tuple[RoutePlan | None, list[Condition], list[Diagnostic]]:
    """The HTTPRoute plan of a service, with its HTTPRouteReady condition and warnings.

    `service` is the CRD-shaped AIMService (metadata with the effective uid), `rc_spec` the merged
    runtime config (inline `spec.runtimeConfig` included), `labels` the route's final labels.
    Routing disabled: no plan and no condition. No gateway or an unrenderable path: no plan, a
    False condition and a warning (the service is degraded, its InferenceService still planned).
    `routing`, when given, is `effective_routing` of the same inputs computed once for many
    services (it is only read).
    """
    metadata = service.get("metadata") or {}
    name = str(metadata.get("name", ""))
    namespace = str(metadata.get("namespace") or "default")
    service_spec = service.get("spec") or {}
    if routing is None:
        routing = effective_routing(service_spec, rc_spec)
    if not routing["enabled"]:
        return None, [], []

    gateway_ref = drop_nulls(routing.get("gatewayRef") or {})
    if not gateway_ref.get("name"):
        message = (
            f"routing is enabled for {namespace}/{name} but no gatewayRef is set in the service or its "
            "runtime config; no HTTPRoute is created"
        )
        return (
            None,
            [Condition(HTTP_ROUTE_READY, "False", GATEWAY_NOT_CONFIGURED, message)],
            [Diagnostic("warn", GATEWAY_NOT_CONFIGURED, message)],
        )

    try:
        path = render_path(routing.get("pathTemplate"), service, field=PATH_TEMPLATE_FIELD)
    except AIMResolutionError as error:
        message = (
            f"path template of {namespace}/{name} (from {_template_source(service_spec)}) is invalid: "
            f"{error.message}; no HTTPRoute is created"
        )
        return (
            None,
            [Condition(HTTP_ROUTE_READY, "False", PATH_TEMPLATE_INVALID, message)],
            [Diagnostic("warn", PATH_TEMPLATE_INVALID, message)],
        )

    annotations = {str(key): str(value) for key, value in sorted((routing.get("annotations") or {}).items())}
    timeout = routing.get("requestTimeout")
    plan = RoutePlan(
        name=http_route_name(name, namespace),
        namespace=namespace,
        path=path,
        parent_ref=gateway_ref,
        backend_service=predictor_name(isvc_name),
        hostnames=tuple(str(host) for host in routing.get("hostnames") or ()),
        annotations=annotations,
        request_timeout=str(timeout) if timeout else None,
        labels=dict(labels or {}),
    )
    condition = Condition(
        HTTP_ROUTE_READY, "Unknown", HTTP_ROUTE_PENDING, f"HTTPRoute {plan.name} is waiting for the gateway"
    )
    return plan, [condition], []
