"""Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource).

CRDs carry the quantity grammar as a `pattern`; the core swagger schemas do not, so the same
pattern is added to their `Quantity` definition. The numeric value is needed for the API server
rules that compare quantities (a PVC's storage request must be greater than zero).
"""

from __future__ import annotations

import re
from decimal import Decimal

QUANTITY_PATTERN = (
    r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
    r"([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)
"""The exact pattern controller-gen writes into CRDs for `resource.Quantity` fields."""

_DECIMAL_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_PARSED = re.compile(
    rf"^(?P<number>{_DECIMAL_NUMBER})"
    rf"(?:(?P<binary>[KMGTPE]i)|(?P<decimal>[numkMGTPE])|[eE](?P<exponent>{_DECIMAL_NUMBER}))?$"
)

_BINARY_SUFFIXES = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL_SUFFIXES = {"n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}


def parse_quantity(value: object) -> Decimal | None:
    """The exact value of a quantity, or None when it is not one.

    Decimal keeps `0.1` and `100m` equal and never rounds a tiny positive value to zero.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if not isinstance(value, str):
        return None
    match = _PARSED.match(value)
    if match is None:
        return None
    number = Decimal(match["number"])
    if match["binary"]:
        return number * (Decimal(1024) ** _BINARY_SUFFIXES[match["binary"]])
    if match["decimal"]:
        return number.scaleb(_DECIMAL_SUFFIXES[match["decimal"]])
    if match["exponent"] is not None:
        try:
            return number * (Decimal(10) ** Decimal(match["exponent"]))
        except ArithmeticError:
            return None
    return number
