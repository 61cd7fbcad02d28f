"""Kubernetes objects as the API server lists them, for the capacity tests (and the cluster lane).

Each builder returns the JSON a `list` would hold: what the capacity check reads, written the way
a cluster has it (allocatable as quantity strings, taints, pods with containers' resources).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

AIM = "feature.node.kubernetes.io/aim-accelerator."
UNPARTITIONED = AIM + "partitioning-scheme.default"


def aim_labels(model: str, devices: int = 8) -> dict[str, str]:
    """What the AIM accelerator detector writes on an unpartitioned GPU node."""
    return {AIM + model: str(devices), UNPARTITIONED: str(devices)}


def node(
    name: str,
    gpus: int | None = 8,
    *,
    model: str | None = "MI300X",
    labels: Mapping[str, str] | None = None,
    cpu: str = "128",
    memory: str = "1024Gi",
    pods: str = "110",
    resource: str = "amd.com/gpu",
    taints: Sequence[Mapping[str, str]] = (),
    unschedulable: bool = False,
) -> dict[str, Any]:
    all_labels = {"kubernetes.io/hostname": name}
    if model is not None and labels is None:
        all_labels.update(aim_labels(model, gpus or 0))
    all_labels.update(labels or {})
    allocatable: dict[str, str] = {"cpu": cpu, "memory": memory, "pods": pods}
    if gpus is not None:
        allocatable[resource] = str(gpus)
    spec: dict[str, Any] = {}
    if taints:
        spec["taints"] = [dict(t) for t in taints]
    if unschedulable:
        spec["unschedulable"] = True
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": all_labels},
        "spec": spec,
        "status": {"allocatable": allocatable, "capacity": dict(allocatable)},
    }


def pod(
    name: str,
    node_name: str | None,
    requests: Mapping[str, str],
    *,
    namespace: str = "others",
    labels: Mapping[str, str] | None = None,
    limits: Mapping[str, str] | None = None,
    phase: str = "Running",
) -> dict[str, Any]:
    resources: dict[str, Any] = {"requests": dict(requests)}
    if limits is not None:
        resources["limits"] = dict(limits)
    spec: dict[str, Any] = {"containers": [{"name": "main", "image": "busybox", "resources": resources}]}
    if node_name is not None:
        spec["nodeName"] = node_name
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels or {})},
        "spec": spec,
        "status": {"phase": phase},
    }


def quota(
    name: str,
    namespace: str,
    hard: Mapping[str, str],
    used: Mapping[str, str] | None = None,
    *,
    scopes: Sequence[str] = (),
) -> dict[str, Any]:
    spec: dict[str, Any] = {"hard": dict(hard)}
    if scopes:
        spec["scopes"] = list(scopes)
    return {
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": {"name": name, "namespace": namespace},
        "spec": spec,
        "status": {"hard": dict(hard), "used": dict(used or {k: "0" for k in hard})},
    }


def storage_class(name: str, *, default: bool = False) -> dict[str, Any]:
    annotations = {"storageclass.kubernetes.io/is-default-class": "true"} if default else {}
    return {
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "metadata": {"name": name, "annotations": annotations},
        "provisioner": "example.com/none",
    }


def namespace(name: str, artifact_quota: str | None = None) -> dict[str, Any]:
    annotations = {"aim.eai.amd.com/artifact-storage-quota": artifact_quota} if artifact_quota else {}
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "annotations": annotations}}


def claim(
    name: str,
    namespace: str,
    size: str,
    *,
    storage_class: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    spec: dict[str, Any] = {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": size}}}
    if storage_class is not None:
        spec["storageClassName"] = storage_class
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels or {})},
        "spec": spec,
    }
