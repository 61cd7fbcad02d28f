"""Annotations the InferenceService carries besides the project's own controls (operator parity).

Platform tooling keys on the InferenceService, not on the AIMService: gateway auth policies select
`cluster-auth/*`, dashboards read `aim.eai.amd.com/model-id`, and KEDA's OTel scaler only sees the
`vllm:*` metrics when the predictor pod exposes them to the OpenTelemetry collector the operator
names. A service adopted from the operator must keep all of these, or its first plan breaks them.
"""

from __future__ import annotations

from collections.abc import Mapping

from aim_pulumi.resolve.children.container import VLLM_PORT, served_model_id
from aim_pulumi.resolve.types import ScalingPlan

MODEL_ID = "aim.eai.amd.com/model-id"
PROMETHEUS_PORT = "prometheus.kserve.io/port"
PROMETHEUS_PATH = "prometheus.kserve.io/path"
OTEL_INJECT = "sidecar.opentelemetry.io/inject"
METRICS_PATH = "/metrics"

# The service annotations the operator copies to its InferenceService: gateway auth policies
# select on these. Every other annotation of the service (a team's `example.com/owner`, kubectl's
# bookkeeping, the operator's and Pulumi's controls) describes or steers the AIMService itself and
# stays there (upstream `TestBuildInferenceServiceFromProfile_AnnotationPropagation`).
PROPAGATED_PREFIXES = ("cluster-auth/",)


def propagated(service_annotations: Mapping[str, str]) -> dict[str, str]:
    """The service annotations the InferenceService inherits: the `cluster-auth/*` ones."""
    return {
        key: value
        for key, value in service_annotations.items()
        if any(key.startswith(prefix) for prefix in PROPAGATED_PREFIXES)
    }


def metrics_annotations(scaling: ScalingPlan, predictor_name: str) -> dict[str, str]:
    """What routes the engine's metrics to the autoscaler: only when a ScaledObject reads them.

    The OpenTelemetry sidecar (named after the predictor, `<isvc>-predictor`) scrapes the port and
    path KServe's Prometheus annotations name and forwards to the KEDA OTel scaler; user-metric
    triggers and the scale-from-zero activation trigger both read from there.
    """
    if scaling.scaled_object is None:
        return {}
    return {
        PROMETHEUS_PORT: str(VLLM_PORT),
        PROMETHEUS_PATH: METRICS_PATH,
        OTEL_INJECT: predictor_name,
    }


def isvc_extra_annotations(
    service_annotations: Mapping[str, str],
    profile_spec: Mapping[str, object],
    scaling: ScalingPlan,
    predictor_name: str,
) -> dict[str, str]:
    """Propagated service annotations, then the model id and metrics annotations (which win)."""
    out = propagated(service_annotations)
    model_id = served_model_id(profile_spec)
    if model_id:
        out[MODEL_ID] = model_id
    out.update(metrics_annotations(scaling, predictor_name))
    return dict(sorted(out.items()))
