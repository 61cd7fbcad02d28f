"""`migrate_objects` (behaviour §7.3): every conversion row, every not-convertible shape, the seeds."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.api import AIMService, to_manifest
from aim_pulumi.resolve.legacy.dispatch import choose_pipeline
from aim_pulumi.resolve.legacy.migration import migrate_objects
from aim_pulumi.resolve.legacy.template_profile import template_default_resources_for
from tests.versions import admission_problems, parse

LEGACY = Path(__file__).resolve().parents[2] / "fixtures" / "legacy"
V1 = "aim.eai.amd.com/v1alpha1"
V2 = "aim.eai.amd.com/v1alpha2"
MARKER = "aim.eai.amd.com/reconciler-pipeline"
IMAGE = "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"


def svc(spec: dict[str, Any], annotations: dict[str, str] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": "chat", "namespace": "ml-team"}
    if annotations is not None:
        metadata["annotations"] = annotations
    return {"apiVersion": V1, "kind": "AIMService", "metadata": metadata, "spec": spec}


def model(*, cluster: bool = False, **spec: Any) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": "qwen"} if cluster else {"name": "qwen", "namespace": "ml-team"}
    return {
        "apiVersion": V2,
        "kind": "AIMClusterModel" if cluster else "AIMModel",
        "metadata": metadata,
        "spec": {"image": IMAGE, **spec},
    }


def tmpl(*, cluster: bool = False, status: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": "t"} if cluster else {"name": "t", "namespace": "ml-team"}
    doc: dict[str, Any] = {
        "apiVersion": V1,
        "kind": "AIMClusterServiceTemplate" if cluster else "AIMServiceTemplate",
        "metadata": metadata,
        "spec": {"modelName": "qwen", **spec},
    }
    if status is not None:
        doc["status"] = status
    return doc


def one(doc: dict[str, Any], *context: dict[str, Any]) -> dict[str, Any]:
    result = migrate_objects([doc, *context])
    assert result.problems == (), result.problems
    assert result.converted[0] is True
    out: dict[str, Any] = result.objects[0]
    parse(out)
    return out


MODEL = {"model": {"name": "qwen"}}
# What a service the template pipeline serves by selection gets: no tier floor, like that pipeline.
ANY = {"profile": {"selector": {"minimumType": "any"}}}

# --------------------------------------------------------------------------------------------------
# AIMService rows


@pytest.mark.parametrize(
    ("spec", "annotations", "expected_spec", "expected_annotations"),
    [
        pytest.param(
            {**MODEL, "template": {"name": "t"}},
            None,
            {**MODEL, "profile": {"name": "t"}},
            None,
            id="template-name-to-profile-name",
        ),
        pytest.param(
            {**MODEL, "templateName": "t"},
            None,
            {**MODEL, "profile": {"name": "t"}},
            None,
            id="template-name-alias",
        ),
        pytest.param(
            {**MODEL, "template": {"selectionCriteria": {"precision": "fp8", "acceleratorCount": 2}}},
            None,
            {
                **MODEL,
                "profile": {"selector": {"precision": "fp8", "acceleratorCount": 2, "minimumType": "any"}},
            },
            None,
            id="selection-criteria-to-selector-same-keys-no-floor",
        ),
        pytest.param(
            {**MODEL, "template": {"name": "t"}, "overrides": {"env": [{"name": "A", "value": "1"}]}},
            None,
            {
                **MODEL,
                "profile": {"name": "t"},
                "profileOverrides": {"containerEnv": [{"name": "A", "value": "1"}]},
            },
            None,
            id="overrides-env-to-container-env",
        ),
        pytest.param(
            {**MODEL, "template": {"name": "t"}, "overrides": {"engineArgs": {"max-model-len": 4096}}},
            None,
            {**MODEL, "profile": {"name": "t"}, "profileOverrides": {"engineArgs": {"max-model-len": 4096}}},
            None,
            id="overrides-engine-args-kept",
        ),
        pytest.param(
            {
                **MODEL,
                "template": {"name": "t"},
                "overrides": {"gpuSelector": {"model": "MI300X", "count": 2}},
            },
            None,
            {
                **MODEL,
                "profile": {"name": "t"},
                "profileOverrides": {"acceleratorModel": "MI300X", "acceleratorCount": 2},
            },
            None,
            id="overrides-gpu-to-accelerator",
        ),
        pytest.param(
            {**MODEL, "template": {"name": "t"}, "overrides": {}},
            None,
            {**MODEL, "profile": {"name": "t"}},
            None,
            id="empty-overrides-dropped",
        ),
        pytest.param(
            {**MODEL, "runtimeConfigRef": {"name": "team"}},
            None,
            {**MODEL, **ANY, "runtimeConfigName": "team"},
            None,
            id="runtime-config-ref-to-name",
        ),
        pytest.param(
            {**MODEL, "runtimeConfigRef": {"name": "team"}, "runtimeConfigName": "team"},
            None,
            {**MODEL, **ANY, "runtimeConfigName": "team"},
            None,
            id="runtime-config-ref-equal-to-name-dropped",
        ),
        pytest.param(MODEL, None, {**MODEL, **ANY}, None, id="model-name-kept-selector-without-floor"),
        pytest.param(
            {"model": {"image": IMAGE}},
            None,
            {"model": {"image": IMAGE}, **ANY},
            None,
            id="model-image-kept-selector-without-floor",
        ),
        pytest.param({"model": {"ref": "qwen"}}, None, {**MODEL, **ANY}, None, id="model-ref-alias-to-name"),
        pytest.param(
            {**MODEL, "template": {}},
            None,
            {**MODEL, **ANY},
            None,
            id="empty-template-to-selector-without-floor",
        ),
        pytest.param(
            {**MODEL, "template": {"selectionCriteria": {}}},
            None,
            {**MODEL, **ANY},
            None,
            id="empty-criteria-to-selector-without-floor",
        ),
        pytest.param(
            MODEL, {MARKER: "template"}, {**MODEL, **ANY}, None, id="template-marker-removed-by-model"
        ),
        pytest.param(
            MODEL,
            {MARKER: "profile"},
            MODEL,
            {MARKER: "profile"},
            id="profile-pipeline-service-keeps-its-floor",
        ),
        pytest.param(
            {"model": {"image": IMAGE}, "runtimeConfigRef": {"name": "team"}},
            {MARKER: "profile"},
            {"model": {"image": IMAGE}, "runtimeConfigName": "team"},
            {MARKER: "profile"},
            id="profile-pipeline-by-image-keeps-its-floor",
        ),
        pytest.param(
            {**MODEL, "template": {"name": "t"}},
            {MARKER: "template"},
            {**MODEL, "profile": {"name": "t"}},
            None,
            id="template-marker-removed",
        ),
        pytest.param(
            {**MODEL, "template": {"name": "t"}},
            {MARKER: "template", "team": "x"},
            {**MODEL, "profile": {"name": "t"}},
            {"team": "x"},
            id="template-marker-removed-others-kept",
        ),
        pytest.param(
            {**MODEL, "caching": {"mode": "Auto"}},
            None,
            {**MODEL, **ANY, "caching": {"mode": "Shared"}},
            None,
            id="caching-auto-to-shared",
        ),
        pytest.param(
            {**MODEL, "caching": {"mode": "Always"}},
            None,
            {**MODEL, **ANY, "caching": {"mode": "Shared"}},
            None,
            id="caching-always-to-shared",
        ),
        pytest.param(
            {**MODEL, "caching": {"mode": "Never"}},
            None,
            {**MODEL, **ANY, "caching": {"mode": "Dedicated"}},
            None,
            id="caching-never-to-dedicated",
        ),
        pytest.param(
            {**MODEL, "cacheModel": True},
            None,
            {**MODEL, **ANY, "caching": {"mode": "Shared"}},
            None,
            id="cache-model-true-to-shared",
        ),
        pytest.param(
            {**MODEL, "cacheModel": False},
            None,
            {**MODEL, **ANY, "caching": {"mode": "Dedicated"}},
            None,
            id="cache-model-false-to-dedicated",
        ),
        pytest.param(
            {**MODEL, "replicas": 2, "env": [{"name": "X", "value": "1"}]},
            None,
            {**MODEL, **ANY, "replicas": 2, "env": [{"name": "X", "value": "1"}]},
            None,
            id="other-fields-kept",
        ),
    ],
)
def test_service_rows(
    spec: dict[str, Any],
    annotations: dict[str, str] | None,
    expected_spec: dict[str, Any],
    expected_annotations: dict[str, str] | None,
) -> None:
    out = one(svc(spec, annotations))
    assert out["apiVersion"] == V2
    assert out["spec"] == expected_spec
    assert out["metadata"].get("annotations") == expected_annotations
    converted = parse(out)
    assert isinstance(converted, AIMService)
    assert choose_pipeline(converted) == ("profile", ())


def test_service_status_is_dropped() -> None:
    doc = svc({**MODEL, "template": {"name": "t"}})
    doc["status"] = {"resolvedTemplate": {"name": "t"}, "status": "Running"}
    assert "status" not in one(doc)


def test_v1alpha2_service_is_unchanged() -> None:
    doc = {**svc({**MODEL, "profile": {"name": "p"}}), "apiVersion": V2}
    result = migrate_objects([doc])
    assert (result.objects[0] is doc, result.converted, result.problems) == (True, (False,), ())


# --------------------------------------------------------------------------------------------------
# Template rows


@pytest.mark.parametrize(
    ("doc", "context", "expected"),
    [
        pytest.param(
            tmpl(), [model()], {"aimId": "qwen", "image": IMAGE}, id="image-from-model-aim-id-from-model-name"
        ),
        pytest.param(
            tmpl(),
            [model(aimId="qwen/qwen3-32b")],
            {"aimId": "qwen/qwen3-32b", "image": IMAGE},
            id="aim-id-from-model",
        ),
        pytest.param(
            tmpl(status={"profile": {"metadata": {"aimId": "qwen/discovered"}}}),
            [model()],
            {"aimId": "qwen/discovered", "image": IMAGE},
            id="aim-id-from-discovery",
        ),
        pytest.param(
            tmpl(status={"profile": {"metadata": {"engine": "vllm", "type": "optimized", "primary": True}}}),
            [model()],
            {"aimId": "qwen", "image": IMAGE, "engine": "vllm", "type": "optimized", "primary": True},
            id="discovered-engine-type-primary",
        ),
        pytest.param(
            tmpl(status={"profile": {"metadata": {"type": "general", "primary": False}}}),
            [model()],
            {"aimId": "qwen", "image": IMAGE, "type": "general", "primary": False},
            id="discovered-not-primary",
        ),
        pytest.param(
            tmpl(status={"profile": {"metadata": {"engine": "", "type": "custom", "primary": "yes"}}}),
            [model()],
            {"aimId": "qwen", "image": IMAGE},
            id="discovered-values-a-profile-cannot-hold-left-out",
        ),
        pytest.param(
            tmpl(status={"profile": {"engine": "vllm", "type": "optimized"}}),
            [model()],
            {"aimId": "qwen", "image": IMAGE},
            id="only-discovered-metadata-counts",
        ),
        pytest.param(
            tmpl(
                modelSources=[{"name": "Qwen/Qwen3-32B", "sourceURI": "hf://Qwen/Qwen3-32B", "size": "64Gi"}]
            ),
            [model()],
            {
                "aimId": "Qwen/Qwen3-32B",
                "image": IMAGE,
                "modelSources": [
                    {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "64Gi"}
                ],
            },
            id="model-sources-renamed-aim-id-from-first-source",
        ),
        pytest.param(
            tmpl(metric="latency", precision="fp8", profileId="p1"),
            [model()],
            {
                "aimId": "qwen",
                "image": IMAGE,
                "metric": "latency",
                "precision": "fp8",
                "profileId": "p1",
                "containerEnv": [
                    {"name": "AIM_METRIC", "value": "latency"},
                    {"name": "AIM_PRECISION", "value": "fp8"},
                ],
            },
            id="operator-template-env-announces-metric-and-precision",
        ),
        pytest.param(
            tmpl(
                status={"profile": {"metadata": {"profileId": "mi300x-fp16-latency-unopt", "engine": "vllm"}}}
            ),
            [model()],
            {
                "aimId": "qwen",
                "image": IMAGE,
                "profileId": "mi300x-fp16-latency-unopt",
                "engine": "vllm",
            },
            id="operator-template-keeps-the-discovered-profile-id",
        ),
        pytest.param(
            tmpl(precision="auto"),
            [model()],
            {
                "aimId": "qwen",
                "image": IMAGE,
                "containerEnv": [{"name": "AIM_PRECISION", "value": "auto"}],
            },
            id="precision-auto-dropped-from-the-spec-kept-in-the-operator-env",
        ),
        pytest.param(
            tmpl(hardware={"gpu": {"requests": 2, "model": "MI300X"}}),
            [model()],
            {
                "aimId": "qwen",
                "image": IMAGE,
                "acceleratorType": "gpu",
                "acceleratorModel": "MI300X",
                "acceleratorCount": 2,
            },
            id="gpu-hardware-leaves-the-operator-default-resources-to-the-template-label",
        ),
        pytest.param(
            tmpl(hardware={"cpu": {"requests": 4}}),
            [model()],
            {"aimId": "qwen", "image": IMAGE, "acceleratorType": "cpu"},
            id="cpu-hardware",
        ),
        pytest.param(
            tmpl(env=[{"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}}]),
            [model()],
            {
                "aimId": "qwen",
                "image": IMAGE,
                "containerEnv": [
                    {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
                ],
            },
            id="env-to-container-env",
        ),
        pytest.param(
            tmpl(
                imagePullSecrets=[{"name": "reg"}],
                serviceAccountName="sa",
                resources={"limits": {"memory": "64Gi"}},
                runtimeConfigName="team",
                caching={"enabled": True},
            ),
            [model()],
            {
                "aimId": "qwen",
                "image": IMAGE,
                "imagePullSecrets": [{"name": "reg"}],
                "serviceAccountName": "sa",
                "resources": {"limits": {"memory": "64Gi"}},
                "runtimeConfigName": "team",
                "caching": {"enabled": True},
            },
            id="pod-fields-and-caching-kept",
        ),
        pytest.param(
            tmpl(cluster=True),
            [model(), model(cluster=True, aimId="cluster/id")],
            {"aimId": "cluster/id", "image": IMAGE},
            id="cluster-template-sees-only-cluster-model",
        ),
        pytest.param(
            tmpl(),
            [model(cluster=True, aimId="cluster/id")],
            {"aimId": "cluster/id", "image": IMAGE},
            id="namespace-template-falls-back-to-cluster-model",
        ),
    ],
)
def test_template_rows(doc: dict[str, Any], context: list[dict[str, Any]], expected: dict[str, Any]) -> None:
    out = one(doc, *context)
    cluster = doc["kind"] == "AIMClusterServiceTemplate"
    assert out["apiVersion"] == V2
    assert out["kind"] == ("AIMClusterProfile" if cluster else "AIMProfile")
    assert out["metadata"]["name"] == "t"
    assert out["metadata"].get("namespace") == (None if cluster else "ml-team")
    assert out["metadata"]["labels"] == {
        "aim.eai.amd.com/source-model": "qwen",
        "aim.eai.amd.com/profile-role": "deployable",
        "aim.eai.amd.com/profile-origin": "user-authored",
        "aim.eai.amd.com/template": "t",
    }
    assert out["spec"] == expected
    assert "status" not in out


OPERATOR_TEMPLATE_CONTAINER = [
    pytest.param(
        {"requests": 4, "model": "MI300X"},
        None,
        [],
        {"cpu": "16", "memory": "128Gi"},
        "192Gi",
        id="operator-4-gpu-template-16-cpu-128gi-limit-192gi",
    ),
    pytest.param(
        {"requests": 1}, None, [], {"cpu": "4", "memory": "32Gi"}, "48Gi", id="operator-1-gpu-template"
    ),
    pytest.param(
        {"requests": 2},
        {"limits": {"memory": "10Gi"}},
        [],
        None,
        "10Gi",
        id="operator-template-resources-replace-the-default",
    ),
    pytest.param(
        {"requests": 1},
        None,
        [{"name": "VLLM_ENABLE_METRICS", "value": "false"}],
        {"cpu": "4", "memory": "32Gi"},
        "48Gi",
        id="operator-template-env-keeps-its-own-metrics-setting",
    ),
]


@pytest.mark.parametrize(("gpu", "resources", "env", "requests", "limit"), OPERATOR_TEMPLATE_CONTAINER)
def test_operator_template_container(
    gpu: dict[str, Any], resources: Any, env: list[dict[str, str]], requests: Any, limit: str
) -> None:
    extra: dict[str, Any] = {"hardware": {"gpu": gpu}, "metric": "latency"}
    if resources is not None:
        extra["resources"] = resources
    if env:
        extra["env"] = env
    out = one(tmpl(**extra), model())
    spec = out["spec"]
    # Only the template's own resources are written; the per-GPU default comes with the template
    # label and applies when neither the template nor the service sets resources.
    assert spec.get("resources") == resources
    default = template_default_resources_for(out["metadata"]["labels"], spec["acceleratorCount"])
    assert default is not None
    effective = resources if resources is not None else default
    assert effective.get("requests") == requests
    assert effective["limits"]["memory"] == limit
    assert {"name": "AIM_METRIC", "value": "latency"} in spec["containerEnv"]
    # The metrics default ranks below the runtime config's env, so the profile carries only the
    # template's own value (the template label brings the default: `template_base_env`).
    metrics = [item for item in spec["containerEnv"] if item["name"] == "VLLM_ENABLE_METRICS"]
    assert metrics == env


DISCOVERED = {
    "conditions": [{"type": "Discovered", "status": "True"}],
    "modelSources": [{"name": "Qwen/Qwen3-32B", "sourceURI": "hf://Qwen/Qwen3-32B"}],
    "profile": {"metadata": {"engine": "vllm"}},
}


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        pytest.param({"status": "Ready"}, None, id="ready-leaves-availability-to-the-inventory"),
        pytest.param({"status": "NotAvailable"}, {"status": "NotAvailable"}, id="not-available-kept"),
        pytest.param({"status": "Pending"}, {"status": "NotAvailable"}, id="pending-not-available"),
        pytest.param({"status": "Progressing"}, {"status": "NotAvailable"}, id="progressing-not-available"),
        pytest.param({"status": "Degraded"}, {"status": "NotAvailable"}, id="degraded-not-available"),
        pytest.param({"status": "Failed"}, {"status": "NotAvailable"}, id="failed-not-available"),
        pytest.param({"status": ""}, None, id="empty-status-is-absent"),
        pytest.param({"version": "0.8.5"}, {"version": "0.8.5"}, id="version-carried"),
        pytest.param({"status": "Ready", "version": "0.9.0"}, {"version": "0.9.0"}, id="ready-with-version"),
        pytest.param(
            {"status": "Failed", "version": "1.0.0", **DISCOVERED},
            {"status": "NotAvailable", "version": "1.0.0"},
            id="other-status-fields-dropped",
        ),
        pytest.param(DISCOVERED, None, id="nothing-to-carry"),
    ],
)
def test_template_status_and_version_carried(status: dict[str, Any], expected: dict[str, str] | None) -> None:
    out = one(tmpl(status=copy.deepcopy(status)), model())
    assert out.get("status") == expected
    converted = parse(out)
    assert to_manifest(converted).get("status") == expected


def test_converted_fields_keep_a_readable_order() -> None:
    doc = svc({**MODEL, "cacheModel": True, "replicas": 1})
    assert list(one(doc)["spec"]) == ["model", "profile", "caching", "replicas"]
    status = {"profile": {"metadata": {"primary": True, "type": "optimized", "engine": "vllm"}}}
    out = one(tmpl(metric="latency", status=status), model())
    assert list(out["spec"]) == ["aimId", "image", "engine", "type", "primary", "metric", "containerEnv"]


def test_template_labels_are_added_to_existing_ones() -> None:
    doc = tmpl()
    doc["metadata"]["labels"] = {"team": "research"}
    out = one(doc, model())
    assert out["metadata"]["labels"]["team"] == "research"
    assert out["metadata"]["labels"]["aim.eai.amd.com/source-model"] == "qwen"


def test_catalog_objects_supply_the_model() -> None:
    result = migrate_objects([tmpl()], catalog_objects=[parse(model(aimId="from/catalog"))])
    assert result.problems == ()
    assert result.objects[0]["spec"]["aimId"] == "from/catalog"
    raw = migrate_objects([tmpl()], catalog_objects=[model(aimId="raw/catalog")])
    assert raw.objects[0]["spec"]["aimId"] == "raw/catalog"


def test_other_kinds_are_unchanged() -> None:
    docs: list[Any] = [
        model(),
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}},
        None,
        "text",
    ]
    result = migrate_objects(docs)
    assert all(a is b for a, b in zip(result.objects, docs, strict=True))
    assert result.converted == (False, False, False, False)
    assert result.ok


# --------------------------------------------------------------------------------------------------
# Not convertible: reported with field and reason, written unchanged


@pytest.mark.parametrize(
    ("doc", "context", "field", "reason"),
    [
        pytest.param(
            svc({"model": {"custom": {"image": "x"}}}),
            [],
            "spec.model.custom.baseImage",
            "InvalidSpec",
            id="custom-model-without-base-image",
        ),
        pytest.param(
            svc(
                {
                    **MODEL,
                    "template": {"selectionCriteria": {"precision": "fp8"}},
                    "overrides": {"engineArgs": {"a": 1}},
                }
            ),
            [],
            "spec.overrides",
            "OverridesWithoutTemplateName",
            id="overrides-with-selection-criteria",
        ),
        pytest.param(
            svc({**MODEL, "overrides": {"env": [{"name": "A", "value": "1"}]}}),
            [],
            "spec.overrides",
            "OverridesWithoutTemplateName",
            id="overrides-without-template",
        ),
        pytest.param(
            svc({**MODEL, "template": {"name": "t"}, "overrides": {"metric": "latency"}}),
            [],
            "spec.overrides.metric",
            "UnmappedField",
            id="overrides-metric-has-no-profile-override",
        ),
        pytest.param(
            svc({**MODEL, "template": {"name": "t"}, "overrides": {"precision": "fp8"}}),
            [],
            "spec.overrides.precision",
            "UnmappedField",
            id="overrides-precision-has-no-profile-override",
        ),
        pytest.param(
            svc({**MODEL, "runtimeConfigRef": {"name": "a"}, "runtimeConfigName": "b"}),
            [],
            "spec.runtimeConfigRef",
            "InvalidSpec",
            id="runtime-config-ref-conflict",
        ),
        pytest.param(tmpl(), [], "spec.modelName", "ModelNotFound", id="template-model-missing"),
        pytest.param(
            tmpl(cluster=True),
            [model()],
            "spec.modelName",
            "ModelNotFound",
            id="cluster-template-namespace-model-invisible",
        ),
        pytest.param(
            tmpl(),
            [{**model(), "spec": {"modelId": "Qwen/Qwen3-32B"}}],
            "spec.modelName",
            "ModelWithoutImage",
            id="template-model-without-image",
        ),
        pytest.param(
            svc({**MODEL, "minReplicas": 3, "maxReplicas": 1}),
            [],
            "spec.minReplicas",
            "InvalidSpec",
            id="input-not-admitted",
        ),
    ],
)
def test_not_convertible(doc: dict[str, Any], context: list[dict[str, Any]], field: str, reason: str) -> None:
    before = copy.deepcopy(doc)
    result = migrate_objects([doc, *context])
    assert not result.ok
    problem = result.problems[0]
    assert (problem.index, problem.field, problem.reason) == (0, field, reason)
    assert problem.message
    assert result.objects[0] is doc and doc == before
    assert result.converted[0] is False
    name = doc["metadata"]["name"]
    expected_ref = f"{doc['kind']}//{name}" if "Cluster" in doc["kind"] else f"{doc['kind']}/ml-team/{name}"
    assert problem.object_ref == expected_ref


def test_a_service_problem_is_reported_with_its_field_and_the_service_unchanged() -> None:
    doc = svc({**MODEL, "overrides": {"metric": "latency"}})
    result = migrate_objects([doc])
    assert [(p.field, p.reason) for p in result.problems] == [
        ("spec.overrides", "OverridesWithoutTemplateName")
    ]
    assert result.objects == (doc,) and result.added == ((),)


def test_inputs_are_not_modified() -> None:
    docs = [
        svc({**MODEL, "template": {"name": "t"}, "cacheModel": True}),
        tmpl(env=[{"name": "A", "value": "1"}]),
        model(),
    ]
    before = copy.deepcopy(docs)
    migrate_objects(docs)
    assert docs == before


# --------------------------------------------------------------------------------------------------
# Seed examples: every converted document is admitted and dispatches to the profile pipeline


def _load(path: Path) -> list[Any]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]


SEED_FILES = sorted(p.name for p in LEGACY.glob("*.yaml") if p.name != "not-convertible.yaml")


@pytest.mark.parametrize("name", SEED_FILES)
def test_seed_examples_convert(name: str) -> None:
    context = _load(LEGACY / "models.yaml")
    docs = _load(LEGACY / name)
    result = migrate_objects(docs, catalog_objects=context)
    assert result.problems == ()
    for original, out, converted in zip(docs, result.objects, result.converted, strict=True):
        assert admission_problems(out) == []
        if converted:
            assert out["apiVersion"] == V2
            assert out["kind"] in ("AIMService", "AIMProfile", "AIMClusterProfile")
            obj = parse(out)
            if isinstance(obj, AIMService):
                assert choose_pipeline(obj)[0] == "profile"
        else:
            assert out is original


def test_seed_template_reference() -> None:
    (template_doc,) = [
        d for d in _load(LEGACY / "template-seed003.yaml") if d["metadata"]["name"] == "qwen3-32b-throughput"
    ]
    out = one(template_doc, *_load(LEGACY / "models.yaml"))
    assert out["spec"] == {
        "aimId": "qwen-qwen3-32b",
        "image": IMAGE,
        "runtimeConfigName": "ml-research",
        "metric": "throughput",
        "precision": "fp8",
        "acceleratorType": "gpu",
        "acceleratorModel": "MI300X",
        "acceleratorCount": 2,
        "containerEnv": [
            {"name": "AIM_METRIC", "value": "throughput"},
            {"name": "AIM_PRECISION", "value": "fp8"},
            {
                "name": "HF_TOKEN",
                "valueFrom": {"secretKeyRef": {"name": "huggingface-creds", "key": "token"}},
            },
        ],
        "imagePullSecrets": [{"name": "registry-credentials"}],
    }


def test_mixed_directory_converts_together() -> None:
    docs = _load(LEGACY / "mixed" / "services.yaml") + _load(LEGACY / "mixed" / "nested" / "catalog.yml")
    result = migrate_objects(docs)
    assert result.problems == ()
    assert result.converted == (False, True, False, True)
    assert result.objects[1]["spec"]["profile"] == {"name": "team-template"}
    assert result.objects[3]["kind"] == "AIMProfile"


# --------------------------------------------------------------------------------------------------
# Property: a v1alpha1 service is either converted into an admitted profile-path service or left as is


_env = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from(["A", "B", "HF_TOKEN"]), "value": st.sampled_from(["1", "x"])}
    ),
    max_size=2,
)
_template = st.one_of(
    st.none(),
    st.fixed_dictionaries({"name": st.sampled_from(["t", ""])}),
    st.fixed_dictionaries(
        {},
        optional={
            "selectionCriteria": st.fixed_dictionaries(
                {},
                optional={
                    "precision": st.sampled_from(["fp8", "fp16"]),
                    "metric": st.sampled_from(["latency", "throughput"]),
                    "acceleratorModel": st.just("MI300X"),
                    "acceleratorCount": st.integers(1, 8),
                },
            )
        },
    ),
)
_overrides = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {},
        optional={
            "env": _env,
            "engineArgs": st.dictionaries(
                st.sampled_from(["max-model-len", "tp"]), st.integers(1, 9), max_size=2
            ),
            "gpuSelector": st.fixed_dictionaries(
                {}, optional={"model": st.just("MI325X"), "count": st.integers(1, 8)}
            ),
            "metric": st.sampled_from(["latency", "throughput"]),
        },
    ),
)
_services = st.fixed_dictionaries(
    {"model": st.sampled_from([{"name": "qwen"}, {"image": IMAGE}, {"ref": "qwen"}])},
    optional={
        "template": _template,
        "overrides": _overrides,
        "runtimeConfigRef": st.fixed_dictionaries({"name": st.sampled_from(["team", "default"])}),
        "caching": st.fixed_dictionaries({"mode": st.sampled_from(["Auto", "Always", "Never", "Shared"])}),
        "cacheModel": st.booleans(),
        "replicas": st.integers(0, 3),
    },
)
_markers = st.sampled_from([None, "template", "profile", ""])


@settings(max_examples=150, deadline=None)
@given(spec=_services, marker=_markers)
def test_property_converted_or_reported(spec: dict[str, Any], marker: str | None) -> None:
    spec = {k: v for k, v in spec.items() if v is not None}
    doc = svc(spec, {MARKER: marker} if marker is not None else None)
    before = copy.deepcopy(doc)
    result = migrate_objects([doc])
    assert doc == before
    if result.problems:
        assert result.objects[0] is doc
        assert all(p.field and p.reason for p in result.problems)
        return
    out = result.objects[0]
    converted = parse(out)
    assert isinstance(converted, AIMService)
    assert converted.api_version == V2
    # A v1alpha2 service without v1alpha1 fields is read by the core class, which has none of them.
    assert getattr(converted.spec, "template", None) is None
    assert getattr(converted.spec, "overrides", None) is None
    pipeline, diagnostics = choose_pipeline(converted)
    assert pipeline == "profile"
    # Only a marker that was already malformed before the conversion may still draw a warning.
    assert diagnostics == () or marker not in (None, "template", "profile")
    if converted.spec.profile is None:
        assert out["metadata"]["annotations"][MARKER] == "profile"
    original = parse(doc)
    assert isinstance(original, AIMService)
    selector = converted.spec.profile.selector if converted.spec.profile is not None else None
    selected = not (original.spec.template is not None and original.spec.template.name)
    if choose_pipeline(original)[0] == "template" and selected:
        assert selector is not None and selector.minimum_type == "any"
    else:
        assert selector is None or selector.minimum_type is None
    assert converted.spec.model == original.spec.model
    assert converted.spec.runtime_config_name == original.spec.runtime_config_name
    assert converted.spec.caching == original.spec.caching
    assert converted.spec.replicas == original.spec.replicas
