"""Manifest -> pulumi-kubernetes resource: the registered inputs are the camelCase manifest itself."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from aim_pulumi.resources.children import register_child

from .catalog import CONFIG_MAP, ISVC, JOB, PVC, ROUTE, SCALED_OBJECT

METADATA = {"name": "obj", "namespace": "ml-team", "labels": {"app.kubernetes.io/managed-by": "aim-pulumi"}}

MANIFESTS = [
    pytest.param(
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": METADATA, "data": {"profile.yaml": "a: 1\n"}},
        CONFIG_MAP,
        id="configmap",
    ),
    pytest.param(
        {
            "apiVersion": "v1",
            "kind": "PersistentVolumeClaim",
            "metadata": METADATA,
            "spec": {
                "accessModes": ["ReadWriteMany"],
                "volumeMode": "Filesystem",
                "storageClassName": "fast",
                "resources": {"requests": {"storage": "22Gi"}},
            },
        },
        PVC,
        id="pvc",
    ),
    pytest.param(
        {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": METADATA,
            "spec": {
                "backoffLimit": 2,
                "template": {
                    "spec": {
                        "restartPolicy": "Never",
                        "containers": [
                            {"name": "model-download", "image": "img", "imagePullPolicy": "IfNotPresent"}
                        ],
                    }
                },
            },
        },
        JOB,
        id="job",
    ),
    pytest.param(
        {
            "apiVersion": "serving.kserve.io/v1beta1",
            "kind": "InferenceService",
            "metadata": METADATA,
            "spec": {"predictor": {"minReplicas": 1, "containers": [{"name": "kserve-container"}]}},
        },
        ISVC,
        id="inferenceservice",
    ),
    pytest.param(
        {
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "HTTPRoute",
            "metadata": METADATA,
            "spec": {"parentRefs": [{"name": "gw"}]},
        },
        ROUTE,
        id="httproute",
    ),
    pytest.param(
        {
            "apiVersion": "keda.sh/v1alpha1",
            "kind": "ScaledObject",
            "metadata": METADATA,
            "spec": {"scaleTargetRef": {"name": "x"}, "minReplicaCount": 0},
        },
        SCALED_OBJECT,
        id="scaledobject",
    ),
]


@pytest.mark.parametrize(("manifest", "type_token"), MANIFESTS)
def test_the_registered_inputs_are_the_manifest(
    recording: Any, manifest: dict[str, Any], type_token: str
) -> None:
    rec = recording(lambda: register_child("child", manifest, pulumi.ResourceOptions(retain_on_delete=True)))

    child = rec.by_name("child")
    assert child.type == type_token
    assert child.inputs == manifest
    assert child.retain_on_delete is True


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        pytest.param(
            {"apiVersion": "v1", "kind": "Service", "metadata": METADATA}, "no Pulumi resource", id="kind"
        ),
        pytest.param(
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": METADATA, "spec": {}},
            "cannot carry",
            id="unexpected-field",
        ),
        pytest.param(
            {
                "apiVersion": "serving.kserve.io/v1beta1",
                "kind": "InferenceService",
                "metadata": METADATA,
                "status": {},
            },
            "cannot carry",
            id="status-is-never-applied",
        ),
    ],
)
def test_unknown_kinds_and_fields_are_refused(manifest: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        register_child("child", manifest)
