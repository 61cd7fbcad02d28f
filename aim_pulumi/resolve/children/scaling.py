"""Replica bounds, the KEDA ScaledObject, and the scale-from-zero activation query.

At zero replicas nothing inside the predictor can report load, so a synthetic trigger reads the
gateway's request metric instead; that is why scale-to-zero needs routing and a gateway provider.
An activation query that cannot be built degrades the service to "no autoscaler" rather than
creating a ScaledObject that would never wake the predictor.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from aim_pulumi.resolve.children.names import http_route_name as route_name_for
from aim_pulumi.resolve.children.names import predictor_name
from aim_pulumi.resolve.children.quantity import to_gi_floor
from aim_pulumi.resolve.children.routing import effective_routing
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import DEFAULT_COOLDOWN_SECONDS_PER_GI_MEMORY, GATEWAY_PROVIDERS, Settings
from aim_pulumi.resolve.types import Condition, Diagnostic, ScaledObjectPlan, ScalingPlan
from aim_pulumi.schemas.quantity import parse_quantity

ACTIVATION_QUERY_INVALID = "ActivationMetricQueryInvalid"
ACTIVATION_TEMPLATE_FIELD = "spec.scaleFromZero.activationMetricQueryTemplate"
GATEWAY_PROVIDER_FIELD = "aim:gatewayProvider"
HPA_READY = "HPAReady"
CONFIG_VALID = "ConfigValid"

ACTIVATION_TARGET_VALUE = "1000000000"
SCALE_TO_ZERO_POLLING_INTERVAL = 5
COOLDOWN_BASE_SECONDS = 300
COOLDOWN_MAX_SECONDS = 1200

_PROVIDERS_BY_LOWER = {provider.lower(): provider for provider in GATEWAY_PROVIDERS}
ACTIVATION_PLACEHOLDERS = ("namespace", "serviceName", "httpRouteName", "predictorDeployment")
_PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")


def normalize_gateway_provider(value: str | None) -> tuple[str, list[Diagnostic]]:
    """The canonical provider name; an unknown value falls back to `none` with a warning."""
    text = (value or "").strip()
    if not text:
        return "none", []
    provider = _PROVIDERS_BY_LOWER.get(text.lower())
    if provider is not None:
        return provider, []
    close = difflib.get_close_matches(text.lower(), list(_PROVIDERS_BY_LOWER), n=1, cutoff=0.5)
    hint = f" (did you mean {_PROVIDERS_BY_LOWER[close[0]]}?)" if close else ""
    message = (
        f"gateway provider {value!r} is not one of {', '.join(GATEWAY_PROVIDERS)}{hint}; using none, "
        "which disables scale-from-zero"
    )
    return "none", [Diagnostic("warn", "InvalidGatewayProvider", message)]


def _query_error(message: str, field: str = ACTIVATION_TEMPLATE_FIELD) -> AIMResolutionError:
    return AIMResolutionError(field, ACTIVATION_QUERY_INVALID, message)


def _provider_none_error() -> AIMResolutionError:
    return _query_error(
        "gateway provider none disables scale-from-zero; choose envoyGateway, kgateway or custom",
        GATEWAY_PROVIDER_FIELD,
    )


def render_activation_query(
    template: str,
    *,
    namespace: str,
    service_name: str,
    http_route_name: str,
    predictor_deployment: str,
) -> str:
    """A user activation query template with its `${...}` placeholders filled in.

    Raises AIMResolutionError(reason="ActivationMetricQueryInvalid") for a blank template or a
    placeholder other than `${namespace}`, `${serviceName}`, `${httpRouteName}`,
    `${predictorDeployment}`: an unknown placeholder would reach the metrics backend verbatim.
    """
    text = template.strip()
    if not text:
        raise _query_error("the activation metric query template is blank")
    values = {
        "namespace": namespace,
        "serviceName": service_name,
        "httpRouteName": http_route_name,
        "predictorDeployment": predictor_deployment,
    }
    pieces: list[str] = []
    position = 0
    for match in _PLACEHOLDER.finditer(text):
        name = match.group(1)
        if name not in values:
            raise _query_error(
                f"unknown placeholder ${{{name}}} in the activation metric query template; available: "
                + ", ".join(f"${{{known}}}" for known in ACTIVATION_PLACEHOLDERS)
            )
        pieces.append(text[position : match.start()])
        pieces.append(values[name])
        position = match.end()
    tail = text[position:]
    if "${" in tail:
        raise _query_error(f"unterminated placeholder {tail[tail.index('${') :]!r} in the activation query")
    pieces.append(tail)
    return "".join(pieces)


def _metric_token(value: str) -> str:
    """Envoy Gateway's metric-name encoding: ASCII letters and digits kept, every other byte `_xhh`."""
    return "".join(
        chr(byte) if chr(byte).isascii() and chr(byte).isalnum() else f"_x{byte:02x}"
        for byte in value.encode()
    )


