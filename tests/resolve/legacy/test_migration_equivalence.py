"""A v1alpha1 service and its `migrate` output plan the same children, so migrating replaces nothing.

Issue 7 item 4: for every legacy service shape of the fixtures (template pinned by name, with and
without overrides, selection criteria, model only by name or image), with caching off, Shared and
Dedicated and with routing on, the legacy objects planned through the template pipeline and the
migrated objects planned through the profile pipeline give identical manifests: the same
InferenceService, ConfigMap, HTTPRoute, cache PVCs and download Jobs, under the same names. Only the
service status tells the pipelines apart.

The selection rows below do the same for selecting services over catalogs built per row, one rule
each: namespace templates before cluster ones, the template status, the GPU inventory and the
template version. What still differs (a namespace template the template pipeline drops while the
profile pipeline only ranks it last within its scope) is asserted on its own at the end.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMService
from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.resolve import AIMResolutionError, Inventory, plan_service
from aim_pulumi.resolve.legacy.migration import migrate_objects
from aim_pulumi.resolve.plan.result import ServicePlan
from tests.versions import Catalog, parse

LEGACY = Path(__file__).resolve().parents[2] / "fixtures" / "legacy"
MARKER = "aim.eai.amd.com/reconciler-pipeline"

# What the discovery Job of the seed's discovery-backed template would have recorded: the template
# has no static sources, and no discovery runs at deploy time.
DISCOVERY: dict[str, dict[str, Any]] = {
    "qwen3-32b-throughput": {
        "status": "Ready",
        "version": "0.8.5",
        "modelSources": [{"name": "Qwen/Qwen3-32B", "sourceURI": "hf://Qwen/Qwen3-32B", "size": "64Gi"}],
        "profile": {"metadata": {"engine": "vllm", "type": "optimized", "primary": True}},
    }
}

# One node pool with a single MI300X: of the model's templates only qwen3-32b-latency fits, which is
# what a v1alpha1 service without criteria needs (it insists on exactly one candidate).
SINGLE_MI300X = [{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 1}]


def _load(*parts: str) -> list[dict[str, Any]]:
    text = LEGACY.joinpath(*parts).read_text(encoding="utf-8")
    return [d for d in yaml.safe_load_all(text) if d is not None]


def _with_discovery(doc: dict[str, Any]) -> dict[str, Any]:
    status = DISCOVERY.get(doc["metadata"]["name"]) if doc["kind"].endswith("ServiceTemplate") else None
    return {**doc, "status": copy.deepcopy(status)} if status is not None else doc


def catalog_documents() -> list[dict[str, Any]]:
    """Every non-service object of the fixtures: models, templates, runtime configs (both namespaces)."""
    docs = [
        *_load("models.yaml"),
        *_load("template-seed003.yaml"),
        *_load("runtime-configs-seed000.yaml"),
        *_load("equivalence", "runtime-configs.yaml"),
        *_load("mixed", "nested", "catalog.yml"),
    ]
    return [_with_discovery(d) for d in docs]


def legacy_services() -> dict[str, dict[str, Any]]:
    docs = [*_load("services-seed002.yaml"), *_load("mixed", "services.yaml")]
    return {
        d["metadata"]["name"]: d
        for d in docs
        if d["kind"] == "AIMService" and d["apiVersion"].endswith("/v1alpha1")
    }


def manifests(plan: ServicePlan) -> list[dict[str, Any]]:
    docs = build_service_manifests(plan)
    for cache in plan.caches:
        docs += [build_cache_pvc(cache), build_download_job(cache)]
    return docs


def plan_documents(docs: list[dict[str, Any]], pools: list[dict[str, Any]] | None) -> ServicePlan:
    """Plan the first document (a service) against the others."""
    service, *others = (parse(d) for d in docs)
    assert isinstance(service, AIMService)
    inventory = Inventory.from_config(pools) if pools is not None else None
    return plan_service(service, Catalog(others, inventory=inventory))


# --------------------------------------------------------------------------------------------------
# Variations of a fixture service


Variation = Callable[[dict[str, Any]], None]


def _caching(mode: str) -> Variation:
    def apply(doc: dict[str, Any]) -> None:
        doc["spec"].pop("cacheModel", None)
        doc["spec"]["caching"] = {"mode": mode}

    return apply


def _no_caching(doc: dict[str, Any]) -> None:
    doc["spec"].pop("cacheModel", None)
    doc["spec"].pop("caching", None)


def _routing(doc: dict[str, Any]) -> None:
    # The ml-team runtime config's path template reads the `team` label.
    doc["metadata"]["labels"] = {"team": "research", "org.example/cost-center": "ai"}
    doc["spec"]["routing"] = {
        "enabled": True,
        "gatewayRef": {"name": "inference-gateway", "namespace": "gateways"},
    }


def _criteria(**values: Any) -> Variation:
    def apply(doc: dict[str, Any]) -> None:
        doc["spec"]["template"] = {"selectionCriteria": values}

    return apply


CACHING: dict[str, Variation | None] = {
    "caching-as-declared": None,
    "service-caching-unset": _no_caching,
    "shared-Always": _caching("Always"),
    "shared-Auto": _caching("Auto"),
    "dedicated-Never": _caching("Never"),
}
# The cache mode each explicit variation must produce (A14 maps the legacy spellings).
CACHE_MODES: dict[str, str] = {
    "shared-Always": "Shared",
    "shared-Auto": "Shared",
    "dedicated-Never": "Dedicated",
}
ROUTING: dict[str, Variation | None] = {"routing-off": None, "routing-on": _routing}


@dataclass(frozen=True)
class Shape:
    """A fixture service (optionally reshaped), the inventory it is planned with, and what it deploys."""

    service: str
    template: str
    pools: list[dict[str, Any]] | None = None
    reshape: Variation | None = None


SHAPES: dict[str, Shape] = {
    "pinned-with-overrides": Shape("qwen-pinned", "qwen3-32b-throughput"),
    "pinned-by-template-name-alias": Shape("legacy-chat", "team-template"),
    "selection-criteria": Shape("qwen-criteria", "qwen3-32b-throughput"),
    "selection-criteria-ranked-by-discovered-primary": Shape(
        "qwen-criteria", "qwen3-32b-throughput", reshape=_criteria(acceleratorModel="mi300x")
    ),
    "selection-criteria-engine-from-discovery": Shape(
        "qwen-criteria", "qwen3-32b-throughput", reshape=_criteria(engine="vllm")
    ),
    "selection-criteria-cluster-template": Shape(
        "qwen-criteria", "qwen3-32b-mi325x", reshape=_criteria(acceleratorModel="MI325X")
    ),
    "selection-criteria-inventory-narrows": Shape(
        "qwen-criteria", "qwen3-32b-latency", SINGLE_MI300X, _criteria(acceleratorModel="MI300X")
    ),
    "model-image-only": Shape("qwen-by-image", "qwen3-32b-latency", SINGLE_MI300X),
    "model-name-only": Shape("qwen-by-model", "qwen3-32b-latency", SINGLE_MI300X),
}

CASES = [
    pytest.param(shape, caching, routing, id=f"{name}-{caching}-{routing}")
    for name, shape in SHAPES.items()
    for caching in CACHING
    for routing in ROUTING
]


def _service(shape: Shape, *variations: Variation | None) -> dict[str, Any]:
    doc = copy.deepcopy(legacy_services()[shape.service])
    for change in (shape.reshape, *variations):
        if change is not None:
            change(doc)
    return doc


@pytest.mark.parametrize(("shape", "caching", "routing"), CASES)
def test_legacy_service_and_its_migration_plan_identical_children(
    shape: Shape, caching: str, routing: str
) -> None:
    service = _service(shape, CACHING[caching], ROUTING[routing])
    legacy = [service, *catalog_documents()]
    result = migrate_objects(legacy)
    assert result.ok, result.problems
    assert result.converted[0] is True

    before = plan_documents(legacy, shape.pools)
    after = plan_documents(list(result.objects), shape.pools)

    assert manifests(before) == manifests(after)
    assert any(m["kind"] == "HTTPRoute" for m in manifests(before)) is (routing == "routing-on")
    if caching in CACHE_MODES:
        assert {c.mode for c in before.caches} == {CACHE_MODES[caching]}
    assert before.status["reconcilerPipeline"] == "template"
    assert before.status["resolvedTemplate"]["name"] == shape.template
    assert before.status["resolvedModel"]["name"] == service["spec"]["model"].get("name", "qwen-qwen3-32b")
    assert after.status["reconcilerPipeline"] == "profile"
    assert after.status["resolvedProfile"]["name"] == shape.template
    assert "resolvedTemplate" not in after.status and "resolvedModel" not in after.status
    assert before.status.get("profileOverlay") == after.status.get("profileOverlay")
    assert before.status.get("cache") == after.status.get("cache")
    assert before.status.get("routing") == after.status.get("routing")


def test_the_cases_cover_every_legacy_fixture_service_and_every_child_kind() -> None:
    """Guards the table above: a new fixture service or a child kind never planned fails here."""
    assert {s.service for s in SHAPES.values()} == set(legacy_services())
    kinds: set[str] = set()
    modes: set[str] = set()
    for shape in SHAPES.values():
        for caching in ("shared-Always", "dedicated-Never"):
            plan = plan_documents(
                [_service(shape, CACHING[caching], _routing), *catalog_documents()], shape.pools
            )
            kinds |= {m["kind"] for m in manifests(plan)}
            modes |= {c.mode for c in plan.caches}
    assert kinds == {"InferenceService", "ConfigMap", "HTTPRoute", "PersistentVolumeClaim", "Job"}
    assert modes == {"Shared", "Dedicated"}


# --------------------------------------------------------------------------------------------------
# Where the two forms may differ: the migrated form resolves where the legacy one refuses


@pytest.mark.parametrize(
    ("service", "pools", "reason", "migrated_template"),
    [
        pytest.param(
            "qwen-by-model",
            None,
            "TemplateSelectionAmbiguous",
            "qwen3-32b-throughput",
            id="several-templates-without-criteria-are-ranked",
        ),
        pytest.param(
            "qwen-by-image",
            None,
            "TemplateSelectionAmbiguous",
            "qwen3-32b-throughput",
            id="several-templates-by-image-are-ranked",
        ),
        pytest.param(
            "qwen-criteria",
            SINGLE_MI300X,
            "TemplateNotFound",
            "qwen3-32b-throughput",
            id="template-without-hardware-ranks-last-instead-of-vanishing",
        ),
    ],
)
def test_migrated_form_is_more_permissive(
    service: str, pools: list[dict[str, Any]] | None, reason: str, migrated_template: str
) -> None:
    legacy = [copy.deepcopy(legacy_services()[service]), *catalog_documents()]
    with pytest.raises(AIMResolutionError) as refused:
        plan_documents(legacy, pools)
    assert refused.value.reason == reason
    after = plan_documents(list(migrate_objects(legacy).objects), pools)
    assert after.profile_name == migrated_template


def test_v1alpha1_service_already_on_the_profile_pipeline_keeps_its_floor() -> None:
    """Annotated `profile`, a v1alpha1 service is served by profiles; migrating keeps its selection.

    With one single-GPU pool the implicit `optimized` floor picks the optimized (but unplaceable)
    throughput profile, where `minimumType: any` would pick the placeable, untyped latency one.
    """
    service = copy.deepcopy(legacy_services()["qwen-by-model"])
    service["metadata"]["annotations"] = {MARKER: "profile"}
    migrated_catalog = list(migrate_objects(catalog_documents()).objects)
    result = migrate_objects([service])
    assert result.ok
    assert "profile" not in result.objects[0]["spec"]

    before = plan_documents([service, *migrated_catalog], SINGLE_MI300X)
    after = plan_documents([result.objects[0], *migrated_catalog], SINGLE_MI300X)
    assert before.pipeline == after.pipeline == "profile"
    assert before.profile_name == "qwen3-32b-throughput"
    assert manifests(before) == manifests(after)


# --------------------------------------------------------------------------------------------------
# Selecting services over catalogs built per row: both pipelines choose the same template


NS = "ml-research"
MODEL = "qwen-qwen3-32b"
MI300X_POOL = [{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8}]


def _template(
    name: str,
    *,
    cluster: bool = False,
    gpu: tuple[str, int] = ("MI300X", 1),
    status: dict[str, Any] | None = None,
    precision: str = "fp8",
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name} if cluster else {"name": name, "namespace": NS}
    doc: dict[str, Any] = {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMClusterServiceTemplate" if cluster else "AIMServiceTemplate",
        "metadata": metadata,
        "spec": {
            "modelName": MODEL,
            "precision": precision,
            "hardware": {"gpu": {"model": gpu[0], "requests": gpu[1]}},
            "modelSources": [{"name": "Qwen/Qwen3-32B", "sourceURI": "hf://Qwen/Qwen3-32B", "size": "64Gi"}],
        },
    }
    if status is not None:
        doc["status"] = status
    return doc


def _discovered(
    *,
    status: str | None = "Ready",
    primary: bool = False,
    type: str = "optimized",
    version: str | None = None,
) -> dict[str, Any]:
    found: dict[str, Any] = {"profile": {"metadata": {"engine": "vllm", "type": type, "primary": primary}}}
    if status is not None:
        found["status"] = status
    if version is not None:
        found["version"] = version
    return found


def _selecting(criteria: dict[str, Any] | None) -> dict[str, Any]:
    spec: dict[str, Any] = {"model": {"name": MODEL}, "caching": {"mode": "Shared"}}
    if criteria is not None:
        spec["template"] = {"selectionCriteria": criteria}
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMService",
        "metadata": {"name": "chat", "namespace": NS},
        "spec": spec,
    }


FP8 = {"precision": "fp8"}


@pytest.mark.parametrize(
    ("criteria", "templates", "pools", "expected"),
    [
        pytest.param(
            FP8,
            [_template("a-platform", cluster=True, status=_discovered(primary=True)), _template("z-team")],
            None,
            "z-team",
            id="scope-namespace-template-before-primary-cluster-one",
        ),
        pytest.param(
            FP8,
            [
                _template("a-platform", cluster=True, status=_discovered(version="9.0.0")),
                _template("z-team", status=_discovered(type="unoptimized", version="0.1.0")),
            ],
            None,
            "z-team",
            id="scope-namespace-template-before-better-typed-newer-cluster-one",
        ),
        pytest.param(
            None,
            [_template("a-platform", cluster=True), _template("z-team")],
            None,
            "z-team",
            id="scope-without-criteria-namespace-template-shuts-out-cluster-one",
        ),
        pytest.param(
            FP8,
            [
                _template("a-team", precision="fp16", status=_discovered(primary=True)),
                _template("b-platform", cluster=True),
                _template("c-platform", cluster=True, status=_discovered(primary=True)),
            ],
            None,
            "c-platform",
            id="scope-cluster-templates-ranked-when-no-namespace-one-matches",
        ),
        pytest.param(
            FP8,
            [_template("a", status=_discovered(status="NotAvailable", primary=True)), _template("b")],
            None,
            "b",
            id="status-not-available-template-loses",
        ),
        pytest.param(
            FP8,
            [_template("a", status=_discovered(status="Pending", primary=True)), _template("b")],
            None,
            "b",
            id="status-pending-template-loses",
        ),
        pytest.param(
            FP8,
            [
                _template("a", cluster=True, status=_discovered(status="Failed", primary=True)),
                _template("b", cluster=True),
            ],
            None,
            "b",
            id="status-failed-cluster-template-loses",
        ),
        pytest.param(
            FP8,
            [_template("a", status=_discovered(primary=True)), _template("b", status=_discovered())],
            None,
            "a",
            id="status-ready-template-competes",
        ),
        pytest.param(
            FP8,
            [_template("a", gpu=("MI325X", 1), status=_discovered(primary=True)), _template("b")],
            MI300X_POOL,
            "b",
            id="inventory-ready-template-on-absent-gpu-model-loses",
        ),
        pytest.param(
            FP8,
            [
                _template("a", gpu=("MI300X", 16), status=_discovered(status=None, primary=True)),
                _template("b"),
            ],
            MI300X_POOL,
            "b",
            id="inventory-template-needing-more-devices-loses",
        ),
        pytest.param(
            FP8,
            [
                _template("a", cluster=True, gpu=("MI325X", 1), status=_discovered(primary=True)),
                _template("b", cluster=True, gpu=("MI300X", 8)),
            ],
            MI300X_POOL,
            "b",
            id="inventory-cluster-template-on-absent-gpu-loses",
        ),
        pytest.param(
            FP8,
            [
                _template("a", status=_discovered(version="0.8.4")),
                _template("b", status=_discovered(version="0.9.0")),
            ],
            None,
            "b",
            id="version-newer-status-version-before-name",
        ),
        pytest.param(
            FP8,
            [_template("a", status=_discovered()), _template("b", status=_discovered(version="0.8.6"))],
            None,
            "b",
            id="version-status-version-newer-than-image-tag",
        ),
        pytest.param(
            FP8,
            [
                _template("a", cluster=True, status=_discovered(version="1.0.0-rc1")),
                _template("b", cluster=True, status=_discovered(version="1.0.0")),
            ],
            None,
            "b",
            id="version-release-before-its-prerelease-cluster-templates",
        ),
    ],
)
def test_selecting_service_and_its_migration_choose_the_same_template(
    criteria: dict[str, Any] | None,
    templates: list[dict[str, Any]],
    pools: list[dict[str, Any]] | None,
    expected: str,
) -> None:
    legacy = [_selecting(criteria), *_load("models.yaml"), *templates]
    result = migrate_objects(legacy)
    assert result.ok, result.problems

    before = plan_documents(legacy, pools)
    after = plan_documents(list(result.objects), pools)

    assert before.status["resolvedTemplate"]["name"] == expected
    assert after.profile_name == expected
    assert manifests(before) == manifests(after)


@pytest.mark.parametrize(
    ("namespace_status", "namespace_gpu", "pools"),
    [
        pytest.param(
            _discovered(status="NotAvailable"), ("MI300X", 1), None, id="namespace-template-not-ready"
        ),
        pytest.param(_discovered(), ("MI325X", 1), MI300X_POOL, id="namespace-template-gpu-not-offered"),
    ],
)
def test_remaining_difference_unavailable_namespace_template_against_available_cluster_one(
    namespace_status: dict[str, Any], namespace_gpu: tuple[str, int], pools: list[dict[str, Any]] | None
) -> None:
    """The template pipeline filters unavailable templates out before scope precedence, the profile
    pipeline ranks availability within the scope: the legacy service falls back to the cluster
    template, its migrated form stays on the (unavailable) namespace profile."""
    templates = [
        _template("team", gpu=namespace_gpu, status=namespace_status),
        _template("platform", cluster=True, status=_discovered()),
    ]
    legacy = [_selecting(FP8), *_load("models.yaml"), *templates]
    result = migrate_objects(legacy)
    assert result.ok, result.problems

    before = plan_documents(legacy, pools)
    after = plan_documents(list(result.objects), pools)

    assert (before.status["resolvedTemplate"]["name"], before.status["resolvedTemplate"]["kind"]) == (
        "platform",
        "AIMClusterServiceTemplate",
    )
    assert (after.profile_name, after.status["resolvedProfile"]["kind"]) == ("team", "AIMProfile")
    assert manifests(before) != manifests(after)


# --------------------------------------------------------------------------------------------------
# The operator's template container: a legacy service and its migrated form plan identical children


def _pinned(template: str, **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMService",
        "metadata": {"name": "chat", "namespace": NS},
        "spec": {"model": {"name": MODEL}, "template": {"name": template}, **spec},
    }


def _operator_template(
    *, resources: dict[str, Any] | None = None, env: list[dict[str, Any]] | None = None, **spec: Any
) -> dict[str, Any]:
    doc = _template("tmpl", gpu=("MI300X", 4), status=spec.pop("status", None))
    doc["spec"].update({"metric": "latency", **spec})
    if resources is not None:
        doc["spec"]["resources"] = resources
    if env is not None:
        doc["spec"]["env"] = env
    return doc


def _env_of(plan: ServicePlan) -> dict[str, Any]:
    return {item["name"]: item.get("value") for item in plan.container.env}


OPERATOR_DEFAULT_4_GPU = {
    "requests": {"cpu": "16", "memory": "128Gi", "amd.com/gpu": 4},
    "limits": {"memory": "192Gi", "amd.com/gpu": 4},
}


@pytest.mark.parametrize(
    ("template", "service_spec", "profile_id", "env", "resources"),
    [
        pytest.param(
            _operator_template(profileId="mi300x-fp8-latency"),
            {},
            "mi300x-fp8-latency",
            {"VLLM_ENABLE_METRICS": "true", "AIM_METRIC": "latency", "AIM_PRECISION": "fp8"},
            OPERATOR_DEFAULT_4_GPU,
            id="operator-template-without-resources-or-env-gets-its-profile-id-and-per-gpu-default",
        ),
        pytest.param(
            _operator_template(
                status={"profile": {"metadata": {"profileId": "mi300x-fp16-latency-unopt"}}}, precision="fp16"
            ),
            {},
            "mi300x-fp16-latency-unopt",
            {"AIM_PRECISION": "fp16"},
            OPERATOR_DEFAULT_4_GPU,
            id="operator-template-serves-the-discovered-profile-id",
        ),
        pytest.param(
            _operator_template(
                profileId="mi300x-fp8-latency",
                resources={"requests": {"cpu": "2"}, "limits": {"memory": "20Gi"}},
                env=[{"name": "VLLM_ENABLE_METRICS", "value": "false"}, {"name": "EXTRA", "value": "1"}],
            ),
            {},
            "mi300x-fp8-latency",
            {"VLLM_ENABLE_METRICS": "false", "EXTRA": "1", "AIM_METRIC": "latency"},
            {
                "requests": {"cpu": "2", "amd.com/gpu": 4},
                "limits": {"memory": "20Gi", "amd.com/gpu": 4},
            },
            id="operator-template-with-resources-and-env-keeps-its-own",
        ),
        pytest.param(
            _operator_template(
                profileId="mi300x-fp8-latency", env=[{"name": "AIM_PROFILE_ID", "value": "from-template-env"}]
            ),
            {"env": [{"name": "EXTRA", "value": "service"}]},
            "from-template-env",
            {"EXTRA": "service"},
            OPERATOR_DEFAULT_4_GPU,
            id="operator-template-env-outranks-the-template-profile-id",
        ),
        pytest.param(
            _operator_template(profileId="mi300x-fp8-latency"),
            {"resources": {"requests": {"cpu": "3"}}},
            "mi300x-fp8-latency",
            {},
            {"requests": {"cpu": "3", "amd.com/gpu": 4}, "limits": {"amd.com/gpu": 4}},
            id="operator-service-resources-drop-the-per-gpu-default",
        ),
        pytest.param(
            _operator_template(profileId="mi300x-fp8-latency"),
            {"env": [{"name": "AIM_PROFILE_ID", "value": "from-service"}]},
            "from-service",
            {},
            OPERATOR_DEFAULT_4_GPU,
            id="operator-service-env-outranks-the-template-profile-id",
        ),
    ],
)
def test_operator_template_container_survives_migration(
    template: dict[str, Any],
    service_spec: dict[str, Any],
    profile_id: str,
    env: dict[str, str],
    resources: dict[str, Any],
) -> None:
    legacy = [_pinned("tmpl", **service_spec), *_load("models.yaml"), template]
    result = migrate_objects(legacy)
    assert result.ok, result.problems

    before = plan_documents(legacy, None)
    after = plan_documents(list(result.objects), None)

    assert manifests(before) == manifests(after)
    (isvc,) = [m for m in manifests(before) if m["kind"] == "InferenceService"]
    assert isvc["metadata"]["labels"]["aim.eai.amd.com/template"] == "tmpl"
    planned = _env_of(before)
    assert planned["AIM_PROFILE_ID"] == profile_id
    assert {name: planned.get(name) for name in env} == env
    assert before.container.resources == resources


def _runtime_config(*env: tuple[str, str]) -> dict[str, Any]:
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMRuntimeConfig",
        "metadata": {"name": "rc", "namespace": NS},
        "spec": {"env": [{"name": name, "value": value} for name, value in env]},
    }


@pytest.mark.parametrize(
    ("template_env", "rc_env", "expected"),
    [
        pytest.param([], [], "true", id="operator-template-service-enables-vllm-metrics"),
        pytest.param(
            [],
            [("VLLM_ENABLE_METRICS", "false")],
            "false",
            id="operator-runtime-config-env-outranks-metrics-default",
        ),
        pytest.param(
            [{"name": "VLLM_ENABLE_METRICS", "value": "true"}],
            [("VLLM_ENABLE_METRICS", "false")],
            "true",
            id="operator-template-env-outranks-runtime-config-env",
        ),
    ],
)
def test_operator_metrics_default_ranks_below_the_runtime_config(
    template_env: list[dict[str, str]], rc_env: list[tuple[str, str]], expected: str
) -> None:
    template = _operator_template(env=template_env, runtimeConfigName="rc")
    legacy = [
        _pinned("tmpl", runtimeConfigName="rc"),
        *_load("models.yaml"),
        template,
        _runtime_config(*rc_env),
    ]
    result = migrate_objects(legacy)
    assert result.ok, result.problems

    before = plan_documents(legacy, None)
    after = plan_documents(list(result.objects), None)

    assert manifests(before) == manifests(after)
    assert _env_of(before)["VLLM_ENABLE_METRICS"] == expected


def test_profile_pipeline_service_has_no_template_label() -> None:
    """Only a profile converted from a template names one; a hand-written profile's service has none."""
    legacy = [_pinned("tmpl"), *_load("models.yaml"), _operator_template()]
    migrated = list(migrate_objects(legacy).objects)
    profile = next(d for d in migrated if d["kind"] == "AIMProfile")
    del profile["metadata"]["labels"]["aim.eai.amd.com/template"]
    (isvc,) = [m for m in manifests(plan_documents(migrated, None)) if m["kind"] == "InferenceService"]
    assert "aim.eai.amd.com/template" not in isvc["metadata"]["labels"]
    env = _env_of(plan_documents(migrated, None))
    assert env["AIM_PROFILE_ID"].startswith("custom/")
    assert "VLLM_ENABLE_METRICS" not in env
