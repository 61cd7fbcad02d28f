"""Runtime-config and profileOverrides env values that are Outputs reach workloads only by reference."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pulumi
import pytest
from pulumi.runtime import rpc

from aim_pulumi.api import AIMValidationError
from aim_pulumi.offline.engine import PlanRecording
from aim_pulumi.resources import AIMClusterProfile, AIMRuntimeConfig
from aim_pulumi.resources.secrets import OUTPUT_NOT_ALLOWED

from .catalog import (
    ISVC,
    JOB,
    NS,
    P1,
    SECRET,
    by_model,
    declare_catalog,
    declare_cluster_config,
    declare_service,
    invalid_manifests,
)

TOKEN = "s3-s3cr3t-plaintext"
PLAIN = "plain-value-visible"


def _secret_free(value: Any) -> Any:
    if rpc.is_rpc_secret(value):
        return "[secret]"
    if isinstance(value, dict):
        return {k: _secret_free(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_secret_free(v) for v in value]
    return value


def _assert_only_secrets_hold(rec: PlanRecording, plaintext: str) -> None:
    """The value is in no input, output or log except under a Pulumi secret, and only Secrets hold it."""
    for resource in rec.resources:
        assert plaintext not in json.dumps(_secret_free(resource.inputs)), resource.name
        assert plaintext not in json.dumps(_secret_free(resource.outputs)), resource.name
        if plaintext in json.dumps(resource.inputs):
            assert resource.type == SECRET, resource.name
    assert plaintext not in json.dumps(_secret_free(rec.outputs))
    assert all(plaintext not in record.message for record in rec.logs)
    assert invalid_manifests(rec.resources) == {}


def _namespace_config(env: list[dict[str, Any]], **spec: Any) -> AIMRuntimeConfig:
    return AIMRuntimeConfig(
        f"{NS}-default", {"name": "default", "namespace": NS, "spec": {"env": env, **spec}}
    )


def _env(rec: PlanRecording, kind: str = ISVC) -> dict[str, dict[str, Any]]:
    (workload,) = rec.of_type(kind)
    pod = (
        workload.manifest["spec"]["predictor"]
        if kind == ISVC
        else workload.manifest["spec"]["template"]["spec"]
    )
    return {e["name"]: e for e in pod["containers"][0]["env"]}


def _secret_data(rec: PlanRecording, name: str) -> dict[str, Any]:
    secrets = {r.manifest["metadata"]["name"]: r for r in rec.of_type(SECRET)}
    assert name in secrets, sorted(secrets)
    assert rpc.is_rpc_secret(secrets[name].inputs["stringData"])
    data: dict[str, Any] = secrets[name].manifest["stringData"]
    return data


def _ref(secret: str, key: str) -> dict[str, Any]:
    return {"name": key, "valueFrom": {"secretKeyRef": {"name": secret, "key": key}}}


def test_a_namespace_config_secret_declared_after_the_service_is_referenced(recording: Any) -> None:
    def program() -> None:
        declare_catalog()
        declare_service("chat", by_model())
        _namespace_config(
            [
                {"name": "AWS_SECRET_ACCESS_KEY", "value": pulumi.Output.secret(TOKEN)},
                {"name": "P", "value": PLAIN},
            ]
        )

    rec = recording(program)

    (isvc,) = rec.of_type(ISVC)
    secret_name = f"{isvc.manifest['metadata']['name']}-env"
    env = _env(rec)
    assert env["AWS_SECRET_ACCESS_KEY"] == _ref(secret_name, "AWS_SECRET_ACCESS_KEY")
    assert env["P"] == {"name": "P", "value": PLAIN}
    assert _secret_data(rec, secret_name) == {"AWS_SECRET_ACCESS_KEY": TOKEN}
    (secret,) = rec.of_type(SECRET)
    assert secret.urn in isvc.dependencies
    _assert_only_secrets_hold(rec, TOKEN)
    # The config's own outputs keep the value a secret: spec and effectiveSpec are secret as a whole.
    outputs = rec.outputs_of(f"{NS}-default")
    assert rpc.is_rpc_secret(outputs["spec"]) and rpc.is_rpc_secret(outputs["status"])
    assert outputs["status"]["value"]["effectiveSpec"]["env"][0]["value"] == TOKEN


@pytest.mark.parametrize(
    ("cluster", "namespace", "service", "overrides", "winner"),
    [
        pytest.param("secret", None, None, None, "secret", id="cluster-secret"),
        pytest.param("secret", "plain", None, None, "plain", id="namespace-plain-over-cluster-secret"),
        pytest.param("plain", "secret", None, None, "secret", id="namespace-secret-over-cluster-plain"),
        pytest.param(None, "secret", "plain", None, "plain", id="service-env-plain-over-config-secret"),
        pytest.param(
            None, "plain", None, "secret", "secret", id="profile-overrides-secret-over-config-plain"
        ),
        pytest.param(None, "secret", None, "plain", "plain", id="profile-overrides-plain-over-config-secret"),
        pytest.param(None, None, None, "secret", "secret", id="profile-overrides-secret"),
    ],
)
def test_the_winning_layer_decides_whether_the_value_is_a_reference(
    recording: Any,
    cluster: str | None,
    namespace: str | None,
    service: str | None,
    overrides: str | None,
    winner: str,
) -> None:
    def value(form: str, layer: str) -> Any:
        return pulumi.Output.secret(f"{TOKEN}-{layer}") if form == "secret" else f"{PLAIN}-{layer}"

    def entry(form: str | None, layer: str) -> list[dict[str, Any]]:
        return [] if form is None else [{"name": "CREDENTIAL", "value": value(form, layer)}]

    # profileOverrides applies to a seed profile named by the service.
    spec: dict[str, Any] = {"profile": {"name": P1}} if overrides else by_model()
    if service:
        spec["env"] = entry(service, "service")
    if overrides:
        spec["profileOverrides"] = {"containerEnv": entry(overrides, "overrides")}

    def program() -> None:
        declare_catalog()
        if cluster:
            declare_cluster_config({"env": entry(cluster, "cluster")})
        if namespace:
            _namespace_config(entry(namespace, "namespace"))
        declare_service("chat", spec)

    rec = recording(program)

    layers = [(cluster, "cluster"), (namespace, "namespace"), (service, "service"), (overrides, "overrides")]
    top = [layer for form, layer in layers if form][-1]
    got = _env(rec)["CREDENTIAL"]
    (isvc,) = rec.of_type(ISVC)
    secret_name = f"{isvc.manifest['metadata']['name']}-env"
    if winner == "secret":
        assert got == _ref(secret_name, "CREDENTIAL")
        assert _secret_data(rec, secret_name) == {"CREDENTIAL": f"{TOKEN}-{top}"}
    else:
        assert got == {"name": "CREDENTIAL", "value": f"{PLAIN}-{top}"}
        assert rec.of_type(SECRET) == []
    for form, layer in layers:
        if form == "secret":
            _assert_only_secrets_hold(rec, f"{TOKEN}-{layer}")


@pytest.mark.parametrize("mode", ["Shared", "Dedicated"])
def test_a_download_job_reads_a_config_secret_from_its_own_secret(recording: Any, mode: str) -> None:
    def program() -> None:
        declare_catalog()
        _namespace_config([{"name": "HF_TOKEN", "value": pulumi.Output.secret(TOKEN)}])
        declare_service("chat", by_model(caching={"mode": mode}))

    rec = recording(program)

    (job,) = rec.of_type(JOB)
    secret_name = f"{job.manifest['metadata']['name']}-env"
    assert _env(rec, JOB)["HF_TOKEN"] == _ref(secret_name, "HF_TOKEN")
    assert _secret_data(rec, secret_name)["HF_TOKEN"] == TOKEN
    secrets = {r.manifest["metadata"]["name"]: r for r in rec.of_type(SECRET)}
    assert secrets[secret_name].urn in job.dependencies
    assert secrets[secret_name].parent == job.parent
    _assert_only_secrets_hold(rec, TOKEN)


def test_a_plain_output_also_goes_by_reference(recording: Any) -> None:
    def program() -> None:
        declare_catalog()
        _namespace_config([{"name": "ENDPOINT", "value": pulumi.Output.from_input("https://s3.example")}])
        declare_service("chat", by_model())

    rec = recording(program)

    (isvc,) = rec.of_type(ISVC)
    secret_name = f"{isvc.manifest['metadata']['name']}-env"
    assert _env(rec)["ENDPOINT"] == _ref(secret_name, "ENDPOINT")
    assert _secret_data(rec, secret_name) == {"ENDPOINT": "https://s3.example"}
    assert invalid_manifests(rec.resources) == {}


def _unknown_secret() -> pulumi.Output[str]:
    """A secret a preview cannot know yet (another resource's output before it exists)."""
    loop = asyncio.get_event_loop()

    def done(value: Any) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = loop.create_future()
        future.set_result(value)
        return future

    return pulumi.Output(set(), done(None), done(False), done(True))


def test_an_unknown_secret_in_a_preview_neither_leaks_nor_crashes(recording: Any) -> None:
    def program() -> None:
        declare_catalog()
        _namespace_config([{"name": "HF_TOKEN", "value": _unknown_secret()}])
        declare_service("chat", by_model())

    rec = recording(program)

    (isvc,) = rec.of_type(ISVC)
    secret_name = f"{isvc.manifest['metadata']['name']}-env"
    assert _env(rec)["HF_TOKEN"] == _ref(secret_name, "HF_TOKEN")
    (secret,) = rec.of_type(SECRET)
    assert secret.manifest["metadata"]["name"] == secret_name
    assert "__AIM_OUTPUT" not in json.dumps([r.inputs for r in rec.resources], default=repr)
    assert rpc.is_rpc_secret(secret.inputs["stringData"])  # unknown, and secret once known


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        pytest.param(
            {"routing": {"enabled": True, "pathTemplate": pulumi.Output.from_input("/x")}},
            "routing.pathTemplate",
            id="routing",
        ),
        pytest.param(
            {"env": [{"name": pulumi.Output.from_input("X"), "value": "v"}]}, "env[0].name", id="env-name"
        ),
        pytest.param(
            {"env": [{"name": "AIM_ENGINE_ARGS", "value": pulumi.Output.secret('{"a": 1}')}]},
            "spec.env[0].value",
            id="merged-engine-args",
        ),
    ],
)
def test_outputs_anywhere_else_in_a_runtime_config_are_refused(
    failed_run: Any, spec: dict[str, Any], field: str
) -> None:
    error, registered = failed_run(lambda: AIMRuntimeConfig("rc", {"namespace": NS, "spec": spec}))

    assert isinstance(error, AIMValidationError)
    assert error.reason == OUTPUT_NOT_ALLOWED
    assert error.field.endswith(field)
    assert [r for r in registered if r[0].startswith("kubernetes:")] == []


