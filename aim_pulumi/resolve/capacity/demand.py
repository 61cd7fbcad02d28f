"""What one planned service asks of the cluster: per replica, at its minimum and maximum replicas.

A replica is one predictor pod: the inference container's requests (a limit stands in for a missing
request, as the API server defaults it) and one pod slot. KServe's own sidecars and the download
Jobs' short-lived pods are not counted: the first are not in the plan, the second end before the
predictor needs its room. A cache is one PVC in the service's namespace, of its storage class (None:
the cluster's default), counted once per Shared cache however many services mount it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from aim_pulumi.resolve.capacity.accelerators import GPU_RESOURCES
from aim_pulumi.resolve.capacity.cluster import MILLI, PODS, milli
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.scalars import text

__all__ = ["GI_MILLI", "CacheDemand", "ServiceDemand", "service_demand"]

GI_MILLI = 1024**3 * MILLI


@dataclass(frozen=True)
class CacheDemand:
    """One cache PVC the program will hold."""

    namespace: str
    pvc_name: str
    storage_class: str | None
    size: int
    shared: bool


@dataclass(frozen=True)
class ServiceDemand:
    """One service's demand: which nodes may run it (the accelerator) and what each replica takes."""

    namespace: str
    name: str
    isvc_name: str
    model: str
    accelerator_type: str
    partitioning: str
    vendor: str
    gpu_resource: str | None
    requests: Mapping[str, int]
    limits: Mapping[str, int]
    min_replicas: int
    max_replicas: int
    caches: tuple[CacheDemand, ...] = ()
    job_names: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)

    @property
    def ref(self) -> str:
        return f"AIMService/{self.namespace}/{self.name}"

    @property
    def gpus(self) -> int:
        """Whole GPUs one replica requests (0 without a GPU resource)."""
        if self.gpu_resource is None:
            return 0
        return -(-self.requests.get(self.gpu_resource, 0) // MILLI)

    @property
    def pool(self) -> str:
        """What a table calls the nodes this service runs on: its model, else its GPU resource."""
        if self.model:
            return self.model
        return self.gpu_resource or "cpu"


def _amounts(values: object) -> dict[str, int]:
    out: dict[str, int] = {}
    if not isinstance(values, Mapping):
        return out
    for key, value in sorted(values.items()):
        try:
            out[str(key)] = milli(value)
        except ValueError:
            continue
    return out


def service_demand(plan: ServicePlan) -> ServiceDemand:
    """The demand of a service as planned (the container the InferenceService will run)."""
    resources = plan.container.resources
    limits = _amounts(resources.get("limits"))
    requests = {**limits, **_amounts(resources.get("requests"))}
    requests[PODS] = MILLI
    spec = plan.profile_spec
    vendor = text(spec.get("acceleratorVendor")).lower()
    gpu = next((r for r in (GPU_RESOURCES.get(vendor), *GPU_RESOURCES.values()) if r and r in requests), None)
    caches = tuple(
        CacheDemand(
            namespace=cache.namespace,
            pvc_name=cache.pvc_name,
            storage_class=cache.storage_class_name,
            size=cache.size_gi * GI_MILLI,
            shared=cache.mode == "Shared",
        )
        for cache in plan.caches
    )
    return ServiceDemand(
        namespace=plan.namespace,
        name=plan.name,
        isvc_name=plan.isvc_name,
        model=text(spec.get("acceleratorModel")),
        accelerator_type=text(spec.get("acceleratorType")).lower(),
        partitioning=text(spec.get("acceleratorPartitioningMode")),
        vendor=vendor,
        gpu_resource=gpu,
        requests=dict(sorted(requests.items())),
        limits=dict(sorted(limits.items())),
        min_replicas=plan.scaling.min_replicas,
        max_replicas=max(plan.scaling.max_replicas, plan.scaling.min_replicas),
        caches=caches,
        job_names=tuple(sorted(cache.job_name for cache in plan.caches)),
    )
