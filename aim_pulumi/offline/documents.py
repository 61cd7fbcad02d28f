"""The conventions of a plan document (`plan --json`): how a secret and an unknown value read in it,
and its loosely typed mappings. One place, read by the renderer and the plan diff alike.

Pulumi's secret envelopes and unknown values are recognised by the SDK's own markers, imported
only when a value is marked: reading a plan's conventions loads nothing of Pulumi.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SECRET", "UNKNOWN", "as_mapping", "mark_unknowns", "redact_secrets", "without_secrets"]

SECRET = "[secret]"
UNKNOWN = "[unknown]"


def as_mapping(value: Any) -> Mapping[str, Any]:
    """`value` when it is a mapping, else an empty one (recorded documents are loosely typed)."""
    return value if isinstance(value, Mapping) else {}


def _is_unknown(value: Any) -> bool:
    from pulumi.output import Unknown
    from pulumi.runtime import rpc

    return isinstance(value, Unknown) or (isinstance(value, str) and value == rpc.UNKNOWN)


def redact_secrets(value: Any) -> Any:
    """A recorded value with every Pulumi secret shown as `[secret]` and unknowns as `[unknown]`."""
    from pulumi.runtime import rpc

    if rpc.is_rpc_secret(value):
        return SECRET
    if _is_unknown(value):
        return UNKNOWN
    if isinstance(value, Mapping):
        return {str(k): redact_secrets(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_secrets(v) for v in value]
    return value


def mark_unknowns(value: Any) -> Any:
    """A plain value with every value unknown before `pulumi up` shown as `[unknown]`."""
    if _is_unknown(value):
        return UNKNOWN
    if isinstance(value, Mapping):
        return {str(k): mark_unknowns(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [mark_unknowns(v) for v in value]
    return value


def without_secrets(value: Any) -> Any:
    """A plan's values with every Pulumi secret envelope (`--show-secrets` writes none) as
    `[secret]`: a value a plan file holds inside one is never printed by a diff."""
    from pulumi.runtime import rpc

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            if rpc.is_rpc_secret(value):
                return SECRET
            return {k: strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(value)
