"""CRD structural defaulting, applied before validation as the API server does, and undone for adoption.

Some rules only hold after defaulting: HTTPRoute's "port required for a Service backend" CEL rule
reads `backendRefs[].kind`, which the schema defaults to `Service`, and its match-count rule reads
`rules[].matches`, defaulted to one `PathPrefix /` match. Defaults live only in the CRD schemas,
which have no `$ref`; the core schemas have `$ref`s but no defaults, so references are not followed.

Only the parts of a value whose schema declares a default somewhere beneath are rebuilt; the rest
is shared with the input when it already is plain JSON (dicts with string keys, lists, scalars), so
checking a manifest does not copy its containers, env lists and volumes each time.

The one walk of a schema lives here: a field's schema is its property, else `additionalProperties`
(`field_schema`), an item's is `items` (`item_schema`). Validation fills defaults
(`apply_defaults`); `aim-pulumi import` takes them off the AIM objects it reads back from a cluster
(`strip_defaults`) and compares a planned list with a live one after them (`apply_defaults` at the
schema `schema_at` finds for a field path).
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["apply_defaults", "field_schema", "item_schema", "schema_at", "strip_defaults"]

_EMPTY: Mapping[str, Any] = {}
_ATOMIC = (str, int, float, bool, type(None))


def _subschema(schema: Mapping[str, Any], keyword: str) -> Mapping[str, Any]:
    sub = schema.get(keyword)
    return sub if isinstance(sub, Mapping) else _EMPTY


Defaulter = Callable[[Any], Any]
"""What defaulting makes of a value found at one schema node."""


class _Defaulters:
    """One defaulter per node of a schema, made on first use: schemas are large, values small."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root  # keeps every node alive, so their ids stay theirs
        self.made: dict[int, Defaulter] = {}
        self.beneath: dict[int, bool] = {id(_EMPTY): False}

    def of(self, node: Mapping[str, Any]) -> Defaulter:
        made = self.made.get(id(node))
        if made is None:
            made = self.made[id(node)] = self._make(node)
        return made

    def has_default(self, node: Mapping[str, Any]) -> bool:
        """Whether a `default` is declared anywhere beneath `node`, along the keywords followed."""
        found = self.beneath.get(id(node))
        if found is None:
            children = [
                *_properties(node).values(),
                _subschema(node, "additionalProperties"),
                _subschema(node, "items"),
            ]
            found = any("default" in child or self.has_default(child) for child in children)
            self.beneath[id(node)] = found
        return found

    def _slot(self, container: Any, key: Any, node: Mapping[str, Any]) -> None:
        """Put the defaulter of `node` at `container[key]`, made on its first call, then in place."""
        made = self.made.get(id(node)) if self.has_default(node) else _shared
        if made is not None:
            container[key] = made
            return

        def stub(value: Any) -> Any:
            made = container[key] = self.of(node)
            return made(value)

        container[key] = stub

    def _make(self, node: Mapping[str, Any]) -> Defaulter:
        if not self.has_default(node):
            return _shared
        properties = _properties(node)
        fields: dict[str, Defaulter] = {}
        for name, sub in properties.items():
            self._slot(fields, name, sub)
        defaults = tuple((name, sub["default"]) for name, sub in properties.items() if "default" in sub)
        others: list[Defaulter] = [_shared]
        items: list[Defaulter] = [_shared]
        self._slot(others, 0, _subschema(node, "additionalProperties"))
        self._slot(items, 0, _subschema(node, "items"))

        def default(value: Any) -> Any:
            kind = type(value)
            if kind is dict:
                out = {}
                for key, item in value.items():
                    if type(key) is not str:
                        return default({str(key): item for key, item in value.items()})
                    out[key] = item if type(item) in _ATOMIC else fields.get(key, others[0])(item)
                for name, filled in defaults:
                    if name not in out:
                        out[name] = filled if type(filled) in _ATOMIC else fields[name](copy.deepcopy(filled))
                return out
            if kind is list:
                each = items[0]
                return [item if type(item) in _ATOMIC else each(item) for item in value]
            if isinstance(value, Mapping):
                return default({str(key): item for key, item in value.items()})
            return default(list(value)) if _is_sequence(value) else value

        return default


