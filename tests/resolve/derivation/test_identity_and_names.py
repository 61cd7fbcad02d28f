"""Derived names: the child set of a model and the derived profiles, from the operator's hash inputs."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.resolve.children.names import derived_name, derived_profile_name, model_profile_set_name
from aim_pulumi.resolve.derivation.identity import candidate_identity, go_json
from aim_pulumi.resolve.derivation.sources import SourceProfile


def test_the_child_set_name_of_the_operators_no_match_scenario() -> None:
    # tests/e2e/v1alpha2/aimmodel/profilecopy-no-match asserts this exact name.
    assert (
        model_profile_set_name("profilecopy-no-match-model") == "profilecopy-no-match-model-profiles-d2b69d38"
    )


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ({"b": 1, "a": [True, None, "x"]}, '{"a":[true,null,"x"],"b":1}'),
        ({"k": "<&>"}, '{"k":"\\u003c\\u0026\\u003e"}'),
        ({"f": 4.0}, '{"f":4}'),
        ({"f": 0.5}, '{"f":0.5}'),
        ({"f": 1e-7}, '{"f":1e-7}'),
        ({"f": 0.000001}, '{"f":0.000001}'),
        ({"f": 1.5e22}, '{"f":1.5e+22}'),
        ({"f": 123456789.0}, '{"f":123456789}'),
        ({"f": 1e21}, '{"f":1e+21}'),
    ],
)
def test_engine_args_are_written_as_go_marshals_them(value: Any, text: str) -> None:
    assert go_json(value) == text


def _source(**spec: Any) -> SourceProfile:
    return SourceProfile(
        kind="AIMProfile",
        namespace="ns",
        name="src",
        spec=spec,
        version="0.2.0",
        base_image="",
        role="deployable",
        origin="discovered",
        source_model="",
        source_model_scope="",
        copyable=True,
    )


def test_candidate_identity_is_fourteen_facts_as_go_prints_them() -> None:
    source = _source(
        aimId="a/b",
        modelId="a/b-m",
        profileId="p",
        engine="vllm",
        metric="latency",
        type="optimized",
        primary=True,
        acceleratorModel="MI300X",
        acceleratorType="gpu",
        precision="fp8",
        acceleratorCount=2,
        engineArgs={"tp": 2, "a": "x"},
    )
    assert candidate_identity(source) == (
        'src|a/b|a/b-m|p|vllm|latency|optimized|true|MI300X|gpu|fp8|2|0.2.0|{"a":"x","tp":2}'
    )
    assert candidate_identity(_source()) == "src|||||||false||||0|0.2.0|"  # unset: Go's zero values


def test_a_derived_profile_name_is_the_set_and_the_profile_id_hashed_with_the_identity() -> None:
    identity = candidate_identity(_source(profileId="cpu-default"))
    assert derived_profile_name("set", "cpu-default", identity) == derived_name(
        ["set", "cpu-default"], ["set", identity]
    )
    assert derived_profile_name("set", "cpu-default", identity) != derived_profile_name(
        "set", "cpu-default", identity.replace("0.2.0", "0.3.0")
    )
