"""Where a field was written: the line of its key in the YAML text.

A problem names a field path (`spec.env[0].name`; a schema path spells free-form map keys in
brackets, `metadata.labels[example.com/team]`). A person fixes it in an editor, where the start of
the document is no help when the key is on line 15, so the path is followed through the
document's node graph as far as it exists and the line is that of the deepest key or list item
reached: `spec.replicas` is the line of `replicas:`, `spec.env[1]` the line of the second item, a
missing required field the line of the key holding the mapping that lacks it, and a problem about
the whole document (`(root)`) its first line. Keys may contain dots (label keys do), so each step
takes the longest key of the mapping that the rest of the path starts with.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import yaml

from aim_pulumi.api.goyaml import mapping_entries
from aim_pulumi.api.limits import compose_documents

_WHOLE_DOCUMENT = frozenset({"", "(root)", "."})
_INDEX = re.compile(r"\[([0-9]+)\]")


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _rest(path: str, consumed: int) -> str:
    rest = path[consumed:]
    return rest[1:] if rest.startswith(".") else rest


def _step(node: yaml.Node, path: str) -> tuple[yaml.Node, int, str] | None:
    """The child `path` starts with, the line it was written on, and what is left of the path."""
    if isinstance(node, yaml.SequenceNode):
        index = _INDEX.match(path)
        if index is None or int(index.group(1)) >= len(node.value):
            return None
        item = node.value[int(index.group(1))]
        return item, _line(item), _rest(path, index.end())
    if not isinstance(node, yaml.MappingNode):
        return None
    try:
        entries = mapping_entries(node)  # merged keys too; the last of equal keys is the one read
    except yaml.YAMLError:
        entries = list(node.value)
    best: tuple[int, yaml.Node, yaml.Node] | None = None
    for key, value in entries:
        if not isinstance(key, yaml.ScalarNode):
            continue
        text = str(key.value)
        if path == text or path.startswith((text + ".", text + "[")):
            consumed = len(text)
        elif path.startswith(f"[{text}]"):
            consumed = len(text) + 2
        else:
            continue
        if best is None or consumed >= best[0]:
            best = (consumed, key, value)
    if best is None:
        return None
    consumed, key, value = best
    return value, _line(key), _rest(path, consumed)


def field_line(document: yaml.Node, field: str) -> int:
    """The line of the deepest node of `document` along the field path `field` (1-based)."""
    node, line = document, _line(document)
    path = "" if field in _WHOLE_DOCUMENT else field
    while path:
        step = _step(node, path)
        if step is None:
            break
        node, line, path = step
    return line


class DocumentLines:
    """The lines of fields in the documents of one YAML text, composed once and only when asked."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._documents: list[yaml.Node | None] = []
        self._composer: Iterator[yaml.Node | None] | None = None
        self._exhausted = False

    def _document(self, number: int) -> yaml.Node | None:
        if self._composer is None:
            self._composer = compose_documents(self._text)
        while len(self._documents) < number and not self._exhausted:
            try:
                self._documents.append(next(self._composer))
            except (StopIteration, yaml.YAMLError, ValueError):
                # The text was read up to the document asked for; an error beyond it is no concern.
                self._exhausted = True
        return self._documents[number - 1] if 0 < number <= len(self._documents) else None

    def line(self, document: int, field: str) -> int | None:
        """The line of `field` in the `document`-th document (1-based, empty ones counted), if it composes."""
        node = self._document(document)
        return None if node is None else field_line(node, field)


def config_key_line(text: str, key: str) -> int | None:
    """The line of `key` in the `config:` mapping of a Pulumi.yaml or Pulumi.<stack>.yaml text, or
    None when the text does not set it (or does not compose): where a stack setting is written."""
    try:
        document = next(iter(compose_documents(text)), None)
    except (yaml.YAMLError, ValueError):
        return None
    if not isinstance(document, yaml.MappingNode):
        return None
    for name, value in document.value:
        if (
            isinstance(name, yaml.ScalarNode)
            and name.value == "config"
            and isinstance(value, yaml.MappingNode)
        ):
            for entry, _ in value.value:
                if isinstance(entry, yaml.ScalarNode) and entry.value == key:
                    return _line(entry)
    return None
