"""A value only the pre-registration child check refuses is reported at the AIM field it came from."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from aim_pulumi.api import AIMValidationError, common
from aim_pulumi.manifests import child_admission as children
from aim_pulumi.manifests.child_admission import check_children, value_origin
from aim_pulumi.resources import AIMRuntimeConfig

from .catalog import GATEWAY, IMAGE, NS, P1, by_model, declare_catalog, declare_service

ISVC_CPU = "spec.predictor.containers[0].resources.limits[cpu]"
ISVC_IMAGE = "spec.predictor.containers[0].image"


def _stricter_schema(
    monkeypatch: pytest.MonkeyPatch, kind: str, field: str, refuse: Callable[[Any], bool], message: str
) -> None:
    """The vendored schemas plus one rule admission does not know: `field` of `kind` refuses values."""
    original = children.validate_manifest

    def validate(manifest: Mapping[str, Any], **kwargs: Any) -> list[str]:
        errors = original(manifest, **kwargs)
        if manifest.get("kind") == kind:
            value = children._at(manifest, children._tokens(field))
            if value is not None and refuse(value):
                errors.append(f'{field}: Invalid value: "{value}": {message}')
        return errors

    monkeypatch.setattr(children, "validate_manifest", validate)


def _failure(failed_run: Any, program: Callable[[], None]) -> AIMValidationError:
    error, registered = failed_run(program)
    assert [r for r in registered if r[0].startswith(("kubernetes:", "pulumi-python:dynamic"))] == []
    assert isinstance(error, AIMValidationError), error
    return error


def test_a_service_field_is_named_for_a_refused_container_limit(
    failed_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stricter_schema(monkeypatch, "InferenceService", ISVC_CPU, lambda v: v == "7", "seven is refused here")

    def program() -> None:
        declare_catalog()
        declare_service("chat", by_model(resources={"limits": {"cpu": "7"}}))

    error = _failure(failed_run, program)

    assert (error.object_ref, error.field, error.reason) == (
        f"AIMService/{NS}/chat",
        "spec.resources.limits.cpu",
        "InvalidSpec",
    )
    assert f"at {ISVC_CPU}: " in error.message and "seven is refused here" in error.message
    assert "InferenceService" in error.message


def test_a_profile_field_is_named_when_the_profile_supplied_the_value(
    failed_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stricter_schema(
        monkeypatch, "InferenceService", ISVC_IMAGE, lambda v: v == IMAGE, "this registry is refused"
    )

    def program() -> None:
        declare_catalog()
        declare_service("chat", {"profile": {"name": P1}})

    error = _failure(failed_run, program)

    assert (error.object_ref, error.field) == (f"AIMProfile/{NS}/{P1}", "spec.image")
    assert f"of AIMService/{NS}/chat" in error.message and "this registry is refused" in error.message


def test_a_runtime_config_field_is_named_for_a_route_annotation_it_supplied(
    failed_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without admission's rule for routing annotation keys, the HTTPRoute's metadata check refuses it.
    monkeypatch.setattr(common, "routing_annotation_rules", lambda annotations: [])

    def program() -> None:
        declare_catalog()
        AIMRuntimeConfig(
            f"{NS}-default",
            {
                "name": "default",
                "namespace": NS,
                "spec": {
                    "routing": {"enabled": True, "gatewayRef": dict(GATEWAY), "annotations": {"a/b/c": "x"}}
                },
            },
        )
        declare_service("chat", by_model())

    error = _failure(failed_run, program)

    assert (error.object_ref, error.field) == (
        f"AIMRuntimeConfig/{NS}/default",
        "spec.routing.annotations.a/b/c",
    )
    assert "HTTPRoute" in error.message and "at metadata.annotations" in error.message
    assert "qualified name" in error.message


def test_a_value_with_several_origins_names_the_child_field_and_says_so(
    failed_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The service's own limit equals its request: two AIM fields, both `cpu`, hold the value.
    _stricter_schema(monkeypatch, "InferenceService", ISVC_CPU, lambda v: v == "7", "seven is refused here")

    def program() -> None:
        declare_catalog()
        declare_service("chat", by_model(resources={"limits": {"cpu": "7"}, "requests": {"cpu": "7"}}))

    error = _failure(failed_run, program)

    assert (error.object_ref, error.field) == (f"AIMService/{NS}/chat", ISVC_CPU)
    assert "no single AIM field of origin" in error.message


def test_a_derived_value_names_the_child_field_and_says_so(
    failed_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # AIM_PROFILE_ID is derived from the profile; no AIM field holds it as it is.
    env_value = "spec.predictor.containers[0].env[0].value"
    _stricter_schema(monkeypatch, "InferenceService", env_value, lambda v: "custom/" in str(v), "derived")

    def program() -> None:
        declare_catalog()
        declare_service("chat", by_model())

    error = _failure(failed_run, program)

    assert error.field == env_value and "no single AIM field of origin" in error.message


def test_an_env_value_is_never_echoed(failed_run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "hf_sup3r-s3cret-token"
    _stricter_schema(
        monkeypatch,
        "InferenceService",
        "spec.predictor.containers[0].env[0].value",
        lambda v: v == secret,
        "refused",
    )

    def program() -> None:
        declare_catalog()
        AIMRuntimeConfig(
            f"{NS}-default",
            {"name": "default", "namespace": NS, "spec": {"env": [{"name": "HF_TOKEN", "value": secret}]}},
        )
        declare_service("chat", by_model())

    error = _failure(failed_run, program)

    assert (error.object_ref, error.field) == (f"AIMRuntimeConfig/{NS}/default", "spec.env[0].value")
    assert secret not in str(error)


@pytest.mark.parametrize(
    ("child_field", "detail", "expected"),
    [
        pytest.param(
            "metadata.labels[team]",
            'Invalid value: "a b": bad',
            ("AIMService/n/s", "metadata.labels.team"),
            id="label-value",
        ),
        pytest.param(
            "metadata.labels",
            'Invalid value: "bad key!": bad',
            ("AIMService/n/s", "metadata.labels.bad key!"),
            id="label-key",
        ),
        pytest.param("spec.minReplicas", "Invalid value: 3: bad", None, id="number-under-another-name"),
        pytest.param("spec.other", 'Invalid value: "nowhere": bad', None, id="not-found"),
    ],
)
def test_value_origin(child_field: str, detail: str, expected: tuple[str, str] | None) -> None:
    service = {"metadata": {"name": "s", "labels": {"team": "a b", "bad key!": "v"}}, "spec": {"replicas": 3}}

    assert value_origin({}, child_field, detail, [("AIMService/n/s", service)]) == expected


def test_without_sources_the_child_field_is_named() -> None:
    bad = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cm", "namespace": "n", "labels": {"k": "a b"}},
    }

    with pytest.raises(AIMValidationError) as caught:
        check_children([bad], "AIMService/n/s")

    assert (caught.value.object_ref, caught.value.field) == ("AIMService/n/s", "metadata.labels[k]")
    assert (
        "ConfigMap/n/cm" in caught.value.message and "no single AIM field of origin" in caught.value.message
    )