def default_activation_query(
    provider: str, *, namespace: str, http_route_name: str, predictor_deployment: str
) -> str:
    """The provider's built-in activation query, used when no template is configured."""
    if provider == "kgateway":
        return (
            "sum(envoy_cluster_external_upstream_rq_completed"
            f'{{namespace="{namespace}",deployment="{predictor_deployment}"}})'
        )
    if provider == "envoyGateway":
        return (
            "sum(envoy_http_lua_aim_activation_requests"
            f"_n{len(namespace.encode())}_{_metric_token(namespace)}"
            f"_r{len(http_route_name.encode())}_{_metric_token(http_route_name)})"
        )
    if provider == "custom":
        raise _query_error(
            "gateway provider custom has no built-in activation query; set "
            "scaleFromZero.activationMetricQueryTemplate on the service or its runtime config"
        )
    raise _provider_none_error()


def activation_query(
    provider: str,
    template: str | None,
    *,
    namespace: str,
    service_name: str,
    http_route_name: str,
    predictor_deployment: str,
) -> str:
    """The query of the activation trigger: the configured template, else the provider default."""
    if provider == "none":
        raise _provider_none_error()
    if template is not None:
        return render_activation_query(
            template,
            namespace=namespace,
            service_name=service_name,
            http_route_name=http_route_name,
            predictor_deployment=predictor_deployment,
        )
    return default_activation_query(
        provider,
        namespace=namespace,
        http_route_name=http_route_name,
        predictor_deployment=predictor_deployment,
    )


def activation_template(
    service_spec: Mapping[str, Any] | None, rc_spec: Mapping[str, Any] | None
) -> str | None:
    """The service's template when non-blank, else the merged runtime config's (verbatim)."""
    service_template = ((service_spec or {}).get("scaleFromZero") or {}).get("activationMetricQueryTemplate")
    if isinstance(service_template, str) and service_template.strip():
        return service_template
    rc_template = ((rc_spec or {}).get("scaleFromZero") or {}).get("activationMetricQueryTemplate")
    return rc_template if isinstance(rc_template, str) else None


def memory_gib(resources: Mapping[str, Any] | None) -> int:
    """Whole GiB of the larger of requested and limited memory (0 when neither is set)."""
    largest = 0
    for section in ("requests", "limits"):
        memory = ((resources or {}).get(section) or {}).get("memory")
        if memory is None:
            continue
        try:
            largest = max(largest, to_gi_floor(parse_quantity(memory)))
        except ValueError as exc:
            raise AIMResolutionError(
                f"spec.resources.{section}.memory",
                "InvalidSpec",
                f"memory {memory!r} is not a Kubernetes quantity: {exc}",
            ) from exc
    return largest


def cooldown_period(resources: Mapping[str, Any] | None, seconds_per_gi: int) -> int:
    """Scale-to-zero cooldown: bigger models take longer to load, so they are kept warm longer."""
    per_gi = seconds_per_gi if seconds_per_gi >= 0 else DEFAULT_COOLDOWN_SECONDS_PER_GI_MEMORY
    return min(
        max(COOLDOWN_BASE_SECONDS + memory_gib(resources) * per_gi, COOLDOWN_BASE_SECONDS),
        COOLDOWN_MAX_SECONDS,
    )


def _target_value(target: Mapping[str, Any]) -> str:
    for key in ("value", "averageValue", "averageUtilization"):
        value = target.get(key)
        if value is not None and value != "":
            return str(value)
    return "0"


