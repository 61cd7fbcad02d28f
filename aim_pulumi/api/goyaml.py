"""Plain YAML scalars and merge keys as Kubernetes reads them: go-yaml v2's rules, written by hand.

This module is hand-written because PyYAML's resolvers disagree with the Go reader users rely on.
kubectl and the API server read YAML with sigs.k8s.io/yaml, which decodes with its vendored fork of
gopkg.in/yaml.v2 (`goyaml.v2/resolve.go`, `resolve()`). That reader is neither YAML 1.2 nor
PyYAML's YAML 1.1: PyYAML reads `replicas: 1:30` as 90 (a base-60 integer) and `y`, `0o17`,
`1e3` as strings, where Kubernetes reads the string "1:30", True, 15 and 1000.0. A manifest must mean
here what it means to the cluster, so the loaders of `aim_pulumi.api.limits` resolve plain scalars
with `resolve_plain` and construct the scalar tags with `GoYamlConstruction`. Both YAML parsers
(libyaml and PyYAML's own) call the same resolver and constructors, so they cannot disagree on a
scalar.

A plain (unquoted, untagged) scalar is, in go-yaml v2's order (its first character picks the
candidates: a sign or digit, one of `yYnNtTfFoO~`, or `.`; any other first character is a string):

- null: the empty scalar, `~`, `null`, `Null`, `NULL`;
- bool: `y Y yes Yes YES on On ON true True TRUE` and `n N no No NO off Off OFF false False FALSE`
  (not `yES`, not `tRUE`);
- float: `.inf .Inf .INF` (also with `+` or `-`), `.nan .NaN .NAN`, and text starting with `.`
  that Go's `strconv.ParseFloat` reads as a finite number (`.5`, `.5e3`, `.5_5`; underscores
  only between digits);
- int: text starting with a sign or digit that Go's `strconv.ParseInt(s, 0, 64)` reads once every
  `_` is removed: decimal, `0x`/`0X` hexadecimal, `0o`/`0O` octal, `0b`/`0B` binary, and a
  leading `0` meaning octal (`017` is 15, `0x_1F` is 31, `1_000` is 1000, `+12` is 12, `-0x1F`
  is -31); go-yaml's own `0b` branch also reads `0b` followed by a signed binary number
  (`0b-101` is -5). Its `-0b` branch reads nothing the base-0 parse has not read already;
- float: text matching go-yaml's `yamlStyleFloat`,
  `^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$`, once every `_` is removed, when it
  is finite: `1.` is 1.0, `1e3` is 1000.0, and `08` (no octal number) is 8.0;
- a string otherwise: no base-60 numbers (`1:30`), no `=` value key; `1e` and `0x` are strings.
  Dates: go-yaml resolves `2024-01-01` as a timestamp, but an untyped decoder (sigs.k8s.io/yaml
  decodes into `interface{}`) receives the text, so unquoted dates are strings here.

Decisions, where go-yaml was ambiguous for this project or where the project departs from it:

- Integers beyond int64. go-yaml reads text in integer syntax up to 2^64-1 as uint64, then a
  decimal one as the nearest float (`99999999999999999999` is 1e20) and a hexadecimal, octal or
  binary one as a string. The API server refuses all of these in every integer field, so the
  project keeps its own refusal instead: any text in Go's integer syntax is an integer, and one
  beyond int64 is refused as out of range (`aim_pulumi.api.limits`), naming the field, where
  go-yaml would hand the API server a float or a string that it refuses less clearly. The one
  place this is stricter than the cluster is an unquoted over-long hexadecimal, octal or binary
  number in a string field (go-yaml's string); quoting it says what is meant.
- Floats beyond float64 (`1e400`): go-yaml's `ParseFloat` fails with a range error and the scalar
  is the string "1e400"; followed. An underflow (`1e-400`) is 0.0 in both.
- Merge keys (`<<`). go-yaml v2 merges a plain `<<` key whose value is a mapping, an alias of one,
  or a sequence of them, writing the merged entries into the mapping where the `<<` key stands:
  keys written before it are overwritten by merged values, keys after it win, and of a sequence of
  mappings the first wins. PyYAML lets every explicit key win wherever it stands; go-yaml's order
  is followed. A quoted `"<<"` is an ordinary key in both; `<<` as a value is the string "<<".
- Keys are resolved like values, as go-yaml does. sigs.k8s.io/yaml then spells non-string keys as
  strings (`on:` becomes "true", `1:` becomes "1"); that is not followed: keys stay as resolved, so
  a bool or number where a name is expected is refused rather than silently renamed.
- The non-specific tag `!` (`! 12`): go-yaml v2 keeps the text (its `resolve` leaves a tag it
  does not know alone), but both Python parsers report such a scalar exactly as a plain one, so
  it resolves as plain here (12). Nobody writes it in a manifest.
- Explicit tags: `!!int`, `!!float` and `!!bool` take what the plain rules read as that type
  (`!!float` also an integer, made a float) and refuse anything else, as go-yaml does
  (`!!int 1:30` is an error); `!!str` is text; other tags keep PyYAML's constructors (`!!null` is
  None, `!!timestamp` a datetime, `!!binary` bytes), which every typed field refuses.
"""

