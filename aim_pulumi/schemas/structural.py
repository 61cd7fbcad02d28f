"""Schema validation with what the API server adds to plain JSON Schema.

* Unknown fields are errors, as with `kubectl apply --validate=strict` / server-side apply's
  `fieldValidation=Strict`: without it the API server silently prunes them, so a typo in a
  manifest would quietly drop a setting. CRD schemas get `additionalProperties: false` on every
  object that is not `x-kubernetes-preserve-unknown-fields`; the core schemas ship that way.
* `x-kubernetes-list-type: set|map` lists must not repeat an item or a map key.
* Quantities (the CRDs' controller-gen pattern, and core `Quantity`) are checked with Go's parser
  (`aim_pulumi.schemas.quantity`): the pattern admits fractional exponents `ParseQuantity` refuses.
* Messages use the API server's words (Required value, Unsupported value, Duplicate value...)
  and its path style, so a failure reads like the `kubectl apply` error it stands in for.
* A value is first offered to the kind's compiled acceptance predicate (`acceptance.py`): when it
  is certainly valid, jsonschema is not walked at all. Every other value goes through jsonschema,
  which alone decides and words the errors.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]

from aim_pulumi.schemas.acceptance import Accepts, acceptance_for
from aim_pulumi.schemas.paths import PathStep, child, format_path, steps_from_schema_error
from aim_pulumi.schemas.quantity import QUANTITY_PATTERN, is_quantity
from aim_pulumi.schemas.registry import SchemaDocument, schema_document
from aim_pulumi.schemas.seed_overlays import Relaxations, apply_overlays

CORE_QUANTITY_DEFINITION = "io.k8s.apimachinery.pkg.api.resource.Quantity"
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions"})
_SCHEMA_VALUES = frozenset({"items", "additionalProperties", "not", "additionalItems"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf"})
_EMBEDDED_RESOURCE_FIELDS = ("apiVersion", "kind", "metadata")
_QUANTITY_HINT = "must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 64Gi"
QUANTITY_KEYWORD = "x-aim-quantity"
"""Stands in for the controller-gen quantity `pattern`, so values are checked by Go's grammar."""


# --------------------------------------------------------------------------- schema preparation


def _is_object_schema(node: Mapping[str, Any]) -> bool:
    declared = node.get("type")
    if declared == "object" or (isinstance(declared, list) and "object" in declared):
        return True
    return "properties" in node


def _forbid_unknown_fields(node: dict[str, Any]) -> None:
    """Make a structural-schema object reject what the API server would prune."""
    if "additionalProperties" in node or node.get("x-kubernetes-preserve-unknown-fields"):
        return
    if not _is_object_schema(node) or "$ref" in node:
        return
    if node.get("x-kubernetes-embedded-resource"):
        properties = node.setdefault("properties", {})
        for implicit in _EMBEDDED_RESOURCE_FIELDS:
            properties.setdefault(implicit, {})
    node["additionalProperties"] = False


def _prepared_node(node: Any, *, strict_objects: bool) -> Any:
    if isinstance(node, list):
        return [_prepared_node(item, strict_objects=strict_objects) for item in node]
    if not isinstance(node, Mapping):
        return node
    prepared: dict[str, Any] = {}
    for keyword, value in node.items():
        if keyword in _SCHEMA_MAPS and isinstance(value, Mapping):
            prepared[keyword] = {
                name: _prepared_node(sub, strict_objects=strict_objects) for name, sub in value.items()
            }
        elif keyword in _SCHEMA_VALUES and isinstance(value, Mapping):
            prepared[keyword] = _prepared_node(value, strict_objects=strict_objects)
        elif keyword in _SCHEMA_LISTS and isinstance(value, list):
            prepared[keyword] = [_prepared_node(sub, strict_objects=strict_objects) for sub in value]
        elif keyword == "pattern" and value == QUANTITY_PATTERN:
            prepared[QUANTITY_KEYWORD] = True
        else:
            prepared[keyword] = value
    if strict_objects:
        _forbid_unknown_fields(prepared)
    return prepared


