"""The child manifests the project really emits: the examples' plans and typical planned services."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import yaml

from aim_pulumi.api import parse
from aim_pulumi.cli.execution import execute
from aim_pulumi.cli.project import load_program
from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.offline.plan_document import kubernetes_manifests
from aim_pulumi.resolve import Catalog, plan_service

ROOT = Path(__file__).resolve().parents[2]
PYTHON_EXAMPLES = ("autoscaling", "custom-weights", "model-id", "multi-team", "quickstart", "yaml-manifests")
GATEWAY = {"enabled": True, "gatewayRef": {"name": "inference-gateway", "namespace": "gateways"}}
METRICS = [
    {
        "type": "PodMetric",
        "podmetric": {
            "metric": {"metricNames": ["vllm:num_requests_running"]},
            "target": {"type": "Value", "value": "1"},
        },
    }
]
Manifest = dict[str, Any]


@functools.cache
def example_children() -> tuple[Manifest, ...]:
    """Every Kubernetes child the Python examples plan (offline, on the embedded catalog)."""
    found: list[Manifest] = []
    for name in PYTHON_EXAMPLES:
        outcome = execute(load_program(str(ROOT / "examples" / name)))
        assert outcome.error is None and outcome.recording is not None, (name, outcome.error)
        found += kubernetes_manifests(outcome.recording)
    return tuple(found)


def _object(kind: str, name: str, spec: dict[str, Any], **meta: Any) -> Any:
    version = "v1alpha1" if kind.endswith("RuntimeConfig") else "v1alpha2"
    metadata = {"name": name, "namespace": "ml-team", **meta}
    return parse(
        {"apiVersion": f"aim.eai.amd.com/{version}", "kind": kind, "metadata": metadata, "spec": spec}
    )


def _profile(name: str, **spec: Any) -> Any:
    base = {
        "aimId": "qwen/qwen3-32b",
        "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
        "type": "optimized",
        "precision": "fp8",
        "acceleratorType": "gpu",
        "acceleratorVendor": "amd",
        "acceleratorModel": "MI300X",
        "acceleratorCount": 1,
        "modelSources": [{"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "60Gi"}],
        **spec,
    }
    return _object("AIMProfile", name, base, labels={"aim.eai.amd.com/source-model": "qwen"})


TYPICAL_SERVICES: tuple[dict[str, Any], ...] = (
    {"model": {"name": "qwen"}, "routing": GATEWAY},
    {"model": {"name": "qwen"}, "minReplicas": 1, "maxReplicas": 3, "autoScaling": {"metrics": METRICS}},
    {"model": {"name": "qwen"}, "minReplicas": 0, "maxReplicas": 2, "routing": GATEWAY},
    {
        "model": {"name": "qwen"},
        "replicas": 2,
        "env": [
            {"name": "LEVEL", "value": "service"},
            {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
        ],
        "resources": {"limits": {"memory": "64Gi", "cpu": "8"}, "requests": {"memory": "32Gi"}},
    },
)


@functools.cache
def typical_children() -> tuple[Manifest, ...]:
    """The children of typical services, planned by the pure planner and built by the builders."""
    catalog = Catalog([_profile("qwen-fp8", caching={"enabled": True})])
    found: list[Manifest] = []
    for index, spec in enumerate(TYPICAL_SERVICES):
        annotations = {"aim.eai.amd.com/reconciler-pipeline": "profile"}
        plan = plan_service(
            _object("AIMService", f"svc-{index}", copy.deepcopy(spec), annotations=annotations), catalog
        )
        found += build_service_manifests(plan)
        found += [doc for cache in plan.caches for doc in (build_cache_pvc(cache), build_download_job(cache))]
    return tuple(found)


@functools.cache
def upstream_examples() -> tuple[Manifest, ...]:
    """The vendored upstream example of each kind (tests/fixtures/schemas/good.yaml)."""
    text = (ROOT / "tests" / "fixtures" / "schemas" / "good.yaml").read_text(encoding="utf-8")
    return tuple(yaml.safe_load_all(text))


def all_children() -> tuple[Manifest, ...]:
    return example_children() + typical_children() + upstream_examples()


def kind_of(manifest: Manifest) -> tuple[str, str]:
    """(apiVersion, kind): how the vendored schemas are found."""
    return str(manifest["apiVersion"]), str(manifest["kind"])
