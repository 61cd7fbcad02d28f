"""The operator's identity of a source profile, which names the profile derived from it.

A derived profile is named `derived_name([set, profileId or source name], [set, identity])`, where
the identity is upstream's `candidateIdentity`: fourteen facts of the source joined with `|` as Go's
`fmt.Sprintf` prints them (`%t` for a bool, `%d` for the count, 0 when unset), the last being the
source's engine arguments as the API server serves them (`encoding/json`: compact, keys sorted,
`<`, `>` and `&` escaped). Reproducing it byte for byte is what gives a derived profile the name the
operator gave it, so an adopted deployment keeps its names.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from aim_pulumi.resolve.children.names import go_json_string
from aim_pulumi.resolve.derivation.sources import SourceProfile
from aim_pulumi.resolve.scalars import text


def _go_float(value: float) -> str:
    """A float64 as Go's `encoding/json` writes it: shortest digits, exponent only outside [1e-6, 1e21)."""
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"{value} is not a JSON number")
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    magnitude = abs(value)
    if magnitude < 1e-6 or magnitude >= 1e21:
        mantissa, _, exponent = repr(value).partition("e")
        if not exponent:  # repr chose fixed notation; ask for the exponent form of the same digits
            mantissa, _, exponent = f"{Decimal(repr(value)):e}".partition("e")
        sign = exponent[0] if exponent[0] in "+-" else "+"
        digits = exponent.lstrip("+-").lstrip("0") or "0"
        return f"{mantissa}e{sign}{digits}"
    fixed = format(Decimal(repr(value)), "f")
    return fixed.rstrip("0").rstrip(".") if "." in fixed else fixed


def go_json(value: Any) -> str:
    """`value` as Go's `json.Marshal` writes a decoded JSON value (maps with sorted keys)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _go_float(value)
    if isinstance(value, str):
        return go_json_string(value)
    if isinstance(value, Mapping):
        items = sorted((str(key), item) for key, item in value.items())
        return "{" + ",".join(f"{go_json_string(key)}:{go_json(item)}" for key, item in items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(go_json(item) for item in value) + "]"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def candidate_identity(source: SourceProfile) -> str:
    """Upstream's `candidateIdentity` of a source (see the module docstring)."""
    spec = source.spec
    count = spec.get("acceleratorCount")
    engine_args = spec.get("engineArgs")
    return "|".join(
        (
            source.name,
            text(spec.get("aimId")),
            text(spec.get("modelId")),
            text(spec.get("profileId")),
            text(spec.get("engine")),
            text(spec.get("metric")),
            text(spec.get("type")),
            "true" if spec.get("primary") is True else "false",
            text(spec.get("acceleratorModel")),
            text(spec.get("acceleratorType")),
            text(spec.get("precision")),
            str(count if isinstance(count, int) and not isinstance(count, bool) else 0),
            source.version,
            go_json(engine_args) if engine_args is not None else "",
        )
    )
