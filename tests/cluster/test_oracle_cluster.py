"""The API server as the oracle of the project's Go-coded child rules (`aim_pulumi/schemas/pod_rules.py`).

Each case is one child with one value the rules judge: the project's validator and a server-side
dry run (`?dryRun=All`, nothing stored) must agree, refused or accepted. An InferenceService predictor
is judged as the Pod KServe makes of it (its pod fields, dry-run created as a Pod).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from cluster import TestCluster
from kube import ApiError, object_path

from aim_pulumi.schemas import validate_manifest

pytestmark = pytest.mark.cluster

NAMESPACE = "oracle"
_ISVC_ONLY = ("minReplicas", "maxReplicas", "annotations", "labels", "scaleMetric", "scaleTarget")


def job(container: dict[str, Any], **pod: Any) -> dict[str, Any]:
    base = {"name": "download", "image": "example.com/downloader:1"}
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "oracle-job", "namespace": NAMESPACE},
        "spec": {
            "template": {"spec": {"restartPolicy": "Never", "containers": [{**base, **container}], **pod}},
        },
    }


def isvc(container: dict[str, Any], **predictor: Any) -> dict[str, Any]:
    base = {"name": "kserve-container", "image": "example.com/aim:1"}
    return {
        "apiVersion": "serving.kserve.io/v1beta1",
        "kind": "InferenceService",
        "metadata": {"name": "oracle-isvc", "namespace": NAMESPACE},
        "spec": {"predictor": {"minReplicas": 1, "containers": [{**base, **container}], **predictor}},
    }


def pvc(storage_class: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "oracle-pvc", "namespace": NAMESPACE},
        "spec": {
            "accessModes": ["ReadWriteMany"],
            "resources": {"requests": {"storage": "1Gi"}},
            "storageClassName": storage_class,
        },
    }


def config_map(key: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "oracle-cm", "namespace": NAMESPACE},
        "data": {key: "x"},
    }


def namespace(name: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


def env(name: str, value: str = "1") -> dict[str, Any]:
    return {"env": [{"name": name, "value": value}]}


def gpu(request: str, limit: str | None) -> dict[str, Any]:
    resources: dict[str, Any] = {"requests": {"amd.com/gpu": request}}
    if limit is not None:
        resources["limits"] = {"amd.com/gpu": limit}
    return {"resources": resources}


OVER_LIMIT = {"requests": {"memory": "2Gi"}, "limits": {"memory": "1Gi"}}
SECRET_REF = {"env": [{"name": "T", "valueFrom": {"secretKeyRef": {"name": "UPPER_bad", "key": "k/../x"}}}]}

# (id, manifest, refused): one value judged per case.
CASES = [
    ("env-name-equals", job(env("a=b")), True),
    ("env-name-non-ascii", job(env("é")), True),
    ("env-name-cyrillic", isvc(env("\u0430")), True),
    ("env-name-newline", job(env("A\nB")), True),
    ("env-name-relaxed-dots-and-spaces", job(env("my.var-1 x")), False),
    ("negative-memory", isvc({"resources": {"requests": {"memory": "-1"}}}), True),
    ("gpu-limit-below-request", isvc(gpu("1", "0")), True),
    ("gpu-request-without-limit", isvc(gpu("1", None)), True),
    ("gpu-fraction", isvc(gpu(".5", ".5")), True),
    ("gpu-tiny-fraction", isvc(gpu("1e-400", "1e-400")), True),
    ("gpu-equal", isvc(gpu("2", "2")), False),
    ("gpu-plus-sign", isvc(gpu("+1", "+1")), False),
    ("memory-request-over-limit", isvc({"resources": OVER_LIMIT}), True),
    ("secret-key-ref", job(SECRET_REF), True),
    ("service-account-path", job({}, serviceAccountName="../x"), True),
    ("service-account-trailing-dash", job({}, serviceAccountName="trail-"), True),
    ("image-pull-secret-any-name", job({}, imagePullSecrets=[{"name": "BAD NAME"}]), False),
    ("storage-class", pvc("Bad_Class"), True),
    ("storage-class-ok", pvc("fast.nvme-1"), False),
    ("config-map-key-slash", config_map("a/b"), True),
    ("config-map-key-dotdot", config_map("..a"), True),
    ("config-map-key-ok", config_map("vllm-profile.yaml"), False),
    ("namespace-with-a-dot", namespace("ml.team"), True),
    ("namespace-ok", namespace("ml-team-2"), False),
    (
        "mount-without-volume",
        job({"volumeMounts": [{"name": "cache", "mountPath": "/cache"}]}),
        True,
    ),
]  # fmt: skip


def as_pod(manifest: dict[str, Any]) -> dict[str, Any]:
    """The Pod KServe makes of a predictor: its pod fields (a Job is judged as itself)."""
    spec = {k: v for k, v in copy.deepcopy(manifest["spec"]["predictor"]).items() if k not in _ISVC_ONLY}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "oracle-pod", "namespace": NAMESPACE},
        "spec": spec,
    }


def api_server_refuses(cluster: TestCluster, manifest: dict[str, Any]) -> str | None:
    """The API server's refusal of a dry-run create, or None if it would store the object."""
    target = as_pod(manifest) if manifest["kind"] == "InferenceService" else manifest
    path = object_path(
        target["apiVersion"], target["kind"], None if target["kind"] == "Namespace" else NAMESPACE
    )
    try:
        cluster.kube.request("POST", path, target, query={"dryRun": "All"})
    except ApiError as error:
        if error.status in (400, 422):
            return error.body
        raise
    return None


@pytest.fixture(scope="module")
def oracle(cluster: TestCluster) -> TestCluster:
    cluster.kube.ensure_namespace(NAMESPACE)
    for name in ("default", "x"):
        if cluster.kube.find("v1", "ServiceAccount", NAMESPACE, name) is None:
            cluster.kube.create(
                {
                    "apiVersion": "v1",
                    "kind": "ServiceAccount",
                    "metadata": {"name": name, "namespace": NAMESPACE},
                }
            )
    return cluster


@pytest.mark.parametrize(("manifest", "refused"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_project_and_the_api_server_agree(
    oracle: TestCluster, manifest: dict[str, Any], refused: bool
) -> None:
    ours = [e for e in validate_manifest(manifest) if e.endswith("[apiserver]")]
    theirs = api_server_refuses(oracle, manifest)
    assert (bool(ours), theirs is not None) == (refused, refused), (ours, theirs)


def test_a_nul_byte_in_an_env_value_is_refused_although_the_api_server_stores_it(oracle: TestCluster) -> None:
    """No pod could start with it (execve), so the project refuses what the API server would store."""
    manifest = job(env("TOKEN", "a\x00b"))
    assert api_server_refuses(oracle, manifest) is None
    assert [e for e in validate_manifest(manifest) if e.endswith("[execve]")]
