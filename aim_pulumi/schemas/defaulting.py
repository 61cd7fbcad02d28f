"""CRD structural defaulting, applied before validation as the API server does.

Some rules only hold after defaulting: HTTPRoute's "port required for a Service backend" CEL rule
reads `backendRefs[].kind`, which the schema defaults to `Service`, and its match-count rule reads
`rules[].matches`, defaulted to one `PathPrefix /` match. Defaults live only in the CRD schemas,
which have no `$ref`; the core schemas have `$ref`s but no defaults, so references are not followed.

Only the parts of a value whose schema declares a default somewhere beneath are rebuilt; the rest
is shared with the input when it already is plain JSON (dicts with string keys, lists, scalars), so
checking a manifest does not copy its containers, env lists and volumes each time.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_EMPTY: Mapping[str, Any] = {}
_ATOMIC = (str, int, float, bool, type(None))


def _subschema(schema: Mapping[str, Any], keyword: str) -> Mapping[str, Any]:
    sub = schema.get(keyword)
    return sub if isinstance(sub, Mapping) else _EMPTY


@dataclass(frozen=True)
class _Plan:
    """How to default a value at one schema node that has a `default` at or beneath a child."""

    properties: Mapping[str, Mapping[str, Any]]
    defaults: tuple[tuple[str, Any], ...]
    map_values: Mapping[str, Any]
    items: Mapping[str, Any]


class _DefaultsIndex:
    """The plan of each node of one schema, or None where no `default` is beneath it."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root  # keeps every node alive, so their ids stay theirs
        self.plans: dict[int, _Plan | None] = {id(_EMPTY): None}

    def plan(self, node: Mapping[str, Any]) -> _Plan | None:
        key = id(node)
        if key not in self.plans:
            self.plans[key] = self._plan(node)
        return self.plans[key]

    def _plan(self, node: Mapping[str, Any]) -> _Plan | None:
        properties = {
            name: sub if isinstance(sub, Mapping) else _EMPTY
            for name, sub in _subschema(node, "properties").items()
        }
        defaults = tuple((name, sub["default"]) for name, sub in properties.items() if "default" in sub)
        map_values, items = _subschema(node, "additionalProperties"), _subschema(node, "items")
        beneath = defaults or any(self.plan(sub) for sub in (*properties.values(), map_values, items))
        return _Plan(properties, defaults, map_values, items) if beneath else None


@functools.lru_cache(maxsize=64)
def _index(root: _Held) -> _DefaultsIndex:
    return _DefaultsIndex(root.schema)


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
            if type(key) is not str or (type(item) not in _ATOMIC and not _is_plain(item)):
                return False
        return True
    if kind is list:
        return all(type(item) in _ATOMIC or _is_plain(item) for item in value)
    return kind in _ATOMIC or not (isinstance(value, Mapping) or _is_sequence(value))


def _is_sequence(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _plain_copy(value: object) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _plain_copy(item) for key, item in value.items()}
    if _is_sequence(value):
        return [_plain_copy(item) for item in value]  # type: ignore[attr-defined]
    return value


def _defaulted(value: object, node: Mapping[str, Any], index: _DefaultsIndex) -> Any:
    plan = index.plan(node)
    if plan is None:
        return value if _is_plain(value) else _plain_copy(value)
    if isinstance(value, Mapping):
        values = {str(key): item for key, item in value.items()}
        for name, default in plan.defaults:
            if name not in values:
                values[name] = default if type(default) in _ATOMIC else copy.deepcopy(default)
        properties, map_values = plan.properties, plan.map_values
        return {
            key: item if type(item) in _ATOMIC else _defaulted(item, properties.get(key, map_values), index)
            for key, item in values.items()
        }
    if _is_sequence(value):
        items = plan.items
        return [item if type(item) in _ATOMIC else _defaulted(item, items, index) for item in value]  # type: ignore[attr-defined]
    return value


def apply_defaults(value: object, schema: Mapping[str, Any]) -> Any:
    """`value` with every absent field that declares a `default` filled in; `value` is never modified.

    The result is made of dicts, lists and scalars only, whatever mappings or sequences came in, so
    jsonschema sees the types it expects. What needs a default (or a conversion) is rebuilt; the
    rest is shared with `value`, so the result may share subtrees with it (or be `value` itself)
    and is read-only: every validator only reads it. Defaults are themselves defaulted (a defaulted
    object gets its own nested defaults), as the API server does. `schema` must not change after
    its first use (the prepared schemas never do).
    """
    return _defaulted(value, schema, _index(_Held(schema)))
