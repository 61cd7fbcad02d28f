"""Property-based hostile input through the Python API: any value anywhere is a clean error or valid.

Hypothesis puts generated hostile values (wrong types, huge numbers and strings, deep nesting,
control characters, lone surrogates, invalid names, labels and quantities) at generated places
of a valid stack, and the outcome must be an AIMValidationError/AIMResolutionError or children
the vendored schemas accept. `pytest -m fuzz` runs many more examples.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aim_pulumi.api import AIMValidationError
from aim_pulumi.api.errors import escape
from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.resolve import AIMResolutionError, plan_service
from aim_pulumi.schemas import validate_manifest
from hostile.corpus import BASE, HOSTILE_KEYS, HOSTILE_VALUES
from tests.versions import Catalog, parse

hostile_text = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=st.characters(codec=None, categories=["Cc", "Cs", "Zl", "Zp", "Cf"]), max_size=10),
    st.sampled_from([v for v in HOSTILE_VALUES if isinstance(v, str)]),
)
hostile_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
)
hostile_value = st.recursive(
    hostile_leaf,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(hostile_text | st.sampled_from(HOSTILE_KEYS), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out += _paths(child, (*prefix, index))
    return out


@st.composite
def hostile_stacks(draw: st.DrawFn) -> list[Any]:
    docs: list[Any] = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(docs) - 1))
        path = draw(st.sampled_from(_paths(docs[index])))
        value = draw(hostile_value)
        if not path:
            docs[index] = value
            continue
        node = docs[index]
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
    return docs


def _outcome(docs: list[Any]) -> str:
    """`clean` or `valid`; anything else fails the property."""
    try:
        objects = [parse(doc) for doc in docs]
        catalog = Catalog([o for o in objects if o.kind != "AIMService"])
        for service in (o for o in objects if o.kind == "AIMService"):
            plan = plan_service(service, catalog, size_of=lambda *_a, **_k: 16 * 1024**3)  # type: ignore[arg-type]
            children = build_service_manifests(plan)
            for cache in plan.caches:
                children += [build_cache_pvc(cache), build_download_job(cache)]
            errors = [error for child in children for error in validate_manifest(child)]
            assert not errors, errors
    except (AIMValidationError, AIMResolutionError) as exc:
        text = str(exc)
        assert escape(text) == text, f"raw control characters in {text!r}"
        return "clean"
    return "valid"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(hostile_stacks())
def test_hostile_values_anywhere_are_clean_or_valid(docs: list[Any]) -> None:
    assert _outcome(docs) in ("clean", "valid")


@pytest.mark.fuzz
@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(hostile_stacks())
def test_hostile_values_anywhere_are_clean_or_valid_at_length(docs: list[Any]) -> None:
    assert _outcome(docs) in ("clean", "valid")


def test_unmodified_stack_plans() -> None:
    assert _outcome(copy.deepcopy(BASE)) == "valid"
