"""Autoscaling and scale-from-zero (behaviour §9)."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.resolve.children.names import http_route_name
from aim_pulumi.resolve.children.scaling import (
    activation_query,
    cooldown_period,
    default_activation_query,
    normalize_gateway_provider,
    plan_scaling,
    render_activation_query,
)
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resolve.types import Condition, Diagnostic

NS = "ml-team"
SERVICE = "qwen-chat"
ISVC = "qwen-chat-faa5534a"
PREDICTOR = f"{ISVC}-predictor"
ROUTE = http_route_name(SERVICE, NS)
ADDRESS = "keda-otel-scaler.keda.svc:4318"
ROUTED_RC = {"routing": {"enabled": True, "gatewayRef": {"name": "gw"}}}
SEED_METRIC = {
    "type": "PodMetric",
    "podmetric": {
        "metric": {
            "backend": "opentelemetry",
            "metricNames": ["vllm:num_requests_running"],
            "query": "vllm:num_requests_running",
            "operationOverTime": "avg",
        },
        "target": {"type": "Value", "value": "1"},
    },
}
SEED_TRIGGER = {
    "type": "external",
    "metadata": {
        "scalerAddress": ADDRESS,
        "metricQuery": f'sum(vllm:num_requests_running{{namespace="{NS}",deployment="{PREDICTOR}"}})',
        "targetValue": "1",
        "operationOverTime": "avg",
    },
}
KGATEWAY_QUERY = (
    f'sum(envoy_cluster_external_upstream_rq_completed{{namespace="{NS}",deployment="{PREDICTOR}"}})'
)


def activation_trigger(query: str) -> dict[str, Any]:
    return {
        "type": "external",
        "metadata": {
            "scalerAddress": ADDRESS,
            "metricQuery": query,
            "targetValue": "1000000000",
            "operationOverTime": "avg",
        },
    }


@pytest.mark.parametrize(
    ("value", "expected", "warned"),
    [
        pytest.param(None, "none", False, id="unset"),
        pytest.param("", "none", False, id="empty"),
        pytest.param(" EnvoyGateway ", "envoyGateway", False, id="trimmed-case-insensitive"),
        pytest.param("KGATEWAY", "kgateway", False, id="uppercase"),
        pytest.param("custom", "custom", False, id="custom"),
        pytest.param("None", "none", False, id="none"),
        pytest.param("istio", "none", True, id="unknown-falls-back-with-warning"),
    ],
)
def test_normalize_gateway_provider(value: str | None, expected: str, warned: bool) -> None:
    provider, diagnostics = normalize_gateway_provider(value)
    assert provider == expected
    assert [d.level for d in diagnostics] == (["warn"] if warned else [])


def _render(template: str) -> str:
    return render_activation_query(
        template, namespace=NS, service_name=SERVICE, http_route_name=ROUTE, predictor_deployment=PREDICTOR
    )


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        pytest.param(
            'sum(gateway_requests{namespace="${namespace}",route="${httpRouteName}"})',
            f'sum(gateway_requests{{namespace="{NS}",route="{ROUTE}"}})',
            id="seed-cluster-default-template",
        ),
        pytest.param(
            "${serviceName}|${predictorDeployment}|${namespace}|${httpRouteName}",
            f"{SERVICE}|{PREDICTOR}|{NS}|{ROUTE}",
            id="every-placeholder",
        ),
        pytest.param("  sum(x)\n", "sum(x)", id="trimmed"),
        pytest.param('sum(x{a="$namespace"})', 'sum(x{a="$namespace"})', id="dollar-without-brace-kept"),
    ],
)
def test_render_activation_query(template: str, expected: str) -> None:
    assert _render(template) == expected


@pytest.mark.parametrize(
    ("template", "message_part"),
    [
        pytest.param("   ", "blank", id="blank"),
        pytest.param("sum(${deployment})", "${deployment}", id="unknown-placeholder-named"),
        pytest.param("sum(${})", "${}", id="empty-placeholder"),
        pytest.param("sum(${namespace", "unterminated", id="unterminated-placeholder"),
    ],
)
def test_render_activation_query_errors(template: str, message_part: str) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        _render(template)
    assert caught.value.reason == "ActivationMetricQueryInvalid"
    assert caught.value.field == "spec.scaleFromZero.activationMetricQueryTemplate"
    assert message_part in caught.value.message


@pytest.mark.parametrize(
    ("provider", "namespace", "route", "expected"),
    [
        pytest.param("kgateway", NS, ROUTE, KGATEWAY_QUERY, id="kgateway"),
        pytest.param(
            "envoyGateway",
            NS,
            "qwen-chat-a04542d9",
            "sum(envoy_http_lua_aim_activation_requests_n7_ml_x2dteam_r18_qwen_x2dchat_x2da04542d9)",
            id="envoy-gateway-seed-namespace-encoding",
        ),
        pytest.param(
            "envoyGateway",
            "a.b",
            "é",
            "sum(envoy_http_lua_aim_activation_requests_n3_a_x2eb_r2__xc3_xa9)",
            id="envoy-gateway-utf8-bytes-lowercase-hex",
        ),
    ],
)
def test_default_activation_query(provider: str, namespace: str, route: str, expected: str) -> None:
    query = default_activation_query(
        provider, namespace=namespace, http_route_name=route, predictor_deployment=PREDICTOR
    )
    assert query == expected


@pytest.mark.parametrize(
    ("provider", "template", "field"),
    [
        pytest.param(
            "custom", None, "spec.scaleFromZero.activationMetricQueryTemplate", id="custom-needs-template"
        ),
        pytest.param("none", None, "aim:gatewayProvider", id="none-without-template"),
        pytest.param("none", "sum(x)", "aim:gatewayProvider", id="none-even-with-template"),
    ],
)
def test_activation_query_errors(provider: str, template: str | None, field: str) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        activation_query(
            provider,
            template,
            namespace=NS,
            service_name=SERVICE,
            http_route_name=ROUTE,
            predictor_deployment=PREDICTOR,
        )
    assert caught.value.reason == "ActivationMetricQueryInvalid"
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("resources", "per_gi", "expected"),
    [
        pytest.param(None, 5, 300, id="no-resources"),
        pytest.param({"requests": {"memory": "64Gi"}}, 5, 620, id="requests-memory"),
        pytest.param(
            {"requests": {"memory": "16Gi"}, "limits": {"memory": "64Gi"}}, 5, 620, id="larger-of-both"
        ),
        pytest.param({"limits": {"memory": "1500Mi"}}, 5, 305, id="floored-gib"),
        pytest.param({"requests": {"memory": "64G"}}, 5, 595, id="decimal-units"),
        pytest.param({"requests": {"memory": "200Gi"}}, 5, 1200, id="clamped-high"),
        pytest.param({"requests": {"memory": "64Gi"}}, 0, 300, id="zero-factor-allowed"),
        pytest.param({"requests": {"memory": "64Gi"}}, -3, 620, id="negative-factor-uses-default"),
        pytest.param({"requests": {"cpu": "4"}}, 5, 300, id="cpu-only"),
    ],
)
def test_cooldown_period(resources: dict[str, Any] | None, per_gi: int, expected: int) -> None:
    assert cooldown_period(resources, per_gi) == expected


def plan(
    spec: dict[str, Any],
    *,
    rc: dict[str, Any] | None = ROUTED_RC,
    provider: str = "kgateway",
    resources: dict[str, Any] | None = None,
    per_gi: int = 5,
) -> Any:
    settings = Settings(gateway_provider=provider, cooldown_seconds_per_gi_memory=per_gi)
    return plan_scaling(
        service_spec=spec,
        namespace=NS,
        service_name=SERVICE,
        isvc_name=ISVC,
        rc_spec=rc,
        container_resources=resources,
        settings=settings,
        labels={"app.kubernetes.io/component": "autoscaling"},
    )


@pytest.mark.parametrize(
    ("spec", "replicas"),
    [
        pytest.param({}, 1, id="default-one"),
        pytest.param({"replicas": 3}, 3, id="fixed-three"),
        pytest.param({"replicas": 0}, 0, id="parked-at-zero-needs-no-routing"),
    ],
)
def test_fixed_replicas(spec: dict[str, Any], replicas: int) -> None:
    scaling, conditions, diagnostics = plan(spec, rc=None)
    assert (scaling.min_replicas, scaling.max_replicas, scaling.autoscaler_class) == (
        replicas,
        replicas,
        "none",
    )
    assert scaling.scaled_object is None
    assert conditions == []
    assert diagnostics == []


@pytest.mark.parametrize(
    ("spec", "bounds"),
    [
        pytest.param(
            {"minReplicas": 1, "maxReplicas": 5, "autoScaling": {"metrics": [SEED_METRIC]}}, (1, 5), id="seed"
        ),
        pytest.param(
            {"minReplicas": 3, "autoScaling": {"metrics": [SEED_METRIC]}}, (3, 3), id="min-only-max-follows"
        ),
        pytest.param(
            {"maxReplicas": 4, "autoScaling": {"metrics": [SEED_METRIC]}}, (1, 4), id="max-only-min-one"
        ),
        pytest.param({"autoScaling": {"metrics": [SEED_METRIC]}}, (1, 1), id="autoscaling-block-only"),
    ],
)
def test_autoscaling_with_metrics(spec: dict[str, Any], bounds: tuple[int, int]) -> None:
    scaling, conditions, diagnostics = plan(spec, rc=None)
    assert (scaling.min_replicas, scaling.max_replicas, scaling.autoscaler_class) == (*bounds, "external")
    scaled = scaling.scaled_object
    assert scaled is not None
    assert (scaled.name, scaled.target_name, scaled.namespace) == (PREDICTOR, PREDICTOR, NS)
    assert (scaled.min_replicas, scaled.max_replicas) == bounds
    assert scaled.triggers == (SEED_TRIGGER,)
    assert (scaled.polling_interval, scaled.cooldown_period) == (None, None)
    assert scaled.labels == {"app.kubernetes.io/component": "autoscaling"}
    assert conditions == [
        Condition(
            "HPAReady", "Unknown", "WaitingForMetrics", f"ScaledObject {PREDICTOR} is waiting for metrics"
        )
    ]
    assert diagnostics == []


def test_replicas_ignored_with_autoscaling_is_reported() -> None:
    scaling, _, diagnostics = plan(
        {"replicas": 7, "minReplicas": 2, "autoScaling": {"metrics": [SEED_METRIC]}}
    )
    assert (scaling.min_replicas, scaling.max_replicas) == (2, 2)
    assert [(d.level, d.reason) for d in diagnostics] == [("info", "ReplicasIgnored")]


@pytest.mark.parametrize(
    ("spec", "rc", "reason", "field"),
    [
        pytest.param(
            {"minReplicas": 0},
            None,
            "RoutingRequiredForScaleToZero",
            "spec.minReplicas",
            id="zero-no-routing",
        ),
        pytest.param(
            {"minReplicas": 0, "routing": {"enabled": False}},
            ROUTED_RC,
            "RoutingRequiredForScaleToZero",
            "spec.minReplicas",
            id="zero-service-disables-routing",
        ),
        pytest.param(
            {"minReplicas": 1, "maxReplicas": 5},
            None,
            "AutoscalingRequiresMetrics",
            "spec.autoScaling.metrics",
            id="no-metrics",
        ),
        pytest.param(
            {"maxReplicas": 5, "autoScaling": {"metrics": []}},
            None,
            "AutoscalingRequiresMetrics",
            "spec.autoScaling.metrics",
            id="empty-metrics",
        ),
    ],
)
def test_invalid_autoscaling_is_a_hard_error(
    spec: dict[str, Any], rc: dict[str, Any] | None, reason: str, field: str
) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        plan(spec, rc=rc)
    assert (caught.value.reason, caught.value.field) == (reason, field)


@pytest.mark.parametrize(
    ("spec", "rc", "provider", "expected_query"),
    [
        pytest.param(
            {"minReplicas": 0, "maxReplicas": 3}, ROUTED_RC, "kgateway", KGATEWAY_QUERY, id="kgateway-default"
        ),
        pytest.param(
            {"minReplicas": 0, "maxReplicas": 3},
            ROUTED_RC,
            "envoyGateway",
            "sum(envoy_http_lua_aim_activation_requests_n7_ml_x2dteam_r18_qwen_x2dchat_x2da04542d9)",
            id="envoy-gateway-default",
        ),
        pytest.param(
            {"minReplicas": 0, "maxReplicas": 3},
            {
                **ROUTED_RC,
                "scaleFromZero": {"activationMetricQueryTemplate": 'sum(req{route="${httpRouteName}"})'},
            },
            "custom",
            f'sum(req{{route="{ROUTE}"}})',
            id="custom-with-runtime-config-template",
        ),
        pytest.param(
            {
                "minReplicas": 0,
                "maxReplicas": 3,
                "scaleFromZero": {"activationMetricQueryTemplate": "sum(svc)"},
            },
            {**ROUTED_RC, "scaleFromZero": {"activationMetricQueryTemplate": "sum(rc)"}},
            "kgateway",
            "sum(svc)",
            id="service-template-beats-runtime-config",
        ),
        pytest.param(
            {"minReplicas": 0, "maxReplicas": 3, "scaleFromZero": {"activationMetricQueryTemplate": "  "}},
            {**ROUTED_RC, "scaleFromZero": {"activationMetricQueryTemplate": "sum(rc)"}},
            "kgateway",
            "sum(rc)",
            id="blank-service-template-falls-back",
        ),
        pytest.param(
            {"minReplicas": 0, "maxReplicas": 3, "routing": {"enabled": True, "gatewayRef": {"name": "gw"}}},
            None,
            "kgateway",
            KGATEWAY_QUERY,
            id="service-enables-routing",
        ),
    ],
)
def test_scale_from_zero_activation_trigger(
    spec: dict[str, Any], rc: dict[str, Any], provider: str, expected_query: str
) -> None:
    scaling, conditions, diagnostics = plan(spec, rc=rc, provider=provider)
    scaled = scaling.scaled_object
    assert scaled is not None
    assert scaled.triggers == (activation_trigger(expected_query),)
    assert (scaled.min_replicas, scaled.max_replicas) == (0, 3)
    assert (scaled.polling_interval, scaled.cooldown_period) == (5, 300)
    assert [(c.type, c.status, c.reason) for c in conditions] == [
        ("HPAReady", "Unknown", "WaitingForMetrics")
    ]
    assert diagnostics == []


def test_activation_trigger_comes_before_user_triggers() -> None:
    spec = {"minReplicas": 0, "maxReplicas": 4, "autoScaling": {"metrics": [SEED_METRIC]}}
    scaling, _, _ = plan(spec)
    assert scaling.scaled_object is not None
    assert scaling.scaled_object.triggers == (activation_trigger(KGATEWAY_QUERY), SEED_TRIGGER)


@pytest.mark.parametrize(
    ("spec", "resources", "per_gi", "timing"),
    [
        pytest.param(
            {"minReplicas": 0}, {"requests": {"memory": "64Gi"}}, 5, (5, 620), id="cooldown-from-memory"
        ),
        pytest.param(
            {"minReplicas": 0}, {"limits": {"memory": "500Gi"}}, 5, (5, 1200), id="cooldown-clamped"
        ),
        pytest.param(
            {"minReplicas": 0}, {"limits": {"memory": "64Gi"}}, 0, (5, 300), id="cooldown-factor-zero"
        ),
        pytest.param(
            {"minReplicas": 0, "autoScaling": {"pollingInterval": 15, "cooldownPeriod": 60}},
            {"requests": {"memory": "64Gi"}},
            5,
            (15, 60),
            id="overrides-win-at-zero",
        ),
        pytest.param(
            {"minReplicas": 1, "autoScaling": {"metrics": [SEED_METRIC], "pollingInterval": 30}},
            None,
            5,
            (30, None),
            id="override-applies-above-zero",
        ),
    ],
)
def test_polling_and_cooldown(
    spec: dict[str, Any], resources: dict[str, Any] | None, per_gi: int, timing: tuple[int, int | None]
) -> None:
    scaling, _, _ = plan(spec, resources=resources, per_gi=per_gi)
    assert scaling.scaled_object is not None
    assert (scaling.scaled_object.polling_interval, scaling.scaled_object.cooldown_period) == timing


@pytest.mark.parametrize(
    ("spec", "rc", "provider", "warnings"),
    [
        pytest.param(
            {"minReplicas": 0}, ROUTED_RC, "none", ["ActivationMetricQueryInvalid"], id="provider-none"
        ),
        pytest.param(
            {"minReplicas": 0},
            ROUTED_RC,
            "traefik",
            ["InvalidGatewayProvider", "ActivationMetricQueryInvalid"],
            id="unknown-provider",
        ),
        pytest.param(
            {"minReplicas": 0}, ROUTED_RC, "custom", ["ActivationMetricQueryInvalid"], id="custom-no-template"
        ),
        pytest.param(
            {"minReplicas": 0, "autoScaling": {"metrics": [SEED_METRIC]}},
            {**ROUTED_RC, "scaleFromZero": {"activationMetricQueryTemplate": "sum(${pod})"}},
            "kgateway",
            ["ActivationMetricQueryInvalid"],
            id="unknown-placeholder-drops-user-triggers-too",
        ),
        pytest.param(
            {"minReplicas": 0},
            {**ROUTED_RC, "scaleFromZero": {"activationMetricQueryTemplate": " "}},
            "kgateway",
            ["ActivationMetricQueryInvalid"],
            id="blank-runtime-config-template",
        ),
    ],
)
def test_unrenderable_activation_query_degrades(
    spec: dict[str, Any], rc: dict[str, Any], provider: str, warnings: list[str]
) -> None:
    scaling, conditions, diagnostics = plan(spec, rc=rc, provider=provider)
    assert (scaling.min_replicas, scaling.autoscaler_class, scaling.scaled_object) == (0, "external", None)
    assert [(c.type, c.status, c.reason) for c in conditions] == [
        ("ConfigValid", "False", "ActivationMetricQueryInvalid"),
        ("HPAReady", "False", "HPANotFound"),
    ]
    assert [d.reason for d in diagnostics] == warnings
    assert all(d.level == "warn" for d in diagnostics)
    assert diagnostics[-1] == Diagnostic("warn", "ActivationMetricQueryInvalid", conditions[0].message)


@pytest.mark.parametrize(
    ("metric", "expected_metadata"),
    [
        pytest.param(
            {"podmetric": {"metric": {"query": 'sum(x{a="b"})'}, "target": {"averageValue": "5"}}},
            {"scalerAddress": ADDRESS, "metricQuery": 'sum(x{a="b"})', "targetValue": "5"},
            id="query-with-selector-used-verbatim",
        ),
        pytest.param(
            {"podmetric": {"metric": {"metricNames": ["m1", "m2"]}, "target": {"averageUtilization": 80}}},
            {
                "scalerAddress": ADDRESS,
                "metricQuery": f'sum(m1{{namespace="{NS}",deployment="{PREDICTOR}"}})',
                "targetValue": "80",
            },
            id="first-metric-name-wrapped-utilization-as-string",
        ),
        pytest.param(
            {
                "podmetric": {
                    "metric": {"metricNames": ["m"], "serverAddress": "otel:4318"},
                    "target": {"type": "Value"},
                }
            },
            {
                "scalerAddress": "otel:4318",
                "metricQuery": f'sum(m{{namespace="{NS}",deployment="{PREDICTOR}"}})',
                "targetValue": "0",
            },
            id="server-address-override-and-default-target",
        ),
    ],
)
def test_user_triggers(metric: dict[str, Any], expected_metadata: dict[str, Any]) -> None:
    scaling, _, _ = plan({"minReplicas": 1, "autoScaling": {"metrics": [{"type": "PodMetric", **metric}]}})
    assert scaling.scaled_object is not None
    assert scaling.scaled_object.triggers == ({"type": "external", "metadata": expected_metadata},)


def test_scaler_address_comes_from_settings() -> None:
    settings = Settings(gateway_provider="kgateway", keda_otel_scaler_address="otel.monitoring:4318")
    scaling, _, _ = plan_scaling(
        service_spec={"minReplicas": 0},
        namespace=NS,
        service_name=SERVICE,
        isvc_name=ISVC,
        rc_spec=ROUTED_RC,
        container_resources=None,
        settings=settings,
    )
    assert scaling.scaled_object is not None
    assert scaling.scaled_object.triggers[0]["metadata"]["scalerAddress"] == "otel.monitoring:4318"


def test_unparsable_memory_is_reported() -> None:
    with pytest.raises(AIMResolutionError) as caught:
        plan({"minReplicas": 0}, resources={"limits": {"memory": "lots"}})
    assert (caught.value.reason, caught.value.field) == ("InvalidSpec", "spec.resources.limits.memory")
