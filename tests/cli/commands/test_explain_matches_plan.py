"""`explain` says what `plan` decided: for every example and every upstream fixture, each variable of
the planned inference container and each runtime-config field the service read is explained, with
the value the plan used and a layer that really holds it.

The examples run through the offline engine, as `aim-pulumi explain` runs them, and are compared
with the InferenceService their run registered. The fixtures taken from upstream documents and
from the operator (`tests/fixtures/seeds`, `tests/fixtures/legacy`, `tests/fixtures/import`) and the
fixture manifests are planned service by service against the catalog of their files; each plan is
compared with the InferenceService the manifest builders make of it. The layer named for a value
is looked up in the declared objects themselves (the service, its profile, its runtime configs),
not in anything the planner returned, so a planner that named the wrong layer fails here.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMService, to_manifest
from aim_pulumi.api.errors import AIMError
from aim_pulumi.cli.commands.explain import _env_value, _shown, explain_document
from aim_pulumi.cli.execution import execute
from aim_pulumi.cli.project import load_program
from aim_pulumi.manifests import build_service_manifests
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.plan.service import plan_service
from aim_pulumi.resolve.runtime_config.merge import (
    merge_layers_with_provenance,
    normalize_runtime_config_spec,
    value_at,
)
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resources.resolutions import Resolution
from tests.versions import Catalog, parse

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures"
FRAMEWORK = {"AIM_PROFILE_ID", "AIM_ID", "AIM_CACHE_PATH", "AIM_MODEL_ID"}
VLLM = {"AIM_VLLM_MODEL", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"}


def _spec(obj: Any) -> Mapping[str, Any]:
    spec = to_manifest(obj).get("spec") if obj is not None else None
    return spec if isinstance(spec, Mapping) else {}


def _env_names(entries: Any) -> dict[str, Any]:
    return {str(e.get("name")): e for e in entries or () if isinstance(e, Mapping)}


def declared_env(record: Resolution, label: str) -> dict[str, Any]:
    """The variables the declared object or field `label` names sets, by name (read from the objects)."""
    plan = record.plan
    assert plan is not None
    service = to_manifest(record.service).get("spec") or {}
    namespace = record.service.metadata.namespace or "default"
    rc_name = str(service.get("runtimeConfigName") or "default")
    ns_rc, cluster_rc = record.catalog.runtime_config_objects(namespace, rc_name)
    profile = plan.profile_spec
    if label == "AIMService spec.env":
        return _env_names(service.get("env"))
    if label == "AIMService spec.profileOverrides.containerEnv":
        return _env_names((service.get("profileOverrides") or {}).get("containerEnv"))
    if label == "AIMService spec.overrides.env":
        return _env_names((service.get("overrides") or {}).get("env"))
    if label == "AIMService spec.runtimeConfig":
        return _env_names((service.get("runtimeConfig") or {}).get("env"))
    if label == f"profile {plan.profile_name} containerEnv":
        return _env_names(profile.get("containerEnv"))
    if label.startswith("AIM runtime"):
        return dict.fromkeys(FRAMEWORK)
    if label.startswith("vLLM"):
        return dict.fromkeys([*map(str, profile.get("engineEnv") or {}), *VLLM])
    if label == "the template's operator defaults":
        return {"VLLM_ENABLE_METRICS": {"name": "VLLM_ENABLE_METRICS", "value": "true"}}
    if label.startswith(f"AIMClusterRuntimeConfig {rc_name}"):
        return _env_names(_spec(cluster_rc).get("env"))
    if label == f"AIMRuntimeConfig {namespace}/{rc_name}":
        return _env_names(_spec(ns_rc).get("env"))
    raise AssertionError(f"{record.key}: no declared layer is named {label!r}")


def declared_runtime_config(record: Resolution, label: str) -> Mapping[str, Any]:
    """The runtime-config-shaped spec of the layer `label` names, as the merge normalises it."""
    service = to_manifest(record.service).get("spec") or {}
    namespace = record.service.metadata.namespace or "default"
    rc_name = str(service.get("runtimeConfigName") or "default")
    ns_rc, cluster_rc = record.catalog.runtime_config_objects(namespace, rc_name)
    if label == "AIMService spec":
        own = {k: service[k] for k in ("storage", "routing", "scaleFromZero") if service.get(k) is not None}
        return normalize_runtime_config_spec(own)
    if label == "AIMService spec.runtimeConfig":
        return normalize_runtime_config_spec(service.get("runtimeConfig"))
    if label.startswith(f"AIMClusterRuntimeConfig {rc_name}"):
        return normalize_runtime_config_spec(_spec(cluster_rc))
    if label == f"AIMRuntimeConfig {namespace}/{rc_name}":
        return normalize_runtime_config_spec(_spec(ns_rc))
    raise AssertionError(f"{record.key}: no runtime-config layer is named {label!r}")


def _parts(path: str) -> tuple[str, ...]:
    return tuple(part for part in re.split(r"[.\[\]]", path) if part)


def check_against_plan(record: Resolution, isvc: Mapping[str, Any]) -> None:
    """Every explained variable and runtime-config field is the plan's, set by a layer that holds it."""
    plan = record.plan
    assert plan is not None
    document = explain_document(record)
    container = isvc["spec"]["predictor"]["containers"][0]
    planned = container.get("env") or []
    rows = document["env"]
    assert [r["name"] for r in rows] == [e["name"] for e in planned], record.key
    for row, entry in zip(rows, planned, strict=True):
        where = f"{record.key} {row['name']}"
        assert row["value"] == _env_value(entry), where
        assert row["setBy"] != "?", where
        layer = declared_env(record, row["setBy"])
        assert row["name"] in layer, f"{where}: {row['setBy']} does not set it"
        declared = layer[row["name"]]
        if isinstance(declared, Mapping) and "value" in declared and row["name"] != "AIM_ENGINE_ARGS":
            assert _env_value(declared) == row["value"], f"{where}: {row['setBy']} sets another value"
        for other in filter(None, row["overriddenBy"].split(", ")) if row["overriddenBy"] != "-" else ():
            assert row["name"] in declared_env(record, other), f"{where}: {other} does not set it"
    # The runtime config the plan resolved: each of its fields is explained with the plan's value,
    # unless a layer of the service itself set it.
    resolved = plan.runtime_config.spec if plan.runtime_config is not None else {}
    fields = {f["field"]: f for f in document["runtimeConfig"]["fields"]}
    for path in merge_layers_with_provenance([("resolved", resolved)])[1]:
        assert path in fields, f"{record.key}: {path} of the resolved runtime config is not explained"
        if not fields[path]["setBy"].startswith("AIMService"):
            assert fields[path]["value"] == _shown(_parts(path), value_at(resolved, path)), path
    for path, row in fields.items():
        layer = declared_runtime_config(record, row["setBy"])
        assert value_at(layer, path) is not None, f"{record.key}: {row['setBy']} does not set {path}"
        assert row["value"] == _shown(_parts(path), value_at(layer, path)), f"{record.key}: {path}"