def _properties(node: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {
        name: sub if isinstance(sub, Mapping) else _EMPTY
        for name, sub in _subschema(node, "properties").items()
    }


@functools.lru_cache(maxsize=64)
def _defaulters(root: _Held) -> _Defaulters:
    return _Defaulters(root.schema)


class _Held:
    """A schema as a cache key: hashed by identity, never compared by content."""

    __slots__ = ("schema",)

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema

    def __hash__(self) -> int:
        return id(self.schema)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Held) and other.schema is self.schema


def _is_plain(value: Any) -> bool:
    """Whether `value` already is what defaulting makes of it: dicts with str keys, lists, scalars."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                return False
            if type(item) in _ATOMIC:
                continue
            if not _is_plain(item):
                return False
        return True
    if kind is list:
        for item in value:
            if type(item) in _ATOMIC:
                continue
            if not _is_plain(item):
                return False
        return True
    return kind in _ATOMIC or not (isinstance(value, Mapping) or _is_sequence(value))


def _is_sequence(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _plain_copy(value: object) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _plain_copy(item) for key, item in value.items()}
    if _is_sequence(value):
        return [_plain_copy(item) for item in value]  # type: ignore[attr-defined]
    return value


def _shared(value: Any) -> Any:
    """A value with no default beneath it: itself when already plain JSON, else a plain copy."""
    return value if _is_plain(value) else _plain_copy(value)


def apply_defaults(value: object, schema: Mapping[str, Any]) -> Any:
    """`value` with every absent field that declares a `default` filled in; `value` is never modified.

    The result is made of dicts, lists and scalars only, whatever mappings or sequences came in, so
    jsonschema sees the types it expects. What needs a default (or a conversion) is rebuilt; the
    rest is shared with `value`, so the result may share subtrees with it (or be `value` itself)
    and is read-only: every validator only reads it. Defaults are themselves defaulted (a defaulted
    object gets its own nested defaults), as the API server does. `schema` must not change after
    its first use (the prepared schemas never do).
    """
    return _defaulters(_Held(schema)).of(schema)(value)


def field_schema(node: Mapping[str, Any] | None, key: str) -> Mapping[str, Any] | None:
    """The schema of field `key` of an object: its property, else `additionalProperties`; None if neither."""
    if node is None:
        return None
    found = _subschema(node, "properties").get(key)
    if found is None:
        found = node.get("additionalProperties")
    return found if isinstance(found, Mapping) else None


def item_schema(node: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The schema of the items of an array; None when the node declares none."""
    items = node.get("items") if node is not None else None
    return items if isinstance(items, Mapping) else None


_SELECTOR = re.compile(r"\[[^\]]*\]")


def schema_at(schema: Mapping[str, Any] | None, path: str) -> Mapping[str, Any] | None:
    """The schema of the field at a dotted path (`.spec.predictor.containers`; list selectors skipped)."""
    for part in _SELECTOR.sub("", path).strip(".").split("."):
        if schema is not None and schema.get("type") == "array":
            schema = item_schema(schema)
        schema = field_schema(schema, part)
    return schema


def strip_defaults(value: Any, schema: Mapping[str, Any]) -> None:
    """Remove, in place, every field whose value is the default its schema declares for it.

    The inverse of `apply_defaults` on what the API server wrote: a field that differs from its
    default stays, declared or not, and so does everything beneath it that is not a default.
    """
    if isinstance(value, dict):
        for key in list(value):
            sub = field_schema(schema, key)
            if sub is None:
                continue
            if "default" in sub and value[key] == sub["default"]:
                del value[key]
            else:
                strip_defaults(value[key], sub)
    elif isinstance(value, list):
        items = item_schema(schema)
        if items is not None:
            for item in value:
                strip_defaults(item, items)
