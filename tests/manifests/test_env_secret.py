"""Deploy-time env values move into a Secret; everything else in the workload stays as built."""

from __future__ import annotations

from typing import Any

from aim_pulumi.manifests.env_secret import split_env_secrets
from aim_pulumi.schemas import validate_manifest


def marked(text: str) -> bool:
    return "<output>" in text


def isvc(*containers: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "serving.kserve.io/v1beta1",
        "kind": "InferenceService",
        "metadata": {"name": "chat-1a2b3c4d", "namespace": "ml-team", "labels": {"app": "chat"}},
        "spec": {"predictor": {"containers": list(containers)}},
    }


def test_marked_values_become_secret_key_refs_and_the_rest_is_untouched() -> None:
    manifest = isvc(
        {
            "name": "kserve-container",
            "env": [
                {"name": "TOKEN", "value": "<output>"},
                {"name": "URL", "value": "https://x/<output>/y"},
                {"name": "PLAIN", "value": "1"},
                {"name": "REF", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
            ],
        }
    )
    workload, secret = split_env_secrets(manifest, marked)
    env = workload["spec"]["predictor"]["containers"][0]["env"]
    assert env == [
        {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "chat-1a2b3c4d-env", "key": "TOKEN"}}},
        {"name": "URL", "valueFrom": {"secretKeyRef": {"name": "chat-1a2b3c4d-env", "key": "URL"}}},
        {"name": "PLAIN", "value": "1"},
        {"name": "REF", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
    ]
    assert secret == {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": "chat-1a2b3c4d-env",
            "namespace": "ml-team",
            "labels": {"app": "chat"},
            "annotations": {"pulumi.com/patchForce": "true"},
        },
        "type": "Opaque",
        "stringData": {"TOKEN": "<output>", "URL": "https://x/<output>/y"},
    }
    assert validate_manifest(secret) == []
    assert manifest["spec"]["predictor"]["containers"][0]["env"][0] == {"name": "TOKEN", "value": "<output>"}


def test_one_name_with_two_values_gets_two_keys() -> None:
    manifest = isvc(
        {"name": "a", "env": [{"name": "TOKEN", "value": "<output> 1"}]},
        {"name": "b", "env": [{"name": "TOKEN", "value": "<output> 2"}]},
    )
    workload, secret = split_env_secrets(manifest, marked)
    assert secret is not None
    assert secret["stringData"] == {"TOKEN": "<output> 1", "b.TOKEN": "<output> 2"}
    refs = [
        c["env"][0]["valueFrom"]["secretKeyRef"]["key"] for c in workload["spec"]["predictor"]["containers"]
    ]
    assert refs == ["TOKEN", "b.TOKEN"]


def test_no_marked_value_means_no_secret_and_an_equal_workload() -> None:
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "dl", "namespace": "ml-team"},
        "spec": {"template": {"spec": {"containers": [{"name": "d", "env": [{"name": "X", "value": "1"}]}]}}},
    }
    workload, secret = split_env_secrets(job, marked)
    assert secret is None
    assert workload == job
