"""Field paths written the way the Kubernetes API server writes them in its errors.

Struct fields are joined with dots, list indexes and map keys go in brackets:
`spec.template.spec.containers[0].resources.limits[memory]`. Keeping map keys bracketed keeps
keys that contain dots or slashes (`amd.com/gpu`, `app.kubernetes.io/name`) unambiguous.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ROOT = ""


@dataclass(frozen=True)
class MapKey:
    """A path step that is a key of a free-form map rather than a declared field."""

    key: str


PathStep = str | int | MapKey


def child(path: str, step: PathStep) -> str:
    """Extend a formatted path by one field, index or map key."""
    if isinstance(step, MapKey):
        return f"{path}[{step.key}]"
    if isinstance(step, int):
        return f"{path}[{step}]"
    return f"{path}.{step}" if path else step


def format_path(steps: Iterable[PathStep]) -> str:
    """Join steps into a path; the empty path (the whole object) is shown as "."."""
    path = ROOT
    for step in steps:
        path = child(path, step)
    return path or "."


# Schema keywords after which jsonschema descends into an instance member.
_FIELD_KEYWORDS = frozenset({"properties", "patternProperties"})
_MAP_KEYWORD = "additionalProperties"
_ITEM_KEYWORDS = frozenset({"items", "additionalItems"})
_INDEXED_ITEM_KEYWORD = "prefixItems"


def _member_kinds(schema_path: Sequence[str | int]) -> list[bool]:
    """For each member step a schema path descends through: True when it is a map key.

    The last token of a schema path is the failing keyword itself, not a descent, so it is
    ignored; `$ref` hops do not appear in jsonschema's schema paths.
    """
    kinds: list[bool] = []
    tokens = list(schema_path)[:-1]
    position = 0
    while position < len(tokens):
        token = tokens[position]
        if token in _FIELD_KEYWORDS or token == _INDEXED_ITEM_KEYWORD:
            kinds.append(False)
            position += 2
            continue
        if token == _MAP_KEYWORD:
            kinds.append(True)
        elif token in _ITEM_KEYWORDS:
            kinds.append(False)
        position += 1
    return kinds


def steps_from_schema_error(
    instance_path: Sequence[str | int], schema_path: Sequence[str | int]
) -> list[PathStep]:
    """Turn a jsonschema error location into path steps, telling map keys from field names."""
    kinds = _member_kinds(schema_path)
    steps: list[PathStep] = []
    for position, part in enumerate(instance_path):
        is_map_key = kinds[position] if position < len(kinds) else False
        if isinstance(part, str) and is_map_key:
            steps.append(MapKey(part))
        else:
            steps.append(part)
    return steps
