"""The checks `acceptance` compiles schema nodes into, one per JSON type of value.

Each builder returns a closure that holds only when the value certainly passes the keywords it
covers, `never` when it cannot tell, or None when the keywords themselves are malformed (the node
is then unsure as a whole). jsonschema's semantics are followed where it matters: length bounds and
patterns apply to strings, numeric bounds to numbers (never to a bool), and a bound is broken only
when jsonschema's own comparison says so, which keeps NaN behaving the same.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from aim_pulumi.schemas.quantity import is_quantity

Accepts = Callable[[Any], bool]

NULL = type(None)
JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),  # exact types: a bool is no integer; an integral float is left to jsonschema
    "number": (int, float),
    "boolean": (bool,),
    "null": (NULL,),
}
LIST_TYPE = "x-kubernetes-list-type"
QUANTITY = "x-aim-quantity"
OBJECT_KEYWORDS = ("properties", "additionalProperties", "required")
ARRAY_KEYWORDS = ("items", "minItems", "maxItems", LIST_TYPE)
SCALAR_KEYWORDS = ("minLength", "maxLength", "pattern", QUANTITY, "minimum", "maximum")
_REMEMBERED = 8192
# Keywords the structural validator does not check: annotations and formats (it has no format
# checker), and every `x-kubernetes-` marker but the list type (CEL rules are not its part).
_NOT_CHECKED = frozenset(
    {"format", "default", "description", "title", "example", "examples", "$schema", "$id", "$comment"}
    | {"$defs", "definitions", "x-source"}
)


class Slots(Protocol):
    """What the container checks need of the compiler: a predicate for a subschema, made lazily."""

    def slot(self, container: Any, key: Any, node: Any) -> None: ...


def not_checked(keyword: str) -> bool:
    return keyword in _NOT_CHECKED or (keyword.startswith("x-kubernetes-") and keyword != LIST_TYPE)


def allowed_types(declared: Any) -> tuple[type, ...] | None:
    """The exact Python types a `type` keyword admits, or None when it is malformed."""
    names = [declared] if isinstance(declared, str) else declared
    if not isinstance(names, list) or not all(isinstance(name, str) and name in JSON_TYPES for name in names):
        return None
    return tuple(dict.fromkeys(kind for name in names for kind in JSON_TYPES[name]))


def leaf_types(node: Any) -> frozenset[type] | None:
    """The types a node that checks nothing but `type` admits (checked inline, without a call)."""
    if not isinstance(node, Mapping) or "type" not in node:
        return None
    if not all(keyword == "type" or not_checked(keyword) for keyword in node):
        return None
    kinds = allowed_types(node["type"])
    return None if kinds is None else frozenset(kinds)


def never(value: Any) -> bool:
    return False


def yes(value: Any) -> bool:
    return True


def both(checks: list[Accepts | None]) -> Accepts:
    """One predicate that holds when every check holds (None and `yes` add nothing)."""
    needed = [check for check in checks if check is not None and check is not yes]
    if any(check is never for check in needed):
        return never
    if not needed:
        return yes
    if len(needed) == 1:
        return needed[0]
    if len(needed) == 2:
        first, second = needed
        return lambda value: first(value) and second(value)
    return lambda value: all(check(value) for check in needed)


# --------------------------------------------------------------------------- scalars


@functools.lru_cache(maxsize=_REMEMBERED)
def _quantity(value: str) -> bool:
    return is_quantity(value)


def _bound(node: Mapping[str, Any], keyword: str, types: tuple[type, ...]) -> tuple[bool, Any]:
    """(well formed, the bound or None)."""
    value = node.get(keyword)
    return value is None or type(value) in types, value


def string_check(node: Mapping[str, Any], *, nullable: bool) -> Accepts | None:
    """enum, minLength, maxLength, pattern (searched, as jsonschema does) and quantities in one closure.

    Like the container checks it decides every other type itself (null only when `nullable`).
    """
    (fine_least, least), (fine_most, most) = (
        _bound(node, "minLength", (int,)),
        _bound(node, "maxLength", (int,)),
    )
    pattern, options = node.get("pattern"), node.get("enum")
    if not (fine_least and fine_most) or (pattern is not None and not isinstance(pattern, str)):
        return None
    if options is not None and not isinstance(options, list):
        return None
    try:
        search = re.compile(pattern).search if pattern is not None else None
    except re.error:
        return never
    matches = functools.lru_cache(maxsize=_REMEMBERED)(lambda v: search(v) is not None) if search else None
    strings = None if options is None else frozenset(option for option in options if type(option) is str)
    quantity = bool(node.get(QUANTITY))
    if least is None and most is None and matches is None and not quantity and strings is None:
        return yes
    shortest = least or 0

    def accepts(value: Any) -> bool:
        if type(value) is not str:
            return nullable and value is None
        if strings is not None and value not in strings:
            return False
        if len(value) < shortest or (most is not None and len(value) > most):
            return False
        if matches is not None and not matches(value):
            return False
        return not quantity or _quantity(value)

    return accepts


def number_check(node: Mapping[str, Any]) -> Accepts | None:
    (fine_low, low), (fine_high, high) = (
        _bound(node, "minimum", (int, float)),
        _bound(node, "maximum", (int, float)),
    )
    if not (fine_low and fine_high):
        return None
    if low is None and high is None:
        return yes
    return lambda value: not (low is not None and value < low) and not (high is not None and value > high)


def enum_check(kind: type, node: Mapping[str, Any]) -> Accepts | None:
    """The `enum` for values of one type; jsonschema's own equality decides floats and containers."""
    if "enum" not in node:
        return None
    options = node["enum"]
    if not isinstance(options, list):
        return never
    if kind is str:
        return None  # `string_check` has it
    if kind is NULL:
        return yes if any(option is None for option in options) else never
    if kind in (int, bool):
        same = [option for option in options if type(option) is kind]
        return lambda value: any(value == option for option in same)
    return never