def test_a_profile_env_output_is_still_refused(failed_run: Any) -> None:
    spec = {
        "aimId": "a/b",
        "image": "x/y:1",
        "containerEnv": [{"name": "T", "value": pulumi.Output.secret(TOKEN)}],
    }

    error, _ = failed_run(lambda: AIMClusterProfile("p", {"spec": spec}))

    assert isinstance(error, AIMValidationError) and error.reason == OUTPUT_NOT_ALLOWED
    assert TOKEN not in str(error)


def test_a_rule_about_the_enclosing_object_is_not_blamed_on_an_output_inside_it(failed_run: Any) -> None:
    # profileOverrides needs a seed profile named by the service; the secret inside is not the problem.
    overrides = {"containerEnv": [{"name": "T", "value": pulumi.Output.secret(TOKEN)}]}

    def program() -> None:
        declare_catalog()
        declare_service("chat", by_model(profileOverrides=overrides))

    error, _ = failed_run(program)

    assert isinstance(error, AIMValidationError)
    assert (error.field, error.reason) == ("spec.profileOverrides", "InvalidSpec")
    assert "spec.profile.name" in error.message and TOKEN not in str(error)


def test_a_secret_of_a_config_in_a_namespace_output_is_referenced(recording: Any) -> None:
    import pulumi_kubernetes as k8s

    def program() -> None:
        declare_catalog("team-b")
        declare_service("chat", by_model(), namespace="team-b")
        ns = k8s.core.v1.Namespace("team-b", metadata={"name": "team-b"})
        AIMRuntimeConfig(
            "rc",
            {
                "name": "default",
                "namespace": ns.metadata.name,
                "spec": {"env": [{"name": "HF_TOKEN", "value": pulumi.Output.secret(TOKEN)}]},
            },
        )

    rec = recording(program)

    (isvc,) = rec.of_type(ISVC)
    assert isvc.manifest["metadata"]["namespace"] == "team-b"
    secret_name = f"{isvc.manifest['metadata']['name']}-env"
    assert _env(rec)["HF_TOKEN"] == _ref(secret_name, "HF_TOKEN")
    assert _secret_data(rec, secret_name) == {"HF_TOKEN": TOKEN}
    _assert_only_secrets_hold(rec, TOKEN)
