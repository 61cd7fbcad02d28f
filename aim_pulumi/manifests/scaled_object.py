"""The KEDA ScaledObject driving an autoscaled predictor (behaviour §9)."""

from __future__ import annotations

from typing import Any

from aim_pulumi.manifests._common import metadata, plain
from aim_pulumi.resolve.types import ScaledObjectPlan

API_VERSION = "keda.sh/v1alpha1"
KIND = "ScaledObject"


def build_scaled_object(plan: ScaledObjectPlan, *, skip_await: bool = False) -> dict[str, Any]:
    """Triggers keep the plan's order: the activation trigger first is what wakes a predictor at zero."""
    spec: dict[str, Any] = {
        "scaleTargetRef": {"name": plan.target_name},
        "minReplicaCount": plan.min_replicas,
        "maxReplicaCount": plan.max_replicas,
    }
    if plan.polling_interval is not None:
        spec["pollingInterval"] = plan.polling_interval
    if plan.cooldown_period is not None:
        spec["cooldownPeriod"] = plan.cooldown_period
    spec["triggers"] = [plain(trigger) for trigger in plan.triggers]
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": metadata(plan.name, plan.namespace, plan.labels, skip_await=skip_await),
        "spec": spec,
    }
