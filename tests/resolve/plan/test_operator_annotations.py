"""InferenceService annotations an operator-managed service already has (operator parity).

Each row is named after the operator behaviour it pins; every planned manifest must still validate.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_service_plan import GATEWAY, manifests, profile, service

from aim_pulumi.resolve import Settings, plan_service
from aim_pulumi.schemas import validate_manifest
from tests.versions import Catalog

PIPELINE = {"aim.eai.amd.com/reconciler-pipeline": "profile"}
METRICS = [
    {
        "type": "PodMetric",
        "podmetric": {
            "metric": {"backend": "opentelemetry", "metricNames": ["vllm:num_requests_running"]},
            "target": {"type": "Value", "value": "1"},
        },
    }
]


def _isvc(annotations: dict[str, str], settings: Settings | None = None, **spec: Any) -> dict[str, Any]:
    catalog = Catalog([profile("qwen-fp8")])
    plan = plan_service(service(annotations={**PIPELINE, **annotations}, **spec), catalog, settings)
    docs = manifests(plan)
    for doc in docs:
        assert validate_manifest(doc) == [], doc["kind"]
    isvc = next(doc for doc in docs if doc["kind"] == "InferenceService")
    return dict(isvc["metadata"].get("annotations") or {})


PROPAGATION = [
    pytest.param(
        {"cluster-auth/policy": "team-a"},
        {"cluster-auth/policy": "team-a"},
        id="operator-propagates-cluster-auth",
    ),
    pytest.param(
        {"cluster-auth/policy": "team-a", "cluster-auth/audience": "chat"},
        {"cluster-auth/policy": "team-a", "cluster-auth/audience": "chat"},
        id="operator-propagates-every-cluster-auth-annotation",
    ),
    # upstream TestBuildInferenceServiceFromProfile_AnnotationPropagation
    pytest.param(
        {"cluster-auth/policy": "team-a", "example.com/foreign": "x"},
        {"cluster-auth/policy": "team-a"},
        id="operator-drops-foreign-annotations",
    ),
    pytest.param({"example.com/owner": "ops"}, {}, id="operator-keeps-user-annotations-on-the-service"),
    pytest.param({"cluster-authx/policy": "a"}, {}, id="operator-matches-the-cluster-auth-prefix-exactly"),
    pytest.param({"aim.eai.amd.com/force-rebind": "x"}, {}, id="operator-keeps-force-rebind-off-the-child"),
    pytest.param({}, {}, id="operator-keeps-the-pipeline-annotation-off-the-child"),
    pytest.param(
        {"kubectl.kubernetes.io/last-applied-configuration": "{}"},
        {},
        id="operator-keeps-kubectl-bookkeeping-off",
    ),
    pytest.param(
        {"pulumi.com/skipAwait": "true"}, {}, id="await-controls-of-the-service-stay-on-the-service"
    ),
    pytest.param(
        {"serving.kserve.io/deploymentMode": "RawDeployment"},
        {"serving.kserve.io/deploymentMode": "Standard"},
        id="project-controls-win-over-a-propagated-annotation",
    ),
]


@pytest.mark.parametrize(("given", "expected"), PROPAGATION)
def test_service_annotations_reach_the_inference_service(
    given: dict[str, str], expected: dict[str, str]
) -> None:
    notes = _isvc(given, model={"name": "qwen"})
    for key in given:
        if key not in expected:
            assert key not in notes
    assert "aim.eai.amd.com/reconciler-pipeline" not in notes
    for key, value in expected.items():
        assert notes[key] == value


def test_operator_sets_the_served_model_id() -> None:
    assert _isvc({}, model={"name": "qwen"})["aim.eai.amd.com/model-id"] == "Qwen/Qwen3-32B"


METRICS_ROWS = [
    pytest.param(
        {"minReplicas": 1, "maxReplicas": 3, "autoScaling": {"metrics": METRICS}},
        True,
        id="operator-user-metric-autoscaling",
    ),
    pytest.param(
        {"minReplicas": 0, "maxReplicas": 2, "routing": GATEWAY}, True, id="operator-scale-from-zero"
    ),
    pytest.param({"replicas": 2}, False, id="fixed-replicas-have-no-metrics-pipeline"),
]


@pytest.mark.parametrize(("spec", "wired"), METRICS_ROWS)
def test_metrics_reach_the_autoscaler(spec: dict[str, Any], wired: bool) -> None:
    settings = Settings(gateway_provider="kgateway")
    notes = _isvc({}, settings, model={"name": "qwen"}, **spec)
    isvc_name_suffix = "-predictor"
    if wired:
        assert notes["prometheus.kserve.io/port"] == "8000"
        assert notes["prometheus.kserve.io/path"] == "/metrics"
        assert notes["sidecar.opentelemetry.io/inject"].endswith(isvc_name_suffix)
    else:
        assert not {"prometheus.kserve.io/port", "sidecar.opentelemetry.io/inject"} & set(notes)


def test_the_otel_sidecar_is_named_after_the_predictor_the_scaled_object_targets() -> None:
    catalog = Catalog([profile("qwen-fp8")])
    spec = {"minReplicas": 1, "maxReplicas": 3, "autoScaling": {"metrics": METRICS}}
    plan = plan_service(service(annotations=PIPELINE, model={"name": "qwen"}, **spec), catalog)
    assert plan.scaling.scaled_object is not None
    assert plan.isvc_annotations["sidecar.opentelemetry.io/inject"] == plan.predictor_name
    assert plan.scaling.scaled_object.target_name == plan.predictor_name == f"{plan.isvc_name}-predictor"
