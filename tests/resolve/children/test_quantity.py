"""Kubernetes quantities: exact values, every suffix family, and refusals of what Go's parser refuses."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.children.quantity import GI, to_gi_ceil, to_gi_floor
from aim_pulumi.schemas.quantity import parse_quantity


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("1Gi", Decimal(GI), id="binary-gi"),
        pytest.param("1.5Gi", Decimal(GI) * Decimal("1.5"), id="fractional-binary"),
        pytest.param("512Mi", Decimal(512 * 1024**2), id="binary-mi"),
        pytest.param("1Ki", Decimal(1024), id="binary-ki"),
        pytest.param("2Ti", Decimal(2 * 1024**4), id="binary-ti"),
        pytest.param("1Pi", Decimal(1024**5), id="binary-pi"),
        pytest.param("1Ei", Decimal(1024**6), id="binary-ei"),
        pytest.param("500M", Decimal(500_000_000), id="decimal-mega"),
        pytest.param("1G", Decimal(10**9), id="decimal-giga"),
        pytest.param("3k", Decimal(3000), id="decimal-kilo"),
        pytest.param("1T", Decimal(10**12), id="decimal-tera"),
        pytest.param("1P", Decimal(10**15), id="decimal-peta"),
        pytest.param("1E", Decimal(10**18), id="bare-E-is-exa"),
        pytest.param("250m", Decimal("0.25"), id="milli"),
        pytest.param("5u", Decimal("0.000005"), id="micro"),
        pytest.param("7n", Decimal("0.000000007"), id="nano"),
        pytest.param("1e3", Decimal(1000), id="exponent"),
        pytest.param("1E3", Decimal(1000), id="uppercase-exponent"),
        pytest.param("2e-3", Decimal("0.002"), id="negative-exponent"),
        pytest.param("12", Decimal(12), id="no-suffix"),
        pytest.param(".5Gi", Decimal(GI) / 2, id="leading-dot"),
        pytest.param("1.Gi", Decimal(GI), id="trailing-dot"),
        pytest.param("+1Ki", Decimal(1024), id="explicit-plus"),
        pytest.param("-1Ki", Decimal(-1024), id="negative"),
    ],
)
def test_parse_quantity_strings(text: str, expected: Decimal) -> None:
    assert parse_quantity(text) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(1024, Decimal(1024), id="int"),
        pytest.param(1.5, Decimal("1.5"), id="float"),
        pytest.param(0, Decimal(0), id="zero"),
    ],
)
def test_parse_quantity_numbers(value: int | float, expected: Decimal) -> None:
    assert parse_quantity(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("", id="empty"),
        pytest.param("Gi", id="suffix-only"),
        pytest.param("1GB", id="unknown-suffix"),
        pytest.param("1gi", id="lowercase-binary"),
        pytest.param("1 Gi", id="inner-space"),
        pytest.param("1.2.3", id="two-dots"),
        pytest.param("1e", id="exponent-without-digits"),
        pytest.param("1e1001", id="exponent-out-of-range"),
        pytest.param(" 17Gi ", id="go-parser-no-surrounding-space"),
        pytest.param("17Gi ", id="go-parser-no-trailing-space"),
        pytest.param("1e1.5", id="go-parser-integer-exponent-only"),
        pytest.param("1e+.5", id="go-parser-no-fractional-signed-exponent"),
        pytest.param(".", id="dot-only"),
        pytest.param(True, id="bool"),
        pytest.param(float("inf"), id="infinite-float"),
        pytest.param(float("nan"), id="nan"),
        pytest.param(None, id="none"),
    ],
)
def test_parse_quantity_rejects(value: object) -> None:
    with pytest.raises(ValueError):
        parse_quantity(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "ceil", "floor"),
    [
        pytest.param(0, 0, 0, id="zero"),
        pytest.param(1, 1, 0, id="one-byte"),
        pytest.param(GI, 1, 1, id="exactly-one-gi"),
        pytest.param(GI + 1, 2, 1, id="one-byte-over"),
        pytest.param(Decimal(GI) - Decimal("0.5"), 1, 0, id="fractional-bytes"),
        pytest.param(Decimal(10**9), 1, 0, id="decimal-gigabyte"),
        pytest.param(GI * 10**12 + 1, 10**12 + 1, 10**12, id="huge-no-rounding-loss"),
    ],
)
def test_gi_rounding(value: Decimal | int, ceil: int, floor: int) -> None:
    assert to_gi_ceil(value) == ceil
    assert to_gi_floor(value) == floor


@settings(max_examples=150)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["Ki", "Mi", "Gi", "k", "M", "G", ""]))
def test_integer_quantities_are_exact(number: int, suffix: str) -> None:
    multipliers = {"Ki": 1024, "Mi": 1024**2, "Gi": GI, "k": 10**3, "M": 10**6, "G": 10**9, "": 1}
    parsed = parse_quantity(f"{number}{suffix}")
    assert parsed == number * multipliers[suffix]
    assert to_gi_ceil(parsed) * GI >= parsed > (to_gi_ceil(parsed) - 1) * GI or parsed == 0
