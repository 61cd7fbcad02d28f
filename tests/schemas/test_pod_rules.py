"""The Go-coded pod rules, case by case; `tests/cluster/test_oracle_cluster.py` shows the API server
agreeing with each kind of case."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.schemas import validate_manifest
from aim_pulumi.schemas.pod_rules import config_map_key_errors, env_name_errors, quantity_value_errors


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("HF_TOKEN", True),
        ("my.var-1", True),
        ("with space", True),  # relaxed validation (default since Kubernetes 1.32)
        ("1LEADING_DIGIT", True),
        ("a=b", False),
        ("A\nB", False),
        ("é", False),
        ("\u0430", False),  # Cyrillic a
        ("", False),
    ],
)
def test_env_names_follow_is_relaxed_env_var_name(name: str, valid: bool) -> None:
    assert (env_name_errors(name) == []) is valid


@pytest.mark.parametrize(
    ("key", "valid"),
    [("token", True), ("vllm-profile.yaml", True), ("a/b", False), ("k/../x", False), ("..a", False),
     (".", False), ("a" * 253, True), ("a" * 254, False), ("", False)],
)  # fmt: skip
def test_data_keys_follow_is_config_map_key(key: str, valid: bool) -> None:
    assert (config_map_key_errors(key) == []) is valid


@pytest.mark.parametrize(
    ("name", "value", "valid"),
    [("memory", "-1", False), ("memory", "0", True), ("cpu", "500m", True), ("amd.com/gpu", ".5", False),
     ("amd.com/gpu", "1e-400", False), ("amd.com/gpu", "+1", True), ("amd.com/gpu", 2, True),
     ("hugepages-2Mi", "1Gi", True)],
)  # fmt: skip
def test_quantities_follow_validate_resource_quantity_value(name: str, value: Any, valid: bool) -> None:
    assert (quantity_value_errors(name, value) == []) is valid


def _isvc(container: dict[str, Any], **predictor: Any) -> dict[str, Any]:
    return {
        "apiVersion": "serving.kserve.io/v1beta1",
        "kind": "InferenceService",
        "metadata": {"name": "chat", "namespace": "ml"},
        "spec": {
            "predictor": {
                "containers": [{"name": "kserve-container", "image": "x", **container}],
                **predictor,
            }
        },
    }


def _errors(manifest: dict[str, Any]) -> list[str]:
    return [e for e in validate_manifest(manifest) if e.endswith(("[apiserver]", "[execve]"))]


def test_a_non_overcommittable_request_needs_an_equal_limit() -> None:
    gpu = "amd.com/gpu"
    assert _errors(_isvc({"resources": {"requests": {gpu: "1"}, "limits": {gpu: "1"}}})) == []
    (below,) = _errors(_isvc({"resources": {"requests": {gpu: "1"}, "limits": {gpu: "0"}}}))
    assert "must be equal to amd.com/gpu limit of 0" in below
    (missing,) = _errors(_isvc({"resources": {"requests": {gpu: "1"}}}))
    assert "Limit must be set for non overcommitable resources" in missing
    (over,) = _errors(_isvc({"resources": {"requests": {"memory": "2Gi"}, "limits": {"memory": "1Gi"}}}))
    assert "must be less than or equal to memory limit of 1Gi" in over


def test_references_volumes_and_values_of_a_pod() -> None:
    errors = _errors(
        _isvc(
            {
                "env": [
                    {"name": "T", "valueFrom": {"secretKeyRef": {"name": "UPPER_bad", "key": "k/../x"}}},
                    {"name": "N", "value": "a\x00b"},
                ],
                "volumeMounts": [{"name": "cache", "mountPath": "/m"}, {"name": "dshm", "mountPath": "/m"}],
            },
            serviceAccountName="../x",
            volumes=[{"name": "dshm", "emptyDir": {}}],
        )
    )
    fields = sorted(e.split(": ", 1)[0] for e in errors)
    assert fields == [
        "spec.predictor.containers[0].env[0].valueFrom.secretKeyRef.key",
        "spec.predictor.containers[0].env[0].valueFrom.secretKeyRef.name",
        "spec.predictor.containers[0].env[1].value",
        "spec.predictor.containers[0].volumeMounts[0].name",
        "spec.predictor.containers[0].volumeMounts[1].mountPath",
        "spec.predictor.serviceAccountName",
    ]


def test_a_storage_class_is_a_dns_subdomain() -> None:
    pvc = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "c", "namespace": "ml"},
        "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "1Gi"}}},
    }
    assert _errors({**pvc, "spec": {**pvc["spec"], "storageClassName": "fast.nvme-1"}}) == []
    (error,) = _errors({**pvc, "spec": {**pvc["spec"], "storageClassName": "Bad_Class"}})
    assert error.startswith('spec.storageClassName: Invalid value: "Bad_Class"')


@pytest.mark.parametrize(("name", "valid"), [("ml-team", True), ("ml.team", False), ("ML", False)])
def test_a_namespace_name_is_a_dns_label(name: str, valid: bool) -> None:
    """`ValidateNamespaceName`: a label, not a subdomain (a ConfigMap may be called `ml.team`)."""
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
    assert (validate_manifest(namespace) == []) is valid
