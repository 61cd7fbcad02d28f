"""Kubernetes resource quantities (`1.5Gi`, `500M`, `1e3`) as exact decimals.

Cache sizes and the scale-to-zero cooldown are computed from quantities the user wrote; they are
parsed here exactly (no float rounding) so that the same input always yields the same PVC size.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation, localcontext

GI = 1024**3

_BINARY_SI = {"Ki": 1024, "Mi": 1024**2, "Gi": 1024**3, "Ti": 1024**4, "Pi": 1024**5, "Ei": 1024**6}
_DECIMAL_SI = {
    "n": Decimal("1e-9"),
    "u": Decimal("1e-6"),
    "m": Decimal("1e-3"),
    "": Decimal(1),
    "k": Decimal("1e3"),
    "M": Decimal("1e6"),
    "G": Decimal("1e9"),
    "T": Decimal("1e12"),
    "P": Decimal("1e15"),
    "E": Decimal("1e18"),
}
_QUANTITY = re.compile(r"^(?P<number>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?P<suffix>[A-Za-z]*[-+]?[0-9]*)$")
_EXPONENT = re.compile(r"^[eE](?P<exp>[-+]?[0-9]+)$")
# Beyond this a quantity is not a size anyone means; refusing keeps later integer maths cheap.
_MAX_EXPONENT = 64
_PRECISION = 100


def parse_quantity(value: str | int | float) -> Decimal:
    """Return the value of a Kubernetes quantity in base units (bytes for memory and storage).

    Accepts the three suffix families of the Kubernetes serialisation format: binary SI (`Ki`..`Ei`),
    decimal SI (`n`, `u`, `m`, none, `k`, `M`, `G`, `T`, `P`, `E`) and decimal exponents (`1e3`).
    Raises ValueError for anything else, so a typo in a size is reported instead of guessed.
    """
    if isinstance(value, bool):
        raise ValueError(f"quantity must be a number or a string, not {value!r}")
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        number = Decimal(repr(value))
        if not number.is_finite():
            raise ValueError(f"quantity {value!r} is not finite")
        return number
    if not isinstance(value, str):
        raise ValueError(f"quantity must be a number or a string, not {type(value).__name__}")
    text = value.strip()
    match = _QUANTITY.match(text)
    if match is None:
        raise ValueError(f"{value!r} is not a Kubernetes quantity")
    suffix = match.group("suffix")
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        try:
            number = Decimal(match.group("number"))
        except InvalidOperation as exc:  # pragma: no cover - the pattern admits only decimals
            raise ValueError(f"{value!r} is not a Kubernetes quantity") from exc
        if suffix in _BINARY_SI:
            return number * _BINARY_SI[suffix]
        if suffix in _DECIMAL_SI:
            return number * _DECIMAL_SI[suffix]
        exponent = _EXPONENT.match(suffix)
        if exponent is None:
            raise ValueError(f"{value!r} has an unknown quantity suffix {suffix!r}")
        power = int(exponent.group("exp"))
        if abs(power) > _MAX_EXPONENT:
            raise ValueError(f"{value!r} is out of range")
        return number.scaleb(power)


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