def prepare_schema(document: SchemaDocument, relaxations: Relaxations = ()) -> dict[str, Any]:
    """A copy of a vendored schema that enforces what the API server enforces on create, relaxed
    where the seeds win (`seed_overlays.OVERLAYS`, then the reading class's `relaxations`)."""
    schema: dict[str, Any] = _prepared_node(document.schema, strict_objects=document.is_crd)
    properties = schema.get("properties")
    if isinstance(properties, dict) and "metadata" in properties:
        # The root ObjectMeta is checked separately (schema + apimachinery name rules).
        properties["metadata"] = {"type": "object"}
    definitions = schema.get("$defs")
    if isinstance(definitions, dict) and CORE_QUANTITY_DEFINITION in definitions:
        definitions[CORE_QUANTITY_DEFINITION] = {"type": ["string", "number"], QUANTITY_KEYWORD: True}
    apply_overlays(schema, document.group_version_kinds, relaxations)
    return schema


# --------------------------------------------------------------------------- extra keywords


def _required(validator: Any, required: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """One error per missing field, located at the field, as the API server reports it."""
    if not validator.is_type(instance, "object"):
        return
    for name in required:
        if name not in instance:
            yield jsonschema.ValidationError("Required value", path=[name])


def _unknown_fields(validator: Any, allowed: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """`additionalProperties: false` reported per unknown field; map schemas validate as usual."""
    if allowed is not False:
        yield from _PLAIN_ADDITIONAL_PROPERTIES(validator, allowed, instance, schema)
        return
    if not validator.is_type(instance, "object"):
        return
    declared = schema.get("properties", {})
    patterns = [re.compile(pattern) for pattern in schema.get("patternProperties", {})]
    for name in instance:
        if name in declared or any(pattern.search(name) for pattern in patterns):
            continue
        yield jsonschema.ValidationError(
            "Unknown field: not declared in the schema (strict field validation)", path=[name]
        )


def _identity(item: Any) -> str:
    return json.dumps(item, sort_keys=True, separators=(",", ":"))


def _list_type(validator: Any, list_type: Any, instance: Any, schema: Any) -> Iterator[Any]:
    """Uniqueness of `set` items and of `map` keys (values are already defaulted)."""
    if not isinstance(instance, list):
        return
    if list_type == "set":
        seen_items: dict[str, int] = {}
        for index, item in enumerate(instance):
            identity = _identity(item)
            if identity in seen_items:
                yield jsonschema.ValidationError(
                    f"Duplicate value: {_identity(item)} (also at index {seen_items[identity]}; "
                    "x-kubernetes-list-type=set)",
                    path=[index],
                )
            else:
                seen_items[identity] = index
    elif list_type == "map":
        keys = list(schema.get("x-kubernetes-list-map-keys", []))
        seen_keys: dict[str, int] = {}
        for index, item in enumerate(instance):
            if not isinstance(item, dict):
                continue
            key_values = {key: item.get(key) for key in keys}
            identity = _identity(key_values)
            if identity in seen_keys:
                yield jsonschema.ValidationError(
                    f"Duplicate value: {_identity(key_values)} (also at index {seen_keys[identity]}; "
                    f"x-kubernetes-list-type=map keyed by {', '.join(keys)})",
                    path=[index],
                )
            else:
                seen_keys[identity] = index


def _quantity(validator: Any, enabled: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if enabled and isinstance(instance, str) and not is_quantity(instance):
        yield jsonschema.ValidationError(_QUANTITY_HINT)


@functools.lru_cache(maxsize=1024)
def _go_regex(pattern: str) -> re.Pattern[str]:
    """A schema pattern as Go's RE2 reads it: `$` is the end of the text (Python's `$` also matches
    before a final newline, so `^[a-z]+$` took "abc\n", which the API server refuses)."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if isinstance(instance, str) and not _go_regex(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


_PLAIN_ADDITIONAL_PROPERTIES = jsonschema.Draft202012Validator.VALIDATORS["additionalProperties"]
_EXTRA_KEYWORDS = {
    "required": _required,
    "additionalProperties": _unknown_fields,
    "x-kubernetes-list-type": _list_type,
    QUANTITY_KEYWORD: _quantity,
    "pattern": _pattern,
}


@functools.cache
def _validator_class(base: Any) -> Any:
    return jsonschema.validators.extend(base, _EXTRA_KEYWORDS)


@functools.cache
def schema_for(api_version: str, kind: str, relaxations: Relaxations = ()) -> dict[str, Any] | None:
    """The prepared schema of a kind (also used for defaulting and CEL), or None if unknown."""
    document = schema_document(api_version, kind)
    return None if document is None else prepare_schema(document, relaxations)


@functools.cache
def _validator(api_version: str, kind: str, relaxations: Relaxations) -> Any:
    schema = schema_for(api_version, kind, relaxations)
    if schema is None:
        raise LookupError(f"no vendored schema for apiVersion={api_version!r} kind={kind!r}")
    base = jsonschema.validators.validator_for(schema)
    return _validator_class(base)(schema)


# --------------------------------------------------------------------------- messages


def _shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 120 else text[:117] + "..."


def _is_quantity_check(error: Any) -> bool:
    return bool(error.validator == QUANTITY_KEYWORD)


def _expected_types(declared: Any) -> str:
    names = [declared] if isinstance(declared, str) else [name for name in declared if name != "null"]
    return " or ".join(names)


def _message(error: Any) -> str:
    keyword = error.validator
    if keyword in ("required", "x-kubernetes-list-type") or (
        keyword == "additionalProperties" and error.validator_value is False
    ):
        return str(error.message)
    shown = _shown(error.instance)
    if _is_quantity_check(error):
        return f"Invalid value: {shown}: {_QUANTITY_HINT}"
    if keyword == "type":
        return f"Invalid value: {shown}: must be of type {_expected_types(error.validator_value)}"
    if keyword == "enum":
        supported = ", ".join(_shown(option) for option in error.validator_value)
        return f"Unsupported value: {shown}: supported values: {supported}"
    if keyword == "pattern":
        return f"Invalid value: {shown}: must match the regular expression {error.validator_value!r}"
    if keyword in ("anyOf", "oneOf") and error.context:
        reasons = "; ".join(sorted({_message(sub) for sub in error.context}))
        return f"Invalid value: {shown}: matches none of the allowed forms ({reasons})"
    return f"Invalid value: {error.message}"


def _location(error: Any, prefix: str) -> str:
    steps: Sequence[PathStep] = steps_from_schema_error(
        list(error.absolute_path), list(error.absolute_schema_path)
    )
    path = prefix
    for step in steps:
        path = child(path, step)
    return path or format_path(())


def _sort_key(error: Any) -> tuple[list[str], str]:
    return [str(part) for part in error.absolute_path], str(error.message)


def schema_errors(validator: Any, instance: Any, *, prefix: str = "") -> list[str]:
    """Every schema violation of `instance`, as `path: message` lines in a stable order."""
    return [
        f"{_location(error, prefix)}: {_message(error)}"
        for error in sorted(validator.iter_errors(instance), key=_sort_key)
    ]


@functools.cache
def _acceptance(api_version: str, kind: str, relaxations: Relaxations) -> Accepts:
    schema = schema_for(api_version, kind, relaxations)
    if schema is None:
        raise LookupError(f"no vendored schema for apiVersion={api_version!r} kind={kind!r}")
    return acceptance_for(schema)


def accepts(api_version: str, kind: str, instance: Any, *, relaxations: Relaxations = ()) -> bool:
    """True only when `instance` (already defaulted) certainly has no schema error; False may be either."""
    return _acceptance(api_version, kind, relaxations)(instance)


def jsonschema_errors(
    api_version: str, kind: str, instance: Any, *, prefix: str = "", relaxations: Relaxations = ()
) -> list[str]:
    """The schema errors jsonschema finds, walking the whole value: the authority on what is wrong."""
    return schema_errors(_validator(api_version, kind, relaxations), instance, prefix=prefix)


def validate_structure(
    api_version: str, kind: str, instance: Any, *, prefix: str = "", relaxations: Relaxations = ()
) -> list[str]:
    """Schema errors of an (already defaulted) object of a vendored kind, paths under `prefix`.

    Nearly every value is valid, and the compiled predicate says so without walking jsonschema;
    only the others are walked, and their errors found and worded, by jsonschema.
    """
    if accepts(api_version, kind, instance, relaxations=relaxations):
        return []
    return jsonschema_errors(api_version, kind, instance, prefix=prefix, relaxations=relaxations)
