"""The legacy inline custom model (v1alpha1 `AIMService.spec.model.custom`), after the operator's
scenarios `tests/e2e/aimservice/common/custom-model/*` of aim-engine v0.2.1, each as a test of the
same name, and its `migrate`, which plans the same children.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMModel, AIMValidationError, to_manifest
from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.resolve import AIMResolutionError, plan_service
from aim_pulumi.resolve.legacy.custom_model import (
    LEGACY_AUTO_CUSTOM_ANNOTATION,
    compatibility_model,
    custom_model_name,
    custom_template_name,
    matching_model,
    sources_match,
)
from aim_pulumi.resolve.legacy.migration import migrate_objects
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.scalars import text
from tests.versions import Catalog, parse

NS = "custom"
BASE = "ghcr.io/silogen/aim-dummy:0.1.10"


def service(name: str, custom: dict[str, Any], **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": {"custom": custom},
        "template": {"allowUnoptimized": True},
        "replicas": 1,
    }
    body.update(spec)
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMService",
        "metadata": {"name": name, "namespace": NS},
        "spec": body,
    }


def custom(model_id: str, uri: str, hardware: dict[str, Any] | None = None, **source: Any) -> dict[str, Any]:
    return {
        "baseImage": BASE,
        "modelSources": [{"modelId": model_id, "sourceUri": uri, **source}],
        "hardware": hardware or {"gpu": {"requests": 1}},
    }


def plan(doc: dict[str, Any], *others: Any) -> ServicePlan:
    svc = parse(doc)
    return plan_service(svc, Catalog([*(parse(o) if isinstance(o, dict) else o for o in others)]))  # type: ignore[arg-type]


def test_model_deduplication() -> None:
    """Two services with the identical inline model resolve the same model and its one template (the
    operator creates it for the first and reuses it for the second), named as the operator names them."""
    same = custom("shared/dedup-model", "hf://sshleifer/tiny-gpt2")
    first = plan(service("test-dedup-service-1", same))
    second = plan(service("test-dedup-service-2", copy.deepcopy(same)))
    assert first.resolved_model is not None and second.resolved_model is not None
    assert first.resolved_model.name == second.resolved_model.name == custom_model_name(same)
    assert custom_model_name(same) == "shared-dedup-model-a56c4780"
    templates = {
        dict(first.also_resolved)["resolvedTemplate"].name,
        dict(second.also_resolved)["resolvedTemplate"].name,
    }
    assert templates == {custom_template_name("shared-dedup-model-a56c4780")}
    # A compatibility model the first service's operator made (kept, e.g. by `import`) is reused.
    made = parse(compatibility_model(service("test-dedup-service-1", same), same))
    assert isinstance(made, AIMModel)
    assert made.metadata.labels == {
        "aim.eai.amd.com/origin": "auto-generated",
        "aim.eai.amd.com/custom-model": "true",
        "aim.eai.amd.com/service": "test-dedup-service-1",
    }
    reused = plan(service("test-dedup-service-2", same), made)
    assert reused.resolved_model is not None and reused.resolved_model.name == made.metadata.name
    assert matching_model([made], same) is made


def test_model_deduplication_s3_endpoint() -> None:
    """Identical image, model id and URI but another AWS_ENDPOINT_URL: two models, each keeping its
    endpoint in its model source (and so in the download env)."""
    a = custom("shared/s3-endpoint-model", "s3://test-bucket/model", {"cpu": {"requests": "500m"}},
               env=[{"name": "AWS_ENDPOINT_URL", "value": "https://minio-a.example.com"}])  # fmt: skip
    b = copy.deepcopy(a)
    b["modelSources"][0]["env"][0]["value"] = "https://minio-b.example.com"
    assert not sources_match(a["modelSources"], b["modelSources"])
    assert custom_model_name(a) != custom_model_name(b)
    first = plan(service("test-dedup-endpoint-service-1", a))
    second = plan(service("test-dedup-endpoint-service-2", b))
    assert first.resolved_model is not None and second.resolved_model is not None
    assert first.resolved_model.name != second.resolved_model.name
    for planned, endpoint in (
        (first, "https://minio-a.example.com"),
        (second, "https://minio-b.example.com"),
    ):
        [source] = planned.profile_spec["modelSources"]
        assert source["env"] == [{"name": "AWS_ENDPOINT_URL", "value": endpoint}]


def test_model_source_env() -> None:
    """Env of a model source (S3 endpoint and region) reaches the source of the profile the custom
    template becomes, and the download Job of its cache."""
    env = [
        {"name": "AWS_ENDPOINT_URL", "value": "https://minio.example.com"},
        {"name": "AWS_DEFAULT_REGION", "value": "us-east-1"},
    ]
    source = custom("test/s3-model", "s3://test-bucket/model", size="100Mi", env=env)
    doc = service("model-source-env", source, caching={"mode": "Dedicated"})
    planned = plan(doc)
    [source] = planned.profile_spec["modelSources"]
    assert source["env"] == env
    job = build_download_job(planned.caches[0])
    container_env = {
        e["name"]: e.get("value") for e in job["spec"]["template"]["spec"]["containers"][0]["env"]
    }
    assert container_env["AWS_ENDPOINT_URL"] == "https://minio.example.com"
    assert container_env["AWS_DEFAULT_REGION"] == "us-east-1"


def test_cpu_only_inline() -> None:
    """A CPU-only inline model requests its CPU and no GPU, on the base image."""
    planned = plan(service("test-cpu-only-inline", custom("cpu/inline-model", "hf://sshleifer/tiny-gpt2",
                                                          {"cpu": {"requests": "500m"}})))  # fmt: skip
    assert planned.container.image == BASE
    assert planned.container.resources["requests"]["cpu"] == "500m"
    assert not any("gpu" in key for key in planned.container.resources.get("requests", {}))


def test_inline_custom_model_needs_allow_unoptimized() -> None:
    """The template of an inline model is `unoptimized`: without `template.allowUnoptimized` the
    operator filters it out and says so."""
    doc = service("no-flag", custom("org/m", "hf://org/m"))
    del doc["spec"]["template"]
    with pytest.raises(AIMResolutionError) as info:
        plan(doc)
    assert info.value.reason == "TemplateNotFound"
    assert "1 unoptimized template(s) filtered out. Set allowUnoptimized to use them." in info.value.message


def _children(planned: ServicePlan) -> list[dict[str, Any]]:
    docs = build_service_manifests(planned)
    for cache in planned.caches:
        docs += [build_cache_pvc(cache), build_download_job(cache)]
    return docs


@pytest.mark.parametrize("caching", [None, {"mode": "Shared"}, {"mode": "Dedicated"}])
def test_migrate_writes_the_v1alpha2_equivalent_and_changes_no_child(caching: dict[str, Any] | None) -> None:
    """`migrate` turns the service into `spec.model.name` of the model it resolved, declared as a
    v1alpha2 AIMModel, with the profile its template becomes beside it; the migrated objects plan
    exactly the children the legacy service planned. Two services of one model add it once."""
    extra = {"caching": caching} if caching else {}
    same = custom("shared/dedup-model", "hf://sshleifer/tiny-gpt2", size="1Gi")
    docs = [service("svc-a", same, **extra), service("svc-b", copy.deepcopy(same), **extra)]
    result = migrate_objects(docs)
    assert result.ok and result.converted == (True, True)
    [model, profile] = result.added[0]
    assert result.added[1] == ()
    assert (model["kind"], model["apiVersion"]) == ("AIMModel", "aim.eai.amd.com/v1alpha2")
    assert model["spec"] == {"image": BASE}
    assert LEGACY_AUTO_CUSTOM_ANNOTATION not in str(model)
    assert profile["kind"] == "AIMProfile" and profile["metadata"]["name"] == custom_template_name(
        model["metadata"]["name"]
    )
    migrated = result.objects[0]
    assert migrated["spec"]["model"] == {"name": model["metadata"]["name"]}
    assert migrated["apiVersion"] == "aim.eai.amd.com/v1alpha2"
    before = _children(plan(docs[0]))
    after = _children(plan(migrated, model, profile))
    assert yaml.safe_dump(after) == yaml.safe_dump(before)


def test_migrate_reuses_a_declared_model_and_its_templates() -> None:
    """A namespace AIMModel with the same image and sources is the one the service migrates to; a
    model that has templates of its own keeps them (they convert on their own)."""
    same = custom("shared/dedup-model", "hf://sshleifer/tiny-gpt2")
    made = compatibility_model(service("svc-a", same), same)
    result = migrate_objects([service("svc-b", same)], [made])
    assert result.ok
    migrated = result.objects[0]
    assert migrated["spec"]["model"] == {"name": made["metadata"]["name"]}
    [profile] = result.added[0]  # the model is declared already; its template's profile is new
    assert profile["kind"] == "AIMProfile"
    assert to_manifest(parse(profile))["spec"]["image"] == BASE


# --------------------------------------------------------------------------------------------------
# `migrate --custom-models derivation`: the base derivation form


def _base_profile(base_model: str, count: int) -> dict[str, Any]:
    """A `general/` profile of the base image as discovery gives it: role base, copyable, no model."""
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMProfile",
        "metadata": {
            "name": f"{base_model}-vllm-mi300x-bf16-tp{count}",
            "namespace": NS,
            "annotations": {"aim.eai.amd.com/profile-copyable": "true"},
            "labels": {
                "aim.eai.amd.com/profile-role": "base",
                "aim.eai.amd.com/profile-origin": "discovered",
                "aim.eai.amd.com/source-model": base_model,
                "aim.eai.amd.com/source-model-scope": "namespace",
            },
        },
        "spec": {
            "engine": "vllm",
            "metric": "latency",
            "precision": "bf16",
            "type": "general",
            "profileId": f"vllm-mi300x-bf16-tp{count}",
            "acceleratorType": "gpu",
            "acceleratorModel": "MI300X",
            "acceleratorCount": count,
            "engineArgs": {"tensor-parallel-size": count},
            "image": BASE,
        },
    }


def _deployed(planned: ServicePlan) -> tuple[str, list[str], Any, list[tuple[str, str, int]]]:
    """What a plan deploys: the predictor image, the weights it serves, its GPUs, and what its caches
    download where (URI, mount path, size)."""
    [isvc] = [d for d in build_service_manifests(planned) if d["kind"] == "InferenceService"]
    [container] = isvc["spec"]["predictor"]["containers"]
    uris = [s["sourceUri"] for s in planned.profile_spec["modelSources"]]
    downloads = sorted((text(c.source.get("sourceUri")), c.mount_path, c.size_gi) for c in planned.caches)
    return container["image"], uris, container["resources"].get("limits", {}).get("amd.com/gpu"), downloads


def _changes(before: ServicePlan, after: ServicePlan) -> tuple[list[str], list[str], list[str]]:
    """The children (`Kind`) only the first plan has, only the second has, and both have but differ."""
    old = {(d["kind"], d["metadata"]["name"]): d for d in _children(before)}
    new = {(d["kind"], d["metadata"]["name"]): d for d in _children(after)}
    return (
        sorted(k for k, n in old.keys() - new.keys()),
        sorted(k for k, n in new.keys() - old.keys()),
        sorted(k for k, n in old.keys() & new.keys() if old[k, n] != new[k, n]),
    )


@pytest.mark.parametrize(
    ("gpus", "caching", "changes", "said"),
    [
        (1, None, ([], [], ["ConfigMap", "InferenceService"]), "no cache changes"),
        (
            2,
            {"mode": "Shared"},
            (
                ["Job", "PersistentVolumeClaim"],
                ["Job", "PersistentVolumeClaim"],
                ["ConfigMap", "InferenceService"],
            ),
            "a new PVC and download Job, the weights download again",
        ),
        (
            1,
            {"mode": "Dedicated"},
            ([], [], ["ConfigMap", "InferenceService", "Job", "PersistentVolumeClaim"]),
            "keeps its name",
        ),
    ],
)
def test_migrate_derivation_form_deploys_the_same_weights_on_the_same_image(
    gpus: int, caching: dict[str, Any] | None, changes: tuple[list[str], ...], said: str
) -> None:
    """`custom_models="derivation"`: the service names an AIMModel with `spec.profiles` (`role: base` on
    the base image's model, the GPU count, the weights and their id as overrides), admitted with the
    vendored CRDs' rules; planned over the base image's general profiles it deploys the weights, the
    image line and the GPU count the names form deploys, on another profile. The notice says what
    planning both forms shows changing: the InferenceService always, the caches as `spec.caching` is."""
    same = custom("shared/dedup-model", "hf://sshleifer/tiny-gpt2", {"gpu": {"requests": gpus}}, size="1Gi")
    extra = {"caching": caching} if caching else {}
    docs = [service("svc-a", same, **extra), service("svc-b", copy.deepcopy(same), **extra)]
    result = migrate_objects(docs, custom_models="derivation")
    assert result.ok and result.converted == (True, True)
    [base, model] = result.added[0]
    assert result.added[1] == ()  # shared by both services, written once
    assert base["spec"] == {"image": BASE}
    assert model["metadata"]["name"] == custom_model_name(same)
    assert model["spec"] == {
        "profiles": {
            "derivedFrom": {
                "selector": {
                    "acceleratorCount": gpus,
                    "modelRef": {"name": base["metadata"]["name"], "scope": "Namespace"},
                    "role": "base",
                }
            },
            "versionPolicy": "latest",
            "overrides": {
                "aimId": "shared/dedup-model",
                "modelId": "shared/dedup-model",
                "modelSources": same["modelSources"],
            },
        }
    }
    # Admission runs the CEL rules: without the identity a base derivation is refused.
    parse(model)
    anonymous = copy.deepcopy(model)
    del anonymous["spec"]["profiles"]["overrides"]["aimId"]
    with pytest.raises(AIMValidationError) as info:
        parse(anonymous)
    assert "aimId" in str(info.value)
    migrated = result.objects[0]
    assert migrated["spec"]["model"] == {"name": model["metadata"]["name"]}
    bases = [_base_profile(base["metadata"]["name"], count) for count in (1, 2)]
    after = plan(migrated, base, model, *bases)
    kept = migrate_objects(docs)
    before = plan(kept.objects[0], *kept.added[0])
    assert _deployed(after) == _deployed(before)
    assert _deployed(after)[:3] == (BASE, ["hf://sshleifer/tiny-gpt2"], gpus)
    assert len(after.caches) == len(before.caches) == (1 if caching else 0)
    assert after.profile_name != before.profile_name
    assert after.profile_name.startswith(custom_model_name(same)) and f"tp{gpus}" in after.profile_name
    assert _changes(before, after) == changes
    assert [(n.index, n.name) for n in result.notices] == [(0, "svc-a"), (1, "svc-b")]
    message = result.notices[0].message
    assert before.profile_name in message and "InferenceService rolls out" in message and said in message


def test_migrate_derivation_form_is_deterministic() -> None:
    """The same input gives byte-identical output (documents, additions and notices) twice."""
    same = custom("org/model", "s3://bucket/model", {"gpu": {"requests": 2, "model": "MI300X"}},
                  env=[{"name": "AWS_ENDPOINT_URL", "value": "https://minio.example.com"}])  # fmt: skip
    docs = [service("a", same), service("b", custom("org/other", "hf://org/other"))]

    def run() -> str:
        result = migrate_objects(copy.deepcopy(docs), custom_models="derivation")
        notices = [n.message for n in result.notices]
        return yaml.safe_dump([list(result.objects), [list(a) for a in result.added], notices])

    assert run() == run()
    [_, model] = migrate_objects(docs, custom_models="derivation").added[0]
    assert model["spec"]["profiles"]["derivedFrom"]["selector"]["acceleratorModel"] == "MI300X"


def test_migrate_derivation_form_reuses_a_declared_base_model() -> None:
    """A namespace AIMModel of the base image (not a custom model's) is the one the derivation reads."""
    declared = {"apiVersion": "aim.eai.amd.com/v1alpha2", "kind": "AIMModel",
                "metadata": {"name": "aim-base", "namespace": NS}, "spec": {"image": BASE}}  # fmt: skip
    result = migrate_objects(
        [service("s", custom("org/m", "hf://org/m"))], [declared], custom_models="derivation"
    )
    [model] = result.added[0]
    assert model["spec"]["profiles"]["derivedFrom"]["selector"]["modelRef"] == {
        "name": "aim-base",
        "scope": "Namespace",
    }


@pytest.mark.parametrize(
    ("hardware", "field"),
    [
        ({"cpu": {"requests": "500m"}}, "spec.model.custom.hardware.gpu.requests"),
        ({"gpu": {"requests": 1, "minVram": "64Gi"}}, "spec.model.custom.hardware.gpu.minVram"),
        ({"gpu": {"requests": 1}, "cpu": {"requests": 2}}, "spec.model.custom.hardware.cpu"),
    ],
)
def test_migrate_derivation_form_refuses_what_a_selector_cannot_say(
    hardware: dict[str, Any], field: str
) -> None:
    """A CPU-only model, a VRAM floor or CPU requests have no base derivation: the service is reported
    and left as it is (the names form converts it)."""
    doc = service("s", custom("org/m", "hf://org/m", hardware))
    result = migrate_objects([doc], custom_models="derivation")
    assert result.converted == (False,) and result.objects == (doc,) and not result.notices
    [problem] = result.problems
    assert (problem.field, problem.reason) == (field, "Unsupported")
    assert "--custom-models keep-names" in problem.message
    assert migrate_objects([doc]).ok


def test_migrate_default_form_keeps_names_and_says_nothing() -> None:
    """The default is the names form, with no notice."""
    docs = [service("s", custom("org/m", "hf://org/m"))]
    default = migrate_objects(docs)
    assert default == migrate_objects(docs, custom_models="keep-names")
    assert not default.notices and [d["kind"] for d in default.added[0]] == ["AIMModel", "AIMProfile"]
    with pytest.raises(ValueError, match="keep-names, derivation"):
        migrate_objects(docs, custom_models="rename")


def test_migrate_derivation_form_refuses_a_model_name_taken_by_another_model() -> None:
    """The operator's compatibility model (kept by `import`) holds the name the derivation model takes:
    the service is reported, not pointed at a model that is not the derivation."""
    same = custom("org/m", "hf://org/m")
    made = compatibility_model(service("s", same), same)
    result = migrate_objects([service("s", same)], [made], custom_models="derivation")
    [problem] = result.problems
    assert (problem.field, problem.reason) == ("spec.model.custom", "Unsupported")
    assert f"AIMModel {NS}/{made['metadata']['name']} is declared already" in problem.message
    # The derivation model itself, declared already, is reused as it is.
    derived = migrate_objects([service("s", same)], custom_models="derivation")
    again = migrate_objects([service("s", same)], list(derived.added[0]), custom_models="derivation")
    assert again.ok and again.added == ((),)
