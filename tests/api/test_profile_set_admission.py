"""Admission of AIMProfileSet / AIMClusterProfileSet and of `AIMModel.spec.profiles`: every CEL rule of
the vendored CRDs (refusing and admitting), the v1alpha2 ratchet on legacy AIMModel fields, and the
project's own rules on what becomes a container path."""

from __future__ import annotations

from typing import Any

import pytest
from api_builders import model, profile_set

from aim_pulumi.api import AIMValidationError, admission_problems, parse

SELECTOR = {"aimId": "qwen/qwen3-32b"}


def _messages(manifest: dict[str, Any]) -> list[str]:
    return [f"{p.field}: {p.message}" for p in admission_problems(manifest)]


@pytest.mark.parametrize("cluster", [False, True], ids=["namespaced", "cluster"])
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"versionPolicy": "all"}, "selector must set at least one matching field, or set sourceRef"),
        (
            {"selector": {"minimumType": "any", "role": "deployable"}, "versionPolicy": "all"},
            "selector must set at least one matching field, or set sourceRef",
        ),
        ({"selector": SELECTOR}, "version is required when versionPolicy is pinned"),
        (
            {"selector": SELECTOR, "versionPolicy": "pinned"},
            "version is required when versionPolicy is pinned",
        ),
        (
            {"selector": SELECTOR, "versionPolicy": "latest", "version": "1"},
            "latest/all versionPolicy must not set version",
        ),
        (
            {"selector": SELECTOR, "versionPolicy": "all", "version": "1"},
            "latest/all versionPolicy must not set version",
        ),
        (
            {
                "selector": {"role": "base", "aimId": "a/b"},
                "versionPolicy": "all",
                "overrides": {"aimId": "a/b", "modelId": "a/b"},
            },
            "selector.aimId/modelId/profileId are not allowed when selector.role=base",
        ),
        (
            {
                "selector": {"role": "base", "engine": "vllm"},
                "versionPolicy": "all",
                "overrides": {"aimId": "a/b"},
            },
            "selector.role=base requires overrides.aimId and overrides.modelId",
        ),
        (
            {
                "selector": SELECTOR,
                "versionPolicy": "all",
                "overrides": {"acceleratorPartitioningMode": "CPX-NPS4"},
            },
            "overrides.acceleratorCount must be specified together with any overrides.accelerator",
        ),
    ],
)
def test_each_cel_rule_of_a_profile_set_refuses(cluster: bool, spec: dict[str, Any], message: str) -> None:
    problems = _messages(profile_set(spec, cluster=cluster))
    assert any(message in p for p in problems), problems
    with pytest.raises(AIMValidationError):
        parse(profile_set(spec, cluster=cluster))


@pytest.mark.parametrize("cluster", [False, True], ids=["namespaced", "cluster"])
@pytest.mark.parametrize(
    "spec",
    [
        {"sourceRef": {"name": "cache"}, "versionPolicy": "all"},
        {"selector": {"modelRef": {"name": "m"}}, "versionPolicy": "latest"},
        {"selector": {"origin": "discovered"}, "version": "0.2.0"},
        {"selector": {"engineArgs": {"tp": 2}}, "versionPolicy": "pinned", "version": "0.2.0"},
        {
            "selector": {"role": "base", "acceleratorCount": 2},
            "versionPolicy": "all",
            "overrides": {"aimId": "acme/x", "modelId": "acme/x", "profileId": "p"},
        },
        {
            "selector": SELECTOR,
            "versionPolicy": "all",
            "overrides": {"acceleratorPartitioningMode": "CPX-NPS4", "acceleratorCount": 1},
        },
        {"selector": SELECTOR, "versionPolicy": "all", "overrides": {"acceleratorPartitioningMode": ""}},
    ],
)
def test_a_profile_set_each_rule_admits(cluster: bool, spec: dict[str, Any]) -> None:
    assert _messages(profile_set(spec, cluster=cluster)) == []


def test_the_cluster_kind_has_no_accelerator_vendor() -> None:
    spec = {"selector": {**SELECTOR, "acceleratorVendor": "amd"}, "versionPolicy": "all"}
    assert _messages(profile_set(spec)) == []
    assert any("acceleratorVendor" in p for p in _messages(profile_set(spec, cluster=True)))


