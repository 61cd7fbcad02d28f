"""A small AIM catalog and service specs shared by the Pulumi-layer tests (behaviour §4.10 flavour).

Namespace `ml-team` holds the model `qwen` with two namespaced profiles; a cluster profile for
another accelerator exists too. Each `declare_*` function declares components, so it must run
inside a program under the recording engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import pulumi

from aim_pulumi.offline.recording import PlanRecording, RecordedResource
from aim_pulumi.resources import (
    AIMClusterProfile,
    AIMClusterRuntimeConfig,
    AIMModel,
    AIMProfile,
    AIMRuntimeConfig,
    AIMService,
    AIMServiceArgsDict,
)
from aim_pulumi.schemas import validate_manifest

NS = "ml-team"
MODEL = "qwen"
IMAGE = "ghcr.io/amd/qwen3:0.8.5"
P1 = "qwen-mi300x-fp8"  # primary, optimized: the winner of a fresh ranking in ml-team
P2 = "qwen-mi300x-fp16"  # optimized, not primary
C1 = "qwen-mi325x-fp8"  # cluster profile for another accelerator
SOURCE_URI = "hf://qwen/qwen3-32b"
PIPELINE = {"aim.eai.amd.com/reconciler-pipeline": "profile"}
GATEWAY = {"name": "inference-gateway", "namespace": "gateways"}

ISVC = "kubernetes:serving.kserve.io/v1beta1:InferenceService"
ROUTE = "kubernetes:gateway.networking.k8s.io/v1:HTTPRoute"
SCALED_OBJECT = "kubernetes:keda.sh/v1alpha1:ScaledObject"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
PVC = "kubernetes:core/v1:PersistentVolumeClaim"
JOB = "kubernetes:batch/v1:Job"
SECRET = "kubernetes:core/v1:Secret"
BINDING = "pulumi-python:dynamic/aim:Binding"
SERVICE = "aim:index:AIMService"
SHARED_CACHE = "aim:index:AIMSharedCache"


def profile_spec(**changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "aimId": "qwen/qwen3-32b",
        "image": IMAGE,
        "type": "optimized",
        "metric": "latency",
        "precision": "fp8",
        "acceleratorVendor": "amd",
        "acceleratorType": "gpu",
        "acceleratorModel": "MI300X",
        "acceleratorCount": 1,
        "engineArgs": {"max-model-len": 8192},
        "modelSources": [{"modelId": "qwen/qwen3-32b", "sourceUri": SOURCE_URI, "size": "20Gi"}],
    }
    spec.update(changes)
    return spec


def model_labels(model: str = MODEL) -> dict[str, str]:
    return {"aim.eai.amd.com/source-model": model}


def catalog_declarations(namespace: str = NS) -> list[Callable[[], object]]:
    """One callable per catalog object, so a test can declare them in any order."""
    return [
        lambda: AIMModel(
            f"{namespace}-{MODEL}", {"name": MODEL, "namespace": namespace, "spec": {"image": IMAGE}}
        ),
        lambda: AIMProfile(
            f"{namespace}-{P1}",
            {
                "name": P1,
                "namespace": namespace,
                "labels": model_labels(),
                "spec": profile_spec(primary=True),
            },
        ),
        lambda: AIMProfile(
            f"{namespace}-{P2}",
            {
                "name": P2,
                "namespace": namespace,
                "labels": model_labels(),
                "spec": profile_spec(precision="fp16"),
            },
        ),
        lambda: AIMClusterProfile(
            C1,
            {"labels": model_labels(), "spec": profile_spec(primary=True, acceleratorModel="MI325X")},
        ),
    ]


def declare_catalog(namespace: str = NS, order: Sequence[int] | None = None) -> None:
    declarations = catalog_declarations(namespace)
    for index in order if order is not None else range(len(declarations)):
        declarations[index]()


def declare_routing_config(namespace: str = NS, **routing: Any) -> AIMRuntimeConfig:
    return AIMRuntimeConfig(
        f"{namespace}-default",
        {
            "name": "default",
            "namespace": namespace,
            "spec": {"routing": {"enabled": True, "gatewayRef": dict(GATEWAY), **routing}},
        },
    )


def declare_cluster_config(spec: Mapping[str, Any]) -> AIMClusterRuntimeConfig:
    return AIMClusterRuntimeConfig("cluster-default", {"name": "default", "spec": dict(spec)})


def _copy(value: Any) -> Any:
    """A copy of the dict/list structure; leaves (including Pulumi Outputs) are shared, not copied."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def service_args(spec: Mapping[str, Any], *, namespace: str = NS, **extra: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"namespace": namespace, "spec": _copy(dict(spec))}
    args.update(extra)
    return args


def by_model(**spec: Any) -> dict[str, Any]:
    """The `Model` shape (profile pipeline chosen by the reconciler-pipeline annotation)."""
    return {"model": {"name": MODEL}, **spec}


def declare_service(
    name: str, spec: Mapping[str, Any], *, opts: pulumi.ResourceOptions | None = None, **extra: Any
) -> AIMService:
    """An AIMService in ml-team; `extra` are further arguments (labels, component options)."""
    annotations = dict(extra.pop("annotations", {}))
    if "profile" not in spec:
        annotations = {**PIPELINE, **annotations}
    args = cast(AIMServiceArgsDict, service_args(spec, annotations=annotations, **extra))
    return AIMService(name, args, opts)


# ------------------------------------------------------------------------------------ assertions


def children_of(rec: PlanRecording, name: str) -> set[tuple[str, str]]:
    """(type, name) of every resource whose parent is the component `name`."""
    return {(r.type, r.name) for r in rec.children(name)}


def kubernetes_children(rec: PlanRecording, name: str) -> dict[str, RecordedResource]:
    return {r.name: r for r in rec.children(name) if r.type.startswith("kubernetes:")}


def invalid_manifests(resources: Iterable[RecordedResource]) -> dict[str, list[str]]:
    """Every Kubernetes child whose manifest the project's schema validator rejects, with reasons."""
    problems: dict[str, list[str]] = {}
    for resource in resources:
        if resource.type.startswith("kubernetes:"):
            errors = validate_manifest(resource.manifest)
            if errors:
                problems[resource.name] = errors
    return problems


def service_status(rec: PlanRecording, name: str) -> dict[str, Any]:
    status: dict[str, Any] = rec.outputs_of(name)["status"]
    return status


def condition(status: Mapping[str, Any], kind: str) -> dict[str, Any] | None:
    for entry in status.get("conditions") or []:
        if entry.get("type") == kind:
            return dict(entry)
    return None


def deployed(registered: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """What a failed program would have created in the cluster or in state: children and bindings."""
    return [r for r in registered if r[0].startswith(("kubernetes:", "pulumi-python:dynamic"))]
