"""The v1alpha1 template pipeline (behaviour §7.2): model resolution, template selection, the profile."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.api import AIMClusterProfile, AIMProfile, AIMService, to_manifest
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.legacy.migration import migrate_objects
from aim_pulumi.resolve.legacy.templates import (
    effective_template_profile,
    resolve_model,
    select_template,
    template_profile,
)
from aim_pulumi.resolve.selection.overlays import build_overlay
from aim_pulumi.resolve.selection.select import select_profile
from tests.versions import Catalog, parse

V1 = "aim.eai.amd.com/v1alpha1"
V2 = "aim.eai.amd.com/v1alpha2"
NS = "ml-team"
IMAGE = "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"
SOURCES = [{"name": "Qwen/Qwen3-32B", "sourceURI": "hf://Qwen/Qwen3-32B", "size": "64Gi"}]


def model(name: str = "qwen", *, cluster: bool = False, image: str = IMAGE, ns: str = NS) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name} if cluster else {"name": name, "namespace": ns}
    return {
        "apiVersion": V2,
        "kind": "AIMClusterModel" if cluster else "AIMModel",
        "metadata": metadata,
        "spec": {"image": image},
    }


def template(
    name: str,
    *,
    cluster: bool = False,
    model_name: str = "qwen",
    gpu: dict[str, Any] | None = None,
    status: dict[str, Any] | None = None,
    ns: str = NS,
    **spec: Any,
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name} if cluster else {"name": name, "namespace": ns}
    body: dict[str, Any] = {"modelName": model_name, "modelSources": SOURCES, **spec}
    if gpu is not None:
        body["hardware"] = {"gpu": gpu}
    doc: dict[str, Any] = {
        "apiVersion": V1,
        "kind": "AIMClusterServiceTemplate" if cluster else "AIMServiceTemplate",
        "metadata": metadata,
        "spec": body,
    }
    if status is not None:
        doc["status"] = status
    return doc


def discovered(
    *, primary: bool = False, type: str | None = None, engine: str | None = None
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"primary": primary}
    if type:
        metadata["type"] = type
    if engine:
        metadata["engine"] = engine
    return {"status": "Ready", "profile": {"metadata": metadata}}


def profile(name: str, model_name: str = "qwen") -> dict[str, Any]:
    return {
        "apiVersion": V2,
        "kind": "AIMProfile",
        "metadata": {"name": name, "namespace": NS, "labels": {"aim.eai.amd.com/source-model": model_name}},
        "spec": {"aimId": "qwen/qwen3-32b", "image": IMAGE},
    }


def service(spec: dict[str, Any]) -> AIMService:
    obj = parse(
        {"apiVersion": V1, "kind": "AIMService", "metadata": {"name": "chat", "namespace": NS}, "spec": spec}
    )
    assert isinstance(obj, AIMService)
    return obj


def catalog(*docs: dict[str, Any], pools: list[dict[str, Any]] | None = None) -> Catalog:
    inventory = Inventory.from_config(pools) if pools is not None else None
    return Catalog([parse(d) for d in docs], inventory=inventory, embed_default=False)


def choose(spec: dict[str, Any], *docs: dict[str, Any], pools: list[dict[str, Any]] | None = None) -> str:
    cat = catalog(model(), *docs, pools=pools)
    svc = service(spec)
    return select_template(svc, resolve_model(svc, cat), cat).template.metadata.name


BY_MODEL = {"model": {"name": "qwen"}}


def criteria(**values: Any) -> dict[str, Any]:
    return {**BY_MODEL, "template": {"selectionCriteria": values}}


# --------------------------------------------------------------------------------------------------
# Model resolution


@pytest.mark.parametrize(
    ("spec", "docs", "expected"),
    [
        pytest.param(BY_MODEL, [model(), model(cluster=True)], "AIMModel/qwen", id="name-namespace-wins"),
        pytest.param(BY_MODEL, [model(cluster=True)], "AIMClusterModel/qwen", id="name-cluster-fallback"),
        pytest.param(
            {"model": {"image": IMAGE}},
            [model("a"), model("b", cluster=True)],
            "AIMModel/a",
            id="image-ns-first",
        ),
        pytest.param(
            {"model": {"image": IMAGE}},
            [model("b", cluster=True), model("a", ns="other")],
            "AIMClusterModel/b",
            id="image-cluster-when-no-ns-match",
        ),
    ],
)
def test_resolve_model(spec: dict[str, Any], docs: list[dict[str, Any]], expected: str) -> None:
    found = resolve_model(service(spec), catalog(*docs))
    assert f"{found.kind}/{found.metadata.name}" == expected


@pytest.mark.parametrize(
    ("spec", "docs", "reason", "field", "needle"),
    [
        pytest.param(
            BY_MODEL, [model("other")], "ModelNotFound", "spec.model.name", "'qwen'", id="name-missing"
        ),
        pytest.param(
            BY_MODEL,
            [model(ns="other")],
            "ModelNotFound",
            "spec.model.name",
            "ml-team",
            id="name-other-namespace",
        ),
        pytest.param(
            {"model": {"image": IMAGE}},
            [model(image="x/y:1")],
            "ModelNotFound",
            "spec.model.image",
            "no model is auto-created",
            id="image-none",
        ),
        pytest.param(
            {"model": {"image": IMAGE}},
            [model("a"), model("b")],
            "MultipleModelsFound",
            "spec.model.image",
            "ml-team/a (namespace), ml-team/b (namespace)",
            id="image-several",
        ),
        pytest.param(
            {"model": {"image": IMAGE}},
            [model("a", cluster=True), model("b", cluster=True)],
            "MultipleModelsFound",
            "spec.model.image",
            "a (cluster), b (cluster)",
            id="image-several-cluster",
        ),
    ],
)
def test_resolve_model_errors(
    spec: dict[str, Any], docs: list[dict[str, Any]], reason: str, field: str, needle: str
) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        resolve_model(service(spec), catalog(*docs))
    assert (caught.value.reason, caught.value.field) == (reason, field)
    assert needle in caught.value.message
    assert caught.value.object_ref == "AIMService/ml-team/chat"


# --------------------------------------------------------------------------------------------------
# Template by name


@pytest.mark.parametrize(
    ("docs", "expected_kind"),
    [
        pytest.param(
            [template("pinned"), template("pinned", cluster=True)], "AIMServiceTemplate", id="namespace-wins"
        ),
        pytest.param([template("pinned", cluster=True)], "AIMClusterServiceTemplate", id="cluster-fallback"),
        pytest.param(
            [template("pinned", status={"status": "NotAvailable"})],
            "AIMServiceTemplate",
            id="by-name-skips-status-filter",
        ),
        pytest.param(
            [template("pinned", model_name="llama"), model("llama")],
            "AIMServiceTemplate",
            id="by-name-ignores-model-match",
        ),
    ],
)
def test_template_by_name(docs: list[dict[str, Any]], expected_kind: str) -> None:
    cat = catalog(model(), *docs)
    svc = service({**BY_MODEL, "template": {"name": "pinned"}})
    selection = select_template(svc, resolve_model(svc, cat), cat)
    assert (selection.template.kind, selection.shape, selection.ranked) == (expected_kind, "Name", ())
    assert selection.scope == ("Namespace" if expected_kind == "AIMServiceTemplate" else "Cluster")
    assert selection.ref.name == "pinned"


def test_template_by_name_builds_from_the_templates_own_model() -> None:
    cat = catalog(
        model(), model("llama", image="amdenterpriseai/aim-llama:1.0.0"), template("p", model_name="llama")
    )
    svc = service({**BY_MODEL, "template": {"name": "p"}})
    assert select_template(svc, resolve_model(svc, cat), cat).model.metadata.name == "llama"


@pytest.mark.parametrize(
    ("docs", "hint"),
    [
        pytest.param([template("other")], False, id="missing"),
        pytest.param([template("pinned", ns="elsewhere")], False, id="other-namespace-invisible"),
        pytest.param([profile("qwen-fp8")], True, id="missing-with-labelled-profiles-hints-marker"),
    ],
)
def test_template_by_name_not_found(docs: list[dict[str, Any]], hint: bool) -> None:
    cat = catalog(model(), *docs)
    svc = service({**BY_MODEL, "template": {"name": "pinned"}})
    with pytest.raises(AIMResolutionError) as caught:
        select_template(svc, resolve_model(svc, cat), cat)
    assert (caught.value.reason, caught.value.field) == ("TemplateNotFound", "spec.template.name")
    assert ("reconciler-pipeline: profile" in caught.value.message) is hint
    assert ("qwen-fp8" in caught.value.message) is hint


# --------------------------------------------------------------------------------------------------
# Candidate filters (status, inventory GPU) and the selection criteria


MI300X_POOL = [{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8}]


@pytest.mark.parametrize(
    ("spec", "docs", "pools", "expected"),
    [
        pytest.param(
            BY_MODEL,
            [template("a", status={"status": "NotAvailable"}), template("b", status={"status": "Ready"})],
            None,
            "b",
            id="status-not-ready-dropped",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", status={"status": "Pending"}), template("b")],
            None,
            "b",
            id="status-absent-kept",
        ),
        pytest.param(
            BY_MODEL,
            [
                template("a", gpu={"model": "MI325X", "requests": 1}),
                template("b", gpu={"model": "MI300X", "requests": 1}),
            ],
            MI300X_POOL,
            "b",
            id="inventory-drops-absent-gpu-model",
        ),
        pytest.param(
            BY_MODEL,
            [
                template("a", gpu={"model": "MI300X", "requests": 16}),
                template("b", gpu={"model": "mi300x", "requests": 8}),
            ],
            MI300X_POOL,
            "b",
            id="inventory-drops-too-many-devices",
        ),
        pytest.param(
            BY_MODEL,
            [
                template("a", gpu={"model": "MI325X", "requests": 1}),
                template("b", hardware={"cpu": {"requests": 4}}),
            ],
            MI300X_POOL,
            "b",
            id="inventory-keeps-cpu-template",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", gpu={"model": "MI325X", "requests": 1})],
            None,
            "a",
            id="no-inventory-keeps-every-gpu",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", model_name="llama"), template("b")],
            None,
            "b",
            id="other-model-templates-ignored",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", ns="elsewhere"), template("b", cluster=True)],
            None,
            "b",
            id="other-namespace-templates-invisible",
        ),
        pytest.param(
            criteria(precision="fp8"),
            [template("a", precision="fp16"), template("b", precision="fp8")],
            None,
            "b",
            id="criteria-precision",
        ),
        pytest.param(
            criteria(metric="latency"),
            [template("a", metric="throughput"), template("b", metric="latency")],
            None,
            "b",
            id="criteria-metric",
        ),
        pytest.param(
            criteria(acceleratorModel="mi300x"),
            [template("a", gpu={"model": "MI325X"}), template("b", gpu={"model": "MI300X"})],
            None,
            "b",
            id="criteria-accelerator-model-case-insensitive",
        ),
        pytest.param(
            criteria(acceleratorCount=2),
            [template("a", gpu={"requests": 1}), template("b", gpu={"requests": 2})],
            None,
            "b",
            id="criteria-accelerator-count",
        ),
        pytest.param(
            criteria(engine="vllm"),
            [
                template("a", status=discovered(engine="sglang")),
                template("b", status=discovered(engine="vllm")),
            ],
            None,
            "b",
            id="criteria-engine-from-discovery",
        ),
        pytest.param(
            criteria(precision="fp8"),
            [template("a", precision="fp8", status={"status": "Failed"}), template("b", precision="fp8")],
            None,
            "b",
            id="criteria-after-status-filter",
        ),
    ],
)
def test_filters(
    spec: dict[str, Any], docs: list[dict[str, Any]], pools: list[dict[str, Any]] | None, expected: str
) -> None:
    assert choose(spec, *docs, pools=pools) == expected


# --------------------------------------------------------------------------------------------------
# Ranking (selection criteria present)


@pytest.mark.parametrize(
    ("docs", "expected"),
    [
        pytest.param(
            [
                template("a", status=discovered(type="optimized")),
                template("b", status=discovered(primary=True, type="preview")),
            ],
            "b",
            id="primary-beats-type",
        ),
        pytest.param(
            [
                template("a", status=discovered(type="general")),
                template("b", status=discovered(type="optimized")),
            ],
            "b",
            id="optimized-beats-general",
        ),
        pytest.param(
            [
                template("a", status=discovered(type="unoptimized")),
                template("b", status=discovered(type="preview")),
            ],
            "b",
            id="preview-beats-unoptimized",
        ),
        pytest.param(
            [template("a", status=discovered()), template("b", status=discovered(type="unoptimized"))],
            "a",
            id="unset-type-ranks-with-unoptimized",
        ),
        pytest.param(
            [
                template("a", status={**discovered(type="optimized"), "version": "9.0.0"}),
                template("b", status={**discovered(type="optimized"), "version": "10.0.0"}),
            ],
            "b",
            id="version-compared-as-version",
        ),
        pytest.param(
            [
                template("a", status={**discovered(type="general"), "version": "10.0.0"}),
                template("b", status={**discovered(type="optimized"), "version": "0.1.0"}),
            ],
            "b",
            id="type-beats-version",
        ),
        pytest.param(
            [template("a", status={"status": "Ready", "version": "0.8.4"}), template("b")],
            "b",
            id="image-tag-version-when-no-status-version",
        ),
        pytest.param([template("b"), template("a")], "a", id="tie-broken-by-name"),
        pytest.param(
            [template("a", cluster=True), template("b")], "b", id="namespace-scope-before-name-order"
        ),
    ],
)
def test_ranking(docs: list[dict[str, Any]], expected: str) -> None:
    assert choose(criteria(), *docs) == expected


def test_same_name_in_both_scopes_ranks_only_the_namespace_one() -> None:
    cat = catalog(model(), template("x", cluster=True), template("x"))
    svc = service(criteria())
    selection = select_template(svc, resolve_model(svc, cat), cat)
    assert (selection.template.kind, selection.scope, selection.ranked) == (
        "AIMServiceTemplate",
        "Namespace",
        ("x",),
    )


# --------------------------------------------------------------------------------------------------
# Scope: namespace templates that survive the filters shut out the cluster ones


@pytest.mark.parametrize(
    ("spec", "docs", "pools", "expected", "ranked"),
    [
        pytest.param(
            criteria(),
            [template("a", cluster=True, status=discovered(primary=True, type="optimized")), template("b")],
            None,
            ("b", "Namespace"),
            ("b",),
            id="namespace-before-cluster-primary",
        ),
        pytest.param(
            criteria(),
            [
                template("a", cluster=True, status={**discovered(type="optimized"), "version": "9.0.0"}),
                template("b", status={**discovered(type="optimized"), "version": "1.0.0"}),
            ],
            None,
            ("b", "Namespace"),
            ("b",),
            id="namespace-before-cluster-newer-version",
        ),
        pytest.param(
            criteria(),
            [template("c", cluster=True), template("a", cluster=True), template("b", ns="elsewhere")],
            None,
            ("a", "Cluster"),
            ("a", "c"),
            id="cluster-ranked-when-no-namespace-template",
        ),
        pytest.param(
            criteria(),
            [template("a", cluster=True), template("b", status={"status": "NotAvailable"})],
            None,
            ("a", "Cluster"),
            ("a",),
            id="cluster-ranked-when-namespace-template-not-ready",
        ),
        pytest.param(
            criteria(),
            [
                template("a", cluster=True, gpu={"model": "MI300X", "requests": 1}),
                template("b", gpu={"model": "MI325X", "requests": 1}),
            ],
            MI300X_POOL,
            ("a", "Cluster"),
            ("a",),
            id="cluster-ranked-when-inventory-lacks-namespace-gpu",
        ),
        pytest.param(
            criteria(precision="fp8"),
            [template("a", cluster=True, precision="fp8"), template("b", precision="fp16")],
            None,
            ("a", "Cluster"),
            ("a",),
            id="cluster-ranked-when-namespace-template-misses-criteria",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", cluster=True), template("b")],
            None,
            ("b", "Namespace"),
            ("b",),
            id="without-criteria-namespace-template-shuts-out-cluster-one",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", cluster=True), template("b", status={"status": "Failed"})],
            None,
            ("a", "Cluster"),
            ("a",),
            id="without-criteria-cluster-template-when-namespace-one-not-ready",
        ),
    ],
)
def test_scope_precedence(
    spec: dict[str, Any],
    docs: list[dict[str, Any]],
    pools: list[dict[str, Any]] | None,
    expected: tuple[str, str],
    ranked: tuple[str, ...],
) -> None:
    cat = catalog(model(), *docs, pools=pools)
    svc = service(spec)
    selection = select_template(svc, resolve_model(svc, cat), cat)
    assert (selection.template.metadata.name, selection.scope) == expected
    assert selection.ranked == ranked


def test_ranked_lists_survivors_best_first() -> None:
    cat = catalog(
        model(),
        template("c", precision="fp8"),
        template("a", precision="fp16"),
        template("b", precision="fp8", status=discovered(primary=True)),
    )
    svc = service(criteria(precision="fp8"))
    selection = select_template(svc, resolve_model(svc, cat), cat)
    assert (selection.shape, selection.ranked) == ("SelectionCriteria", ("b", "c"))


# --------------------------------------------------------------------------------------------------
# Without criteria: exactly one candidate


def test_single_candidate_is_used() -> None:
    cat = catalog(model(), template("only", cluster=True))
    svc = service(BY_MODEL)
    selection = select_template(svc, resolve_model(svc, cat), cat)
    assert (selection.template.metadata.name, selection.shape, selection.scope) == (
        "only",
        "Model",
        "Cluster",
    )


@pytest.mark.parametrize(
    ("spec", "docs", "reason", "field", "hint"),
    [
        pytest.param(
            BY_MODEL,
            [template("a"), template("b"), template("c", cluster=True)],
            "TemplateSelectionAmbiguous",
            "spec.model.name",
            False,
            id="several-namespace-templates-without-criteria-ambiguous",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", cluster=True), template("b", cluster=True)],
            "TemplateSelectionAmbiguous",
            "spec.model.name",
            False,
            id="several-cluster-templates-without-criteria-ambiguous",
        ),
        pytest.param(
            {"model": {"image": IMAGE}},
            [template("a"), template("b")],
            "TemplateSelectionAmbiguous",
            "spec.model.image",
            False,
            id="several-by-image-ambiguous",
        ),
        pytest.param(BY_MODEL, [], "TemplateNotFound", "spec.model.name", False, id="none-without-criteria"),
        pytest.param(
            BY_MODEL,
            [profile("qwen-fp8"), profile("llama-fp8", "llama")],
            "TemplateNotFound",
            "spec.model.name",
            True,
            id="none-with-labelled-profiles-hints-marker",
        ),
        pytest.param(
            BY_MODEL,
            [template("a", status={"status": "NotAvailable"})],
            "TemplateNotFound",
            "spec.model.name",
            False,
            id="none-ready",
        ),
        pytest.param(
            criteria(precision="int4"),
            [template("a", precision="fp8")],
            "TemplateNotFound",
            "spec.template.selectionCriteria",
            False,
            id="criteria-match-nothing",
        ),
        pytest.param(
            criteria(precision="int4"),
            [template("a", precision="fp8"), profile("qwen-int4")],
            "TemplateNotFound",
            "spec.template.selectionCriteria",
            True,
            id="criteria-match-nothing-hints-marker",
        ),
    ],
)
def test_selection_errors(
    spec: dict[str, Any], docs: list[dict[str, Any]], reason: str, field: str, hint: bool
) -> None:
    cat = catalog(model(), *docs)
    svc = service(spec)
    with pytest.raises(AIMResolutionError) as caught:
        select_template(svc, resolve_model(svc, cat), cat)
    assert (caught.value.reason, caught.value.field) == (reason, field)
    assert ("reconciler-pipeline: profile" in caught.value.message) is hint
    assert "llama-fp8" not in caught.value.message
    if reason == "TemplateSelectionAmbiguous":
        assert "a, b" in caught.value.message


# --------------------------------------------------------------------------------------------------
# The profile a template becomes


def _pair(doc: dict[str, Any], model_doc: dict[str, Any] | None = None) -> tuple[Any, Any]:
    return parse(doc), parse(model_doc or model())


def test_template_profile_is_the_migrated_profile() -> None:
    doc = template("t", gpu={"model": "MI300X", "requests": 2}, metric="latency", precision="fp8")
    result = migrate_objects([doc, model()])
    (migrated, _) = result.objects
    built = template_profile(*_pair(doc))
    assert to_manifest(built) == to_manifest(parse(migrated))


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        pytest.param(None, {}, id="no-overrides"),
        pytest.param({}, {}, id="empty-overrides"),
        pytest.param(
            {"metric": "throughput", "precision": "fp16"},
            {"metric": "throughput", "precision": "fp16"},
            id="metric-precision-replace",
        ),
        pytest.param(
            {"gpuSelector": {"model": "MI325X", "count": 4}},
            {"acceleratorModel": "MI325X", "acceleratorCount": 4},
            id="gpu-selector-replaces-model-and-count",
        ),
        pytest.param(
            {"env": [{"name": "A", "value": "2"}, {"name": "C", "value": "3"}]},
            {
                "containerEnv": [
                    {"name": "AIM_METRIC", "value": "latency"},
                    {"name": "AIM_PRECISION", "value": "fp8"},
                    {"name": "A", "value": "2"},
                    {"name": "B", "value": "1"},
                    {"name": "C", "value": "3"},
                ]
            },
            id="env-merged-by-name",
        ),
        pytest.param(
            {"engineArgs": {"max-model-len": 4096}},
            {"engineArgs": {"max-model-len": 4096}},
            id="engine-args",
        ),
    ],
)
def test_template_profile_overrides(overrides: dict[str, Any] | None, expected: dict[str, Any]) -> None:
    doc = template(
        "t",
        gpu={"model": "MI300X", "requests": 2},
        metric="latency",
        precision="fp8",
        env=[{"name": "A", "value": "1"}, {"name": "B", "value": "1"}],
    )
    base = to_manifest(template_profile(*_pair(doc)))["spec"]
    spec = to_manifest(template_profile(*_pair(doc), overrides))["spec"]
    assert spec == {**base, **expected}


def test_template_profile_accepts_the_typed_overrides() -> None:
    svc = service({**BY_MODEL, "template": {"name": "t"}, "overrides": {"gpuSelector": {"count": 8}}})
    built = template_profile(*_pair(template("t", gpu={"requests": 1})), svc.spec.overrides)
    assert built.spec.accelerator_count == 8


@pytest.mark.parametrize(
    ("doc", "model_doc", "expected_kind"),
    [
        pytest.param(template("t"), None, AIMProfile, id="namespace-template-namespace-profile"),
        pytest.param(
            template("t", cluster=True), model(cluster=True), AIMClusterProfile, id="cluster-template"
        ),
    ],
)
def test_template_profile_kind(
    doc: dict[str, Any], model_doc: dict[str, Any] | None, expected_kind: type
) -> None:
    built = template_profile(*_pair(doc, model_doc))
    assert isinstance(built, expected_kind)
    assert built.metadata.labels["aim.eai.amd.com/source-model"] == "qwen"
    assert built.spec.image == IMAGE


def test_template_profile_reads_discovered_sources() -> None:
    doc = template("t", status={"status": "Ready", "modelSources": SOURCES})
    del doc["spec"]["modelSources"]
    built = template_profile(*_pair(doc))
    assert [(s.model_id, s.source_uri) for s in built.spec.model_sources] == [
        ("Qwen/Qwen3-32B", "hf://Qwen/Qwen3-32B")
    ]


@pytest.mark.parametrize(
    ("doc", "model_doc", "reason", "field"),
    [
        pytest.param(
            {**template("t"), "spec": {"modelName": "qwen"}},
            None,
            "TemplateNotReady",
            "spec.modelSources",
            id="no-sources",
        ),
        pytest.param(
            template("t"),
            {**model(), "spec": {"modelId": "Qwen/Qwen3-32B"}},
            "InvalidImageReference",
            "spec.modelName",
            id="model-without-image",
        ),
    ],
)
def test_template_profile_errors(
    doc: dict[str, Any], model_doc: dict[str, Any] | None, reason: str, field: str
) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        template_profile(*_pair(doc, model_doc))
    assert (caught.value.reason, caught.value.field) == (reason, field)
    assert caught.value.object_ref == "AIMServiceTemplate/ml-team/t"


# --------------------------------------------------------------------------------------------------
# A pinned legacy service and its migrated form deploy the same profile (same name, same content)


@pytest.mark.parametrize(
    ("overrides", "overlaid"),
    [
        pytest.param(None, False, id="no-overrides"),
        pytest.param({}, False, id="empty-overrides"),
        pytest.param({"env": [{"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"}]}, True, id="env"),
        pytest.param({"engineArgs": {"max-model-len": 4096}}, True, id="engine-args"),
        pytest.param({"gpuSelector": {"model": "MI325X", "count": 4}}, True, id="gpu-selector"),
    ],
)
@pytest.mark.parametrize("cluster", [False, True], ids=["namespace-template", "cluster-template"])
def test_pinned_service_matches_its_migrated_form(
    overrides: dict[str, Any] | None, overlaid: bool, cluster: bool
) -> None:
    docs = [
        model(),
        model(cluster=True),
        template("t", cluster=cluster, gpu={"model": "MI300X", "requests": 2}, precision="fp8"),
    ]
    spec: dict[str, Any] = {**BY_MODEL, "template": {"name": "t"}}
    if overrides is not None:
        spec["overrides"] = overrides
    legacy = service(spec)
    cat = catalog(*docs)
    got = effective_template_profile(legacy, select_template(legacy, resolve_model(legacy, cat), cat))

    result = migrate_objects([to_manifest(legacy), *docs])
    assert result.ok
    migrated, *objects = [parse(o) for o in result.objects]
    assert isinstance(migrated, AIMService)
    chosen = select_profile(migrated, Catalog(objects, embed_default=False)).profile
    overlay = build_overlay(chosen, migrated)
    expected = overlay if overlay is not None else chosen

    assert to_manifest(got.seed) == to_manifest(chosen)
    assert to_manifest(got.effective) == to_manifest(expected)
    assert (got.overlay_name is not None) is overlaid
    assert got.overlay_name == (overlay.metadata.name if overlay is not None else None)


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        pytest.param(
            {**criteria(precision="fp8"), "overrides": {"engineArgs": {"a": 1}}},
            "engineArgs",
            id="selection-criteria-overrides-laid-in-place",
        ),
        pytest.param(
            {**BY_MODEL, "template": {"name": "t"}, "overrides": {"metric": "throughput"}},
            "metric",
            id="metric-override-laid-in-place",
        ),
    ],
)
def test_unmigratable_overrides_apply_in_place(spec: dict[str, Any], field: str) -> None:
    cat = catalog(model(), template("t", precision="fp8", metric="latency"))
    legacy = service(spec)
    got = effective_template_profile(legacy, select_template(legacy, resolve_model(legacy, cat), cat))
    assert got.overlay_name is None
    assert got.effective.metadata.name == got.seed.metadata.name == "t"
    assert to_manifest(got.effective)["spec"][field] == spec["overrides"][field]