def test_override_identities_are_plain_path_segments() -> None:
    spec = {"selector": SELECTOR, "versionPolicy": "all", "overrides": {"aimId": "../etc", "modelId": "/abs"}}
    fields = [p.field for p in admission_problems(profile_set(spec))]
    assert fields == ["spec.overrides.aimId", "spec.overrides.modelId"]


def _profiles(**block: Any) -> dict[str, Any]:
    block.setdefault("derivedFrom", {"selector": SELECTOR})
    return model({"profiles": block})


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        (model({"profiles": {"version": "1"}}), "profiles.derivedFrom is required when spec.profiles is set"),
        (_profiles(), "profiles.version is required when versionPolicy is pinned"),
        (_profiles(versionPolicy="all", version="1"), "latest/all versionPolicy must not set version"),
        (
            _profiles(
                derivedFrom={"selector": {"role": "base", "modelId": "a/b"}},
                versionPolicy="all",
                overrides={"aimId": "a/b", "modelId": "a/b"},
            ),
            "derivedFrom.selector.aimId/modelId/profileId are not allowed when selector.role=base",
        ),
        (
            _profiles(
                derivedFrom={"selector": {"role": "base"}}, versionPolicy="all", overrides={"modelId": "a/b"}
            ),
            "derivedFrom.selector.role=base requires overrides.aimId and overrides.modelId",
        ),
        (
            model(
                {"profiles": {"derivedFrom": {"selector": SELECTOR}, "versionPolicy": "all"}, "aimId": "a/b"}
            ),
            "spec.profiles cannot be combined with spec.aimId",
        ),
        (
            model(
                {"profiles": {"derivedFrom": {"selector": SELECTOR}, "versionPolicy": "all"}, "image": "i:1"}
            ),
            "set exactly one of spec.image, spec.modelId and spec.profiles",
        ),
    ],
)
def test_each_rule_of_model_profiles_refuses(manifest: dict[str, Any], message: str) -> None:
    problems = _messages(manifest)
    assert any(message in p for p in problems), problems


@pytest.mark.parametrize(
    ("spec", "field", "message"),
    [
        ({"image": "i:1", "custom": {}}, "spec.custom", "spec.custom is forbidden on v1alpha2"),
        (
            {"image": "i:1", "customTemplates": [{"hardware": {}}]},
            "spec.customTemplates",
            "spec.customTemplates is forbidden on v1alpha2",
        ),
        (
            {"image": "i:1", "modelSources": [{"modelId": "a/b", "sourceUri": "hf://a/b"}]},
            "spec.modelSources",
            "use spec.profiles.overrides.modelSources",
        ),
        (
            {"profileCopy": {"selector": SELECTOR, "versionPolicy": "all"}},
            "spec.profileCopy",
            "spec.profileCopy is forbidden on v1alpha2",
        ),
        (
            {"derivedFrom": {"selector": SELECTOR, "versionPolicy": "all"}},
            "spec.derivedFrom",
            "spec.derivedFrom is deprecated on v1alpha2; use spec.profiles",
        ),
    ],
)
def test_the_ratchet_refuses_legacy_fields_on_a_new_model(
    spec: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(AIMValidationError) as info:
        parse(model(spec))
    assert (info.value.field, info.value.reason) == (field, "InvalidSpec")
    assert message in info.value.message
    # the CRD's own rule, which runs on create because it is marked optionalOldSelf, says the same
    from aim_pulumi.api.crd import crd_problems

    assert any(message.split(";")[0] in p.message for p in crd_problems(model(spec)))


def test_empty_legacy_lists_are_no_legacy_fields() -> None:
    assert _messages(model({"image": "i:1", "customTemplates": [], "modelSources": []})) == []


def test_a_derived_model_is_admitted_and_features_are_refused() -> None:
    manifest = _profiles(
        versionPolicy="latest",
        overrides={"modelSources": [{"modelId": "a/b-ft", "sourceUri": "s3://b/ft"}], "image": "my/img:1"},
    )
    assert _messages(manifest) == []
    refused = _profiles(versionPolicy="latest", overrides={"features": ["adapters"]})
    [problem] = admission_problems(refused)
    assert (problem.field, problem.reason) == ("spec.profiles.overrides.features", "Unsupported")