from __future__ import annotations

import math
import re
from itertools import chain
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

NULL_TAG = "tag:yaml.org,2002:null"
BOOL_TAG = "tag:yaml.org,2002:bool"
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
STR_TAG = "tag:yaml.org,2002:str"
MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"

# go-yaml's `resolveMap`: whole scalars read without parsing.
_KNOWN: dict[str, tuple[str, Any]] = {
    **dict.fromkeys(
        ("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), (BOOL_TAG, True)
    ),
    **dict.fromkeys(
        ("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), (BOOL_TAG, False)
    ),
    **dict.fromkeys(("", "~", "null", "Null", "NULL"), (NULL_TAG, None)),
    **dict.fromkeys((".nan", ".NaN", ".NAN"), (FLOAT_TAG, math.nan)),
    **dict.fromkeys((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), (FLOAT_TAG, math.inf)),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), (FLOAT_TAG, -math.inf)),
}

# go-yaml's `resolveTable`: what the first character makes a scalar a candidate for.
_NUMBER, _KNOWN_ONLY, _DOT = "number", "known", "dot"
_HINT: dict[str, str] = {
    **dict.fromkeys("+-0123456789", _NUMBER),
    **dict.fromkeys("yYnNtTfFoO~", _KNOWN_ONLY),
    ".": _DOT,
}

_YAML_STYLE_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
# What Go's ParseFloat reads of a text starting with `.`: digits, with `_` only between digits.
_DOT_FLOAT = re.compile(r"\.[0-9]+(_[0-9]+)*([eE][-+]?[0-9]+(_[0-9]+)*)?")
_DIGITS = {
    2: frozenset("01"),
    8: frozenset("01234567"),
    10: frozenset("0123456789"),
    16: frozenset("0123456789abcdefABCDEF"),
}
_PREFIX_BASE = {"b": 2, "B": 2, "o": 8, "O": 8, "x": 16, "X": 16}
# More significant digits than any 64-bit integer has in any base (64 binary digits at most):
# such a text is out of range without converting it, which for long decimals is slow.
_MAX_SIGNIFICANT_DIGITS = 64


def _go_integer(text: str) -> tuple[int, int, str] | None:
    """(sign, base, digits) of `text` when Go's `strconv.ParseInt(text, 0, ...)` syntax admits it.

    Base 0: an optional sign, then `0x`/`0o`/`0b` (either case) with at least one digit after
    it, or a leading `0` meaning octal, or decimal. Range is not judged here.
    """
    sign = 1
    body = text
    if body[:1] in ("+", "-"):
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    if not body:
        return None
    base = 10
    if body[0] == "0":
        if len(body) >= 3 and body[1] in _PREFIX_BASE:
            base, body = _PREFIX_BASE[body[1]], body[2:]
        else:
            base, body = 8, body[1:]  # "0" itself leaves no digits: zero
    allowed = _DIGITS[base]
    if not all(character in allowed for character in body):
        return None
    return sign, base, body


