"""The compiled acceptance predicate: it only ever short-cuts what jsonschema finds valid, and pays.

The predicate answers "certainly valid" or "unsure"; jsonschema stays the authority on errors. So
the properties checked are: whatever the predicate accepts, jsonschema finds no error in; the
messages of every manifest are those of the jsonschema path alone; and the children the project
really emits are all accepted, so the check before registration never walks jsonschema for them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any
from unittest import mock

import jsonschema  # type: ignore[import-untyped, unused-ignore]
import pytest
from emitted import Manifest, all_children, example_children, kind_of, typical_children
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import Text, mutated_children

from aim_pulumi.manifests.child_admission import check_children
from aim_pulumi.schemas import structural, validate_manifest
from aim_pulumi.schemas.acceptance import acceptance_for
from aim_pulumi.schemas.defaulting import apply_defaults
from aim_pulumi.schemas.registry import OBJECT_META
from aim_pulumi.schemas.structural import accepts, jsonschema_errors, schema_for


def _defaulted(manifest: Mapping[str, Any]) -> Any:
    schema = schema_for(*kind_of(manifest))
    assert schema is not None
    return apply_defaults(manifest, schema)


def _without_predicate(manifest: Mapping[str, Any]) -> list[str]:
    """What validation says when every value goes through jsonschema."""
    with mock.patch.object(structural, "accepts", lambda *args, **kwargs: False):
        return validate_manifest(manifest, cel=False)


def _assert_parity(manifest: Manifest) -> bool:
    """accepted => no jsonschema error (root and ObjectMeta), and messages as without the predicate."""
    defaulted = _defaulted(manifest)
    accepted = accepts(*kind_of(manifest), defaulted)
    if accepted:
        assert jsonschema_errors(*kind_of(manifest), defaulted) == []
    meta = defaulted.get("metadata")
    if isinstance(meta, dict) and accepts(*OBJECT_META, meta):
        assert jsonschema_errors(*OBJECT_META, meta, prefix="metadata") == []
    assert validate_manifest(manifest, cel=False) == _without_predicate(manifest)
    return accepted


# --------------------------------------------------------------------------- the fast path pays


def test_every_child_the_project_emits_is_accepted_without_jsonschema() -> None:
    refused = []
    for manifest in all_children():
        defaulted = _defaulted(manifest)
        if not (accepts(*kind_of(manifest), defaulted) and accepts(*OBJECT_META, defaulted["metadata"])):
            refused.append(f"{manifest['kind']}/{manifest['metadata'].get('name')}")
        assert jsonschema_errors(*kind_of(manifest), defaulted) == []
    assert refused == []


def test_the_check_before_registration_never_falls_back_to_jsonschema_for_them() -> None:
    children = [*example_children(), *typical_children()]
    assert {child["kind"] for child in children} >= {
        "InferenceService", "ConfigMap", "HTTPRoute", "ScaledObject", "PersistentVolumeClaim", "Job"
    }  # fmt: skip
    with mock.patch.object(structural, "jsonschema_errors", wraps=structural.jsonschema_errors) as slow:
        check_children(children, "AIMService/ml-team/svc")
    assert slow.call_count == 0


# --------------------------------------------------------------------------- parity on mutations


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_children())
def test_what_the_predicate_accepts_jsonschema_finds_valid(manifest: Manifest) -> None:
    before = copy.deepcopy(manifest)
    _assert_parity(manifest)
    assert manifest == before


@pytest.mark.parametrize(
    ("kind", "change", "accepted", "expected"),
    [
        pytest.param(
            "Job",
            lambda job: job["spec"].update(backoffLimit=True),
            False,
            ["must be of type integer"],
            id="bool-is-no-integer",
        ),
        pytest.param(
            "Job",
            lambda job: job["spec"].update(backoffLimit=3.0),
            False,
            [],
            id="integral-float-left-to-jsonschema",
        ),
        pytest.param(
            "Job",
            lambda job: _container(job).update(image=Text("busybox")),
            False,
            [],
            id="str-subclass-left-to-jsonschema",
        ),
        pytest.param(
            "Job",
            lambda job: _container(job).update(livenessProbe={"httpGet": {"port": 8080}}),
            False,
            [],
            id="one-of-left-to-jsonschema",
        ),
        pytest.param(
            "Job",
            lambda job: _container(job).update(resources={"limits": {"memory": "1e1.5"}}),
            False,
            ["must be a Kubernetes quantity"],
            id="go-quantity-grammar",
        ),
        pytest.param(
            "Job", lambda job: _container(job).update(volumeMounts=None), True, [], id="null-where-nullable"
        ),
        pytest.param(
            "InferenceService",
            lambda isvc: _container(isvc).update(
                ports=[{"containerPort": 80}, {"containerPort": 80, "protocol": "TCP"}]
            ),
            False,
            ['Duplicate value: {"containerPort":80,"protocol":"TCP"}'],
            id="map-keys-equal-once-defaulted",
        ),
        pytest.param(
            "InferenceService",
            lambda isvc: _container(isvc).update(
                ports=[{"containerPort": 80}, {"containerPort": 80, "protocol": "UDP"}]
            ),
            True,
            [],
            id="map-keys-distinct-once-defaulted",
        ),
    ],
)
def test_unsure_values_get_the_jsonschema_answer(
    kind: str, change: Callable[[Manifest], object], accepted: bool, expected: list[str]
) -> None:
    manifest = copy.deepcopy(next(child for child in typical_children() if child["kind"] == kind))
    change(manifest)
    defaulted = _defaulted(manifest)
    assert accepts(*kind_of(manifest), defaulted) is accepted
    errors = jsonschema_errors(*kind_of(manifest), defaulted)
    assert len(errors) == len(expected), errors
    assert all(text in error for text, error in zip(expected, errors, strict=True))
    assert validate_manifest(manifest, cel=False) == _without_predicate(manifest)


def _container(manifest: Manifest) -> dict[str, Any]:
    spec = manifest["spec"]
    pod = spec["template"]["spec"] if manifest["kind"] == "Job" else spec["predictor"]
    container: dict[str, Any] = pod["containers"][0]
    return container


# --------------------------------------------------------------------------- small schemas

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SMALL_SCHEMAS: list[dict[str, Any]] = [
    {"type": "integer", "minimum": 0, "maximum": 10},
    {"type": ["number", "null"], "minimum": 0.5},
    {"enum": [1, True, "a", None, 2.0]},
    {"type": "string", "pattern": "b", "maxLength": 3, "minLength": 1},
    {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-aim-quantity": True},
    {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set", "maxItems": 3},
    {"type": "array", "x-kubernetes-list-type": "set"},
    {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k", "v"]},
    {
        "type": "array",
        "items": {"type": "object", "properties": {"k": {}, "v": {}}, "additionalProperties": False},
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k"],
    },
    {
        "type": "object",
        "required": ["a"],
        "properties": {"a": {"type": "boolean"}},
        "additionalProperties": {"type": "integer"},
    },
    {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"child": {"$ref": "#/$defs/node"}},
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/node",
    },
    {
        "allOf": [{"type": "object"}, {"required": ["x"]}],
        "properties": {"x": {"oneOf": [{"type": "string"}]}},
    },
]
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=True)
    | st.sampled_from(["", "a", "b", "ab", "1Gi", "1e1.5", "abcd"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "k", "v", "x", "child"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(SMALL_SCHEMAS))), JSON)
def test_on_small_schemas_accepted_values_are_valid(which: int, value: Any) -> None:
    schema = {"$schema": DRAFT, **SMALL_SCHEMAS[which]}
    validator = structural._validator_class(jsonschema.Draft202012Validator)(schema)
    if acceptance_for(schema)(value):
        assert list(validator.iter_errors(value)) == []


def test_recursive_references_compile_lazily_and_circular_ones_are_unsure() -> None:
    tree = {"$schema": DRAFT, **next(schema for schema in SMALL_SCHEMAS if "$defs" in schema)}
    assert acceptance_for(tree)({"child": {"child": {}}})
    assert not acceptance_for(tree)({"child": {"child": {"x": 1}}})
    circle = {
        "$schema": DRAFT,
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "$ref": "#/$defs/a",
    }
    assert not acceptance_for(circle)({})


@pytest.mark.parametrize(
    "schema",
    [
        pytest.param({"$schema": DRAFT, "not": {"type": "string"}}, id="keyword-not-implemented"),
        pytest.param(
            {"$schema": DRAFT, "type": "string", "pattern": "(?<go>x)"}, id="pattern-python-cannot-compile"
        ),
        pytest.param({"$schema": DRAFT, "oneOf": [{"type": "integer"}]}, id="one-of"),
        pytest.param(
            {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "$ref": "#/definitions/x",
                "definitions": {"x": {}},
            },
            id="ref-in-draft-7",
        ),
        pytest.param({"$schema": "http://json-schema.org/draft-04/schema#"}, id="other-draft"),
        pytest.param({"$schema": DRAFT, "$ref": "other.json#/x"}, id="remote-ref"),
    ],
)
def test_what_the_predicate_does_not_model_is_unsure(schema: dict[str, Any]) -> None:
    assert not acceptance_for(schema)(1)
    assert not acceptance_for(schema)("x")
