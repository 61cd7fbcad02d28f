"""AIM objects are checked against the vendored AIM CRDs before the project's own rules.

Rows are named after the CRD behaviour they pin (`crd-…`) or the seed that relaxes the CRD (`seed-…`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from api_builders import V1, profile, service, template

from aim_pulumi.api import AIMValidationError, to_manifest
from aim_pulumi.api.crd import merge_problems
from aim_pulumi.schemas.seed_overlays import OVERLAYS
from aim_pulumi.schemas.validator import custom_resource_errors
from tests.versions import EXTENSION, KINDS, admission_problems, parse

ROOT = Path(__file__).resolve().parents[2]
SEED_FIXTURES = sorted((ROOT / "tests" / "fixtures" / "seeds").glob("*.yaml"))
AIM_YAML = sorted(
    [
        *SEED_FIXTURES,
        *(p for p in (ROOT / "examples").rglob("*.yaml") if not p.name.startswith("Pulumi.")),
        *(ROOT / "tests" / "fixtures" / "legacy").rglob("*.yaml"),
        *(ROOT / "tests" / "fixtures" / "catalogs").rglob("*.yaml"),
        *(ROOT / "tests" / "fixtures" / "manifests" / "legacy-template").rglob("*.yaml"),
    ]
)
# Served by the operator but with no vendored schema (the AIM CRD set carries v1alpha2 models only).
UNVENDORED = {("aim.eai.amd.com/v1alpha1", "AIMModel"), ("aim.eai.amd.com/v1alpha1", "AIMClusterModel")}
NOT_ADMITTED = {"not-convertible.yaml"}


def _aim_documents(path: Path) -> list[dict[str, Any]]:
    docs = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if isinstance(d, dict)]
    return [d for d in docs if str(d.get("apiVersion", "")).startswith("aim.eai.amd.com/")]


@pytest.mark.parametrize("path", SEED_FIXTURES, ids=lambda p: p.name)
def test_every_seed_manifest_validates_against_the_vendored_crds_as_written(path: Path) -> None:
    for doc in _aim_documents(path):
        errors = custom_resource_errors(doc, relaxations=_relaxations(doc))
        if (doc["apiVersion"], doc["kind"]) in UNVENDORED:
            assert errors is None
        else:
            assert errors == [], (doc["kind"], doc["metadata"]["name"], errors)


def _relaxations(doc: dict[str, Any]) -> tuple[Any, ...]:
    """The seed relaxations of the class that reads `doc` (a v1alpha1 class's own, with the folder)."""
    cls = KINDS.get(doc["kind"])
    return cls.SCHEMA_RELAXATIONS if cls is not None else ()


@pytest.mark.parametrize("path", [p for p in AIM_YAML if p.name not in NOT_ADMITTED], ids=str)
def test_every_aim_example_and_fixture_validates_against_the_vendored_crds(path: Path) -> None:
    docs = _aim_documents(path)
    assert docs, path
    for doc in docs:
        normalised = to_manifest(parse(doc))
        if (doc["apiVersion"], doc["kind"]) not in UNVENDORED:
            assert custom_resource_errors(normalised, relaxations=_relaxations(doc)) == [], (
                doc["kind"],
                doc["metadata"]["name"],
            )


QUANTITY_SOURCE = {"modelId": "org/m", "sourceUri": "hf://org/m"}

CRD_REJECTS = [
    pytest.param(
        profile({"modelSources": [{**QUANTITY_SOURCE, "size": " 17Gi "}]}),
        "spec.modelSources[0].size",
        "Kubernetes quantity",
        id="crd-quantity-size-refuses-surrounding-space",
    ),
    pytest.param(
        profile({"modelSources": [{**QUANTITY_SOURCE, "size": "1e1.5"}]}),
        "spec.modelSources[0].size",
        "Kubernetes quantity",
        id="crd-quantity-size-refuses-fractional-exponent-as-go-parse-quantity-does",
    ),
    pytest.param(
        profile({"resources": {"limits": {"memory": "48 Gi"}}}),
        "spec.resources.limits.memory",
        "Kubernetes quantity",
        id="crd-resources-are-quantities",
    ),
    pytest.param(
        profile({"acceleratorType": "cpu", "acceleratorPartitioningMode": "cpx"}),
        "(root)",
        "acceleratorPartitioningMode must be 'unpartitioned'",
        id="crd-cel-cpu-profiles-are-unpartitioned",
    ),
    pytest.param(
        service({"model": {"name": "m"}, "env": [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]}),
        "spec.env[1]",
        "Duplicate value",
        id="crd-env-is-a-list-map-keyed-by-name",
    ),
    pytest.param(
        template({"modelSources": [{"name": "org/m", "sourceURI": "gs://b/m"}]}),
        "spec.modelSources[0].sourceURI",
        "must match",
        id="crd-template-source-uri-is-hf-or-s3-in-the-seed-spelling-too",
    ),
]


@pytest.mark.parametrize(("manifest", "field", "words"), CRD_REJECTS)
def test_crd_rejects(manifest: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(AIMValidationError) as info:
        parse(manifest)
    assert info.value.field == field, info.value
    assert words in info.value.message
    assert (field, info.value.reason) in [(p.field, p.reason) for p in admission_problems(manifest)]
    if not field.startswith("spec.modelSources[0].size") and "resources" not in field:
        # Quantities are refused by the typed model first, with the same parser; the rest by the CRD.
        assert "(AIM CRD)" in info.value.message


SEED_WINS = [
    pytest.param(
        service({"model": {"name": "m"}, "runtimeConfig": {"routing": {"enabled": True}}}),
        id="seed-000-inline-runtime-config-on-a-service",
    ),
    pytest.param(
        profile({"runtimeConfigName": "team", "storageClassName": "fast"}),
        id="seed-000-profiles-name-their-runtime-config-and-storage-class",
    ),
    pytest.param(
        service(
            {"model": {"name": "m"}, "template": {"selectionCriteria": {"precision": "fp8"}}},
            version=V1,
        ),
        id="seed-002-template-selection-criteria",
    ),
    pytest.param(
        service(
            {
                "model": {"name": "m"},
                "template": {"name": "t"},
                "overrides": {"env": [{"name": "A", "value": "1"}], "engineArgs": {"x": 1}},
            },
            version=V1,
        ),
        id="seed-002-overrides-env-and-engine-args",
    ),
    pytest.param(
        template({"modelSources": [{"name": "org/m", "sourceURI": "hf://org/m", "size": "8Gi"}]}),
        id="seed-003-template-model-sources-name-and-source-uri",
    ),
    pytest.param(profile({}), id="image-backed-profile-with-aim-id-and-no-model-sources-is-deployable"),
]


@pytest.mark.parametrize("manifest", SEED_WINS)
def test_seed_wins_over_the_crd(manifest: dict[str, Any]) -> None:
    assert [p for p in admission_problems(manifest) if "(AIM CRD)" in p.message] == []
    parse(manifest)


def test_every_overlay_says_why_and_names_vendored_kinds() -> None:
    folder = EXTENSION.schema_relaxations if EXTENSION is not None else ()
    for overlay in (*OVERLAYS, *folder):
        assert overlay.why
        for api_version, kind in overlay.kinds:
            assert custom_resource_errors({"apiVersion": api_version, "kind": kind}) is not None


def _err(field: str, reason: str = "InvalidSpec") -> AIMValidationError:
    return AIMValidationError(field, reason, field)


MERGE = [
    pytest.param([_err("spec.size")], [], ["spec.size"], id="crd-only-problem-is-reported"),
    pytest.param(
        [_err("spec.model.custom.hardware")],
        [_err("spec.model.custom", "Unsupported")],
        ["spec.model.custom"],
        id="project-rule-on-the-same-field-keeps-its-aim-reason",
    ),
    pytest.param(
        [_err("(root)"), _err("spec")],
        [_err("spec.image")],
        ["spec.image"],
        id="object-level-crd-rule-defers-to-a-project-rule",
    ),
    pytest.param(
        [_err("spec.resources.limits[memory]")],
        [_err("spec.image")],
        ["spec.resources.limits[memory]", "spec.image"],
        id="crd-problems-come-first",
    ),
]


@pytest.mark.parametrize(("crd", "own", "fields"), MERGE)
def test_merge_problems(
    crd: list[AIMValidationError], own: list[AIMValidationError], fields: list[str]
) -> None:
    assert [p.field for p in merge_problems(crd, own)] == fields
