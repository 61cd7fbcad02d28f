"""The cache PVC and download Job builders (behaviour §12, §13.4): shape and schema validity."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aim_pulumi.manifests import build_cache_pvc, build_download_job
from aim_pulumi.manifests._common import (
    FIELD_MANAGER_MAX_LENGTH,
    PATCH_FIELD_MANAGER,
    stack_field_manager,
    with_field_manager,
)
from aim_pulumi.manifests.cache import kept_at_creation
from aim_pulumi.resolve.children.caching import CacheConsumer, CacheProfile, CacheSettings, plan_caches
from aim_pulumi.resolve.children.source_size import declared_size_bytes
from aim_pulumi.resolve.types import CachePlan
from aim_pulumi.schemas import validate_manifest

NS = "ml-team"
PROFILE = "qwen-qwen3-32b-mi300x-fp8-latency"
HF = {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "64Gi"}
S3 = {"modelId": "acme/llama", "sourceUri": "s3://models/acme/llama", "size": "16Gi"}
LONG = {
    "modelId": "an-organisation-with-a-long-name/a-model-repository-with-an-even-longer-name-v2",
    "sourceUri": "hf://an-organisation-with-a-long-name/a-model-repository-with-an-even-longer-name-v2",
    "size": "1Gi",
}


def declared(source: Any, **_: Any) -> int:
    return declared_size_bytes(source["size"])


def planned(
    source: dict[str, Any] = HF,
    *,
    mode: str = "Shared",
    rc_spec: dict[str, Any] | None = None,
    profile_extra: dict[str, Any] | None = None,
    settings: CacheSettings | None = None,
    service_name: str = "qwen-chat",
) -> CachePlan:
    plans, _ = plan_caches(
        mode,  # type: ignore[arg-type]
        CacheProfile(NS, PROFILE, {"modelSources": [source], **(profile_extra or {})}),
        CacheConsumer(
            name=service_name,
            uid="6f1c0e3a-1d2b-5c4d-8e9f-0a1b2c3d4e5f",
            labels=[{"org.example/team": "nlp", "aim.eai.amd.com/tier": "gold"}],
            label_match=["org.example/*"],
        ),
        rc_spec=rc_spec,
        settings=settings,
        size_of=declared,
    )
    return plans[0]


S3_RC = {
    "artifact": {
        "s3": {
            "endpoint": "https://minio.storage.svc:9000",
            "region": "us-east-1",
            "addressingStyle": "path",
            "auth": {
                "mode": "static",
                "credentialsSecretRef": {"name": "s3-creds", "sessionTokenKey": "token"},
            },
            "tls": {"caBundleRef": {"kind": "ConfigMap", "name": "corp-ca", "key": "ca.pem"}},
        }
    },
    "storage": {"defaultStorageClassName": "fast-nvme", "pvcHeadroomPercent": 20},
}

PLANS: dict[str, CachePlan] = {
    "shared-hf": planned(),
    "dedicated-hf": planned(mode="Dedicated"),
    "s3-static-credentials-and-ca-configmap": planned(S3, rc_spec=S3_RC),
    "s3-ca-secret": planned(
        S3, rc_spec={"artifact": {"s3": {"tls": {"caBundleRef": {"kind": "Secret", "name": "ca"}}}}}
    ),
    "s3-insecure": planned(S3, rc_spec={"artifact": {"s3": {"tls": {"insecureSkipVerify": True}}}}),
    "pull-secrets-and-service-account": planned(
        profile_extra={"imagePullSecrets": [{"name": "regcred"}], "serviceAccountName": "downloader"}
    ),
    "skip-await": planned(settings=CacheSettings(skip_await=True, timeout_seconds=600)),
    "read-write-once": planned(settings=CacheSettings(access_mode="ReadWriteOnce")),
    "long-names-dedicated": planned(LONG, mode="Dedicated", service_name="a-service-with-a-long-name" * 2),
    "value-from-env": planned(
        profile_extra={
            "caching": {
                "enabled": True,
                "env": [{"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}}],
            }
        }
    ),
}


@pytest.mark.parametrize("name", sorted(PLANS))
def test_every_cache_manifest_passes_the_schema(name: str) -> None:
    plan = PLANS[name]
    assert validate_manifest(build_cache_pvc(plan)) == []
    assert validate_manifest(build_download_job(plan)) == []


# ------------------------------------------------------------------------------------------ PVC


def test_pvc_shape() -> None:
    plan = PLANS["s3-static-credentials-and-ca-configmap"]
    pvc = build_cache_pvc(plan)
    assert pvc["apiVersion"] == "v1"
    assert pvc["kind"] == "PersistentVolumeClaim"
    assert pvc["metadata"]["name"] == plan.pvc_name
    assert pvc["metadata"]["namespace"] == NS
    assert pvc["metadata"]["labels"] == dict(plan.pvc_labels)
    # Never awaited: it may bind only once the download Job's pod exists.
    assert pvc["metadata"]["annotations"] == {"pulumi.com/skipAwait": "true", "pulumi.com/patchForce": "true"}
    assert pvc["spec"] == {
        "accessModes": ["ReadWriteMany"],
        "volumeMode": "Filesystem",
        "resources": {"requests": {"storage": "20Gi"}},  # 16Gi x 1.2 = 19.2Gi
        "storageClassName": "fast-nvme",
    }


@pytest.mark.parametrize(
    ("changes", "key", "expected"),
    [
        pytest.param({"storage_class_name": None}, "storageClassName", None, id="no-class-omitted"),
        pytest.param({"storage_class_name": ""}, "storageClassName", None, id="empty-class-omitted"),
        pytest.param({"storage_class_name": "gp3"}, "storageClassName", "gp3", id="class-set"),
        pytest.param({"access_mode": "ReadWriteOnce"}, "accessModes", ["ReadWriteOnce"], id="access-mode"),
        pytest.param({"size_gi": 71}, "resources", {"requests": {"storage": "71Gi"}}, id="whole-gi-size"),
    ],
)
def test_pvc_fields(changes: dict[str, Any], key: str, expected: Any) -> None:
    pvc = build_cache_pvc(replace(PLANS["shared-hf"], **changes))
    assert pvc["spec"].get(key) == expected
    assert validate_manifest(pvc) == []


def test_pvc_skip_await() -> None:
    pvc = build_cache_pvc(PLANS["skip-await"])
    assert pvc["metadata"]["annotations"] == {"pulumi.com/skipAwait": "true", "pulumi.com/patchForce": "true"}


# ------------------------------------------------------------------------------------------ Job


def pod(job: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = job["spec"]["template"]["spec"]
    return spec


def test_job_shape() -> None:
    plan = PLANS["shared-hf"]
    job = build_download_job(plan)
    assert (job["apiVersion"], job["kind"]) == ("batch/v1", "Job")
    assert job["metadata"]["name"] == plan.job_name
    assert job["metadata"]["namespace"] == NS
    # No replaceUnready: a refresh during a download must not make the next up restart it.
    assert job["metadata"]["annotations"] == {
        "pulumi.com/timeoutSeconds": "3600",
        "pulumi.com/patchForce": "true",
    }
    assert job["spec"]["backoffLimit"] == 2
    assert "ttlSecondsAfterFinished" not in job["spec"]
    assert job["metadata"]["labels"] == job["spec"]["template"]["metadata"]["labels"] == dict(plan.job_labels)
    spec = pod(job)
    assert spec["restartPolicy"] == "Never"
    assert spec["securityContext"] == {
        "runAsUser": 1000,
        "runAsGroup": 1000,
        "fsGroup": 1000,
        "runAsNonRoot": True,
    }
    assert "imagePullSecrets" not in spec
    assert "serviceAccountName" not in spec
    (container,) = spec["containers"]
    assert container["name"] == "model-download"
    assert container["image"] == "ghcr.io/silogen/aim-artifact-downloader:0.2.0"
    assert container["imagePullPolicy"] == "IfNotPresent"
    assert container["args"] == ["hf://Qwen/Qwen3-32B"]
    assert container["env"] == [dict(var) for var in plan.job_env]
    assert container["volumeMounts"] == [{"name": "cache", "mountPath": "/cache/models"}]
    assert spec["volumes"] == [{"name": "cache", "persistentVolumeClaim": {"claimName": plan.pvc_name}}]


def test_job_and_pod_labels_carry_propagated_labels() -> None:
    job = build_download_job(PLANS["shared-hf"])
    for labels in (job["metadata"]["labels"], job["spec"]["template"]["metadata"]["labels"]):
        assert labels["org.example/team"] == "nlp"
        assert labels["aim.eai.amd.com/tier"] == "gold"
        assert labels["app.kubernetes.io/component"] == "download"


def test_job_skip_await_and_timeout() -> None:
    job = build_download_job(PLANS["skip-await"])
    assert job["metadata"]["annotations"] == {
        "pulumi.com/timeoutSeconds": "600",
        "pulumi.com/skipAwait": "true",
        "pulumi.com/patchForce": "true",
    }


@pytest.mark.parametrize("mode", ["Dedicated", "Shared"])
def test_every_cache_is_force_applied(mode: str) -> None:
    """A Shared cache too: a field-manager conflict on it (someone's `kubectl label`, a stack
    destroyed since, whose field manager stays on the retained PVC) would fail every `up` of the
    stack, its InferenceService updates included; forced, the stack's values win and a preview
    shows the difference."""
    plan = replace(PLANS["shared-hf"], mode=mode)
    for manifest in (build_cache_pvc(plan), build_download_job(plan)):
        assert manifest["metadata"]["annotations"]["pulumi.com/patchForce"] == "true"


def test_job_pod_identity() -> None:
    spec = pod(build_download_job(PLANS["pull-secrets-and-service-account"]))
    assert spec["imagePullSecrets"] == [{"name": "regcred"}]
    assert spec["serviceAccountName"] == "downloader"


@pytest.mark.parametrize(
    ("name", "volume"),
    [
        pytest.param(
            "s3-static-credentials-and-ca-configmap",
            {"name": "s3-ca", "configMap": {"name": "corp-ca"}},
            id="configmap",
        ),
        pytest.param("s3-ca-secret", {"name": "s3-ca", "secret": {"secretName": "ca"}}, id="secret"),
    ],
)
def test_ca_bundle_volume(name: str, volume: dict[str, Any]) -> None:
    spec = pod(build_download_job(PLANS[name]))
    assert spec["volumes"][1] == volume
    assert spec["containers"][0]["volumeMounts"][1] == {
        "name": "s3-ca",
        "mountPath": "/etc/aim/s3-ca",
        "readOnly": True,
    }
    ca_env = {var["name"]: var for var in spec["containers"][0]["env"]}["AWS_CA_BUNDLE"]
    assert ca_env["value"].startswith("/etc/aim/s3-ca/")


def test_no_ca_volume_without_a_bundle() -> None:
    spec = pod(build_download_job(PLANS["s3-insecure"]))
    assert [volume["name"] for volume in spec["volumes"]] == ["cache"]


def test_credentials_are_secret_refs_in_the_job() -> None:
    env = pod(build_download_job(PLANS["s3-static-credentials-and-ca-configmap"]))["containers"][0]["env"]
    by_name = {var["name"]: var for var in env}
    assert by_name["AWS_ACCESS_KEY_ID"] == {
        "name": "AWS_ACCESS_KEY_ID",
        "valueFrom": {"secretKeyRef": {"name": "s3-creds", "key": "accessKeyId"}},
    }
    assert by_name["AWS_SESSION_TOKEN"]["valueFrom"]["secretKeyRef"] == {"name": "s3-creds", "key": "token"}


def test_builders_do_not_alias_the_plan() -> None:
    plan = PLANS["value-from-env"]
    job = build_download_job(plan)
    pod(job)["containers"][0]["env"][-1]["valueFrom"]["secretKeyRef"]["name"] = "changed"
    job["metadata"]["labels"]["x"] = "y"
    assert build_download_job(plan) != job
    assert "x" not in plan.job_labels


# ------------------------------------------------------------------ a stack's field manager


def test_a_stacks_field_manager_names_its_project_and_stack_within_the_api_servers_limit() -> None:
    assert stack_field_manager("llm-serving", "prod") == "aim-pulumi-llm-serving-prod"
    long_project, long_stack = "p" * 100, "s" * 100
    cut = stack_field_manager(long_project, long_stack)
    assert len(cut) == FIELD_MANAGER_MAX_LENGTH and cut.startswith("aim-pulumi-ppp")
    assert cut == stack_field_manager(long_project, long_stack), "deterministic"
    assert cut != stack_field_manager(long_project, "s" * 99 + "t"), "a cut name keeps the stacks apart"


def test_a_field_manager_is_an_annotation_beside_the_others_and_the_manifest_is_copied() -> None:
    pvc = build_cache_pvc(planned())
    managed = with_field_manager(pvc, "aim-pulumi-p-s")
    assert managed["metadata"]["annotations"][PATCH_FIELD_MANAGER] == "aim-pulumi-p-s"
    assert list(managed["metadata"]["annotations"]) == sorted(managed["metadata"]["annotations"])
    assert PATCH_FIELD_MANAGER not in pvc["metadata"]["annotations"], "the built manifest is left as it was"
    assert {k: v for k, v in managed.items() if k != "metadata"} == {
        k: v for k, v in pvc.items() if k != "metadata"
    }


# ------------------------------------------------------------------ fixed at creation


def test_a_pvc_whose_live_access_mode_differs_warns_with_the_commands_that_recreate_it() -> None:
    plan = replace(planned(), access_mode="ReadWriteOnce", storage_class_name="fast")
    pvc = build_cache_pvc(plan)
    live = {"accessModes": ["ReadWriteMany"], "storageClassName": "fast"}
    message = kept_at_creation(pvc, plan.job_name, live)
    assert message is not None
    assert message.startswith(f"CacheKeptAtCreation: PersistentVolumeClaim {NS}/{plan.pvc_name} keeps ")
    assert "spec.accessModes ReadWriteMany (the program asks for ReadWriteOnce)" in message
    assert f"kubectl delete -n {NS} job/{plan.job_name} pvc/{plan.pvc_name} && pulumi up --refresh" in message
    assert "storageClassName" not in message, "the class is as planned"


def test_a_pvc_made_under_another_storage_class_warns_with_the_commands_that_recreate_it() -> None:
    """A runtime config's storage class changed under a cache: Kubernetes keeps the PVC's class,
    Pulumi would replace the PVC (a retained Shared cache's replacement wedged the stack), so the
    PVC keeps it and the warning names the step that recreates it on purpose."""
    plan = replace(planned(), access_mode="ReadWriteOnce", storage_class_name="fast")
    pvc = build_cache_pvc(plan)
    message = kept_at_creation(
        pvc, plan.job_name, {"accessModes": ["ReadWriteOnce"], "storageClassName": "slow"}
    )
    assert message is not None
    assert message.startswith(f"CacheKeptAtCreation: PersistentVolumeClaim {NS}/{plan.pvc_name} keeps ")
    assert "spec.storageClassName slow (the program asks for fast)" in message
    assert "accessModes" not in message, "the access modes are as planned"
    assert f"kubectl delete -n {NS} job/{plan.job_name} pvc/{plan.pvc_name} && pulumi up --refresh" in message
    # A plan that names no class leaves the cluster's default class the PVC got: nothing to say.
    unnamed = build_cache_pvc(replace(plan, storage_class_name=None))
    assert (
        kept_at_creation(unnamed, plan.job_name, {"accessModes": ["ReadWriteOnce"], "storageClassName": "x"})
        is None
    )


@pytest.mark.parametrize(
    "live",
    [None, {}, {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast"}, {"accessModes": None}],
    ids=["unknown", "empty", "as-planned", "not-reported"],
)
def test_a_pvc_as_planned_or_not_known_yet_warrants_nothing(live: dict[str, Any] | None) -> None:
    plan = replace(planned(), access_mode="ReadWriteOnce", storage_class_name="fast")
    assert kept_at_creation(build_cache_pvc(plan), plan.job_name, live) is None