def metric_trigger(
    metric: Mapping[str, Any], *, namespace: str, predictor_deployment: str, scaler_address: str
) -> dict[str, Any]:
    """One user `PodMetric` as a KEDA external trigger of the OTel scaler (admission A20 checked it)."""
    podmetric = metric.get("podmetric") or {}
    source = podmetric.get("metric") or {}
    names = source.get("metricNames") or []
    query = str(source.get("query") or (names[0] if names else ""))
    if "{" not in query:
        query = f'sum({query}{{namespace="{namespace}",deployment="{predictor_deployment}"}})'
    metadata: dict[str, Any] = {
        "scalerAddress": str(source.get("serverAddress") or scaler_address),
        "metricQuery": query,
        "targetValue": _target_value(podmetric.get("target") or {}),
    }
    if source.get("operationOverTime"):
        metadata["operationOverTime"] = str(source["operationOverTime"])
    return {"type": "external", "metadata": metadata}


def _autoscaling_requested(spec: Mapping[str, Any]) -> bool:
    return any(spec.get(key) is not None for key in ("autoScaling", "minReplicas", "maxReplicas"))


def plan_scaling(
    *,
    service_spec: Mapping[str, Any],
    namespace: str,
    service_name: str,
    isvc_name: str,
    rc_spec: Mapping[str, Any] | None,
    container_resources: Mapping[str, Any] | None,
    settings: Settings,
    labels: Mapping[str, str] | None = None,
    route_skipped: str | None = None,
) -> tuple[ScalingPlan, list[Condition], list[Diagnostic]]:
    """Replica bounds and the ScaledObject of one service, with HPAReady and any warnings.

    `rc_spec` is the merged runtime config (inline `spec.runtimeConfig` included) that supplies
    routing and the activation template; `container_resources` the effective container resources
    (for the cooldown); `settings` already carries component overrides (`gateway_provider`).
    Raises AIMResolutionError for `RoutingRequiredForScaleToZero` and `AutoscalingRequiresMetrics`.
    Conditions returned: `ConfigValid` only when False (activation query invalid), `HPAReady`
    when autoscaling.

    `route_skipped` is the reason the service's HTTPRoute was not created although routing is
    enabled (`PathTemplateInvalid`, `GatewayNotConfigured`). No request can then reach the
    service, so an activation trigger would wait for a metric that never comes and a service at
    zero would never wake: scale-from-zero is turned off instead, `minReplicas` is raised to 1
    (what the AIM upgrade guide advises while activation metrics are unavailable) and a warning
    says so; `strict` already fails on the route's degradation.
    """
    diagnostics: list[Diagnostic] = []
    if not _autoscaling_requested(service_spec):
        replicas = service_spec.get("replicas")
        count = int(replicas) if replicas is not None else 1
        return ScalingPlan(min_replicas=count, max_replicas=count, autoscaler_class="none"), [], []

    if service_spec.get("replicas") is not None:
        diagnostics.append(
            Diagnostic(
                "info",
                "ReplicasIgnored",
                f"spec.replicas of {namespace}/{service_name} is ignored because autoscaling is enabled",
            )
        )
    low, high = _replica_bounds(service_spec)
    metrics = list((service_spec.get("autoScaling") or {}).get("metrics") or [])

    if low == 0 and not effective_routing(service_spec, rc_spec)["enabled"]:
        raise AIMResolutionError(
            "spec.minReplicas",
            "RoutingRequiredForScaleToZero",
            "minReplicas 0 needs routing enabled (spec.routing or the runtime config): the activation "
            "trigger reads the gateway's request metric to wake the predictor",
        )
    raised_from_zero = low == 0 and route_skipped is not None
    if raised_from_zero:
        low, high = 1, max(high, 1)
        diagnostics.append(
            Diagnostic(
                "warn",
                str(route_skipped),
                f"scale-from-zero of {namespace}/{service_name} is off: its HTTPRoute is not created "
                f"({route_skipped}), so no request could wake it; minReplicas is raised to 1 and no "
                "activation trigger is created",
            )
        )
    if low > 0 and not metrics and not raised_from_zero:
        raise AIMResolutionError(
            "spec.autoScaling.metrics",
            "AutoscalingRequiresMetrics",
            f"autoscaling between {low} and {high} replicas needs at least one metric in "
            "spec.autoScaling.metrics (or minReplicas: 0 for scale-from-zero)",
        )

    predictor = predictor_name(isvc_name)
    triggers: list[dict[str, Any]] = []
    conditions: list[Condition] = []
    degraded = False
    if low == 0:
        activation = _activation_trigger(
            service_spec, rc_spec, settings, diagnostics, service=(namespace, service_name, predictor)
        )
        if isinstance(activation, Condition):
            degraded = True
            conditions.append(activation)
        else:
            triggers.append(activation)
    if not degraded:
        triggers.extend(
            metric_trigger(
                metric,
                namespace=namespace,
                predictor_deployment=predictor,
                scaler_address=settings.keda_otel_scaler_address,
            )
            for metric in metrics
        )

    scaled_object: ScaledObjectPlan | None = None
    if triggers:
        polling, cooldown = _keda_timing(service_spec, low, container_resources, settings)
        scaled_object = ScaledObjectPlan(
            name=predictor,
            namespace=namespace,
            target_name=predictor,
            min_replicas=low,
            max_replicas=high,
            triggers=tuple(triggers),
            labels=dict(labels or {}),
            polling_interval=polling,
            cooldown_period=cooldown,
        )
    conditions.append(_hpa_condition(scaled_object, namespace, service_name))
    plan = ScalingPlan(
        min_replicas=low, max_replicas=high, autoscaler_class="external", scaled_object=scaled_object
    )
    return plan, conditions, diagnostics


