"""Whole gibibytes of Kubernetes quantities, for cache sizes and the scale-to-zero cooldown.

Parsing lives in `aim_pulumi.schemas.quantity` (Go's grammar, shared with the validator); this
module only rounds the exact values, with integer arithmetic so a size never flips between runs.
"""

from __future__ import annotations

from decimal import Decimal

from aim_pulumi.schemas.quantity import parse_quantity

__all__ = ["GI", "parse_quantity", "to_gi_ceil", "to_gi_floor"]

GI = 1024**3


def _ceil_int(value: Decimal | int) -> int:
    if isinstance(value, int):
        return value
    return int(value.to_integral_value(rounding="ROUND_CEILING"))


def to_gi_ceil(value: Decimal | int) -> int:
    """Whole gibibytes needed to hold `value` bytes, rounded up.

    Integer arithmetic on purpose: a PVC size must not flip between runs because of a float or
    a decimal-context rounding of a very large byte count.
    """
    whole = _ceil_int(value)
    return -(-whole // GI)


def to_gi_floor(value: Decimal | int) -> int:
    """Whole gibibytes contained in `value` bytes, rounded down (the cooldown formula's `memGiB`)."""
    if isinstance(value, int):
        return value // GI
    whole = int(value.to_integral_value(rounding="ROUND_FLOOR"))
    return whole // GI
