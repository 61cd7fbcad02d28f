"""The catalog memo: plans with it are the plans without it, before and after the catalog grows.

Planning remembers what depends on the catalog alone (a namespace's runtime config, a selector's
evaluation). These tests plan the same services with the memo and with it turned off (every
lookup computed afresh) and compare everything a plan carries, errors included.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from aim_pulumi.api import AIMObject
from aim_pulumi.resolve import AIMResolutionError, Settings, plan_service
from aim_pulumi.resolve.selection.select import qualifying_profile_refs
from tests.versions import Catalog, load_manifests, parse

G = "aim.eai.amd.com"
PROFILE_PIPELINE = {f"{G}/reconciler-pipeline": "profile"}
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
EXAMPLE_MANIFESTS = Path(__file__).resolve().parents[3] / "examples" / "yaml-manifests" / "manifests"
GATEWAY = {"enabled": True, "gatewayRef": {"name": "inference-gateway", "namespace": "gateways"}}


def obj(kind: str, name: str, spec: dict[str, Any], namespace: str | None = "ml-team", **meta: Any) -> Any:
    version = "v1alpha1" if "RuntimeConfig" in kind or "Template" in kind else "v1alpha2"
    metadata: dict[str, Any] = {"name": name, **meta}
    if namespace is not None and not kind.startswith("AIMCluster"):
        metadata["namespace"] = namespace
    return parse({"apiVersion": f"{G}/{version}", "kind": kind, "metadata": metadata, "spec": spec})


def profile(name: str, kind: str = "AIMProfile", namespace: str | None = "ml-team", **spec: Any) -> Any:
    base: dict[str, Any] = {
        "aimId": "qwen/qwen3-32b",
        "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
        "type": "optimized",
        "acceleratorType": "gpu",
        "acceleratorVendor": "amd",
        "acceleratorModel": "MI300X",
        "acceleratorCount": 1,
        "modelSources": [
            {
                "modelId": "Qwen/Qwen3-32B",
                "sourceUri": "hf://Qwen/Qwen3-32B",
                "size": "60Gi",
                "env": [{"name": "HF_HUB_ENABLE_HF_TRANSFER", "value": "1"}],
            }
        ],
    }
    base.update(spec)
    return obj(kind, name, base, namespace=namespace, labels={f"{G}/source-model": "qwen"})


def catalog_objects() -> list[AIMObject]:
    return [
        obj(
            "AIMRuntimeConfig",
            "default",
            {
                "routing": {**GATEWAY, "pathTemplate": "/{.metadata.namespace}/{.metadata.name}"},
                "labelPropagation": {"enabled": True, "match": ["org.example/*"]},
                "env": [{"name": "A", "value": "namespace"}],
            },
        ),
        obj(
            "AIMClusterRuntimeConfig",
            "custom",
            {
                "env": [{"name": "A", "value": "cluster"}, {"name": "B", "value": "cluster"}],
                "defaultStorageClassName": "fast",
                "storage": {"pvcHeadroomPercent": 25},
            },
        ),
        profile("qwen-fp8", precision="fp8", primary=True, caching={"enabled": True}),
        profile("qwen-fp16", precision="fp16", runtimeConfigName="custom", caching={"enabled": True}),
        profile("qwen-any", type="unoptimized", autoSelectionPolicy="any", precision="bf16"),
        profile("qwen-general", kind="AIMClusterProfile", namespace=None, precision="fp8", type="general"),
        obj("AIMModel", "id-model", {"modelId": "org/id-model"}),
    ]


def service(name: str, namespace: str = "ml-team", status: dict[str, Any] | None = None, **spec: Any) -> Any:
    document: dict[str, Any] = {
        "apiVersion": f"{G}/v1alpha2",
        "kind": "AIMService",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": {"org.example/team": namespace},
            "annotations": dict(PROFILE_PIPELINE),
        },
        "spec": spec,
    }
    if status is not None:
        document["status"] = status
    return parse(document)


def services() -> list[Any]:
    out = []
    for namespace in ("ml-team", "team-b"):
        out += [
            service("by-model", namespace, model={"name": "qwen"}),
            service("twin", namespace, model={"name": "qwen"}),
            service(
                "inline",
                namespace,
                model={"name": "qwen"},
                runtimeConfig={"env": [{"name": "A", "value": "inline"}], "routing": GATEWAY},
            ),
            service("custom", namespace, model={"name": "qwen"}, runtimeConfigName="custom"),
            service("missing-config", namespace, model={"name": "qwen"}, runtimeConfigName="nope"),
            service("dedicated", namespace, model={"name": "qwen"}, caching={"mode": "Dedicated"}),
            service(
                "selector", namespace, model={"name": "qwen"}, profile={"selector": {"precision": "fp16"}}
            ),
            service(
                "floor-any",
                namespace,
                profile={"selector": {"aimId": "qwen/qwen3-32b", "minimumType": "any"}},
            ),
            service("by-name", namespace, profile={"name": "qwen-fp16"}),
            service(
                "sticky",
                namespace,
                model={"name": "qwen"},
                status={"resolvedProfile": {"kind": "AIMClusterProfile", "name": "qwen-general"}},
            ),
            service("id-model", namespace, model={"name": "id-model"}),
            service("unknown-model", namespace, model={"name": "nothing"}),
        ]
    return out


def outcome(svc: Any, catalog: Catalog, settings: Settings | None = None) -> tuple[Any, ...]:
    """Everything a planning produces, as comparable values: the plan or the error, and the binding's set."""
    try:
        plan = plan_service(svc, catalog, settings)
        planned: tuple[Any, ...] = ("plan", repr(plan), repr(plan.status), repr(plan.selection))
    except AIMResolutionError as error:
        planned = ("error", error.reason, error.message, error.field, error.object_ref, str(error))
    try:
        qualifying: tuple[Any, ...] = ("refs", qualifying_profile_refs(svc, catalog))
    except AIMResolutionError as error:
        qualifying = ("error", error.reason, error.message, error.field, error.object_ref)
    return planned, qualifying


