"""Which sources a set derives from: candidates, the selector's matching rules, the version policy."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aim_pulumi.resolve.derivation.matching import (
    apply_version_policy,
    candidates,
    compare_version_strings,
    latest_version,
    meets_minimum_type,
    selector_failure,
)
from aim_pulumi.resolve.derivation.sources import SourceProfile, extract_tag, go_parse_bool


def source(name: str, **fields: Any) -> SourceProfile:
    spec = fields.pop("spec", {"aimId": "a/b", "image": "r/o/i:1.0.0"})
    base: dict[str, Any] = {
        "kind": "AIMProfile",
        "namespace": "ns",
        "name": name,
        "spec": spec,
        "version": "1.0.0",
        "base_image": "",
        "role": "deployable",
        "origin": "user-authored",
        "source_model": "",
        "source_model_scope": "",
        "copyable": True,
    }
    base.update(fields)
    return SourceProfile(**base)


@pytest.mark.parametrize(
    ("spec", "selector", "failing"),
    [
        ({"aimId": "a/b"}, {"aimId": "a/b"}, None),
        ({"aimId": "a/b"}, {"aimId": "A/B"}, "aimId"),
        ({"acceleratorModel": "MI300X"}, {"acceleratorModel": "mi300x"}, "acceleratorModel"),  # as written
        ({"type": "unoptimized"}, {}, None),  # an unset floor admits every tier
        ({"type": "unoptimized"}, {"minimumType": "optimized"}, "minimumType"),
        ({}, {"minimumType": "unoptimized"}, None),  # untyped ranks as unoptimized
        ({}, {"minimumType": "preview"}, "minimumType"),
        ({"type": "general"}, {"minimumType": "preview"}, None),
        ({"acceleratorPartitioningMode": "CPX-NPS4"}, {"acceleratorPartitioningMode": "cpx"}, None),
        ({"acceleratorPartitioningMode": "CPX-NPS4"}, {"acceleratorPartitioningMode": "partitioned"}, None),
        ({}, {"acceleratorPartitioningMode": "unpartitioned"}, None),
        (
            {"acceleratorPartitioningMode": "CPX-NPS4"},
            {"acceleratorPartitioningMode": "CPX-NPS1"},
            "acceleratorPartitioningMode",
        ),
        (
            {"acceleratorPartitioningMode": "SPX"},
            {"acceleratorPartitioningMode": "unpartitioned"},
            "acceleratorPartitioningMode",
        ),
        ({}, {"acceleratorCount": 0}, None),  # an unset count is 0 in Go
        ({"acceleratorCount": 2}, {"acceleratorCount": 1}, "acceleratorCount"),
        ({"engineArgs": {"tp": 2, "len": 8192}}, {"engineArgs": {"tp": 2}}, None),
        ({"engineArgs": {"tp": 2}}, {"engineArgs": {"tp": 2.0}}, None),  # one JSON number
        ({"engineArgs": {"flag": True}}, {"engineArgs": {"flag": 1}}, "engineArgs"),  # a bool is no number
        ({"engineArgs": {"tp": 2}}, {"engineArgs": {"tp": 4}}, "engineArgs"),
        ({}, {"engineArgs": {"tp": 2}}, "engineArgs"),
        ({"engineArgs": {"o": {"a": [1, {"b": 2}]}}}, {"engineArgs": {"o": {"a": [1, {"b": 2.0}]}}}, None),
        ({}, {"engineArgs": {}}, None),
    ],
)
def test_selector_rules(spec: dict[str, Any], selector: dict[str, Any], failing: str | None) -> None:
    assert selector_failure(spec, selector) == failing


def test_minimum_type_of_an_unknown_tier_ranks_below_unoptimized() -> None:
    assert not meets_minimum_type("experimental", "unoptimized")
    assert meets_minimum_type("experimental", "any")


def test_candidates_are_the_namespace_first_then_the_cluster() -> None:
    local = [source("local")]
    cluster = [source("c", kind="AIMClusterProfile", namespace="")]
    assert [s.name for s in candidates({"aimId": "a/b"}, local, cluster)] == ["local"]
    assert [s.name for s in candidates({"aimId": "a/b"}, [], cluster)] == ["c"]
    # a namespace with only other-aimId profiles falls back to the cluster
    other = [source("other", spec={"aimId": "x/y", "image": "i"})]
    assert [s.name for s in candidates({"aimId": "a/b"}, other, cluster)] == ["c"]
    # but a namespace candidate failing a later filter still hides the cluster, as on the operator
    assert [s.name for s in candidates({"aimId": "a/b", "engine": "vllm"}, local, cluster)] == ["local"]
    # a cluster set reads only cluster profiles
    assert [s.name for s in candidates({"aimId": "a/b"}, None, cluster)] == ["c"]


def test_model_ref_scope_and_provenance_filters() -> None:
    ns_owned = source("mine", source_model="m", source_model_scope="namespace")
    cluster_owned = source(
        "theirs", kind="AIMClusterProfile", namespace="", source_model="m", source_model_scope="cluster"
    )
    ref = {"modelRef": {"name": "m", "scope": "Namespace"}}
    assert [s.name for s in candidates(ref, [], [cluster_owned])] == []  # Namespace never falls back
    ref = {"modelRef": {"name": "m", "scope": "Cluster"}}
    assert [s.name for s in candidates(ref, [ns_owned], [cluster_owned])] == ["theirs"]
    ref = {"modelRef": {"name": "m"}}
    assert [s.name for s in candidates(ref, [], [cluster_owned])] == ["theirs"]
    assert [s.name for s in candidates({"origin": "discovered"}, [ns_owned], [])] == []
    assert [s.name for s in candidates({"origin": "user-authored"}, [ns_owned], [])] == ["mine"]


def test_roles_and_the_copyable_mark() -> None:
    base = source("base", role="base", spec={"image": "i"})
    deployable = source("dep")
    assert [s.name for s in candidates({"role": "base"}, [base, deployable], [])] == ["base"]
    assert [s.name for s in candidates({}, [base, deployable], [])] == ["dep"]
    # not marked copyable (a user-authored profile without the annotation, or a derived profile)
    assert candidates({"aimId": "a/b"}, [replace(deployable, copyable=False)], []) == []
    assert go_parse_bool("True") and go_parse_bool("1") and go_parse_bool("t")
    assert not go_parse_bool("yes") and not go_parse_bool(None) and not go_parse_bool(" true")


def test_version_policies() -> None:
    sources = [source(f"p{v}", version=v) for v in ("0.2.0", "0.10.0", "0.9.1", "")]
    assert [s.name for s in apply_version_policy(sources, "pinned", "0.2.0")] == ["p0.2.0"]
    assert [s.name for s in apply_version_policy(sources, "latest", "")] == ["p0.10.0"]
    assert len(apply_version_policy(sources, "all", "")) == 4
    assert apply_version_policy([source("none", version="")], "latest", "") == []


@pytest.mark.parametrize(
    ("versions", "latest"),
    [
        (["0.8.5", "v0.9", "0.9.0-rc1"], "v0.9"),  # tolerant: `v0.9` is 0.9.0, above its release candidate
        (["0.11-rc21", "0.9.0"], "0.9.0"),  # a short form with a pre-release does not parse
        (["nightly-20240101", "nightly-20240315"], "nightly-20240315"),  # no SemVer: token order
        (["1.0.0", "zzz"], "1.0.0"),  # a parsed version beats every unparsed one
        (["zzz", "1.0.0"], "1.0.0"),
    ],
)
def test_latest_is_semver_with_upstreams_fallback(versions: list[str], latest: str) -> None:
    assert latest_version([source(v, version=v) for v in versions]) == latest


def test_token_order() -> None:
    assert compare_version_strings("build10", "build9") == 1
    assert compare_version_strings("a1", "a1b") == -1
    assert compare_version_strings("", "x") == -1


def test_the_version_of_a_source_is_its_image_tag_as_written() -> None:
    assert extract_tag("docker.io/amdenterpriseai/aim-dummy:0.2.0") == "0.2.0"
    assert extract_tag("registry.local:5000/image") == ""
    assert extract_tag("r/image:v0.8.5") == "v0.8.5"
    assert extract_tag("r/image@sha256:abcd") == ""
