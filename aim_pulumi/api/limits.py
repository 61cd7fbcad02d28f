"""Bounds on user input, so hostile manifests end in a clean error instead of a hang or a crash.

Scalars are read as Kubernetes reads them (go-yaml v2's rules, `aim_pulumi.api.goyaml`), not as
PyYAML's YAML 1.1 would: `replicas: 1:30` is the string "1:30" to the cluster, never 90.

A YAML file is parsed into a node graph first; that graph is checked before any Python value is
built from it, because aliases make the graph small and its expansion huge ("billion laughs"), and
a self-referencing alias makes it infinite. libyaml parses a catalog of thousands of documents
several times faster than PyYAML's Python parser, so a file is read with it when PyYAML has it and
the file is within the bounds; any file it does not read cleanly is read again by the Python
parser, whose errors (and line numbers) are the ones reported.

The same value checks (depth, lone surrogates, integer range) apply to manifests handed to the
Python API as dicts, walked iteratively so that depth can never exhaust the interpreter's stack.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import yaml

from aim_pulumi.api.errors import AIMValidationError, join_path
from aim_pulumi.api.goyaml import INT_TAG, GoYamlConstruction, integer_too_long

# A Kubernetes object is a few kilobytes and a dozen levels deep; these leave room for any real
# catalog file while keeping the worst case to well under a second and a few megabytes.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 200_000
# Kubernetes integer fields are int32 or int64; nothing beyond int64 can reach a child.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


# What the resource layer puts in place of a Pulumi Output while planning: a value unknown until
# deploy time, so syntax rules cannot judge it (the API server will, once it is known).
UNRESOLVED_VALUE = re.compile(r"__AIM_OUTPUT_[0-9]+_[A-Za-z0-9.~-]+__")


def _lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class BoundedLoader(GoYamlConstruction, yaml.SafeLoader):
    """Safe YAML with bounded depth, its scalars read as Kubernetes reads them (no dates, no `1:30`)."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        # The composer recurses once per nesting level: bound it before Python's stack is.
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise AIMValidationError(
                    "(root)",
                    "InputTooLarge",
                    f"nesting deeper than {MAX_DEPTH} levels at line {mark.line + 1}",
                    line=mark.line + 1,
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_LIBYAML: Any = getattr(yaml, "CSafeLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
if _LIBYAML is not None:

    class _LibyamlLoader(GoYamlConstruction, _LIBYAML):  # type: ignore[misc]
        """libyaml's parser and composer, with the resolver and constructors of `BoundedLoader`."""


# Text where the two parsers are known to disagree: libyaml accepts a tab in places (inside a plain
# scalar, before a value) where PyYAML's Python scanner refuses it. Flow collections (`[n?ull]`)
# are the other place; libyaml's events say whether a text has one (`_libyaml_may_read`), so a
# `{` or `[` inside a block-style scalar (`pathTemplate: /{.metadata.namespace}`) costs nothing.
_PYTHON_PARSER_ONLY = ("\t",)
# A block scalar header run into a comment (`|#x`, `>-#x`): libyaml reads it, the Python scanner
# refuses it (a comment needs a space before it).
_HEADER_INTO_COMMENT = re.compile(r"[|>][-+0-9]*#")


def _python_parser_only(text: str) -> bool:
    return any(character in text for character in _PYTHON_PARSER_ONLY) or bool(
        _HEADER_INTO_COMMENT.search(text)
    )


_OPENING = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSING = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _key_text(node: yaml.Node) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else "<complex key>"


def check_node(root: yaml.Node) -> None:
    """Refuse a composed document that is cyclic, expands too far, repeats a key or holds bad text.

    Expansion counts a node once per place it appears (aliases included), memoised per node, so
    the walk itself stays linear in the size of the file.
    """
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    # Iterative post-order walk: (node, path, children-pushed?)
    stack: list[tuple[yaml.Node, str, bool]] = [(root, "", False)]
    while stack:
        node, path, expanded = stack.pop()
        key = id(node)
        if expanded:
            on_path.discard(key)
            size = 1
            for child in _children(node):
                size += sizes[id(child)]
            if size > MAX_NODES:
                raise AIMValidationError(
                    path or "(root)",
                    "InputTooLarge",
                    f"the document expands to more than {MAX_NODES} values (aliases included) "
                    f"at line {node.start_mark.line + 1}",
                    line=node.start_mark.line + 1,
                )
            sizes[key] = size
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise AIMValidationError(
                path or "(root)",
                "InvalidSpec",
                f"cyclic alias at line {node.start_mark.line + 1}: a node contains itself",
                line=node.start_mark.line + 1,
            )
        if isinstance(node, yaml.ScalarNode):
            if node.tag == INT_TAG and integer_too_long(node.value):
                raise AIMValidationError(
                    path or "(root)",
                    "InvalidSpec",
                    f"integer out of range at line {node.start_mark.line + 1} "
                    "(Kubernetes integers are at most 64-bit)",
                    line=node.start_mark.line + 1,
                )
            if isinstance(node.value, str) and _lone_surrogate(node.value):
                raise AIMValidationError(
                    path or "(root)",
                    "InvalidSpec",
                    f"a lone surrogate is not valid text (line {node.start_mark.line + 1})",
                    line=node.start_mark.line + 1,
                )
            sizes[key] = 1
            continue
        on_path.add(key)
        stack.append((node, path, True))
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key_node, value_node in node.value:
                name = _key_text(key_node)
                line = key_node.start_mark.line + 1
                if isinstance(key_node, yaml.ScalarNode) and name != "<<":
                    if name in seen:
                        raise AIMValidationError(
                            join_path(path, name),
                            "InvalidSpec",
                            f"duplicate key {name!r} at line {line} (first at line {seen[name]})",
                            line=line,
                        )
                    seen[name] = line
                stack.append((key_node, path, False))
                stack.append((value_node, join_path(path, name), False))
        elif isinstance(node, yaml.SequenceNode):
            for position, item in enumerate(node.value):
                stack.append((item, join_path(path, position) if path else f"[{position}]", False))


def _children(node: yaml.Node) -> Iterator[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            yield key_node
            yield value_node
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def _libyaml_may_read(text: str) -> bool:
    """Whether libyaml's events show a text it reads as the Python parser does.

    Where they disagree is plain scalars and aliases inside flow collections (`[n?ull]`), so a
    flow collection may hold only quoted scalars and other such collections (`match: ["a/*"]`,
    `labels: {}`). libyaml's composer recurses in C, where no recursion limit applies, so the
    nesting bound is checked here too.
    """
    depth = 0
    flow = 0  # open flow collections
    for event in yaml.parse(text, Loader=_LIBYAML):
        if isinstance(event, _OPENING):
            flow += bool(flow or event.flow_style)
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif isinstance(event, _CLOSING):
            depth -= 1
            flow -= bool(flow)
        elif flow and (isinstance(event, yaml.AliasEvent) or not getattr(event, "style", None)):
            return False
    return True


def _libyaml_documents(text: str) -> list[Any] | None:
    """Every document of `text` read by libyaml and checked, or None: the Python parser decides."""
    if _LIBYAML is None or _python_parser_only(text):
        return None
    try:
        if not _libyaml_may_read(text):
            return None
        documents: list[Any] = []
        loader = _LibyamlLoader(text)
        try:
            while loader.check_node():
                node = loader.get_node()
                if node is not None:
                    check_node(node)
                documents.append(None if node is None else loader.construct_document(node))
        finally:
            loader.dispose()
    except Exception:  # any failure is judged, and reported, by the Python parser
        return None
    return documents


def load_yaml_documents(text: str) -> Iterator[Any]:
    """Every document of a YAML text (None for empty ones), each checked before it is built.

    Raises AIMValidationError (`InputTooLarge`, `InvalidSpec`) for a bound it breaks and lets
    `yaml.YAMLError` through for syntax errors.
    """
    if len(text) > MAX_FILE_BYTES:
        raise AIMValidationError(
            "(root)", "InputTooLarge", f"the input is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB"
        )
    fast = _libyaml_documents(text)
    if fast is not None:
        yield from fast
        return
    yield from _python_documents(text)


def yaml_error_line(error: yaml.YAMLError, text: str) -> int | None:
    """The 1-based line of `text` a YAML error points at, when it points anywhere."""
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        return None if mark is None else mark.line + 1
    if isinstance(error, yaml.reader.ReaderError):  # a character the reader refuses, by position
        return text.count("\n", 0, error.position) + 1
    return None


def _libyaml_composes(text: str) -> bool:
    if _LIBYAML is None or _python_parser_only(text):
        return False
    try:
        return _libyaml_may_read(text)
    except yaml.YAMLError:
        return False


def compose_documents(text: str) -> Iterator[yaml.Node | None]:
    """The node graph of every document of `text`, in order: where each key and item was written.

    For finding the line of a field in a text `load_yaml_documents` has read; nothing is built,
    so no value bound applies beyond the nesting one. libyaml composes when it could have read
    the text (its lines are the Python parser's), which matters for a large catalog; a document
    that does not compose raises the parser's error.
    """
    loader = _LibyamlLoader(text) if _libyaml_composes(text) else BoundedLoader(text)
    try:
        while loader.check_node():
            yield loader.get_node()
    finally:
        loader.dispose()


def _python_documents(text: str) -> Iterator[Any]:
    """PyYAML's own parser: the reference reading, and the one whose errors are reported."""
    loader = BoundedLoader(text)
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                yield None
                continue
            check_node(node)
            yield loader.construct_document(node)
    finally:
        loader.dispose()


# How `value_problem` reached a value: (how it reached the parent, key or index), None at the root.
_Steps = tuple[Any, str | int] | None


def _path(where: str, steps: _Steps) -> str:
    """The dotted path of a value `value_problem` reached, built only when it reports one."""
    parts: list[str | int] = []
    while steps is not None:
        steps, part = steps
        parts.append(part)
    return join_path(where, *reversed(parts))


_INT_RANGE = "integer out of range (Kubernetes integers are at most 64-bit)"


def _problem(where: str, steps: _Steps, reason: str, message: str) -> AIMValidationError:
    return AIMValidationError(_path(where, steps) or "(root)", reason, message)


def value_problem(value: Any, path: str = "") -> AIMValidationError | None:
    """The first bound a Python value breaks (too deep, lone surrogate, integer beyond int64).

    Used for manifests that never went through YAML (the Python API), walked iteratively. Every
    catalog object and service passes here, so the walk keeps only how it reached each value and
    spells out a path for the one it reports; ASCII text cannot hold a surrogate.
    """
    seen: set[int] = set()
    stack: list[tuple[Any, _Steps, int]] = [(value, None, 0)]
    while stack:
        item, steps, depth = stack.pop()
        if depth > MAX_DEPTH:
            return _problem(path, steps, "InputTooLarge", f"nesting deeper than {MAX_DEPTH} levels")
        kind = type(item)
        if kind is bool or kind is float or item is None:
            continue
        # Exact types first: the abstract `Mapping` check is the slow one, and rarely needed.
        if kind is str or (kind is not dict and kind is not list and isinstance(item, str)):
            if not item.isascii() and _lone_surrogate(item):
                return _problem(path, steps, "InvalidSpec", "a lone surrogate is not valid text")
        elif kind is int or (kind is not dict and kind is not list and isinstance(item, int)):
            if not isinstance(item, bool) and not INT64_MIN <= item <= INT64_MAX:
                return _problem(path, steps, "InvalidSpec", _INT_RANGE)
        elif kind is dict or kind is list or isinstance(item, Mapping | list | tuple):
            if id(item) in seen:
                # Shared (aliased) values are fine; a value that contains itself is not.
                if _contains(item, item):
                    return _problem(path, steps, "InvalidSpec", "a value contains itself")
                continue
            seen.add(id(item))
            if kind is dict or (kind is not list and isinstance(item, Mapping)):
                for key, child in item.items():
                    if isinstance(key, str) and not key.isascii() and _lone_surrogate(key):
                        return _problem(path, steps, "InvalidSpec", "a lone surrogate is not valid text")
                    stack.append((child, (steps, str(key)), depth + 1))
            else:
                for position, child in enumerate(item):
                    stack.append((child, (steps, position), depth + 1))
    return None


def _contains(container: Any, target: Any) -> bool:
    """Whether `target` is reachable from the children of `container` (bounded by MAX_DEPTH)."""
    stack: list[tuple[Any, int]] = [(c, 1) for c in _values(container)]
    visited: set[int] = set()
    while stack:
        item, depth = stack.pop()
        if item is target:
            return True
        if depth > MAX_DEPTH or id(item) in visited or not isinstance(item, Mapping | list | tuple):
            continue
        visited.add(id(item))
        stack.extend((c, depth + 1) for c in _values(item))
    return False


def _values(item: Any) -> list[Any]:
    if isinstance(item, Mapping):
        return list(item.values())
    if isinstance(item, list | tuple):
        return list(item)
    return []
