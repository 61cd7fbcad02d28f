"""The ScaledObject builder: KEDA shape, trigger order, optional timing fields, schema validity."""

from __future__ import annotations

import pytest
from factories import NAMESPACE, PREDICTOR, activation_trigger, metric_trigger, scaled_object_plan

from aim_pulumi.manifests import build_scaled_object
from aim_pulumi.resolve.types import ScaledObjectPlan
from aim_pulumi.schemas import validate_manifest

PLANS = {
    "one-metric": scaled_object_plan(),
    "scale-from-zero": scaled_object_plan(
        min_replicas=0,
        max_replicas=3,
        triggers=(activation_trigger(), metric_trigger()),
        polling_interval=5,
        cooldown_period=620,
    ),
    "activation-only": scaled_object_plan(min_replicas=0, max_replicas=1, triggers=(activation_trigger(),)),
    "equal-bounds": scaled_object_plan(min_replicas=2, max_replicas=2),
    "overridden-timing": scaled_object_plan(polling_interval=30, cooldown_period=0),
}


@pytest.mark.parametrize("plan", list(PLANS.values()), ids=list(PLANS))
def test_every_plan_validates(plan: ScaledObjectPlan) -> None:
    assert validate_manifest(build_scaled_object(plan)) == []


def test_shape() -> None:
    manifest = build_scaled_object(PLANS["scale-from-zero"])
    assert manifest["apiVersion"] == "keda.sh/v1alpha1"
    assert manifest["kind"] == "ScaledObject"
    assert manifest["metadata"]["name"] == PREDICTOR
    assert manifest["metadata"]["namespace"] == NAMESPACE
    assert manifest["metadata"]["labels"]["app.kubernetes.io/component"] == "autoscaling"
    assert manifest["metadata"]["annotations"] == {"pulumi.com/patchForce": "true"}
    assert manifest["spec"] == {
        "scaleTargetRef": {"name": PREDICTOR},
        "minReplicaCount": 0,
        "maxReplicaCount": 3,
        "pollingInterval": 5,
        "cooldownPeriod": 620,
        "triggers": [activation_trigger(), metric_trigger()],
    }


@pytest.mark.parametrize(
    ("plan", "expected"),
    [
        pytest.param(PLANS["one-metric"], {}, id="unset-omitted"),
        pytest.param(
            PLANS["overridden-timing"], {"pollingInterval": 30, "cooldownPeriod": 0}, id="zero-kept"
        ),
    ],
)
def test_timing_fields(plan: ScaledObjectPlan, expected: dict[str, int]) -> None:
    spec = build_scaled_object(plan)["spec"]
    assert {k: spec[k] for k in ("pollingInterval", "cooldownPeriod") if k in spec} == expected


def test_trigger_order_is_kept() -> None:
    plan = scaled_object_plan(triggers=(metric_trigger(), activation_trigger()))
    queries = [t["metadata"]["metricQuery"] for t in build_scaled_object(plan)["spec"]["triggers"]]
    assert queries == [
        metric_trigger()["metadata"]["metricQuery"],
        activation_trigger()["metadata"]["metricQuery"],
    ]


def test_min_above_max_is_caught_by_the_schema_rule() -> None:
    manifest = build_scaled_object(scaled_object_plan(min_replicas=4, max_replicas=2))
    assert validate_manifest(manifest) != []


def test_skip_await() -> None:
    manifest = build_scaled_object(scaled_object_plan(), skip_await=True)
    assert manifest["metadata"]["annotations"] == {
        "pulumi.com/patchForce": "true",
        "pulumi.com/skipAwait": "true",
    }
    assert validate_manifest(manifest) == []
