"""The offline admission validator: upstream examples, targeted rule tables and properties."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys
from collections.abc import Callable
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]
import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from aim_pulumi.api.documents import validate_documents, validate_yaml_stream
from aim_pulumi.schemas import (
    ManifestValidationError,
    assert_valid,
    known_kinds,
    manifest_identity,
    validate_manifest,
)
from aim_pulumi.schemas.cel import build_rule_index, cel_errors, escape_property_name, self_paths
from aim_pulumi.schemas.defaulting import apply_defaults
from aim_pulumi.schemas.metadata import (
    dns1123_label_errors,
    dns1123_subdomain_errors,
    is_dns1123_label,
    is_dns1123_subdomain,
    label_value_errors,
    qualified_name_errors,
)
from aim_pulumi.schemas.paths import MapKey, format_path
from aim_pulumi.schemas.quantity import MAX_EXPONENT, QUANTITY_PATTERN, quantity_value
from aim_pulumi.schemas.structural import schema_for

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "schemas"
CEL_TAG = "[CEL x-kubernetes-validations]"

Manifest = dict[str, Any]


def _fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _good(kind: str, index: int = 0) -> Manifest:
    """A fresh copy of the index-th manifest of `kind` in good.yaml (all of them are valid)."""
    documents = [doc for doc in yaml.safe_load_all(_fixture_text("good.yaml")) if doc["kind"] == kind]
    return copy.deepcopy(documents[index])


# --------------------------------------------------------------------------- the upstream examples


def test_good_examples_are_all_valid() -> None:
    reports = validate_yaml_stream(_fixture_text("good.yaml"))
    assert len(reports) == 6
    assert {identity: errors for _, identity, errors in reports if errors} == {}


def test_bad_examples_are_all_invalid_with_the_documented_error_count() -> None:
    reports = validate_yaml_stream(_fixture_text("bad.yaml"))
    assert len(reports) == 9
    assert [identity for _, identity, errors in reports if not errors] == []
    assert sum(len(errors) for _, _, errors in reports) == 35


def test_bad_example_cel_only_route_fails_on_cel_rules_alone() -> None:
    reports = {identity: errors for _, identity, errors in validate_yaml_stream(_fixture_text("bad.yaml"))}
    errors = reports["HTTPRoute/cel-only"]
    assert errors
    assert all(error.endswith(CEL_TAG) for error in errors)


def test_parent_refs_list_has_one_valid_and_one_cel_only_invalid_route() -> None:
    reports = validate_yaml_stream(_fixture_text("httproute-parentrefs.yaml"))
    assert [(index, identity) for index, identity, _ in reports] == [
        (0, "HTTPRoute/two-parents"),
        (1, "HTTPRoute/same-parent-no-section"),
    ]
    assert reports[0][2] == []
    assert reports[1][2] == [
        "spec.parentRefs: Invalid value: sectionName must be specified when parentRefs includes 2 or more "
        f"references to the same parent {CEL_TAG}"
    ]


# --------------------------------------------------------------------------- targeted rules


def _set(path: str, value: Any) -> Callable[[Manifest], None]:
    """A mutation setting a dotted path (`[n]` for list items), creating mappings on the way."""
    steps: list[str | int] = [
        int(s[1:-1]) if s.startswith("[") else s for s in re.findall(r"\[\d+\]|[^.\[]+", path)
    ]

    def mutate(obj: Manifest) -> None:
        node: Any = obj
        for step in steps[:-1]:
            node = node.setdefault(step, {}) if isinstance(step, str) else node[step]
        node[steps[-1]] = value

    return mutate


def _delete(path: str) -> Callable[[Manifest], None]:
    """A mutation removing a dotted path (list indexes as plain numbers: `spec.rules.0.filters`)."""
    *parents, last = path.split(".")

    def mutate(obj: Manifest) -> None:
        node: Any = obj
        for step in parents:
            node = node[int(step)] if isinstance(node, list) else node[step]
        del node[last]

    return mutate


INVALID_CASES = [
    pytest.param(
        "PersistentVolumeClaim",
        _set("spec.storageClass", "fast"),
        "spec.storageClass: Unknown field",
        id="unknown-field-core-kind",
    ),
    pytest.param(
        "InferenceService",
        _set("spec.predictor.nodeSelecter", {"a": "b"}),
        "spec.predictor.nodeSelecter: Unknown field",
        id="unknown-field-crd",
    ),
    pytest.param(
        "InferenceService",
        _set(
            "spec.predictor.volumes",
            [
                {
                    "name": "v",
                    "ephemeral": {"volumeClaimTemplate": {"metadata": {"labels": {"a": "b"}}, "spec": {}}},
                }
            ],
        ),
        "spec.predictor.volumes[0].ephemeral.volumeClaimTemplate.metadata.labels: Unknown field",
        id="unknown-field-under-bare-object",
    ),
    pytest.param(
        "Job",
        _set("spec.template.spec.containers[0].resources.limits.memory", "lots"),
        'spec.template.spec.containers[0].resources.limits[memory]: Invalid value: "lots": must be a '
        "Kubernetes quantity",
        id="bad-quantity-core",
    ),
    pytest.param(
        "InferenceService",
        lambda isvc: isvc["spec"]["predictor"]["model"]["resources"]["limits"].update({"amd.com/gpu": "one"}),
        'spec.predictor.model.resources.limits[amd.com/gpu]: Invalid value: "one"',
        id="bad-quantity-crd-map-key-in-brackets",
    ),
    pytest.param(
        "InferenceService",
        lambda isvc: isvc["spec"]["predictor"]["model"]["resources"]["limits"].update({"memory": "1e1.5"}),
        'spec.predictor.model.resources.limits[memory]: Invalid value: "1e1.5": must be a Kubernetes '
        "quantity",
        id="go-parse-quantity-refuses-fractional-exponent-the-crd-pattern-admits",
    ),
    pytest.param(
        "Job",
        _set("spec.template.spec.containers[0].resources.limits.memory", " 17Gi "),
        'spec.template.spec.containers[0].resources.limits[memory]: Invalid value: " 17Gi ": must be a '
        "Kubernetes quantity",
        id="go-parse-quantity-refuses-surrounding-space",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.labels.app", "x" * 64),
        'metadata.labels[app]: Invalid value: "' + "x" * 64 + '": must be no more than 63 characters',
        id="label-value-over-63",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.labels.app", "-dash"),
        'metadata.labels[app]: Invalid value: "-dash": a valid label must be',
        id="label-value-bad-syntax",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.labels", {"Example.com/app": "x"}),
        'metadata.labels: Invalid value: "Example.com/app": prefix part a lowercase RFC 1123 subdomain',
        id="label-key-uppercase-prefix",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.annotations", {"a/b/c": "x"}),
        'metadata.annotations: Invalid value: "a/b/c": a qualified name must be',
        id="annotation-key-two-slashes",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.annotations", {"big": "x" * (256 * 1024)}),
        "metadata.annotations: Too long: may not be more than 262144 bytes",
        id="annotations-over-256k",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.name", "Bad_Name"),
        'metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain',
        id="bad-dns-name",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.name", "a" * 254),
        "must be no more than 253 characters",
        id="name-over-253",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.namespace", "team.a"),
        'metadata.namespace: Invalid value: "team.a": a lowercase RFC 1123 label',
        id="namespace-not-a-label",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _delete("metadata.name"),
        "metadata.name: Required value: name or generateName is required",
        id="no-name",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.uid", 7),
        "metadata.uid: Invalid value: 7: must be of type string",
        id="object-meta-schema",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.finalizers", ["a/b", "a/b"]),
        'metadata.finalizers[1]: Duplicate value: "a/b"',
        id="list-type-set-duplicate",
    ),
    pytest.param(
        "HTTPRoute",
        _set("spec.rules[0].matches[0].path.value", "/aim//llama"),
        "spec.rules[0].matches[0].path: Invalid value: must not contain '//' when type one of "
        f"['Exact', 'PathPrefix'] {CEL_TAG}",
        id="httproute-path-double-slash-cel",
    ),
    pytest.param(
        "HTTPRoute",
        _set("spec.rules[0].matches[0].path.value", "/a b"),
        "spec.rules[0].matches[0].path: Invalid value: must only contain valid characters",
        id="httproute-path-bad-character-cel-matches",
    ),
    pytest.param(
        "HTTPRoute",
        _set("spec.rules[0].backendRefs", [{"name": "svc"}]),
        f"spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference {CEL_TAG}",
        id="httproute-backend-port-needs-defaulted-kind",
    ),
    pytest.param(
        "HTTPRoute",
        _set("spec.rules[0].timeouts", {"request": "10s", "backendRequest": "20s"}),
        "spec.rules[0].timeouts: Invalid value: backendRequest timeout cannot be longer than request "
        f"timeout {CEL_TAG}",
        id="httproute-timeouts-cel-duration",
    ),
    pytest.param(
        "HTTPRoute",
        _set("spec.rules[0].filters[0].type", "RequestRedirect"),
        "filter.requestRedirect must be specified for RequestRedirect filter.type",
        id="httproute-filter-type-mismatch",
    ),
    pytest.param(
        "HTTPRoute",
        _set("spec.parentRefs[0].port", 70000),
        "spec.parentRefs[0].port: Invalid value: 70000 is greater than the maximum of 65535",
        id="httproute-schema-maximum",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _delete("spec.resources"),
        "spec.resources[storage]: Required value [apiserver]",
        id="pvc-without-storage-request",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("spec.resources.requests.storage", "0"),
        'spec.resources[storage]: Invalid value: "0": must be greater than zero [apiserver]',
        id="pvc-zero-storage",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("spec.accessModes", []),
        "spec.accessModes: Required value: at least 1 access mode is required [apiserver]",
        id="pvc-no-access-mode",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("spec.accessModes", ["ReadWriteOncePod", "ReadOnlyMany"]),
        "spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes [apiserver]",
        id="pvc-rwop-combined",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("spec.accessModes", ["ReadWriteSometimes"]),
        'spec.accessModes: Unsupported value: "ReadWriteSometimes"',
        id="pvc-unknown-access-mode",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        _set("spec.volumeMode", "Raw"),
        'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem" [apiserver]',
        id="pvc-volume-mode",
    ),
    pytest.param(
        "Job",
        _set("spec.template.spec.restartPolicy", "Always"),
        'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", '
        '"Never" [apiserver]',
        id="job-restart-policy-always",
    ),
    pytest.param(
        "Job",
        _delete("spec.template.spec.restartPolicy"),
        'spec.template.spec.restartPolicy: Unsupported value: "Always" (the default when unset)',
        id="job-restart-policy-unset",
    ),
    pytest.param(
        "Job",
        lambda job: (
            _set("spec.template.spec.restartPolicy", "OnFailure")(job),
            _set("spec.podFailurePolicy", {"rules": []})(job),
        ),
        'only "Never" is supported when podFailurePolicy is specified [apiserver]',
        id="job-pod-failure-policy-needs-never",
    ),
    pytest.param(
        "Job",
        _set("metadata.name", "j" * 64),
        'metadata.name: Invalid value: "' + "j" * 64 + '": must be no more than 63 characters (it is copied',
        id="job-name-over-63",
    ),
    pytest.param(
        "Job",
        _set("spec.template.spec.initContainers", [{"name": "download", "image": "x"}]),
        'spec.template.spec.containers[0].name: Duplicate value: "download" [apiserver]',
        id="job-duplicate-container-name",
    ),
    pytest.param(
        "Job",
        _set("spec.template.metadata.labels", {"app": "a b"}),
        'spec.template.metadata.labels[app]: Invalid value: "a b"',
        id="job-pod-template-label",
    ),
    pytest.param(
        "InferenceService",
        _set("spec.predictor.containers", [{"name": "kserve-container", "image": "x"}]),
        "spec.predictor: Invalid value: exactly one of [",
        id="isvc-model-and-kserve-container",
    ),
    pytest.param(
        "InferenceService",
        _set("spec.predictor.model.name", "kserve-container"),
        "spec.predictor.model.name: Forbidden: the 'name' field is not allowed in a standard predictor",
        id="isvc-model-name",
    ),
    pytest.param(
        "InferenceService",
        _set("metadata.name", "1llama"),
        'metadata.name: Invalid value: "1llama": an InferenceService name must',
        id="isvc-name-starts-with-digit",
    ),
    pytest.param(
        "InferenceService",
        _set(
            "spec.predictor.containers",
            [{"name": "a", "image": "x", "ports": [{"containerPort": 80}, {"containerPort": 80}]}],
        ),
        'spec.predictor.containers[0].ports[1]: Duplicate value: {"containerPort":80,"protocol":"TCP"}',
        id="isvc-list-map-key-uses-default-protocol",
    ),
    pytest.param(
        "ScaledObject",
        lambda so: (_set("spec.minReplicaCount", 5)(so), _set("spec.maxReplicaCount", 2)(so)),
        f"spec: Invalid value: minReplicaCount must be less than or equal to maxReplicaCount {CEL_TAG}",
        id="scaledobject-min-over-max",
    ),
    pytest.param(
        "ScaledObject",
        lambda so: (_set("spec.minReplicaCount", 101)(so), _delete("spec.maxReplicaCount")(so)),
        "minReplicaCount must be less than or equal to maxReplicaCount",
        id="scaledobject-min-over-default-max",
    ),
    pytest.param(
        "ScaledObject",
        _set("spec.triggers", []),
        "spec.triggers: Invalid value: [] should be non-empty",
        id="scaledobject-no-triggers",
    ),
    pytest.param(
        "ScaledObject",
        _delete("spec.scaleTargetRef"),
        "spec.scaleTargetRef: Required value",
        id="required-field-located-at-the-field",
    ),
    pytest.param(
        "Job",
        _set("spec.backoffLimit", "3"),
        'spec.backoffLimit: Invalid value: "3": must be of type integer',
        id="wrong-type",
    ),
    pytest.param(
        "HTTPRoute",
        _set("spec.rules[0].matches[0].path.type", "Prefix"),
        'spec.rules[0].matches[0].path.type: Unsupported value: "Prefix": supported values: "Exact", '
        '"PathPrefix", "RegularExpression"',
        id="enum",
    ),
]


@pytest.mark.parametrize(("kind", "mutate", "expected"), INVALID_CASES)
def test_invalid_manifest_is_reported_at_its_path(
    kind: str, mutate: Callable[[Manifest], object], expected: str
) -> None:
    manifest = _good(kind)
    mutate(manifest)
    errors = validate_manifest(manifest)
    assert any(expected in error for error in errors), errors


VALID_CASES = [
    pytest.param(
        "InferenceService",
        _set("status", {"anything": {"nested": [1, 2]}, "url": "http://x"}),
        id="preserve-unknown-status",
    ),
    pytest.param(
        "InferenceService",
        _set("spec.predictor.containers", [{"name": "sidecar", "image": "proxy:1"}]),
        id="isvc-model-with-sidecar-container",
    ),
    pytest.param(
        "Job", _set("spec.template.spec.containers[0].resources.limits.memory", "1.5Gi"), id="quantity-binary"
    ),
    pytest.param(
        "Job", _set("spec.template.spec.containers[0].resources.requests.cpu", 2), id="quantity-number"
    ),
    pytest.param(
        "Job", _set("spec.template.spec.containers[0].resources.requests.cpu", "1e3"), id="quantity-exponent"
    ),
    pytest.param(
        "InferenceService", _set("spec.predictor.model.resources.limits.cpu", "500m"), id="crd-quantity"
    ),
    pytest.param("PersistentVolumeClaim", _set("metadata.labels.empty", ""), id="empty-label-value"),
    pytest.param(
        "PersistentVolumeClaim",
        _set("metadata.annotations", {"Example.com/Note": "annotation keys are checked lower-cased"}),
        id="annotation-key-case-insensitive",
    ),
    pytest.param(
        "PersistentVolumeClaim",
        lambda pvc: (_delete("metadata.name")(pvc), _set("metadata.generateName", "cache-")(pvc)),
        id="generate-name-with-trailing-dash",
    ),
    pytest.param("Job", _set("spec.template.spec.restartPolicy", "OnFailure"), id="job-on-failure"),
    pytest.param("ScaledObject", _set("spec.minReplicaCount", 4), id="scaledobject-min-equal-max"),
    pytest.param(
        "HTTPRoute",
        lambda route: (
            _set("spec.rules[0].matches[0].path", {"type": "RegularExpression", "value": "/a//b.*"})(route),
            _delete("spec.rules.0.filters")(route),
        ),
        id="httproute-regex-path-skips-prefix-rules",
    ),
]


@pytest.mark.parametrize(("kind", "mutate"), VALID_CASES)
def test_valid_variant_is_accepted(kind: str, mutate: Callable[[Manifest], object]) -> None:
    manifest = _good(kind)
    mutate(manifest)
    assert validate_manifest(manifest) == []


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        pytest.param(
            {"apiVersion": "example.com/v1", "kind": "Widget"},
            "apiVersion/kind: no schema",
            id="unknown-kind",
        ),
        pytest.param({"kind": "Job"}, "apiVersion: Required value", id="no-api-version"),
        pytest.param(
            {"apiVersion": "v1", "kind": "PersistentVolumeClaim"},
            "metadata: Required value",
            id="no-metadata",
        ),
        pytest.param(
            {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": "x"},
            "metadata: Invalid value",
            id="metadata-not-object",
        ),
    ],
)
def test_documents_without_a_usable_header(document: Manifest, expected: str) -> None:
    assert any(error.startswith(expected) for error in validate_manifest(document))


def test_schema_invalid_values_do_not_also_report_cel_evaluation_errors() -> None:
    route = _good("HTTPRoute")
    route["spec"]["rules"][0]["matches"][0]["path"]["value"] = 7
    errors = validate_manifest(route)
    assert any("path.value: Invalid value: 7: must be of type string" in error for error in errors)
    assert not any("could not be evaluated" in error for error in errors)


def test_validation_never_modifies_the_manifest() -> None:
    route = _good("HTTPRoute")
    before = copy.deepcopy(route)
    assert validate_manifest(route) == []
    assert route == before


def test_defaulting_fills_nested_defaults_on_a_copy() -> None:
    schema = schema_for("gateway.networking.k8s.io/v1", "HTTPRoute")
    assert schema is not None
    route = {"spec": {"rules": [{"backendRefs": [{"name": "svc", "port": 80}]}]}}
    defaulted = apply_defaults(route, schema)
    assert defaulted["spec"]["rules"][0]["matches"] == [{"path": {"type": "PathPrefix", "value": "/"}}]
    assert defaulted["spec"]["rules"][0]["backendRefs"][0]["kind"] == "Service"
    assert defaulted["spec"]["rules"][0]["backendRefs"][0]["group"] == ""
    assert "matches" not in route["spec"]["rules"][0]


# --------------------------------------------------------------------------- public entry points


def test_assert_valid_raises_an_error_that_is_both_assertion_and_value_error() -> None:
    pvc = _good("PersistentVolumeClaim")
    pvc["spec"]["storageClass"] = "fast"
    with pytest.raises(ManifestValidationError) as raised:
        assert_valid(pvc)
    assert isinstance(raised.value, AssertionError)
    assert isinstance(raised.value, ValueError)
    assert raised.value.identity == "PersistentVolumeClaim/aim/aim-cache-llama-3-1-8b"
    assert "spec.storageClass: Unknown field" in str(raised.value)


def test_assert_valid_accepts_a_valid_manifest() -> None:
    assert_valid(_good("InferenceService", 1))


def test_validate_documents_flattens_lists_and_keys_by_index() -> None:
    pvc, job = _good("PersistentVolumeClaim"), _good("Job")
    bad = copy.deepcopy(pvc)
    bad["metadata"]["name"] = "Bad"
    results = validate_documents([{"apiVersion": "v1", "kind": "List", "items": [pvc, bad]}, job, "text"])
    assert sorted(results) == [0, 1, 2, 3]
    assert results[0] == [] and results[2] == []
    assert results[1] and results[1][0].startswith("metadata.name")
    assert results[3] == [".: Invalid value: the document is a str, not an object"]


def test_validate_yaml_stream_reads_json_too() -> None:
    text = json.dumps([_good("PersistentVolumeClaim"), _good("ScaledObject")])
    assert validate_yaml_stream(text) == [
        (0, "PersistentVolumeClaim/aim/aim-cache-llama-3-1-8b", []),
        (1, "ScaledObject/aim/llama-so", []),
    ]


def test_validate_yaml_stream_skips_empty_documents() -> None:
    text = "---\n---\n" + yaml.safe_dump(_good("Job")) + "---\n"
    assert validate_yaml_stream(text) == [(0, "Job/aim/aim-cache-download-llama", [])]


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        pytest.param(
            {"kind": "Job", "metadata": {"name": "j", "namespace": "ns"}}, "Job/ns/j", id="namespaced"
        ),
        pytest.param({"kind": "Job", "metadata": {"name": "j"}}, "Job/j", id="no-namespace"),
        pytest.param({"kind": "Job", "metadata": {"generateName": "j-"}}, "Job/j-", id="generate-name"),
        pytest.param({"metadata": {}}, "<no kind>/<unnamed>", id="nothing"),
        pytest.param([1], "<list>", id="not-a-mapping"),
    ],
)
def test_manifest_identity(obj: object, expected: str) -> None:
    assert manifest_identity(obj) == expected


def test_known_kinds_lists_every_vendored_top_level_kind() -> None:
    assert known_kinds() == [
        ("aim.eai.amd.com/v1alpha1", "AIMClusterModelSource"),
        ("aim.eai.amd.com/v1alpha1", "AIMClusterRuntimeConfig"),
        ("aim.eai.amd.com/v1alpha1", "AIMClusterServiceTemplate"),
        ("aim.eai.amd.com/v1alpha1", "AIMRuntimeConfig"),
        ("aim.eai.amd.com/v1alpha1", "AIMService"),
        ("aim.eai.amd.com/v1alpha1", "AIMServiceTemplate"),
        ("aim.eai.amd.com/v1alpha2", "AIMClusterModel"),
        ("aim.eai.amd.com/v1alpha2", "AIMClusterProfile"),
        ("aim.eai.amd.com/v1alpha2", "AIMClusterProfileSet"),
        ("aim.eai.amd.com/v1alpha2", "AIMModel"),
        ("aim.eai.amd.com/v1alpha2", "AIMProfile"),
        ("aim.eai.amd.com/v1alpha2", "AIMProfileSet"),
        ("aim.eai.amd.com/v1alpha2", "AIMService"),
        ("batch/v1", "Job"),
        ("gateway.networking.k8s.io/v1", "HTTPRoute"),
        ("keda.sh/v1alpha1", "ScaledObject"),
        ("serving.kserve.io/v1beta1", "InferenceService"),
        ("v1", "ConfigMap"),
        ("v1", "Namespace"),
        ("v1", "PersistentVolumeClaim"),
        ("v1", "Secret"),
        ("v1", "Service"),
        ("v1", "ServiceAccount"),
    ]


def test_every_vendored_schema_ships_as_package_data_with_its_source() -> None:
    package = resources.files("aim_pulumi.schemas")
    files = sorted((f for f in package.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)
    assert len(files) == 24
    for entry in files:
        schema = json.loads(entry.read_text(encoding="utf-8"))
        assert schema["x-source"]["descriptions"] == "stripped", entry.name
        assert schema["x-kubernetes-group-version-kind"], entry.name
        if entry.name.startswith("aim.eai.amd.com_"):
            assert schema["x-source"]["repo"] and len(schema["x-source"]["commit"]) == 40, entry.name
            assert schema["x-source"]["fork_of"] == "amd-enterprise-ai/aim-engine", entry.name


def test_cel_module_names_the_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    source = resources.files("aim_pulumi.schemas").joinpath("cel.py")
    spec = importlib.util.spec_from_file_location("cel_without_celpy", str(source))
    assert spec is not None and spec.loader is not None
    monkeypatch.setitem(sys.modules, "celpy", None)
    with pytest.raises(ImportError, match="cel-python"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


# --------------------------------------------------------------------------- building blocks


@pytest.mark.parametrize(
    ("name", "escaped"),
    [
        pytest.param("namespace", "__namespace__", id="reserved-word"),
        pytest.param("in", "__in__", id="reserved-operator"),
        pytest.param("a.b", "a__dot__b", id="dot"),
        pytest.param("a-b", "a__dash__b", id="dash"),
        pytest.param("a/b", "a__slash__b", id="slash"),
        pytest.param("a__b", "a__underscores__b", id="double-underscore"),
        pytest.param("sectionName", "sectionName", id="plain"),
        pytest.param("a b", None, id="not-accessible"),
    ],
)
def test_cel_property_name_escaping(name: str, escaped: str | None) -> None:
    assert escape_property_name(name) == escaped


def test_cel_rules_see_escaped_names_skip_transition_rules_and_use_message_expressions() -> None:
    schema = {
        "type": "object",
        "properties": {
            "namespace": {"type": "string"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "x-kubernetes-validations": [
            {
                "rule": "self.__namespace__ == 'ok'",
                "messageExpression": "'namespace is ' + self.__namespace__",
            },
            {"rule": "self == oldSelf", "message": "immutable"},
            {
                "rule": "!('a.b' in self.labels)",
                "message": "map keys are not escaped",
                "fieldPath": ".labels",
            },
        ],
    }
    index = build_rule_index(schema)
    assert cel_errors({"namespace": "ok", "labels": {}}, index, "spec") == []
    assert cel_errors({"namespace": "bad", "labels": {"a.b": "x"}}, index, "spec") == [
        f"spec: Invalid value: namespace is bad {CEL_TAG}",
        f"spec.labels: Invalid value: map keys are not escaped {CEL_TAG}",
    ]


def test_cel_evaluation_errors_are_reported_unless_muted() -> None:
    index = build_rule_index({"type": "object", "x-kubernetes-validations": [{"rule": "self.missing > 1"}]})
    assert any("could not be evaluated" in error for error in cel_errors({}, index))
    assert cel_errors({}, index, report_evaluation_errors=False) == []


def test_schema_without_rules_has_no_rule_index() -> None:
    assert build_rule_index(schema_for("serving.kserve.io/v1beta1", "InferenceService")) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("120Gi", Decimal(120 * 2**30), id="binary-suffix"),
        pytest.param("500m", Decimal("0.5"), id="milli"),
        pytest.param("1e3", Decimal(1000), id="exponent"),
        pytest.param("1E", Decimal(10**18), id="exa-not-exponent"),
        pytest.param("+.5k", Decimal(500), id="signed-fraction"),
        pytest.param("1n", Decimal("1e-9"), id="nano-stays-positive"),
        pytest.param(3, Decimal(3), id="integer"),
        pytest.param("10 GB", None, id="space-and-unknown-suffix"),
        pytest.param("lots", None, id="word"),
        pytest.param(True, None, id="bool"),
    ],
)
def test_quantity_value(text: object, value: Decimal | None) -> None:
    assert quantity_value(text) == value


@given(st.text(alphabet="0123456789.+-eEKMGTPinumk ", max_size=8))
@settings(max_examples=200)
def test_go_quantity_grammar_is_the_crd_pattern_without_fractional_exponents(text: str) -> None:
    crd = re.match(QUANTITY_PATTERN, text) is not None
    fractional_exponent = re.search(r"[eE][+-]?[0-9]*\.", text) is not None
    exponent = re.search(r"[eE]([+-]?[0-9]+)$", text)
    assume(exponent is None or abs(int(exponent[1])) <= MAX_EXPONENT)
    assert (quantity_value(text) is not None) == (crd and not fractional_exponent)


@pytest.mark.parametrize(
    ("key", "valid"),
    [
        pytest.param("app", True, id="name"),
        pytest.param("app.kubernetes.io/name", True, id="prefixed"),
        pytest.param("aim.eai.amd.com/model", True, id="project-prefix"),
        pytest.param("/name", False, id="empty-prefix"),
        pytest.param("example.com/", False, id="empty-name"),
        pytest.param("a" * 64, False, id="name-over-63"),
        pytest.param("-app", False, id="starts-with-dash"),
        pytest.param("a/b/c", False, id="two-slashes"),
    ],
)
def test_qualified_names(key: str, valid: bool) -> None:
    assert (qualified_name_errors(key) == []) is valid


@given(st.from_regex(r"\A(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?\Z"))
@settings(max_examples=200)
def test_every_well_formed_label_value_is_accepted(value: str) -> None:
    assert label_value_errors(value) == []


@given(st.from_regex(r"\A[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?\Z"), st.from_regex(r"\A[a-z]{1,10}\Z"))
@settings(max_examples=100)
def test_any_dns_name_and_label_pass_admission_of_a_claim(name: str, label: str) -> None:
    pvc = _good("PersistentVolumeClaim")
    pvc["metadata"]["name"] = name
    pvc["metadata"]["labels"] = {label: name}
    assert validate_manifest(pvc) == []


@pytest.mark.parametrize(
    ("steps", "path"),
    [
        pytest.param(
            ["spec", "containers", 0, "resources", "limits", MapKey("memory")],
            "spec.containers[0].resources.limits[memory]",
            id="map-key",
        ),
        pytest.param(
            ["metadata", "labels", MapKey("app.kubernetes.io/name")],
            "metadata.labels[app.kubernetes.io/name]",
            id="dotted-key",
        ),
        pytest.param([], ".", id="root"),
    ],
)
def test_paths_are_written_like_the_api_server(steps: list[Any], path: str) -> None:
    assert format_path(steps) == path


@pytest.mark.parametrize(("api_version", "kind"), [*known_kinds(), ("meta.k8s.io/v1", "ObjectMeta")])
def test_prepared_schemas_are_valid_json_schemas(api_version: str, kind: str) -> None:
    schema = schema_for(api_version, kind)
    assert schema is not None
    jsonschema.validators.validator_for(schema).check_schema(schema)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param({"config.yaml": "a: 1"}, [], id="string-values"),
        pytest.param(
            {"replicas": 3}, ["data[replicas]: Invalid value: 3: must be of type string"], id="number-value"
        ),
    ],
)
def test_config_map_data_values_are_strings(data: dict[str, Any], expected: list[str]) -> None:
    config_map = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "profile"}, "data": data}
    assert validate_manifest(config_map) == expected


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        ({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}}, []),
        (
            {
                "apiVersion": "v1",
                "kind": "Secret",
                "metadata": {"name": "s", "namespace": "a"},
                "strinData": {},
            },
            ["strinData: Unknown field: not declared in the schema (strict field validation)"],
        ),
        ({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "Bad_Name"}}, ["metadata.name"]),
        (
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": {"name": "web"},
                "spec": {"ports": [{"port": "x"}]},
            },
            ["spec.ports[0].port"],
        ),
    ],
    ids=["namespace", "secret-typo", "serviceaccount-name", "service-port-type"],
)
def test_core_kinds_beside_the_emitted_ones_are_validated(
    manifest: dict[str, Any], expected: list[str]
) -> None:
    errors = validate_manifest(manifest)
    assert len(errors) == len(expected)
    for error, start in zip(errors, expected, strict=True):
        assert error.startswith(start), error


@pytest.mark.parametrize(
    ("value", "label", "subdomain"),
    [
        pytest.param("ml-team", True, True, id="apimachinery-label-and-subdomain"),
        pytest.param("a.b", False, True, id="apimachinery-dots-only-in-subdomains"),
        pytest.param("-a", False, False, id="apimachinery-alphanumeric-start"),
        pytest.param("a-", False, False, id="apimachinery-alphanumeric-end"),
        pytest.param("A", False, False, id="apimachinery-lowercase-only"),
        pytest.param("a" * 63, True, True, id="apimachinery-label-63"),
        pytest.param("a" * 64, False, True, id="apimachinery-label-max-63"),
        pytest.param(".".join(["a" * 63] * 4), False, False, id="apimachinery-subdomain-max-253"),
    ],
)
def test_one_dns1123_rule(value: str, label: bool, subdomain: bool) -> None:
    assert is_dns1123_label(value) is label
    assert is_dns1123_subdomain(value) is subdomain
    assert (dns1123_label_errors(value) == []) is label
    assert (dns1123_subdomain_errors(value) == []) is subdomain


@pytest.mark.parametrize(
    ("expression", "paths"),
    [
        pytest.param(
            "has(self.spec.aimId) && self.spec.x == 1", (("spec", "aimId"), ("spec", "x")), id="chains"
        ),
        pytest.param("self.items.all(i, i > 0)", (("items",),), id="macro-keeps-the-receiver-whole"),
        pytest.param("size(self) > 0", None, id="bare-self-reads-everything"),
        pytest.param("self == oldSelf", None, id="whole-self-comparison"),
        pytest.param("self.?a.orValue(1) > 0", None, id="optional-field-reads-everything"),
    ],
)
def test_cel_rule_reads_only_its_self_chains(
    expression: str, paths: tuple[tuple[str, ...], ...] | None
) -> None:
    assert self_paths(expression) == paths


def test_projected_cel_rules_give_the_same_outcome_as_whole_objects() -> None:
    rule = {"rule": "!has(self.spec.a) || self.spec.a == 'x'", "message": "a must be x"}
    index = build_rule_index({"type": "object", "x-kubernetes-validations": [rule]})
    assert cel_errors({"spec": {"a": "x", "b": 1}}, index) == []
    assert cel_errors({"spec": {"b": 2}}, index) == []
    assert cel_errors({"spec": {"a": "y", "b": 3}}, index) == [f".: Invalid value: a must be x {CEL_TAG}"]


# A schema with every shape projection meets: escaped property names, a free-form map, a list.
_PROJECTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "namespace": {"type": "string"},
                "a.b": {"type": "string"},
                "x-y": {"type": "object", "properties": {"in": {"type": "integer"}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "items": {"type": "array", "items": {"type": "object", "properties": {"for": {}}}},
            },
        },
        "other": {"type": "string"},
    },
}
_PROJECTION_KEYS = st.sampled_from(
    ["spec", "namespace", "a.b", "x-y", "in", "labels", "items", "for", "other", "k"]
)
_PROJECTION_VALUES = st.recursive(
    st.none() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_PROJECTION_KEYS, inner, max_size=4),
    max_leaves=12,
)
_PROJECTION_RULES = st.sampled_from(
    [
        "has(self.spec.__namespace__)",
        "self.spec.a__dot__b == 'x' || has(self.other)",
        "!has(self.spec.x__dash__y) || self.spec.x__dash__y.__in__ > 0",
        "!has(self.spec.labels) || self.spec.labels.k == 'v'",
        "!has(self.spec.items) || size(self.spec.items) < 2",
        "has(self.spec) && has(self.spec.labels.k)",
    ]
)


@settings(max_examples=300, deadline=None)
@given(value=st.dictionaries(_PROJECTION_KEYS, _PROJECTION_VALUES, max_size=4), rule=_PROJECTION_RULES)
def test_projecting_before_converting_sees_what_converting_the_whole_object_sees(
    value: dict[str, Any], rule: str
) -> None:
    """A rule reads its fields from the raw value as CEL would see them in the converted whole."""
    from aim_pulumi.schemas.cel import CelRule, _projected_cel_data, to_cel_data

    def reference(data: Any, trie: Any) -> Any:
        if trie == "__whole__" or not isinstance(data, dict) or not isinstance(trie, dict):
            return data
        return {name: reference(data[name], sub) for name, sub in trie.items() if name in data}

    reads = CelRule(expression=rule).reads
    assert reads is not None
    converted = reference(to_cel_data(value, _PROJECTION_SCHEMA), reads)
    assert _projected_cel_data(value, _PROJECTION_SCHEMA, reads) == converted
    index = build_rule_index({**_PROJECTION_SCHEMA, "x-kubernetes-validations": [{"rule": rule}]})
    whole_index = build_rule_index(
        {**_PROJECTION_SCHEMA, "x-kubernetes-validations": [{"rule": f"size(self) >= 0 && ({rule})"}]}
    )
    # The same rule evaluated on the whole converted object (a bare `self` disables projection).
    assert bool(cel_errors(value, index)) == bool(cel_errors(value, whole_index))
