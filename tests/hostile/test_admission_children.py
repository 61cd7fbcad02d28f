"""Admission refuses every value that would make a child manifest invalid, naming the AIM field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from aim_pulumi.api import AIMValidationError
from tests.versions import parse

SERVICE: dict[str, Any] = {
    "apiVersion": "aim.eai.amd.com/v1alpha2",
    "kind": "AIMService",
    "metadata": {"name": "svc", "namespace": "ns1", "labels": {"team": "a"}},
    "spec": {"model": {"name": "m1"}, "replicas": 1},
}
PROFILE: dict[str, Any] = {
    "apiVersion": "aim.eai.amd.com/v1alpha2",
    "kind": "AIMProfile",
    "metadata": {"name": "p1", "namespace": "ns1"},
    "spec": {"aimId": "qwen/qwen3", "image": "img:1", "modelId": "Qwen/Qwen3-0.6B"},
}
MODEL: dict[str, Any] = {
    "apiVersion": "aim.eai.amd.com/v1alpha2",
    "kind": "AIMModel",
    "metadata": {"name": "m1", "namespace": "ns1"},
    "spec": {"modelId": "Qwen/Qwen3-0.6B"},
}


def _set(obj: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    *parents, last = path.split(".")
    node = out
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value
    return out


CASES = [
    pytest.param(
        _set(SERVICE, "metadata.labels", {"bad key!": "a"}), "metadata.labels.bad key!", id="label-key"
    ),
    pytest.param(_set(SERVICE, "metadata.labels", {"team": "a b"}), "metadata.labels.team", id="label-value"),
    pytest.param(
        _set(SERVICE, "metadata.labels", {"team": "x" * 64}), "metadata.labels.team", id="label-long"
    ),
    pytest.param(
        _set(SERVICE, "metadata.annotations", {"/x": "v"}), "metadata.annotations./x", id="annotation-key"
    ),
    pytest.param(_set(SERVICE, "metadata.name", "1abc"), "metadata.name", id="isvc-name-digit"),
    pytest.param(_set(SERVICE, "metadata.name", "0"), "metadata.name", id="isvc-name-zero"),
    pytest.param(_set(SERVICE, "spec.replicas", 2**31), "spec.replicas", id="replicas-int32"),
    pytest.param(_set(SERVICE, "spec.maxReplicas", 2**31), "spec.maxReplicas", id="max-replicas-int32"),
    pytest.param(
        _set(SERVICE, "spec.routing", {"enabled": True, "gatewayRef": {"name": "Bad_GW"}}),
        "spec.routing.gatewayRef.name",
        id="gateway-name",
    ),
    pytest.param(
        _set(SERVICE, "spec.routing", {"enabled": True, "gatewayRef": {"name": "gw", "namespace": "X Y"}}),
        "spec.routing.gatewayRef.namespace",
        id="gateway-namespace",
    ),
    pytest.param(
        _set(SERVICE, "spec.routing", {"enabled": True, "gatewayRef": {"name": "gw", "port": 70000}}),
        "spec.routing.gatewayRef.port",
        id="gateway-port",
    ),
    pytest.param(
        _set(SERVICE, "spec.routing", {"enabled": True, "hostnames": ["Not A Host"]}),
        "spec.routing.hostnames[0]",
        id="hostname",
    ),
    pytest.param(
        _set(SERVICE, "spec.routing", {"enabled": True, "annotations": {"a/b/c": "x"}}),
        "spec.routing.annotations.a/b/c",
        id="route-annotation-key",
    ),
    pytest.param(_set(PROFILE, "spec.aimId", "../../../../../etc"), "spec.aimId", id="aimid-dotdot"),
    pytest.param(_set(PROFILE, "spec.aimId", "/etc"), "spec.aimId", id="aimid-absolute"),
    pytest.param(_set(PROFILE, "spec.modelId", "a/../../b"), "spec.modelId", id="profile-modelid-dotdot"),
    pytest.param(_set(MODEL, "spec.modelId", "org/../x"), "spec.modelId", id="model-modelid-dotdot"),
    pytest.param(_set(MODEL, "spec.aimId", "a\\b"), "spec.aimId", id="model-aimid-backslash"),
]


@pytest.mark.parametrize(("manifest", "field"), CASES)
def test_child_breaking_value_is_invalid_spec(manifest: dict[str, Any], field: str) -> None:
    with pytest.raises(AIMValidationError) as info:
        parse(manifest)
    assert (info.value.field, info.value.reason) == (field, "InvalidSpec")


@pytest.mark.parametrize("manifest", [SERVICE, PROFILE, MODEL], ids=["service", "profile", "model"])
def test_baseline_is_admitted(manifest: dict[str, Any]) -> None:
    assert parse(manifest).metadata.name


def test_in_range_values_are_admitted() -> None:
    svc = parse(_set(SERVICE, "spec.replicas", 2**31 - 1))
    assert svc.spec.replicas == 2**31 - 1
    labelled = parse(_set(SERVICE, "metadata.labels", {"example.com/team": "a.b_c-d", "empty": ""}))
    assert labelled.metadata.labels["empty"] == ""


@pytest.mark.parametrize(
    ("path", "value"),
    [
        pytest.param("spec.resources", {"requests": {"cpu": "UPPER"}}, id="cpu-word"),
        pytest.param("spec.resources", {"limits": {"memory": "../../etc/passwd"}}, id="memory-path"),
        pytest.param("spec.resources", {"requests": {"cpu": "99999999999999999999999Ei"}}, id="beyond-int64"),
        pytest.param("spec.resources", {"requests": {"cpu": float("inf")}}, id="infinite"),
    ],
)
def test_quantities_follow_the_kubernetes_grammar(path: str, value: Any) -> None:
    with pytest.raises(AIMValidationError) as info:
        parse(_set(SERVICE, path, value))
    assert info.value.reason == "InvalidSpec"
    assert info.value.field.startswith("spec.resources.")


def test_model_size_beyond_int64_is_refused() -> None:
    with pytest.raises(AIMValidationError) as info:
        parse(_set(MODEL, "spec.source", {"size": "9" * 40}))
    assert info.value.field == "spec.source.size"


def test_errors_never_echo_credential_values() -> None:
    env = [{"name": "HF_TOKEN", "value": ["hf_abcdefsecret"]}]
    with pytest.raises(AIMValidationError) as info:
        parse(_set(SERVICE, "spec.env", env))
    assert info.value.field == "spec.env[0].value"
    assert "hf_abcdefsecret" not in str(info.value)
    assert "value not shown" in info.value.message