def _replica_bounds(service_spec: Mapping[str, Any]) -> tuple[int, int]:
    """`minReplicas` (default 1) and `maxReplicas` (default: the minimum, and at least 1)."""
    min_replicas = service_spec.get("minReplicas")
    max_replicas = service_spec.get("maxReplicas")
    low = int(min_replicas) if min_replicas is not None else 1
    if max_replicas is not None:
        return low, int(max_replicas)
    if min_replicas is not None:
        return low, max(low, 1)
    return low, 1


def _activation_trigger(
    service_spec: Mapping[str, Any],
    rc_spec: Mapping[str, Any] | None,
    settings: Settings,
    diagnostics: list[Diagnostic],
    *,
    service: tuple[str, str, str],
) -> dict[str, Any] | Condition:
    """The trigger that wakes a service at zero, or the ConfigValid=False condition of a query that
    cannot be built (which leaves the service with no ScaledObject at all, and warns).

    `service` is (namespace, name, predictor deployment); warnings are appended to `diagnostics`.
    """
    namespace, service_name, predictor = service
    provider, provider_diagnostics = normalize_gateway_provider(settings.gateway_provider)
    diagnostics.extend(provider_diagnostics)
    try:
        query = activation_query(
            provider,
            activation_template(service_spec, rc_spec),
            namespace=namespace,
            service_name=service_name,
            http_route_name=route_name_for(service_name, namespace),
            predictor_deployment=predictor,
        )
    except AIMResolutionError as error:
        message = (
            f"scale-from-zero of {namespace}/{service_name} is disabled: {error.message}; "
            "no ScaledObject is created"
        )
        diagnostics.append(Diagnostic("warn", ACTIVATION_QUERY_INVALID, message))
        return Condition(CONFIG_VALID, "False", ACTIVATION_QUERY_INVALID, message)
    return {
        "type": "external",
        "metadata": {
            "scalerAddress": settings.keda_otel_scaler_address,
            "metricQuery": query,
            "targetValue": ACTIVATION_TARGET_VALUE,
            "operationOverTime": "avg",
        },
    }


def _keda_timing(
    service_spec: Mapping[str, Any],
    low: int,
    container_resources: Mapping[str, Any] | None,
    settings: Settings,
) -> tuple[int | None, int | None]:
    """KEDA's polling interval and cooldown: scale-to-zero defaults (the cooldown grows with the
    container's memory), each replaced by the service's own `autoScaling` value."""
    auto_scaling = service_spec.get("autoScaling") or {}
    polling: int | None = None
    cooldown: int | None = None
    if low == 0:
        polling = SCALE_TO_ZERO_POLLING_INTERVAL
        cooldown = cooldown_period(container_resources, settings.cooldown_seconds_per_gi_memory)
    if auto_scaling.get("pollingInterval") is not None:
        polling = int(auto_scaling["pollingInterval"])
    if auto_scaling.get("cooldownPeriod") is not None:
        cooldown = int(auto_scaling["cooldownPeriod"])
    return polling, cooldown


def _hpa_condition(scaled_object: ScaledObjectPlan | None, namespace: str, service_name: str) -> Condition:
    if scaled_object is not None:
        return Condition(
            HPA_READY,
            "Unknown",
            "WaitingForMetrics",
            f"ScaledObject {scaled_object.name} is waiting for metrics",
        )
    return Condition(
        HPA_READY, "False", "HPANotFound", f"no ScaledObject is created for {namespace}/{service_name}"
    )