# --------------------------------------------------------------------------- containers


def object_check(compiler: Slots, node: Mapping[str, Any], *, nullable: bool) -> Accepts | None:
    """properties, additionalProperties and required in one pass.

    It decides every other type itself: a non-dict is refused, but null when `nullable`. A property
    that checks only its type is checked inline, without a call.
    """
    if "patternProperties" in node:
        return never
    properties, extra, required = (
        node.get("properties", {}),
        node.get("additionalProperties", True),
        node.get("required", []),
    )
    if not isinstance(properties, Mapping) or not isinstance(required, list):
        return None
    if extra is not True and extra is not False and not isinstance(extra, Mapping):
        return None
    declared: dict[str, Accepts | frozenset[type]] = {}
    for name, sub in properties.items():
        kinds = leaf_types(sub)
        if kinds is None:
            compiler.slot(declared, name, sub)
        else:
            declared[name] = kinds
    names = tuple(required)
    if extra is False:

        def strict(value: Any) -> bool:
            if type(value) is not dict:
                return nullable and value is None
            for name in names:
                if name not in value:
                    return False
            for name, item in value.items():
                check = declared.get(name)
                if check is None:
                    return False
                if type(check) is frozenset:
                    if type(item) not in check:
                        return False
                elif not check(item):  # type: ignore[operator]
                    return False
            return True

        return strict
    others: list[Accepts | frozenset[type]] = [yes]
    kinds = leaf_types(extra)
    if kinds is not None:
        others[0] = kinds
    elif extra is not True:
        compiler.slot(others, 0, extra)

    def accepts(value: Any) -> bool:
        if type(value) is not dict:
            return nullable and value is None
        for name in names:
            if name not in value:
                return False
        for name, item in value.items():
            check = declared.get(name)
            if check is None:
                if type(name) is not str:
                    return False
                check = others[0]
            if type(check) is frozenset:
                if type(item) not in check:
                    return False
            elif not check(item):  # type: ignore[operator]
                return False
        return True

    return accepts


def array_check(compiler: Slots, node: Mapping[str, Any], *, nullable: bool) -> Accepts | None:
    """items, minItems, maxItems and list-type uniqueness in one pass; other types as `object_check`."""
    items = node.get("items", True)
    (fine_least, least), (fine_most, most) = (
        _bound(node, "minItems", (int,)),
        _bound(node, "maxItems", (int,)),
    )
    if "prefixItems" in node or not (items is True or isinstance(items, Mapping)):
        return never  # tuple validation: not worth modelling
    if not (fine_least and fine_most):
        return None
    shortest = least or 0
    distinct = _uniqueness(node)
    kinds = leaf_types(items)
    cell: list[Accepts] = [yes]
    if items is not True and kinds is None:
        compiler.slot(cell, 0, items)

    def accepts(value: Any) -> bool:
        if type(value) is not list:
            return nullable and value is None
        if len(value) < shortest or (most is not None and len(value) > most):
            return False
        if kinds is not None:
            for entry in value:
                if type(entry) not in kinds:
                    return False
        else:
            check = cell[0]
            for entry in value:
                if not check(entry):
                    return False
        return distinct is None or distinct(value)

    return accepts


def _uniqueness(node: Mapping[str, Any]) -> Accepts | None:
    """`set` items and `map` keys must not repeat (compared as `structural` compares them)."""
    list_type = node.get(LIST_TYPE)
    if list_type == "set":
        return _set_items_distinct
    if list_type == "map":
        keys = tuple(node.get("x-kubernetes-list-map-keys", []))
        return lambda value: _map_keys_distinct(value, keys)
    return None  # atomic: nothing to check


# Values of these types are equal exactly when their canonical JSON is (unlike 1, 1.0 and True).
_DISTINCT_AS_JSON = (str, int, NULL)


def _identity(item: Any) -> str:
    """The identity `structural` compares list items by: canonical JSON."""
    return json.dumps(item, sort_keys=True, separators=(",", ":"))


def _distinct(identities: list[Any]) -> bool:
    return len(set(identities)) == len(identities)


def _set_items_distinct(items: list[Any]) -> bool:
    if all(type(item) in _DISTINCT_AS_JSON for item in items):
        return _distinct(items)
    try:
        return _distinct([_identity(item) for item in items])
    except (TypeError, ValueError):
        return False


def _map_keys_distinct(items: list[Any], keys: tuple[str, ...]) -> bool:
    seen: set[tuple[Any, ...]] = set()
    for item in items:
        if type(item) is not dict:
            if isinstance(item, dict):
                return False  # a dict subclass: left to jsonschema
            continue  # `structural` skips items that are not objects
        key_tuple = tuple(item.get(key) for key in keys) if len(keys) != 1 else (item.get(keys[0]),)
        for part in key_tuple:
            if type(part) not in _DISTINCT_AS_JSON:
                return _map_keys_distinct_as_json(items, keys)
        if key_tuple in seen:
            return False
        seen.add(key_tuple)
    return True


def _map_keys_distinct_as_json(items: list[Any], keys: tuple[str, ...]) -> bool:
    if any(isinstance(item, dict) and type(item) is not dict for item in items):
        return False
    try:
        return _distinct(
            [_identity({key: item.get(key) for key in keys}) for item in items if type(item) is dict]
        )
    except (TypeError, ValueError):
        return False
