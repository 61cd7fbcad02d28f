"""Manifest -> pulumi-kubernetes resource: the registered inputs are the camelCase manifest itself."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pulumi
import pytest

from aim_pulumi.resources.children import register_child, warn_if_kept_at_creation

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


PVC_MANIFEST: dict[str, Any] = MANIFESTS[1].values[0]  # type: ignore[assignment]


@pytest.mark.parametrize(
    ("live_spec", "said"),
    [
        pytest.param(
            {**PVC_MANIFEST["spec"], "storageClassName": "slow"},
            "keeps spec.storageClassName slow (the program asks for fast)",
            id="class",
        ),
        pytest.param(
            {**PVC_MANIFEST["spec"], "accessModes": ["ReadWriteOnce"]},
            "keeps spec.accessModes ReadWriteOnce (the program asks for ReadWriteMany)",
            id="access-modes",
        ),
        pytest.param(dict(PVC_MANIFEST["spec"]), None, id="as-planned"),
    ],
)
def test_a_cache_pvc_keeps_its_class_and_access_modes_and_its_owner_warns_with_the_way_to_recreate_it(
    recording: Any, live_spec: dict[str, Any], said: str | None
) -> None:
    """A change of a cache's StorageClass or access modes (Kubernetes fixes both when the claim is
    created) is not applied: pulumi-kubernetes would replace the PVC, and a retained Shared cache's
    replacement applied the new spec onto the old PVC at every `up`. The owner of the cache warns
    instead, naming the commands that recreate it on purpose."""

    def program() -> None:
        owner = pulumi.ComponentResource("test:index:Owner", "owner")
        pvc = register_child("cache", PVC_MANIFEST, pulumi.ResourceOptions(parent=owner))
        # What the cluster holds: the PVC as created, whatever the plan asks now.
        live = SimpleNamespace(spec=pulumi.Output.from_input(live_spec))
        warn_if_kept_at_creation(live, PVC_MANIFEST, "download", owner)  # type: ignore[arg-type]
        assert pvc is not None

    rec = recording(program)
    assert rec.by_name("cache").ignore_changes == ("spec.accessModes", "spec.storageClassName")
    warned = rec.messages("warning", urn=rec.by_name("owner").urn)
    if said is None:
        assert warned == []
    else:
        (message,) = warned
        assert message.startswith("CacheKeptAtCreation: PersistentVolumeClaim ml-team/obj ")
        assert said in message
        assert message.endswith("kubectl delete -n ml-team job/download pvc/obj && pulumi up --refresh")
