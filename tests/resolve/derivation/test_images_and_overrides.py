"""The image a derived profile runs and the overrides written over its source (upstream `aimimage`,
`ResolveDerivedProfileImage` and `ApplyProfileCopyOverrides`)."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.resolve.derivation.images import (
    derived_image,
    legacy_base_image,
    normalize_base_image_tag,
    rebase_registry,
)
from aim_pulumi.resolve.derivation.overrides import apply_overrides, merge_container_env


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("docker.io/amdenterpriseai/aim-base:0.11-rc21", "docker.io/amdenterpriseai/aim-base:0.11"),
        ("aim-base:0.11.2", "aim-base:0.11"),
        ("aim-base:v0.11.0+build.1", "aim-base:0.11"),
        ("registry.local:5000/aim-base:0.9", "registry.local:5000/aim-base:0.9"),
        ("registry.local:5000/aim-base", "registry.local:5000/aim-base"),
        ("aim-base:latest", "aim-base:latest"),
        ("aim-base:0.11\n", "aim-base:0.11\n"),  # Go's `$` is the end of the text, not before a newline
        ("aim-base:\u0660.\u0661\u0661", "aim-base:\u0660.\u0661\u0661"),  # Go's \\d is ASCII only
    ],
)
def test_base_image_tags_are_cut_to_major_minor(ref: str, expected: str) -> None:
    assert normalize_base_image_tag(ref) == expected


def test_rebase_and_legacy_fallback_follow_upstream_examples() -> None:
    assert rebase_registry("ghcr.io/silogen/qwen3:0.11", "docker.io/amdenterpriseai/aim-base:0.11") == (
        "ghcr.io/silogen/aim-base:0.11"
    )
    assert rebase_registry("docker.io/amdenterpriseai/qwen3:0.11", "aim-base:0.11") == (
        "docker.io/amdenterpriseai/aim-base:0.11"
    )
    assert rebase_registry("qwen3:0.11", "docker.io/x/aim-base:0.11") == "docker.io/x/aim-base:0.11"
    assert legacy_base_image("ghcr.io/silogen/qwen3:0.8.5") == "aim-base:0.8"
    assert legacy_base_image("ghcr.io/silogen/qwen3:latest") == ""
    assert legacy_base_image("ghcr.io/silogen/qwen3@sha256:9f86d081884c7d65") == ""


@pytest.mark.parametrize(
    ("override", "base", "deployable", "weights", "image", "rule"),
    [
        ("my/img:1", "b/aim-base:0.9.1", True, True, "my/img:1", "override"),
        ("", "docker.io/vllm/vllm-openai-rocm:v0.16.0", False, True, "reg/org/src:0.9.1", "base-source"),
        ("", "b/aim-base:0.9.1", True, False, "reg/org/src:0.9.1", "weights-kept"),
        ("", "b/aim-base:0.9.1", True, True, "reg/org/aim-base:0.9", "rebased"),
        ("", "", True, True, "reg/org/aim-base:0.9", "legacy-rebased"),
    ],
)
def test_image_resolution_order(
    override: str, base: str, deployable: bool, weights: bool, image: str, rule: str
) -> None:
    decision = derived_image(
        override, base, "reg/org/src:0.9.1", source_deployable=deployable, weights_changed=weights
    )
    assert (decision.image, decision.rule) == (image, rule)


def test_new_weights_without_any_version_keep_the_source_image() -> None:
    decision = derived_image("", "", "reg/org/src:latest", source_deployable=True, weights_changed=True)
    assert (decision.image, decision.rule) == ("reg/org/src:latest", "source")


SOURCE: dict[str, Any] = {
    "aimId": "official/model",
    "modelId": "official/model",
    "profileId": "vllm-mi300x",
    "image": "ghcr.io/amd/full-image:0.9.1",
    "modelSources": [{"modelId": "official/model", "sourceUri": "hf://official/model"}],
    "acceleratorModel": "MI300X",
    "acceleratorCount": 1,
    "containerEnv": [{"name": "KEEP", "value": "1"}, {"name": "OVERRIDE", "value": "old"}],
    "engineEnv": {"KEEP": "1", "OVERRIDE": "old"},
    "engineArgs": {"tensor-parallel-size": 2, "max-model-len": 8192, "nested": {"a": 1, "b": 2}},
}


def test_merges_and_replacements() -> None:
    overrides = {
        "modelSources": [{"modelId": "custom/model", "sourceUri": "s3://bucket/custom-model"}],
        "acceleratorModel": "MI325X",
        "acceleratorCount": 4,
        "containerEnv": [{"name": "OVERRIDE", "value": "new"}, {"name": "ADDED", "value": "2"}],
        "engineEnv": {"OVERRIDE": "new", "ADDED": "2"},
        "engineArgs": {"tensor-parallel-size": 4, "nested": {"a": 9}},
    }
    spec, decision = apply_overrides(SOURCE, overrides, "", "ghcr.io/amd/aim-base:0.9.1")
    assert decision.image == spec["image"] == "ghcr.io/amd/aim-base:0.9"
    assert spec["modelId"] == "custom/model"
    assert (spec["acceleratorModel"], spec["acceleratorCount"]) == ("MI325X", 4)
    assert spec["containerEnv"] == [
        {"name": "KEEP", "value": "1"},
        {"name": "OVERRIDE", "value": "new"},
        {"name": "ADDED", "value": "2"},
    ]
    assert spec["engineEnv"] == {"KEEP": "1", "OVERRIDE": "new", "ADDED": "2"}
    # shallow: the nested object is replaced whole, not merged
    assert spec["engineArgs"] == {"tensor-parallel-size": 4, "max-model-len": 8192, "nested": {"a": 9}}
    assert SOURCE["engineArgs"]["nested"] == {"a": 1, "b": 2}  # the source is never modified


def test_identity_overrides_win_and_an_explicit_model_id_beats_the_first_source() -> None:
    spec, _ = apply_overrides(
        SOURCE,
        {
            "aimId": "acme/remix",
            "modelId": "acme/explicit",
            "profileId": "remix",
            "modelSources": [{"modelId": "acme/from-sources", "sourceUri": "hf://acme/from-sources"}],
        },
        "",
        "",
    )
    assert (spec["aimId"], spec["modelId"], spec["profileId"]) == ("acme/remix", "acme/explicit", "remix")


def test_image_override_of_the_set_and_of_the_overrides() -> None:
    spec, decision = apply_overrides(SOURCE, {}, "set/image:1", "")
    assert (spec["image"], decision.rule) == ("set/image:1", "override")
    spec, _ = apply_overrides(SOURCE, {"image": "over/image:2"}, "set/image:1", "")
    assert spec["image"] == "over/image:2"


def test_an_env_only_remix_stays_on_the_optimised_image() -> None:
    spec, decision = apply_overrides(
        SOURCE, {"containerEnv": [{"name": "X", "value": "y"}]}, "", "ghcr.io/amd/aim-base:0.9.1"
    )
    assert (spec["image"], decision.rule) == ("ghcr.io/amd/full-image:0.9.1", "weights-kept")
    assert spec["modelSources"] == SOURCE["modelSources"]


def test_an_empty_model_source_list_written_clears_the_sources() -> None:
    spec, _ = apply_overrides(SOURCE, {"modelSources": []}, "", "")
    assert "modelSources" not in spec
    assert spec["modelId"] == "official/model"


def test_container_env_merge_keeps_positions() -> None:
    merged = merge_container_env(
        [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
        [
            {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
            {"name": "C", "value": "3"},
        ],
    )
    assert merged == [
        {"name": "A", "value": "1"},
        {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
        {"name": "C", "value": "3"},
    ]