def _go_yaml_binary(plain: str) -> tuple[int, int, str] | None:
    """go-yaml's explicit `0b` branch: `0b` and a binary number with its own sign (`0b-101`)."""
    if not plain.startswith("0b") or plain[2:3] not in ("+", "-"):
        return None
    digits = plain[3:]
    if not digits or not all(character in _DIGITS[2] for character in digits):
        return None
    return (-1 if plain[2] == "-" else 1), 2, digits


def _integer_parts(text: str) -> tuple[int, int, str] | None:
    """How go-yaml reads `text` as an integer: only text starting with a sign or digit is tried."""
    if _HINT.get(text[:1]) != _NUMBER:
        return None
    plain = text.replace("_", "")
    return _go_integer(plain) or _go_yaml_binary(plain)


def _finite_float(text: str) -> float | None:
    value = float(text)
    return value if math.isfinite(value) else None


def resolve_plain(text: str) -> str:
    """The tag go-yaml v2 resolves a plain scalar to (null, bool, int, float, merge or str)."""
    if text == "<<":
        return MERGE_TAG  # a merge key where it is a key (go-yaml's `isMerge`), else the text
    hint = _HINT.get(text[:1]) if text else _KNOWN_ONLY
    if hint is None:
        return STR_TAG
    known = _KNOWN.get(text)
    if known is not None:
        return known[0]
    if hint == _DOT:
        if _DOT_FLOAT.fullmatch(text) and _finite_float(text.replace("_", "")) is not None:
            return FLOAT_TAG
    elif hint == _NUMBER:
        if _integer_parts(text) is not None:
            return INT_TAG
        plain = text.replace("_", "")
        if _YAML_STYLE_FLOAT.fullmatch(plain) and _finite_float(plain) is not None:
            return FLOAT_TAG
    return STR_TAG


def integer_too_long(text: str) -> bool:
    """Whether an integer's text has more significant digits than any 64-bit integer.

    Checked before the text is converted: converting a long decimal text is slow, and Python
    refuses beyond 4300 digits. Leading zeros and `_` separators do not count (Go reads
    `0_000_001` as 1).
    """
    parts = _integer_parts(text)
    return parts is not None and len(parts[2].lstrip("0")) > _MAX_SIGNIFICANT_DIGITS


def integer_value(text: str) -> int | None:
    """The integer go-yaml reads from `text` (any magnitude), or None when it reads none."""
    parts = _integer_parts(text)
    if parts is None:
        return None
    sign, base, digits = parts
    return sign * int(digits, base) if digits else 0


def float_value(text: str) -> float | None:
    """The float go-yaml reads from `text` (an integer text made a float), or None."""
    tag = resolve_plain(text)
    if tag == FLOAT_TAG:
        known = _KNOWN.get(text)
        return float(known[1]) if known is not None else float(text.replace("_", ""))
    if tag == INT_TAG:
        value = integer_value(text)
        return None if value is None else float(value)
    return None


def plain_value(text: str) -> Any:
    """The value go-yaml v2 reads from a plain scalar (what a loader here constructs from it)."""
    tag = resolve_plain(text)
    if tag == INT_TAG:
        return integer_value(text)
    if tag == FLOAT_TAG:
        return float_value(text)
    if tag in (NULL_TAG, BOOL_TAG):
        return _KNOWN[text][1]
    return text


def _short(tag: str) -> str:
    return "!!" + tag.rpartition(":")[2]