# --------------------------------------------------------------------------------------------------
# Examples, as `aim-pulumi explain` runs them


def _examples() -> list[Path]:
    return sorted(p.parent for p in (ROOT / "examples").glob("*/__main__.py"))


@pytest.mark.parametrize("example", _examples(), ids=lambda p: p.name)
def test_explain_matches_the_plan_of_every_example(example: Path) -> None:
    outcome = execute(load_program(str(example)))
    assert outcome.error is None and outcome.recording is not None
    isvcs = {
        (r.manifest["metadata"]["namespace"], r.manifest["metadata"]["name"]): r.manifest
        for r in outcome.recording.kubernetes()
        if r.manifest.get("kind") == "InferenceService"
    }
    assert outcome.services
    for record in outcome.services.values():
        assert record.plan is not None
        check_against_plan(record, isvcs[(record.plan.namespace, record.plan.isvc_name)])


# --------------------------------------------------------------------------------------------------
# Upstream fixtures, planned service by service against the catalog of their files

# Templates as the operator's discovery leaves them (status), so that v1alpha1 services resolve.
DISCOVERY = {"status": "Ready", "profile": {"metadata": {"engine": "vllm", "type": "optimized"}}}
SINGLE_MI300X = [{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 1}]


def _documents(*paths: Path) -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in paths:
        files = sorted(path.rglob("*.y*ml")) if path.is_dir() else [path]
        for file in files:
            for doc in yaml.safe_load_all(file.read_text(encoding="utf-8")):
                docs.extend(_items(doc))
    return docs


