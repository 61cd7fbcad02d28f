"""The legacy inline custom model (v1alpha1 `AIMService.spec.model.custom`), after the operator's
scenarios `tests/e2e/aimservice/common/custom-model/*` of aim-engine v0.2.1, each as a test of the
same name, and its `migrate`, which plans the same children.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMModel, to_manifest
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