def _refused(node: yaml.ScalarNode, found: str) -> ConstructorError:
    return ConstructorError(
        None,
        None,
        f"cannot read {_short(found)} `{node.value}` as {_short(node.tag)}",
        node.start_mark,
    )


class GoYamlConstruction:
    """PyYAML's safe loading, with plain scalars and merge keys read as go-yaml v2 reads them.

    Mixed in before a safe PyYAML loader class (the Python one or libyaml's): both call `resolve`
    for every untagged scalar and build values with these constructors (the safe ones otherwise).
    """

    # Unused: `resolve` reads plain scalars itself; an empty table keeps PyYAML's from applying.
    yaml_implicit_resolvers: dict[Any, list[tuple[str, Any]]] = {}
    # PyYAML's safe constructors with the scalar tags read as go-yaml reads them (set below).
    yaml_constructors: dict[Any, Any]

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0]:
            return resolve_plain(value)
        return super().resolve(kind, value, implicit)  # type: ignore[misc]

    def construct_go_int(self, node: yaml.ScalarNode) -> int:
        value = integer_value(node.value)
        if value is None:
            raise _refused(node, resolve_plain(node.value))
        return value

    def construct_go_float(self, node: yaml.ScalarNode) -> float:
        value = float_value(node.value)
        if value is None:
            raise _refused(node, resolve_plain(node.value))
        return value

    def construct_go_bool(self, node: yaml.ScalarNode) -> bool:
        known = _KNOWN.get(node.value)
        if known is None or known[0] != BOOL_TAG:
            raise _refused(node, resolve_plain(node.value))
        return bool(known[1])

    def construct_go_text(self, node: yaml.ScalarNode) -> str:
        """`<<` where it merges nothing (a value, a list item) is the text, as in go-yaml."""
        return str(node.value)

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        """`node`'s entries with its merge keys replaced by what they merge, before it is built."""
        for key, _ in node.value:
            if key.tag == _VALUE_TAG:
                key.tag = STR_TAG  # as PyYAML reads an explicit `!!value` key
        node.value = mapping_entries(node)


def _merges(key: yaml.Node) -> bool:
    return isinstance(key, yaml.ScalarNode) and key.tag == MERGE_TAG and key.value == "<<"


def mapping_entries(node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
    """The (key, value) entries of a mapping node in go-yaml's order, merge keys replaced in place.

    Building a mapping from them, a later entry wins, as a later assignment does in go-yaml: a key
    written before a `<<` is overwritten by a merged value, one after it wins; of a sequence of
    merged mappings the first wins, so they are taken last to first. Walked with an explicit
    stack rather than recursion, like the other walks of user input.
    """
    if not any(_merges(key) for key, _ in node.value):
        return list(node.value)
    entries: list[tuple[yaml.Node, yaml.Node]] = []
    stack = [iter(node.value)]
    while stack:
        for key, value in stack[-1]:
            if _merges(key):
                stack.append(_merged_entries(node, value))
                break
            entries.append((key, value))
        else:
            stack.pop()
    return entries


def _merged_entries(mapping: yaml.MappingNode, value: yaml.Node) -> Any:
    if isinstance(value, yaml.MappingNode):
        return iter(value.value)
    if isinstance(value, yaml.SequenceNode) and all(
        isinstance(item, yaml.MappingNode) for item in value.value
    ):
        return chain.from_iterable(item.value for item in reversed(value.value))
    raise ConstructorError(
        "while constructing a mapping",
        mapping.start_mark,
        f"a merge key (<<) needs a mapping or a list of mappings, but found {getattr(value, 'id', 'a node')}",
        value.start_mark,
    )


GoYamlConstruction.yaml_constructors = {
    **SafeConstructor.yaml_constructors,
    INT_TAG: GoYamlConstruction.construct_go_int,
    FLOAT_TAG: GoYamlConstruction.construct_go_float,
    BOOL_TAG: GoYamlConstruction.construct_go_bool,
    MERGE_TAG: GoYamlConstruction.construct_go_text,
}