def _items(doc: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(doc, dict):
        return
    if str(doc.get("kind", "")).endswith("List") and isinstance(doc.get("items"), list):
        for item in doc["items"]:
            yield from _items(item)
    elif str(doc.get("apiVersion", "")).startswith("aim.eai.amd.com/") and doc.get("kind"):
        yield doc


def _catalog_objects(docs: list[dict[str, Any]]) -> list[Any]:
    """The non-service objects, first of each identity, templates with their discovery status."""
    seen: set[tuple[str, str, str]] = set()
    objects = []
    for doc in docs:
        meta = doc.get("metadata") or {}
        key = (str(doc["kind"]), str(meta.get("namespace") or ""), str(meta.get("name")))
        if doc["kind"] == "AIMService" or key in seen:
            continue
        seen.add(key)
        doc = copy.deepcopy(doc)
        if doc["kind"].endswith("ServiceTemplate") and not doc.get("status"):
            doc["status"] = copy.deepcopy(DISCOVERY)
        try:
            objects.append(parse(doc))
        except AIMError:
            continue  # an example of what admission refuses
    return objects


FIXTURE_SETS = {
    "seeds": [FIXTURES / "seeds", FIXTURES / "legacy" / "models.yaml"],
    "legacy": [FIXTURES / "legacy"],
    "import": [FIXTURES / "import"],
    "manifests": [FIXTURES / "manifests"],
}


@pytest.mark.parametrize("name", FIXTURE_SETS)
def test_explain_matches_the_plan_of_every_upstream_fixture(name: str) -> None:
    docs = _documents(*FIXTURE_SETS[name])
    objects = _catalog_objects(docs)
    # Without an inventory, and on one node with one MI300X (which v1alpha1 services without
    # criteria need: they insist on exactly one template that fits).
    catalogs = [Catalog(objects), Catalog(objects, inventory=Inventory.from_config(SINGLE_MI300X))]
    planned = 0
    for doc, catalog in ((d, c) for d in docs if d["kind"] == "AIMService" for c in catalogs):
        try:
            service = parse(copy.deepcopy(doc))
            assert isinstance(service, AIMService)
            plan = plan_service(service, catalog, Settings())
        except AIMError:
            continue  # a service this catalog cannot deploy: nothing planned to compare
        record = Resolution(service, catalog, Settings(), plan=plan)
        isvc = next(m for m in build_service_manifests(plan) if m["kind"] == "InferenceService")
        check_against_plan(record, isvc)
        planned += 1
    assert planned > 0, f"no service of the {name} fixtures planned"


def test_a_v1alpha1_service_on_a_template_names_the_layer_of_its_metrics_variable() -> None:
    program = load_program(str(FIXTURES / "manifests" / "legacy-template"))
    outcome = execute(program)
    record = outcome.services["ml-research/chat"]
    assert record.plan is not None and record.plan.pipeline == "template"
    rows = {row["name"]: row for row in explain_document(record)["env"]}
    assert rows["VLLM_ENABLE_METRICS"] == {
        "name": "VLLM_ENABLE_METRICS",
        "value": '"true"',
        "setBy": "the template's operator defaults",
        "overriddenBy": "-",
    }
    env = {e["name"]: e for e in record.plan.container.env}
    assert env["VLLM_ENABLE_METRICS"] == {"name": "VLLM_ENABLE_METRICS", "value": "true"}
