"""Kubernetes resource quantities, parsed the way `resource.ParseQuantity` in apimachinery parses them.

This is the one quantity parser of the project: the validator checks every quantity field with it, and
cache sizes and the scale-to-zero cooldown are computed from its exact values. It follows Go's parser,
not the looser pattern controller-gen writes into CRDs: no surrounding spaces (`" 17Gi "` is refused),
an integer exponent only (`1e1.5` is refused; Go reads the exponent with `strconv.ParseInt`), and the
three suffix families: binary SI (`Ki`..`Ei`), decimal SI (`n`, `u`, `m`, none, `k`, `M`, `G`, `T`, `P`,
`E`) and decimal exponents (`1e3`). Values are Decimals, so `0.1` and `100m` are equal and the same input
always yields the same PVC size.
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext

QUANTITY_PATTERN = (
    r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
    r"([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)
"""The pattern controller-gen writes into CRDs for `resource.Quantity` fields (looser than Go's parser)."""

_GO_QUANTITY = re.compile(
    r"^(?P<number>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))"
    r"(?:(?P<binary>[KMGTPE]i)|(?P<decimal>[numkMGTPE])|[eE](?P<exponent>[+-]?[0-9]+))?$"
)
_BINARY_SUFFIXES = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL_SUFFIXES = {"n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
# Go accepts any int64 exponent; past this no quantity means anything, and refusing keeps later
# integer maths (whole bytes, whole GiB) cheap. The one place this parser is stricter than Go's.
MAX_EXPONENT = 1000
_PRECISION = 100


def parse_quantity(value: str | int | float) -> Decimal:
    """The exact value of a quantity in base units (bytes for memory and storage).

    Raises ValueError naming what is wrong, so a typo in a size is reported instead of guessed.
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
    match = _GO_QUANTITY.match(value)
    if match is None:
        raise ValueError(
            f"{value!r} is not a Kubernetes quantity (a number with an optional Ki..Ei, n..E or "
            "integer e<exponent> suffix, no spaces)"
        )
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        number = Decimal(match["number"])
        if match["binary"]:
            return number * (Decimal(1024) ** _BINARY_SUFFIXES[match["binary"]])
        if match["decimal"]:
            return number.scaleb(_DECIMAL_SUFFIXES[match["decimal"]])
        if match["exponent"] is not None:
            power = int(match["exponent"])
            if abs(power) > MAX_EXPONENT:
                raise ValueError(f"{value!r} is out of range")
            return number.scaleb(power)
        return number


def quantity_value(value: object) -> Decimal | None:
    """The value of a quantity, or None when `value` is not one (for rules that only compare)."""
    try:
        return parse_quantity(value)  # type: ignore[arg-type]
    except ValueError:
        return None


def is_quantity(value: object) -> bool:
    """True when Go's parser would accept `value` (numbers always are quantities)."""
    return quantity_value(value) is not None


_DECIMAL_SUFFIX_OF = {exponent: suffix for suffix, exponent in _DECIMAL_SUFFIXES.items()} | {0: ""}
_BINARY_SUFFIX_OF = {power: suffix for suffix, power in _BINARY_SUFFIXES.items()}


def canonical_quantity(value: object) -> str | None:
    """The quantity as Go's `Quantity.String()` writes it, or None when it is not a quantity.

    Some rules compare that text rather than the value (a `resourceFieldRef` divisor must be one of
    `1`, `1k`, `1Ki`, ...): the format is the one written (binary suffix, decimal suffix or none,
    exponent), a binary value below 1024 or not whole is written in the decimal form, and the
    mantissa is the whole number with the largest suffix. An exponent form is never one of those
    texts (the API server refuses `1e0` and `1e3` as divisors), so it is written as it was.
    """
    amount = quantity_value(value)
    if amount is None:
        return None
    if amount == 0:
        return "0"
    match = _GO_QUANTITY.match(value) if isinstance(value, str) else None
    if match is not None and match["exponent"] is not None:
        return str(value)
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        if (
            match is not None
            and match["binary"]
            and abs(amount) >= 1024
            and amount == amount.to_integral_value()
        ):
            for power in range(6, 0, -1):
                unit = Decimal(1024) ** power
                if amount % unit == 0:
                    return f"{int(amount / unit)}{_BINARY_SUFFIX_OF[power]}"
            return str(int(amount))
        for exponent in range(18, -12, -3):
            mantissa = amount.scaleb(-exponent)
            if mantissa == mantissa.to_integral_value():
                return f"{int(mantissa)}{_DECIMAL_SUFFIX_OF.get(exponent, f'e{exponent}')}"
        # Finer than a nano unit: Go rounds up to whole nanos.
        return f"{int(amount.scaleb(9).to_integral_value(rounding='ROUND_CEILING'))}n"
