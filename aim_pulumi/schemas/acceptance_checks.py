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
LIST_TYPE = "x-kubernetes-list-type"
QUANTITY = "x-aim-quantity"
OBJECT_KEYWORDS = ("properties", "additionalProperties", "required")
ARRAY_KEYWORDS = ("items", "minItems", "maxItems", LIST_TYPE)
SCALAR_KEYWORDS = ("minLength", "maxLength", "pattern", QUANTITY, "minimum", "maximum")
_REMEMBERED = 8192


class Slots(Protocol):
    def slot(self, container: Any, key: Any, node: Any) -> None: ...


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


def string_check(node: Mapping[str, Any]) -> Accepts | None:
    """minLength, maxLength, pattern (searched, as jsonschema does) and quantities, in one closure."""
    (fine_least, least), (fine_most, most) = (
        _bound(node, "minLength", (int,)),
        _bound(node, "maxLength", (int,)),
    )
    pattern = node.get("pattern")
    if not (fine_least and fine_most) or (pattern is not None and not isinstance(pattern, str)):
        return None
    try:
        search = re.compile(pattern).search if pattern is not None else None
    except re.error:
        return never
    matches = functools.lru_cache(maxsize=_REMEMBERED)(lambda v: search(v) is not None) if search else None
    quantity = bool(node.get(QUANTITY))
    if least is None and most is None and matches is None and not quantity:
        return yes
    shortest = least or 0

    def accepts(value: str) -> bool:
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
        strings = frozenset(option for option in options if type(option) is str)
        return lambda value: value in strings
    if kind is NULL:
        return yes if any(option is None for option in options) else never
    if kind in (int, bool):
        same = [option for option in options if type(option) is kind]
        return lambda value: any(value == option for option in same)
    return never


# --------------------------------------------------------------------------- containers


def object_check(compiler: Slots, node: Mapping[str, Any]) -> Accepts | None:
    """properties, additionalProperties and required in one pass; refuses any non-dict itself."""
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
    declared: dict[str, Accepts] = {}
    for name, sub in properties.items():
        compiler.slot(declared, name, sub)
    names = tuple(required)
    if extra is False:

        def strict(value: Any) -> bool:
            if type(value) is not dict:
                return False
            for name in names:
                if name not in value:
                    return False
            for name, item in value.items():
                check = declared.get(name)
                if check is None or not check(item):
                    return False
            return True

        return strict
    others: list[Accepts] = [yes]
    if extra is not True:
        compiler.slot(others, 0, extra)

    def accepts(value: Any) -> bool:
        if type(value) is not dict:
            return False
        for name in names:
            if name not in value:
                return False
        for name, item in value.items():
            check = declared.get(name)
            if check is None:
                if type(name) is not str or not others[0](item):
                    return False
            elif not check(item):
                return False
        return True

    return accepts


def array_check(compiler: Slots, node: Mapping[str, Any]) -> Accepts | None:
    """items, minItems, maxItems and list-type uniqueness in one pass; refuses any non-list itself."""
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
    cell: list[Accepts] = [yes]
    if items is not True:
        compiler.slot(cell, 0, items)

    def accepts(value: Any) -> bool:
        if type(value) is not list or len(value) < shortest or (most is not None and len(value) > most):
            return False
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


def _identity(item: Any) -> str:
    """The identity `structural` compares list items by: canonical JSON."""
    return json.dumps(item, sort_keys=True, separators=(",", ":"))


def _distinct(identities: list[Any]) -> bool:
    return len(set(identities)) == len(identities)


def _set_items_distinct(items: list[Any]) -> bool:
    if all(type(item) is str for item in items):
        return _distinct(items)  # distinct strings have distinct JSON
    try:
        return _distinct([_identity(item) for item in items])
    except (TypeError, ValueError):
        return False


def _map_keys_distinct(items: list[Any], keys: tuple[str, ...]) -> bool:
    if any(isinstance(item, dict) and type(item) is not dict for item in items):
        return False
    tuples = [tuple(item.get(key) for key in keys) for item in items if type(item) is dict]
    if all(type(part) is str or part is None for key_tuple in tuples for part in key_tuple):
        return _distinct(tuples)  # distinct strings (or null) have distinct JSON
    try:
        return _distinct([_identity(dict(zip(keys, key_tuple, strict=True))) for key_tuple in tuples])
    except (TypeError, ValueError):
        return False
