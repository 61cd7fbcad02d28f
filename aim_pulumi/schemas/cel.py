"""CRD `x-kubernetes-validations` rules, evaluated with cel-python as the API server evaluates them.

Gateway API puts most of HTTPRoute's checks (path syntax, filter/type agreement, backend ports,
timeouts) in CEL, so a manifest that passes the JSON Schema can still be rejected on create.

* `self` is the value at the node carrying the rule; declared property names are escaped the way
  Kubernetes escapes them (`namespace` -> `__namespace__`, `a.b` -> `a__dot__b`), map keys are not.
* Transition rules (those reading `oldSelf`) only run on update and are skipped, except the ones
  marked `optionalOldSelf`: the API server runs those on create too, with `oldSelf` an empty optional,
  so they are evaluated with `oldSelf.hasValue()` false (the "ratchet" that refuses a deprecated
  field on a new object but lets an object that already has it be updated).
* Each expression is compiled once per process. Rules are pure functions of `self`, so outcomes are
  also memoised by (expression, value): the manifests a program renders repeat the same small values
  (path matches, filters, parent references) many times, and cel-python interprets rather than
  compiles, at about half a millisecond per rule.
* The schema is indexed once into a tree holding only the branches that lead to rules, so objects
  of kinds without rules (InferenceService) cost nothing here.
* A rule that reads `self` only through field chains (`self.spec.acceleratorType`,
  `has(self.spec.modelSources)`) sees, and is memoised by, just those fields: a root rule of an AIM
  kind then costs one evaluation per distinct combination of the fields it reads, not per object.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

try:
    import celpy
    from celpy.adapter import json_to_cel
except ImportError as missing:  # pragma: no cover - cel-python is a declared dependency
    raise ImportError(
        "aim_pulumi.schemas evaluates the CRD x-kubernetes-validations (CEL) rules and needs the "
        "cel-python package (pip install cel-python); it is a dependency of aim-pulumi"
    ) from missing

from aim_pulumi.schemas.cel_parser import install_cached_parser
from aim_pulumi.schemas.paths import MapKey, child

CEL_RESERVED_WORDS = frozenset(
    {
        "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
        "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while",
    }
)  # fmt: skip
_ESCAPABLE = re.compile(r"^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$")
_OLD_SELF = re.compile(r"\boldSelf\b")
_OLD_SELF_PRESENT = re.compile(r"\boldSelf\s*\.\s*hasValue\s*\(\s*\)")
_OUTCOME_CACHE_SIZE = 16384
_SELF_CHAIN = re.compile(r"\bself((?:\.[A-Za-z_][A-Za-z0-9_]*)*)")
_WHOLE = "__whole__"

SelfPaths = tuple[tuple[str, ...], ...]
CEL_TAG = "[CEL x-kubernetes-validations]"


@functools.lru_cache(maxsize=4096)
def escape_property_name(name: str) -> str | None:
    """The CEL identifier Kubernetes exposes a property as, or None when it cannot be accessed.

    Remembered: every object of a kind spells the same few dozen field names.
    """
    if name in CEL_RESERVED_WORDS:
        return f"__{name}__"
    if not _ESCAPABLE.match(name):
        return None
    return (
        name.replace("__", "__underscores__")
        .replace(".", "__dot__")
        .replace("-", "__dash__")
        .replace("/", "__slash__")
    )


def _subschema(schema: Mapping[str, Any], keyword: str) -> Mapping[str, Any]:
    sub = schema.get(keyword)
    return sub if isinstance(sub, Mapping) else {}


def to_cel_data(value: Any, schema: Mapping[str, Any]) -> Any:
    """The JSON value as CEL sees it: declared fields escaped, free-form map keys kept."""
    if isinstance(value, Mapping):
        properties = _subschema(schema, "properties")
        if properties:
            escaped: dict[str, Any] = {}
            for name, item in value.items():
                identifier = escape_property_name(name)
                if identifier is not None:
                    escaped[identifier] = to_cel_data(item, _subschema(properties, name))
            return escaped
        entries = _subschema(schema, "additionalProperties")
        return {name: to_cel_data(item, entries) for name, item in value.items()}
    if isinstance(value, list):
        items = _subschema(schema, "items")
        return [to_cel_data(item, items) for item in value]
    return value


# --------------------------------------------------------------------------- rule index


def self_paths(*expressions: str | None) -> SelfPaths | None:
    """The field chains of `self` the expressions read, or None when one reads `self` as a whole.

    A chain ending in a call (`self.spec.modelSources.all(...)`, `.size()`) keeps the value before
    the call whole; `size(self)`, `self[...]`, `self.?x` or a bare `self` disable the projection.
    """
    paths: list[tuple[str, ...]] = []
    for expression in expressions:
        if not expression:
            continue
        for match in _SELF_CHAIN.finditer(expression):
            steps = tuple(match.group(1).split(".")[1:])
            if match.end() < len(expression) and expression[match.end()] == "(":
                steps = steps[:-1]
            if not steps:
                return None
            paths.append(steps)
    return tuple(paths)


def _trie(paths: SelfPaths) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path in paths:
        node = root
        for step in path[:-1]:
            existing = node.setdefault(step, {})
            if existing == _WHOLE:
                break
            node = existing
        else:
            node[path[-1]] = _WHOLE
    return root


def _projected_cel_data(value: Any, schema: Mapping[str, Any], trie: Mapping[str, Any] | str) -> Any:
    """`to_cel_data(value, schema)` cut down to the fields `trie` reads, converting only those.

    The trie names fields as CEL sees them (escaped where the schema declares properties).
    """
    if trie == _WHOLE or not isinstance(value, Mapping) or not isinstance(trie, Mapping):
        return to_cel_data(value, schema)
    properties = _subschema(schema, "properties")
    if properties:
        out: dict[str, Any] = {}
        for name, item in value.items():
            identifier = escape_property_name(name)
            if identifier is not None and identifier in trie:
                out[identifier] = _projected_cel_data(item, _subschema(properties, name), trie[identifier])
        return out
    entries = _subschema(schema, "additionalProperties")
    return {
        name: _projected_cel_data(value[name], entries, sub) for name, sub in trie.items() if name in value
    }


@dataclass(frozen=True)
class CelRule:
    """One `x-kubernetes-validations` entry."""

    expression: str
    message: str | None = None
    message_expression: str | None = None
    field_path: str = ""

    @functools.cached_property
    def reads(self) -> Mapping[str, Any] | None:
        """The fields of `self` the rule and its message read (a trie), or None for all of `self`."""
        paths = self_paths(self.expression, self.message_expression)
        return None if paths is None else _trie(paths)

    @property
    def is_transition_rule(self) -> bool:
        return _OLD_SELF.search(self.expression) is not None


@dataclass(frozen=True)
class RuleNode:
    """A schema node on the way to CEL rules: its own rules and the children that lead to more."""

    schema: Mapping[str, Any]
    rules: tuple[CelRule, ...] = ()
    properties: Mapping[str, RuleNode] = field(default_factory=dict)
    entries: RuleNode | None = None
    items: RuleNode | None = None


def create_expression(entry: Mapping[str, Any]) -> str | None:
    """The expression a rule runs on create, or None when it runs only on update.

    A rule reading `oldSelf` is a transition rule; with `optionalOldSelf` the API server also runs
    it on create, `oldSelf` being an empty optional. CEL's `false && x` is false whatever `x` is, so
    `oldSelf.hasValue()` written as `false` leaves every `oldSelf.value()` behind it unevaluated.
    """
    expression = str(entry["rule"])
    if not _OLD_SELF.search(expression):
        return expression
    if entry.get("optionalOldSelf") is not True:
        return None
    return _OLD_SELF_PRESENT.sub("false", expression)


def _rules_of(schema: Mapping[str, Any]) -> tuple[CelRule, ...]:
    rules = []
    for entry in schema.get("x-kubernetes-validations") or []:
        expression = create_expression(entry)
        if expression is None:
            continue
        rule = CelRule(
            expression=expression,
            message=entry.get("message"),
            message_expression=entry.get("messageExpression"),
            field_path=entry.get("fieldPath", ""),
        )
        rules.append(rule)
    return tuple(rules)


def build_rule_index(schema: object) -> RuleNode | None:
    """The part of a schema that carries CEL rules, or None when it has none."""
    if not isinstance(schema, Mapping) or not schema:
        return None
    properties = {
        name: node
        for name, sub in _subschema(schema, "properties").items()
        if (node := build_rule_index(sub)) is not None
    }
    entries = build_rule_index(schema.get("additionalProperties"))
    items = build_rule_index(schema.get("items"))
    rules = _rules_of(schema)
    if not (rules or properties or entries or items):
        return None
    return RuleNode(schema=schema, rules=rules, properties=properties, entries=entries, items=items)


# --------------------------------------------------------------------------- evaluation


class CelEvaluationError(Exception):
    """A rule that could not produce a boolean for this value (the API server reports these too)."""


@functools.cache
def _environment() -> Any:
    install_cached_parser()  # the parser's tables from the user's cache: 0.2 s less per program run
    return celpy.Environment()


@functools.cache
def compiled(expression: str) -> Any:
    """The cel-python program for an expression, compiled on first use."""
    environment = _environment()
    return environment.program(environment.compile(expression))


def _evaluate(expression: str, self_value: Any) -> Any:
    try:
        result = compiled(expression).evaluate({"self": json_to_cel(self_value)})
    except Exception as error:  # cel-python raises CELEvalError and plain TypeErrors alike
        raise CelEvaluationError(str(error)) from error
    if isinstance(result, Exception):
        raise CelEvaluationError(str(result))
    return result


@functools.lru_cache(maxsize=_OUTCOME_CACHE_SIZE)
def _rule_outcome(expression: str, self_json: str) -> bool | str:
    """True/False, or the evaluation error text; keyed by the canonical JSON of `self`."""
    try:
        result = _evaluate(expression, json.loads(self_json))
    except CelEvaluationError as error:
        return str(error)
    if not isinstance(result, bool | celpy.celtypes.BoolType):
        return f"the rule returned {type(result).__name__}, not a bool"
    return bool(result)


@functools.lru_cache(maxsize=_OUTCOME_CACHE_SIZE)
def _custom_message(expression: str, self_json: str) -> str | None:
    try:
        result = _evaluate(expression, json.loads(self_json))
    except CelEvaluationError:
        return None
    return str(result) if isinstance(result, str) and result else None


def _failure_message(rule: CelRule, self_json: str) -> str:
    if rule.message_expression:
        custom = _custom_message(rule.message_expression, self_json)
        if custom is not None:
            return custom
    return rule.message or f"failed rule: {rule.expression}"


def _check_rules(node: RuleNode, value: Any, path: str, report_evaluation_errors: bool) -> list[str]:
    errors: list[str] = []
    whole: list[Any] = []  # converted once, and only if a rule reads `self` as a whole
    for rule in node.rules:
        reads = rule.reads
        if reads is None:
            if not whole:
                whole.append(to_cel_data(value, node.schema))
            data = whole[0]
        else:
            data = _projected_cel_data(value, node.schema, reads)
        # default=str only matters for values the schema already rejected (e.g. YAML timestamps).
        self_json = json.dumps(
            data,
            sort_keys=True,
            separators=(",", ":"),
            default=str,
        )
        where = (path + rule.field_path).lstrip(".") or "."
        outcome = _rule_outcome(rule.expression, self_json)
        if isinstance(outcome, str):
            if report_evaluation_errors:
                errors.append(
                    f"{where}: Invalid value: rule could not be evaluated ({outcome}): {rule.expression} "
                    f"{CEL_TAG}"
                )
        elif not outcome:
            errors.append(f"{where}: Invalid value: {_failure_message(rule, self_json)} {CEL_TAG}")
    return errors


def cel_errors(
    value: Any, node: RuleNode | None, path: str = "", *, report_evaluation_errors: bool = True
) -> list[str]:
    """Every failed rule under `node` for `value` (already defaulted), in a stable order.

    Evaluation errors are worth reporting on a schema-valid object; on one the schema already
    rejected, they are mostly the type errors the schema just named, so the caller can mute them.
    """
    if node is None or value is None:
        return []
    errors = _check_rules(node, value, path, report_evaluation_errors) if node.rules else []
    if isinstance(value, Mapping):
        for name in sorted(value):
            sub = node.properties.get(name)
            if sub is not None:
                errors += cel_errors(
                    value[name], sub, child(path, name), report_evaluation_errors=report_evaluation_errors
                )
            elif node.entries is not None and name not in _subschema(node.schema, "properties"):
                errors += cel_errors(
                    value[name],
                    node.entries,
                    child(path, MapKey(name)),
                    report_evaluation_errors=report_evaluation_errors,
                )
    elif isinstance(value, list) and node.items is not None:
        for index, item in enumerate(value):
            errors += cel_errors(
                item, node.items, child(path, index), report_evaluation_errors=report_evaluation_errors
            )
    return errors
