"""Defaulting rebuilds only what carries a default and shares the rest, with the same result."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from emitted import Manifest, kind_of, typical_children
from hypothesis import HealthCheck, given, settings
from mutations import Frozen, mutated_children

from aim_pulumi.schemas.defaulting import apply_defaults
from aim_pulumi.schemas.structural import schema_for


def _copying_defaults(value: object, schema: Mapping[str, Any]) -> Any:
    """Defaulting as a full copy, the way it always was: the reference the sharing one must equal."""

    def sub(node: Mapping[str, Any], keyword: str) -> Mapping[str, Any]:
        found = node.get(keyword)
        return found if isinstance(found, Mapping) else {}

    if isinstance(value, Mapping):
        properties = sub(schema, "properties")
        values = {str(key): item for key, item in value.items()}
        for name, field in properties.items():
            if name not in values and isinstance(field, Mapping) and "default" in field:
                values[name] = copy.deepcopy(field["default"])
        extra = sub(schema, "additionalProperties")
        return {
            k: _copying_defaults(v, sub(properties, k) if k in properties else extra)
            for k, v in values.items()
        }
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [_copying_defaults(item, sub(schema, "items")) for item in value]
    return value


def _only_plain_containers(value: Any) -> bool:
    if isinstance(value, Mapping):
        return type(value) is dict and all(
            type(k) is str and _only_plain_containers(v) for k, v in value.items()
        )
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return type(value) is list and all(_only_plain_containers(item) for item in value)
    return True


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_children())
def test_defaulting_equals_the_full_copy_and_leaves_the_input_alone(manifest: Manifest) -> None:
    schema = schema_for(*kind_of(manifest))
    assert schema is not None
    before = copy.deepcopy(manifest)
    defaulted = apply_defaults(manifest, schema)
    assert defaulted == _copying_defaults(before, schema)
    assert _only_plain_containers(defaulted)
    assert manifest == before


def test_subtrees_without_defaults_are_shared_and_converted_ones_are_not() -> None:
    (isvc,) = [child for child in typical_children() if child["kind"] == "InferenceService"][:1]
    schema = schema_for(*kind_of(isvc))
    assert schema is not None
    container = isvc["spec"]["predictor"]["containers"][0]
    defaulted = apply_defaults(isvc, schema)
    assert defaulted["spec"]["predictor"]["containers"][0]["resources"] is container["resources"]
    proxied = {
        **isvc,
        "metadata": Frozen({"name": "n", "labels": Frozen({"a": "b"})}),
    }
    meta = apply_defaults(proxied, schema)["metadata"]
    assert type(meta) is dict and type(meta["labels"]) is dict


def test_strip_defaults_takes_off_what_apply_defaults_fills_in_and_keeps_the_rest() -> None:
    from aim_pulumi.schemas.crds import crd_schema
    from aim_pulumi.schemas.defaulting import schema_at, strip_defaults

    schema = crd_schema("aim.eai.amd.com/v1alpha2", "AIMProfile")
    assert schema is not None
    spec_schema = schema["properties"]["spec"]
    declared = {"aimId": "qwen/qwen3-32b", "image": "img", "primary": True}
    written = apply_defaults(declared, spec_schema)  # what the API server stores
    assert written != declared and written["primary"] is True
    stripped = copy.deepcopy(written)
    strip_defaults(stripped, spec_schema)
    assert stripped == declared  # a default value that was declared differently stays
    assert schema_at(schema, ".spec.primary") == spec_schema["properties"]["primary"]
