"""Profile overlays (behaviour §5): what `spec.profileOverrides` changes, and the overlay's identity."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.api import AIMProfile, AIMService, to_manifest
from aim_pulumi.resolve.children.names import overlay_profile_name
from aim_pulumi.resolve.selection.candidate import ProfileEntry
from aim_pulumi.resolve.selection.filters import effective_selector, first_failing_filter
from aim_pulumi.resolve.selection.overlays import build_overlay, effective_overrides
from tests.versions import Catalog, parse

G = "aim.eai.amd.com"
NS = "ml-team"

SEED_SPEC: dict[str, Any] = {
    "aimId": "qwen/qwen3-32b",
    "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
    "modelId": "Qwen/Qwen3-32B",
    "type": "optimized",
    "primary": True,
    "precision": "fp8",
    "acceleratorModel": "MI300X",
    "acceleratorCount": 1,
    "engineArgs": {"max-model-len": 4096, "nested": {"a": 1, "b": 2}},
    "engineEnv": {"VLLM_A": "1", "VLLM_B": "2"},
    "containerEnv": [{"name": "X", "value": "seed"}, {"name": "Y", "value": "seed"}],
    "imagePullSecrets": [{"name": "regcred"}],
    "serviceAccountName": "runner",
    "modelSources": [{"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}],
}


def seed(*, cluster: bool = False, annotations: dict[str, str] | None = None, **spec: Any) -> Any:
    metadata: dict[str, Any] = {
        "name": "qwen-qwen3-32b-fp8-mi300x",
        "labels": {f"{G}/source-model": "qwen", f"{G}/source-model-scope": "namespace", "team": "ml"},
        "annotations": annotations or {},
    }
    if not cluster:
        metadata["namespace"] = "ml-team"
    return parse(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMClusterProfile" if cluster else "AIMProfile",
            "metadata": metadata,
            "spec": {**SEED_SPEC, **spec},
        }
    )


def service(
    overrides: dict[str, Any] | None, *, name: str = "qwen-finetune", uid: str | None = None
) -> AIMService:
    spec: dict[str, Any] = {"profile": {"name": "qwen-qwen3-32b-fp8-mi300x"}}
    if overrides is not None:
        spec["profileOverrides"] = overrides
    metadata: dict[str, Any] = {"name": name, "namespace": NS}
    if uid:
        metadata["uid"] = uid
    svc = parse({"apiVersion": f"{G}/v1alpha2", "kind": "AIMService", "metadata": metadata, "spec": spec})
    assert isinstance(svc, AIMService)
    return svc


def overlay_spec(overrides: dict[str, Any], **seed_kwargs: Any) -> dict[str, Any]:
    overlay = build_overlay(seed(**seed_kwargs), service(overrides))
    assert overlay is not None
    spec: dict[str, Any] = to_manifest(overlay)["spec"]
    return spec


NO_OVERLAY = [
    pytest.param(None, id="no-profile-overrides"),
    pytest.param({}, id="empty-block"),
    pytest.param(
        {"modelSources": [], "containerEnv": [], "engineEnv": {}, "engineArgs": {}}, id="only-empty-fields"
    ),
    pytest.param({"acceleratorModel": ""}, id="empty-accelerator-model"),
]


@pytest.mark.parametrize("overrides", NO_OVERLAY)
def test_nothing_to_override_makes_no_overlay(overrides: dict[str, Any] | None) -> None:
    assert build_overlay(seed(), service(overrides)) is None
    assert effective_overrides(service(overrides)) == {}


EFFECTS = [
    pytest.param(
        {
            "modelSources": [
                {"modelId": "acme/qwen3-32b-finetune", "sourceUri": "hf://acme/qwen3-32b-finetune"}
            ]
        },
        {
            "modelSources": [
                {"modelId": "acme/qwen3-32b-finetune", "sourceUri": "hf://acme/qwen3-32b-finetune"}
            ],
            "modelId": "acme/qwen3-32b-finetune",
            "image": SEED_SPEC["image"],
        },
        id="model-sources-replace-and-set-model-id-keep-image",
    ),
    pytest.param(
        {"acceleratorModel": "MI325X"}, {"acceleratorModel": "MI325X"}, id="accelerator-model-replaced"
    ),
    pytest.param(
        {"acceleratorCount": 8, "acceleratorPartitioningMode": "CPX"},
        {"acceleratorCount": 8, "acceleratorPartitioningMode": "CPX"},
        id="count-and-partitioning-replaced",
    ),
    pytest.param({"acceleratorCount": 0}, {"acceleratorCount": 0}, id="count-zero-is-present"),
    pytest.param(
        {"containerEnv": [{"name": "Y", "value": "svc"}, {"name": "Z", "value": "svc"}]},
        {
            "containerEnv": [
                {"name": "X", "value": "seed"},
                {"name": "Y", "value": "svc"},
                {"name": "Z", "value": "svc"},
            ]
        },
        id="container-env-merged-by-name",
    ),
    pytest.param(
        {"engineEnv": {"VLLM_B": "override", "VLLM_C": "3"}},
        {"engineEnv": {"VLLM_A": "1", "VLLM_B": "override", "VLLM_C": "3"}},
        id="engine-env-merged-per-key",
    ),
    pytest.param(
        {"engineArgs": {"nested": {"a": 9}, "tp": 2}},
        {"engineArgs": {"max-model-len": 4096, "nested": {"a": 9}, "tp": 2}},
        id="engine-args-shallow-merge",
    ),
]


@pytest.mark.parametrize(("overrides", "expected"), EFFECTS)
def test_override_effects(overrides: dict[str, Any], expected: dict[str, Any]) -> None:
    spec = overlay_spec(overrides)
    for key, value in expected.items():
        assert spec[key] == value, key
    for inherited in ("aimId", "type", "primary", "precision", "imagePullSecrets", "serviceAccountName"):
        assert spec[inherited] == SEED_SPEC[inherited]


BASE_IMAGE = [
    pytest.param(
        {"modelSources": [{"modelId": "acme/ft", "sourceUri": "hf://acme/ft"}]},
        "amdenterpriseai/aim-base:0.8.5",
        id="model-sources-take-base-image",
    ),
    pytest.param({"acceleratorModel": "MI325X"}, SEED_SPEC["image"], id="other-overrides-keep-seed-image"),
]


@pytest.mark.parametrize(("overrides", "image"), BASE_IMAGE)
def test_base_image_annotation(overrides: dict[str, Any], image: str) -> None:
    annotations = {f"{G}/base-image": "amdenterpriseai/aim-base:0.8.5"}
    assert overlay_spec(overrides, annotations=annotations)["image"] == image


@pytest.mark.parametrize("cluster", [False, True], ids=["namespace-seed", "cluster-seed"])
def test_overlay_identity(cluster: bool) -> None:
    svc = service({"acceleratorModel": "MI325X"}, uid="abc-123")
    overlay = build_overlay(seed(cluster=cluster), svc)
    assert isinstance(overlay, AIMProfile)
    assert overlay.metadata.name == overlay_profile_name(
        "qwen-qwen3-32b-fp8-mi300x", "qwen-finetune", "abc-123"
    )
    assert overlay.metadata.name.startswith("qwen-qwen3-32b-fp8-mi300x-qwen-finetune-overlay-")
    assert overlay.metadata.namespace == NS
    assert overlay.metadata.labels == {f"{G}/profile-role": "deployable", f"{G}/profile-origin": "derived"}
    assert overlay.metadata.annotations == {f"{G}/overlay-service": "qwen-finetune"}


def test_overlay_name_uses_the_derived_service_uid() -> None:
    svc = service({"acceleratorModel": "MI325X"})
    overlay = build_overlay(seed(), svc)
    assert overlay is not None
    assert overlay.metadata.name == overlay_profile_name(
        "qwen-qwen3-32b-fp8-mi300x", "qwen-finetune", svc.effective_uid
    )


def test_overlay_keeps_seed_status_and_seed_is_unchanged() -> None:
    with_status = parse(
        {
            **to_manifest(seed()),
            "status": {"status": "Ready", "version": "0.8.5"},
        }
    )
    before = to_manifest(with_status)
    overlay = build_overlay(with_status, service({"engineArgs": {"x": 1}}))  # type: ignore[arg-type]
    assert overlay is not None and to_manifest(overlay)["status"] == {"status": "Ready", "version": "0.8.5"}
    assert to_manifest(with_status) == before


def test_overlay_is_never_a_selection_candidate() -> None:
    overlay = build_overlay(seed(), service({"acceleratorModel": "MI325X"}))
    assert overlay is not None
    entry = ProfileEntry.build(overlay, None)
    assert first_failing_filter(entry, effective_selector({}, None), NS) == "overlay"
    assert Catalog([overlay], embed_default=False).entry_for(overlay).overlay is True
