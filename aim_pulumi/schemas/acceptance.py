"""A fast yes to "does this value pass the schema?", so valid manifests skip the jsonschema walk.

Every child of every service is checked before it is registered, and nearly all of them are valid:
walking jsonschema's generic machinery for each one costs more than planning the service. Each node
of a prepared schema is compiled once (lazily, on first use) into a plain closure that answers True
only when the value is certainly valid against that node as `structural.validate_structure` judges
it. Whenever it is unsure it answers False: a keyword it does not implement, a Python type that is
not exactly dict, list, str, int, float, bool or None, `oneOf`, a float where an integer is expected,
values only jsonschema's own equality would call equal. A False is never reported: the caller then
runs the jsonschema path, which stays the one authority on what is wrong and words every error.
So the only property this module must keep is: accepts(value) implies no schema error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema  # type: ignore[import-untyped, unused-ignore]

from aim_pulumi.schemas.acceptance_checks import (
    ARRAY_KEYWORDS,
    LIST_TYPE,
    NULL,
    OBJECT_KEYWORDS,
    SCALAR_KEYWORDS,
    Accepts,
    array_check,
    both,
    enum_check,
    never,
    number_check,
    object_check,
    string_check,
    yes,
)

__all__ = ["Accepts", "acceptance_for"]

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),  # exact types: a bool is no integer; an integral float is left to jsonschema
    "number": (int, float),
    "boolean": (bool,),
    "null": (NULL,),
}
_ANY_JSON = (dict, list, str, int, float, bool, NULL)
_DRAFTS = (jsonschema.Draft7Validator, jsonschema.Draft202012Validator)
# Keywords the structural validator does not check: annotations and formats (it has no format
# checker), and every `x-kubernetes-` marker but the list type (CEL rules are not its part).
_NOT_CHECKED = frozenset(
    {"format", "default", "description", "title", "example", "examples", "$schema", "$id", "$comment"}
    | {"$defs", "definitions", "x-source"}
)
_APPLICATORS = ("anyOf", "allOf", "$ref")
_CHECKED = frozenset({"type", "enum", *OBJECT_KEYWORDS, *ARRAY_KEYWORDS, *SCALAR_KEYWORDS, *_APPLICATORS})


def _not_checked(keyword: str) -> bool:
    return keyword in _NOT_CHECKED or (keyword.startswith("x-kubernetes-") and keyword != LIST_TYPE)


def _is_pure_ref(node: Mapping[str, Any]) -> bool:
    return "$ref" in node and all(keyword == "$ref" or _not_checked(keyword) for keyword in node)


def _dispatch(table: dict[type, Accepts], typed: tuple[Accepts, ...]) -> Accepts:
    """The node's predicate: the value's exact type picks its check.

    A check that refuses every other type itself (objects, arrays) stands for the node on its own.
    """
    checked = [(kind, check) for kind, check in table.items() if kind is not NULL or check is not yes]
    if len(checked) == 1:
        only, check = checked[0]
        nullable = NULL in table and only is not NULL
        if any(check is known for known in typed):
            return (lambda value: value is None or check(value)) if nullable else check
        if check is yes:
            return (
                (lambda value: value is None or type(value) is only)
                if nullable
                else (lambda value: type(value) is only)
            )
        if nullable:
            return lambda value: value is None or (type(value) is only and check(value))
        return lambda value: type(value) is only and check(value)
    if all(check is yes for check in table.values()):
        return lambda value: type(value) in table
    return lambda value: table.get(type(value), never)(value)


class _Compiler:
    """Compiles the nodes of one prepared schema; `$ref`s resolve inside it, lazily."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.draft = jsonschema.validators.validator_for(root, default=None)
        self.compiled: dict[int, Accepts] = {}

    def compile(self, node: Any) -> Accepts:
        done = self.compiled.get(id(node))
        if done is None:
            done = self.compiled[id(node)] = self._compile(node)
        return done

    def slot(self, container: Any, key: Any, node: Any) -> None:
        """Put a predicate for `node` at `container[key]`: compiled on its first call, then in place.

        Schemas are large and a value reaches few of their nodes, so nothing is compiled early; the
        stub replaces itself, so later calls pay no indirection.
        """
        done = self.compiled.get(id(node))
        if done is not None:
            container[key] = done
            return

        def stub(value: Any) -> bool:
            check = container[key] = self.compile(node)
            return bool(check(value))

        container[key] = stub

    def slots(self, nodes: list[Any]) -> list[Accepts]:
        out: list[Accepts] = [never] * len(nodes)
        for index, node in enumerate(nodes):
            self.slot(out, index, node)
        return out

    def resolve(self, ref: Any) -> Any:
        """The node a local `#/...` JSON pointer names, or None."""
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return None
        node: Any = self.root
        for token in ref[2:].split("/"):
            name = token.replace("~1", "/").replace("~0", "~")
            if "%" in name or not isinstance(node, Mapping) or name not in node:
                return None
            node = node[name]
        return node

    def _compile(self, node: Any) -> Accepts:
        if node is True:
            return _dispatch(dict.fromkeys(_ANY_JSON, yes), ())
        if not isinstance(node, Mapping) or self.draft not in _DRAFTS:
            return never
        if "$ref" in node and self.draft is not jsonschema.Draft202012Validator:
            return never  # older drafts ignore a $ref's siblings; not worth modelling
        if _is_pure_ref(node):
            return self._pure_ref(node)
        if not all(keyword in _CHECKED or _not_checked(keyword) for keyword in node):
            return never
        allowed = _allowed_types(node.get("type", list(_JSON_TYPES)))
        generic = self._applicators(node)
        if allowed is None or generic is None:
            return never
        table: dict[type, Accepts] = {}
        typed: tuple[Accepts, ...] = ()
        for kind in allowed:
            own = self._own_check(kind, node)
            if own is None:
                return never
            if kind in (dict, list) and own is not yes:
                typed += (own,)
            check = both([own, enum_check(kind, node), *generic])
            if check is not never:
                table[kind] = check
        return _dispatch(table, typed) if table else never

    def _own_check(self, kind: type, node: Mapping[str, Any]) -> Accepts | None:
        if kind is dict:
            return object_check(self, node) if any(k in node for k in OBJECT_KEYWORDS) else yes
        if kind is list:
            return array_check(self, node) if any(k in node for k in ARRAY_KEYWORDS) else yes
        if kind is str:
            return string_check(node)
        if kind in (int, float):
            return number_check(node)
        return yes

    def _applicators(self, node: Mapping[str, Any]) -> list[Accepts] | None:
        """`anyOf`, `allOf` and a `$ref` beside other keywords: checks that apply to every type."""
        checks: list[Accepts] = []
        for keyword in ("anyOf", "allOf"):
            if keyword not in node:
                continue
            subschemas = node[keyword]
            if not isinstance(subschemas, list) or not subschemas:
                return None
            parts = self.slots(subschemas)
            checks.append(_any(parts) if keyword == "anyOf" else _every(parts))
        if "$ref" in node:
            target = self.resolve(node["$ref"])
            if target is None:
                return None
            cell: list[Accepts] = [never]
            self.slot(cell, 0, target)
            checks.append(lambda value: cell[0](value))
        return checks

    def _pure_ref(self, node: Mapping[str, Any]) -> Accepts:
        """A node that only refers to another is that node's predicate (no extra call per value)."""
        seen: set[int] = set()
        target: Any = node
        while isinstance(target, Mapping) and _is_pure_ref(target):
            if id(target) in seen:
                return never  # references going round in a circle
            seen.add(id(target))
            target = self.resolve(target["$ref"])
        return never if target is None else self.compile(target)


def _allowed_types(declared: Any) -> tuple[type, ...] | None:
    names = [declared] if isinstance(declared, str) else declared
    if not isinstance(names, list) or not all(
        isinstance(name, str) and name in _JSON_TYPES for name in names
    ):
        return None
    return tuple(dict.fromkeys(kind for name in names for kind in _JSON_TYPES[name]))


def _any(options: list[Accepts]) -> Accepts:
    return lambda value: any(option(value) for option in options)


def _every(parts: list[Accepts]) -> Accepts:
    return lambda value: all(part(value) for part in parts)


def acceptance_for(schema: Mapping[str, Any]) -> Accepts:
    """The predicate of a prepared schema; nodes compile on first use and stay compiled.

    The schema must not change afterwards (prepared schemas never do): nodes are known by identity.
    """
    return _Compiler(schema).compile(schema)
