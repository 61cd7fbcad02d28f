"""Pure manifest builders: a resolved plan in, plain Kubernetes dicts out (no pulumi import)."""

from __future__ import annotations

from typing import Any

from aim_pulumi.manifests.cache import build_cache_pvc, build_download_job
from aim_pulumi.manifests.http_route import build_http_route
from aim_pulumi.manifests.inference_service import build_inference_service
from aim_pulumi.manifests.profile_config import build_profile_config
from aim_pulumi.manifests.scaled_object import build_scaled_object
from aim_pulumi.resolve.plan.result import ServicePlan


def build_service_manifests(plan: ServicePlan) -> list[dict[str, Any]]:
    """The children a service owns itself, in a fixed order; caches are built on their own.

    Order: InferenceService, then the profile ConfigMap, HTTPRoute and ScaledObject when the plan
    has them. skipAwait reaches every child so Pulumi waits on none of them.
    """
    skip = plan.wait.skip_await
    manifests = [build_inference_service(plan)]
    if plan.profile_config is not None:
        manifests.append(build_profile_config(plan.profile_config, plan.namespace, skip_await=skip))
    if plan.route is not None:
        manifests.append(build_http_route(plan.route, skip_await=skip))
    if plan.scaling.scaled_object is not None:
        manifests.append(build_scaled_object(plan.scaling.scaled_object, skip_await=skip))
    return manifests


__all__ = [
    "build_cache_pvc",
    "build_download_job",
    "build_http_route",
    "build_inference_service",
    "build_profile_config",
    "build_scaled_object",
    "build_service_manifests",
]