@pytest.fixture
def unmemoised(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[], Any]], Any]]:
    """Run a function with the catalog memo turned off: every memoised value computed afresh."""

    def run(function: Callable[[], Any]) -> Any:
        with monkeypatch.context() as patch:
            patch.setattr(Catalog, "memoised", lambda self, key, compute: compute())
            return function()

    yield run


def plan_all(catalog: Catalog, svcs: list[Any], settings: Settings | None = None) -> list[tuple[Any, ...]]:
    return [outcome(s, catalog, settings) for s in svcs]


@pytest.mark.parametrize("settings", [Settings(), Settings(strict=True)], ids=["default", "strict"])
def test_memoised_plans_equal_unmemoised_plans(settings: Settings, unmemoised: Any) -> None:
    catalog = Catalog(catalog_objects())
    svcs = services()
    memoised = plan_all(catalog, svcs * 2, settings)  # the second pass reads only remembered values
    expected = unmemoised(lambda: plan_all(Catalog(catalog_objects()), svcs * 2, settings))
    assert memoised == expected
    kinds = {planned[0] for planned, _ in memoised}
    assert kinds == {"plan", "error"}  # both kinds of outcome are compared


MANIFEST_DIRECTORIES = [
    FIXTURES / "manifests" / "legacy-template",
    FIXTURES / "manifests" / "with-plain-objects" / "aim",
    FIXTURES / "legacy" / "mixed",
    EXAMPLE_MANIFESTS,
]


@pytest.mark.parametrize("directory", MANIFEST_DIRECTORIES, ids=lambda d: d.name)
def test_fixture_and_example_manifests_plan_alike(directory: Path, unmemoised: Any) -> None:
    objects = load_manifests(directory)
    svcs = [o for o in objects if o.kind == "AIMService"]
    others = [o for o in objects if o.kind != "AIMService"]
    memoised = plan_all(Catalog(others), svcs * 2)
    assert memoised == unmemoised(lambda: plan_all(Catalog(others), svcs * 2))
    assert any(planned[0] == "plan" for planned, _ in memoised)


LATER_OBJECTS = [
    # Each changes what some service plans: a namespace runtime config where there was none, a
    # better profile, the cluster default, a runtime config a failing service names.
    lambda: obj("AIMRuntimeConfig", "default", {"env": [{"name": "Z", "value": "late"}]}, namespace="team-b"),
    lambda: profile("qwen-top", kind="AIMClusterProfile", namespace=None, precision="fp8", primary=True),
    lambda: profile(
        "qwen-late", namespace="team-b", precision="fp8", primary=True, caching={"enabled": True}
    ),
    lambda: obj("AIMClusterRuntimeConfig", "default", {"env": [{"name": "D", "value": "x"}]}, namespace=None),
    lambda: obj("AIMRuntimeConfig", "nope", {"routing": GATEWAY}, namespace="team-b"),
]


def test_an_object_added_after_a_plan_changes_the_next_plan_as_without_memo(unmemoised: Any) -> None:
    catalog = Catalog(catalog_objects())
    svcs = services()
    added: list[AIMObject] = []
    previous = plan_all(catalog, svcs)
    for make in LATER_OBJECTS:
        generation = catalog.generation
        later = make()
        catalog.add(later)
        added.append(later)
        assert catalog.generation > generation
        now = plan_all(catalog, svcs)
        assert now == unmemoised(lambda: plan_all(Catalog([*catalog_objects(), *added]), svcs))
        assert now != previous  # the object did change a plan, so a stale memo would have shown
        previous = now


def test_an_identical_object_added_again_keeps_the_memo() -> None:
    catalog = Catalog(catalog_objects())
    plan_all(catalog, services())
    generation = catalog.generation
    catalog.add(catalog_objects()[0])
    assert catalog.generation == generation


def _mutate_everything(value: Any, seen: set[int]) -> None:
    """Change every dict and list reachable from `value` (through dataclasses and tuples too)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for item in list(value.values()):
            _mutate_everything(item, seen)
        value["mutated-by-a-caller"] = True
    elif isinstance(value, list):
        for item in list(value):
            _mutate_everything(item, seen)
        value.append("mutated-by-a-caller")
    elif isinstance(value, tuple):
        for item in value:
            _mutate_everything(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name != "selection":  # the catalog's own objects, as before any memo
                _mutate_everything(getattr(value, f.name), seen)


def test_mutating_a_returned_plan_changes_no_later_plan() -> None:
    svcs = services()
    expected = plan_all(Catalog(catalog_objects()), svcs)
    catalog = Catalog(catalog_objects())
    for svc in svcs:  # the first plans fill the memo; each is mutated as soon as it is returned
        try:
            plan = plan_service(svc, catalog)
        except AIMResolutionError:
            continue
        _mutate_everything(plan, set())
    assert plan_all(catalog, svcs) == expected
