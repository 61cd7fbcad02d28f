"""AIMProfileSet / AIMClusterProfileSet components and `AIMModel.spec.profiles` in a program: their
status outputs, and services deploying derived profiles whatever the declaration order."""

from __future__ import annotations

from typing import Any

from aim_pulumi.resources import AIMClusterProfileSet, AIMModel, AIMProfile, AIMProfileSet, AIMService

from .catalog import ISVC, NS, PIPELINE

G = "aim.eai.amd.com"


def _source(name: str = "qwen-fp8", version: str = "0.8.5") -> None:
    image = f"ghcr.io/amd/qwen3:{version}"
    AIMProfile(
        name,
        {
            "namespace": NS,
            "labels": {f"{G}/source-model": "qwen", f"{G}/source-model-scope": "namespace"},
            "annotations": {
                f"{G}/profile-copyable": "true",
                f"{G}/base-image": f"docker.io/amdenterpriseai/aim-base:{version}",
            },
            "spec": {
                "aimId": "qwen/qwen3-32b",
                "modelId": "Qwen/Qwen3-32B",
                "profileId": "vllm-mi300x-fp8",
                "image": image,
                "type": "optimized",
                "primary": True,
                "acceleratorModel": "MI300X",
                "acceleratorCount": 1,
                "modelSources": [{"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}],
            },
        },
    )


FINETUNE: dict[str, Any] = {
    "namespace": NS,
    "spec": {
        "profiles": {
            "derivedFrom": {"selector": {"modelRef": {"name": "qwen"}}},
            "versionPolicy": "latest",
            "overrides": {"modelSources": [{"modelId": "acme/qwen-ft", "sourceUri": "s3://m/qwen-ft"}]},
        }
    },
}


def test_a_service_declared_first_deploys_the_fine_tune_a_model_derives_later(recording: Any) -> None:
    def program() -> None:
        AIMService("chat", {"namespace": NS, "annotations": PIPELINE, "spec": {"model": {"name": "ft"}}})
        AIMModel("ft", FINETUNE)
        _source()

    rec = recording(program)
    isvc = rec.of_type(ISVC)[0].manifest
    container = isvc["spec"]["predictor"]["containers"][0]
    assert container["image"] == "ghcr.io/amd/aim-base:0.8"
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["AIM_MODEL_ID"] == "acme/qwen-ft"
    model = rec.outputs_of("ft")["status"]
    assert model["status"] == "Ready" and model["kind"] == "Derived" and model["source"] == "profiles"
    assert model["profileSetRef"] == {"name": model["profileSetRef"]["name"], "namespace": NS}
    assert model["profileSetRef"]["name"].startswith("ft-profiles-")
    assert model["managedProfiles"] == {"total": 1, "ready": 1, "notAvailable": 0, "deployable": 1, "base": 0}
    served = rec.outputs_of("chat")["status"]["resolvedProfile"]["name"]
    assert model["derivedProfiles"] == [served]


def test_a_profile_set_exports_its_status_and_warns_when_it_derives_nothing(recording: Any) -> None:
    def program() -> None:
        _source()
        AIMProfileSet(
            "remix",
            {
                "namespace": NS,
                "spec": {
                    "selector": {"aimId": "qwen/qwen3-32b"},
                    "versionPolicy": "all",
                    "overrides": {"acceleratorCount": 2},
                },
            },
        )
        AIMClusterProfileSet(
            "nothing", {"spec": {"selector": {"aimId": "qwen/qwen3-32b"}, "versionPolicy": "all"}}
        )

    rec = recording(program)
    remix = rec.outputs_of("remix")
    assert remix["profileSetName"] == "remix"
    assert remix["status"]["status"] == "Ready"
    assert remix["status"]["conditions"] == [
        {"type": "DerivationReady", "status": "True", "reason": "ManagedProfilesReady"}
    ]
    [name] = remix["status"]["derivedProfiles"]
    assert name.startswith("remix-vllm-mi300x-fp8-")
    nothing = rec.outputs_of("nothing")["status"]
    assert (nothing["status"], nothing["conditions"][0]["reason"]) == ("NotAvailable", "NoMatchingProfiles")
    assert any("NoMatchingProfiles" in m for m in rec.messages("warning", urn=rec.by_name("nothing").urn))


def test_a_new_base_version_changes_only_the_image_and_profile_of_the_service(recording: Any) -> None:
    def program(newer: bool) -> None:
        _source()
        if newer:
            _source("qwen-fp8-0-9", "0.9.1")
        AIMModel("ft", FINETUNE)
        AIMService("chat", {"namespace": NS, "annotations": PIPELINE, "spec": {"model": {"name": "ft"}}})

    before = recording(lambda: program(False)).of_type(ISVC)[0].manifest
    after = recording(lambda: program(True)).of_type(ISVC)[0].manifest
    assert before["metadata"]["name"] == after["metadata"]["name"]
    old, new = before["spec"]["predictor"]["containers"][0], after["spec"]["predictor"]["containers"][0]
    assert (old["image"], new["image"]) == ("ghcr.io/amd/aim-base:0.8", "ghcr.io/amd/aim-base:0.9")


CACHE_DIR = """
apiVersion: v1
kind: ConfigMap
metadata: {name: seeded-discovery, namespace: ml-team}
data:
  metadata.json: '{"aimId": "cached-org/cached-model", "sourceImage": "quay.io/amd/aim-cached:0.9.0",
    "baseImage": "quay.io/amd/aim-base-vllm:0.9.0"}'
  profiles.cached-org__cached-model__cpu-default.yaml: |
    aim_id: cached-org/cached-model
    model_id: cached-org/cached-model
    metadata: {engine: vllm, accelerator_type: cpu, accelerator_count: 1, metric: latency, precision: fp16,
               type: general}
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfileSet
metadata: {name: from-cache, namespace: ml-team}
spec:
  sourceRef: {name: seeded-discovery}
  selector: {aimId: cached-org/cached-model}
  versionPolicy: latest
  overrides:
    modelSources: [{modelId: cached-org/custom-model, sourceUri: "s3://models/cached-model"}]
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata: {name: cached, namespace: ml-team}
spec:
  profile: {selector: {aimId: cached-org/cached-model, minimumType: any}}
"""


def test_an_aimstack_reads_a_discovery_cache_configmap_for_a_sets_source_ref(
    recording: Any, tmp_path: Any
) -> None:
    from aim_pulumi.resources import AIMStack

    (tmp_path / "objects.yaml").write_text(CACHE_DIR)
    rec = recording(lambda: AIMStack("s", {"path": str(tmp_path)}))
    container = rec.of_type(ISVC)[0].manifest["spec"]["predictor"]["containers"][0]
    # new weights on a cache entry: the cache's base image, cut to MAJOR.MINOR, on its registry
    assert container["image"] == "quay.io/amd/aim-base-vllm:0.9"
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["AIM_MODEL_ID"] == "cached-org/custom-model"
    assert [r.manifest["metadata"]["name"] for r in rec.of_type("kubernetes:core/v1:ConfigMap")].count(
        "seeded-discovery"
    ) == 1
