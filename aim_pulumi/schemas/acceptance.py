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
    JSON_TYPES,
    NULL,
    OBJECT_KEYWORDS,
    SCALAR_KEYWORDS,
    Accepts,
    allowed_types,
    array_check,
    both,
    enum_check,
    leaf_types,
    never,
    not_checked,
    number_check,
    object_check,
    string_check,
    yes,
)

__all__ = ["Accepts", "acceptance_for"]

_ANY_JSON = (dict, list, str, int, float, bool, NULL)
_DRAFTS = (jsonschema.Draft7Validator, jsonschema.Draft202012Validator)
_APPLICATORS = ("anyOf", "allOf", "$ref")
_CHECKED = frozenset({"type", "enum", *OBJECT_KEYWORDS, *ARRAY_KEYWORDS, *SCALAR_KEYWORDS, *_APPLICATORS})


def _is_pure_ref(node: Mapping[str, Any]) -> bool:
    return "$ref" in node and all(keyword == "$ref" or not_checked(keyword) for keyword in node)


def _dispatch(table: dict[type, Accepts], typed: tuple[Accepts, ...]) -> Accepts:
    """The node's predicate: the value's exact type picks its check.

    A check that decides every other type itself (objects, arrays, strings) stands for the node.
    """
    checked = [(kind, check) for kind, check in table.items() if kind is not NULL or check is not yes]
    if len(checked) == 1:
        only, check = checked[0]
        nullable = NULL in table and only is not NULL
        if any(check is known for known in typed):
            return check  # it answers for null itself
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
        if not all(keyword in _CHECKED or not_checked(keyword) for keyword in node):
            return never
        allowed = allowed_types(node.get("type", list(JSON_TYPES)))
        union = _type_union(node.get("anyOf"))
        if union is not None and allowed is not None:  # an anyOf of bare types narrows the type
            allowed = tuple(kind for kind in allowed if kind in union)
        generic = self._applicators(node, skip_any_of=union is not None)
        if allowed is None or generic is None:
            return never
        # When nothing else applies to null, the object, array and string checks accept it
        # themselves, which saves a call per value.
        nullable = NULL in allowed and "enum" not in node and not generic
        table: dict[type, Accepts] = {}
        typed: tuple[Accepts, ...] = ()
        for kind in allowed:
            own = self._own_check(kind, node, nullable=nullable)
            if own is None:
                return never
            if kind in (dict, list, str) and own is not yes:
                typed += (own,)
            check = both([own, enum_check(kind, node), *generic])
            if check is not never:
                table[kind] = check
        return _dispatch(table, typed) if table else never

    def _own_check(self, kind: type, node: Mapping[str, Any], *, nullable: bool) -> Accepts | None:
        if kind is dict:
            has = any(keyword in node for keyword in OBJECT_KEYWORDS)
            return object_check(self, node, nullable=nullable) if has else yes
        if kind is list:
            has = any(keyword in node for keyword in ARRAY_KEYWORDS)
            return array_check(self, node, nullable=nullable) if has else yes
        if kind is str:
            return string_check(node, nullable=nullable)
        if kind in (int, float):
            return number_check(node)
        return yes

    def _applicators(self, node: Mapping[str, Any], *, skip_any_of: bool) -> list[Accepts] | None:
        """`anyOf`, `allOf` and a `$ref` beside other keywords: checks that apply to every type."""
        checks: list[Accepts] = []
        for keyword in ("anyOf", "allOf"):
            if keyword not in node or (keyword == "anyOf" and skip_any_of):
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


def _type_union(options: Any) -> frozenset[type] | None:
    """The types an `anyOf` of nodes that check only their `type` admits (int-or-string), or None."""
    if not isinstance(options, list) or not options:
        return None
    kinds = [leaf_types(option) for option in options]
    if any(kind is None for kind in kinds):
        return None
    return frozenset(kind for option in kinds if option is not None for kind in option)


def _any(options: list[Accepts]) -> Accepts:
    return lambda value: any(option(value) for option in options)


def _every(parts: list[Accepts]) -> Accepts:
    return lambda value: all(part(value) for part in parts)


def acceptance_for(schema: Mapping[str, Any]) -> Accepts:
    """The predicate of a prepared schema; nodes compile on first use and stay compiled.

    The schema must not change afterwards (prepared schemas never do): nodes are known by identity.
    """
    return _Compiler(schema).compile(schema)
