"""The conventions of a plan document (`plan --json`): how a secret and an unknown value read in it,
and its loosely typed mappings. One place, read by the renderer and the plan diff alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SECRET", "UNKNOWN", "as_mapping"]

SECRET = "[secret]"
UNKNOWN = "[unknown]"


def as_mapping(value: Any) -> Mapping[str, Any]:
    """`value` when it is a mapping, else an empty one (recorded documents are loosely typed)."""
    return value if isinstance(value, Mapping) else {}
