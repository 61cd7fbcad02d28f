"""Pipeline dispatch (behaviour §7.1): one row per rule, including every ignored marker."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.api import AIMService
from aim_pulumi.resolve.legacy.dispatch import (
    INVALID_RECONCILER_PIPELINE,
    RECONCILER_PIPELINE_ANNOTATION,
    choose_pipeline,
)
from tests.versions import parse

V1 = "aim.eai.amd.com/v1alpha1"
V2 = "aim.eai.amd.com/v1alpha2"


def service(spec: dict[str, Any], marker: str | None = None, api_version: str = V1) -> AIMService:
    metadata: dict[str, Any] = {"name": "chat", "namespace": "ml-team"}
    if marker is not None:
        metadata["annotations"] = {RECONCILER_PIPELINE_ANNOTATION: marker}
    obj = parse({"apiVersion": api_version, "kind": "AIMService", "metadata": metadata, "spec": spec})
    assert isinstance(obj, AIMService)
    return obj


MODEL = {"model": {"name": "qwen"}}
IMAGE = {"model": {"image": "amdenterpriseai/aim-qwen:0.8.5"}}
PROFILE_NAME = {"profile": {"name": "qwen-fp8"}}
TEMPLATE_NAME = {"template": {"name": "qwen-latency"}}
CRITERIA = {"template": {"selectionCriteria": {"precision": "fp8"}}}

# (spec, marker, apiVersion, expected pipeline, warning expected)
ROWS = [
    pytest.param(PROFILE_NAME, None, V2, "profile", False, id="spec-profile-selects-profile"),
    pytest.param({**MODEL, **PROFILE_NAME}, None, V2, "profile", False, id="spec-profile-with-model"),
    pytest.param(
        {**MODEL, "profile": {"selector": {"precision": "fp8"}}},
        None,
        V2,
        "profile",
        False,
        id="spec-selector",
    ),
    pytest.param(PROFILE_NAME, "profile", V2, "profile", False, id="profile-marker-on-spec-profile"),
    pytest.param(MODEL, "profile", V2, "profile", False, id="profile-marker-with-model-name"),
    pytest.param(IMAGE, "profile", V1, "profile", False, id="profile-marker-with-model-image"),
    pytest.param(MODEL, "template", V1, "template", False, id="template-marker-with-model"),
    pytest.param(
        {**MODEL, **TEMPLATE_NAME}, "template", V1, "template", False, id="template-marker-and-template"
    ),
    pytest.param({**MODEL, **TEMPLATE_NAME}, None, V1, "template", False, id="default-spec-template-name"),
    pytest.param({**MODEL, **CRITERIA}, None, V1, "template", False, id="default-selection-criteria"),
    pytest.param(MODEL, None, V1, "template", False, id="default-model-name"),
    pytest.param(IMAGE, None, V1, "template", False, id="default-model-image"),
    pytest.param(MODEL, None, V2, "template", False, id="default-model-name-on-v1alpha2"),
    pytest.param(MODEL, "", V1, "template", True, id="empty-marker-ignored"),
    pytest.param(MODEL, "Profile", V1, "template", True, id="unknown-marker-ignored-case-sensitive"),
    pytest.param(PROFILE_NAME, "legacy", V2, "profile", True, id="unknown-marker-on-spec-profile"),
    pytest.param(
        {**MODEL, **TEMPLATE_NAME}, "profile", V1, "template", True, id="profile-marker-with-template"
    ),
    pytest.param(PROFILE_NAME, "template", V2, "profile", True, id="template-marker-without-model"),
    pytest.param(
        {**MODEL, **PROFILE_NAME}, "template", V2, "profile", True, id="template-marker-on-spec-profile"
    ),
]


@pytest.mark.parametrize(("spec", "marker", "api_version", "expected", "warns"), ROWS)
def test_choose_pipeline(
    spec: dict[str, Any], marker: str | None, api_version: str, expected: str, warns: bool
) -> None:
    pipeline, diagnostics = choose_pipeline(service(spec, marker, api_version))
    assert pipeline == expected
    if not warns:
        assert diagnostics == ()
        return
    (warning,) = diagnostics
    assert warning.level == "warn"
    assert warning.reason == INVALID_RECONCILER_PIPELINE
    assert repr(marker) in warning.message
    assert f"the {expected} pipeline" in warning.message


def test_other_annotations_do_not_count_as_a_marker() -> None:
    obj = parse(
        {
            "apiVersion": V1,
            "kind": "AIMService",
            "metadata": {"name": "chat", "annotations": {"aim.eai.amd.com/force-rebind": "now"}},
            "spec": MODEL,
        }
    )
    assert isinstance(obj, AIMService)
    assert choose_pipeline(obj) == ("template", ())
