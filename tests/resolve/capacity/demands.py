"""Demands and clusters for the capacity tests: a service's replica shape without planning one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aim_pulumi.resolve.capacity.cluster import MILLI, ClusterCapacity, capacity_from_objects
from aim_pulumi.resolve.capacity.demand import GI_MILLI, CacheDemand, ServiceDemand

GPU = "amd.com/gpu"


def demand(
    name: str,
    gpus: int = 1,
    replicas: int = 1,
    max_replicas: int | None = None,
    *,
    namespace: str = "team",
    model: str = "MI300X",
    cpu: int = 0,
    memory_gi: int = 0,
    caches: Sequence[CacheDemand] = (),
    resource: str = GPU,
) -> ServiceDemand:
    requests = {resource: gpus * MILLI, "pods": MILLI}
    if cpu:
        requests["cpu"] = cpu * MILLI
    if memory_gi:
        requests["memory"] = memory_gi * GI_MILLI
    return ServiceDemand(
        namespace=namespace,
        name=name,
        isvc_name=f"{name}-isvc",
        model=model,
        accelerator_type="gpu",
        partitioning="",
        vendor="amd",
        gpu_resource=resource if gpus else None,
        requests=requests,
        limits={resource: gpus * MILLI} if gpus else {},
        min_replicas=replicas,
        max_replicas=replicas if max_replicas is None else max_replicas,
        caches=tuple(caches),
        job_names=tuple(f"{c.pvc_name}-job" for c in caches),
    )


def cluster(nodes: Sequence[Mapping[str, Any]], **kinds: Sequence[Mapping[str, Any]]) -> ClusterCapacity:
    defaults: dict[str, Sequence[Mapping[str, Any]]] = {
        "pods": [],
        "quotas": [],
        "storage_classes": [],
        "namespaces": [],
        "claims": [],
    }
    defaults.update(kinds)
    return capacity_from_objects("test cluster", nodes=nodes, **defaults)
