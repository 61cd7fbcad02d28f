"""Small manifest builders for the API tests: a valid object of each kind, every part overridable."""

from __future__ import annotations

from typing import Any

V1 = "aim.eai.amd.com/v1alpha1"
V2 = "aim.eai.amd.com/v1alpha2"


def meta(name: str = "qwen-chat", namespace: str | None = "ml-team", **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if namespace is not None:
        out["namespace"] = namespace
    out.update(extra)
    return out


def service(spec: dict[str, Any] | None = None, *, version: str = V2, **metadata: Any) -> dict[str, Any]:
    return {
        "apiVersion": version,
        "kind": "AIMService",
        "metadata": meta(**metadata),
        "spec": {"model": {"name": "qwen-qwen3-32b"}} if spec is None else spec,
    }


def profile(spec: dict[str, Any] | None = None, *, cluster: bool = False, **metadata: Any) -> dict[str, Any]:
    body = {"aimId": "qwen/qwen3-32b", "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"}
    body.update(spec or {})
    metadata.setdefault("name", "qwen-fp8")
    if cluster:
        metadata["namespace"] = None
    return {
        "apiVersion": V2,
        "kind": "AIMClusterProfile" if cluster else "AIMProfile",
        "metadata": meta(**metadata),
        "spec": body,
    }


def model(spec: dict[str, Any] | None = None, *, cluster: bool = False, version: str = V2) -> dict[str, Any]:
    return {
        "apiVersion": version,
        "kind": "AIMClusterModel" if cluster else "AIMModel",
        "metadata": meta("qwen-qwen3-32b", None if cluster else "ml-team"),
        "spec": {"modelId": "Qwen/Qwen3-32B"} if spec is None else spec,
    }


def profile_set(spec: dict[str, Any] | None = None, *, cluster: bool = False) -> dict[str, Any]:
    body = {"selector": {"aimId": "qwen/qwen3-32b"}, "versionPolicy": "latest"} if spec is None else spec
    return {
        "apiVersion": V2,
        "kind": "AIMClusterProfileSet" if cluster else "AIMProfileSet",
        "metadata": meta("qwen-remix", None if cluster else "ml-team"),
        "spec": body,
    }


def runtime_config(spec: dict[str, Any] | None = None, *, cluster: bool = False) -> dict[str, Any]:
    return {
        "apiVersion": V1,
        "kind": "AIMClusterRuntimeConfig" if cluster else "AIMRuntimeConfig",
        "metadata": meta("default", None if cluster else "ml-team"),
        "spec": spec or {},
    }


def template(spec: dict[str, Any] | None = None, *, cluster: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {"modelName": "qwen-qwen3-32b"}
    body.update(spec or {})
    return {
        "apiVersion": V1,
        "kind": "AIMClusterServiceTemplate" if cluster else "AIMServiceTemplate",
        "metadata": meta("qwen3-32b-throughput", None if cluster else "ml-team"),
        "spec": body,
    }


def fallback(**overrides: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": "nvidia-vllm",
        "match": {"acceleratorVendor": "nvidia", "acceleratorType": "gpu"},
        "runtime": {"image": "vllm/vllm-openai:v0.17.1-cu130", "engine": "vllm"},
    }
    out.update(overrides)
    return out


def fallbacks_rc(*items: dict[str, Any]) -> dict[str, Any]:
    return runtime_config({"model": {"profileGeneration": {"fallbacks": list(items)}}}, cluster=True)


def s3_rc(s3: dict[str, Any]) -> dict[str, Any]:
    return runtime_config({"artifact": {"s3": s3}})


METRIC = {
    "type": "PodMetric",
    "podmetric": {
        "metric": {"backend": "opentelemetry", "metricNames": ["vllm:num_requests_running"]},
        "target": {"type": "Value", "value": "1"},
    },
}
