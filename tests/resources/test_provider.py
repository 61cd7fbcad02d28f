"""The component provider: what other Pulumi languages see of the components, and how it serves them."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import aim_pulumi
from aim_pulumi.provider import PACKAGE, AIMComponentProvider, package_schema
from aim_pulumi.resources import COMPONENTS

from .provider_engine import ProviderSession, provider_session

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return package_schema()


def _resolve(schema: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    ref = prop.get("$ref", "")
    assert ref.startswith("#/types/"), prop
    resolved: dict[str, Any] = schema["types"][ref.removeprefix("#/types/")]
    return resolved


def test_the_schema_serves_every_component_with_the_package_version(schema: dict[str, Any]) -> None:
    assert schema["name"] == PACKAGE
    assert schema["version"] == aim_pulumi.__version__ != "0.0.0"
    assert sorted(schema["resources"]) == sorted(f"aim:index:{c.__name__}" for c in COMPONENTS)


def test_the_service_spec_is_a_typed_object(schema: dict[str, Any]) -> None:
    spec = _resolve(schema, schema["resources"]["aim:index:AIMService"]["inputProperties"]["spec"])

    assert spec["type"] == "object"
    assert {"model", "replicas", "routing", "caching"} <= set(spec["properties"])
    assert spec["properties"]["replicas"]["type"] == "integer"
    routing = _resolve(schema, spec["properties"]["routing"])
    gateway = _resolve(schema, routing["properties"]["gatewayRef"])
    assert gateway["required"] == ["name"]
    caching = _resolve(schema, spec["properties"]["caching"])
    mode = _resolve(schema, caching["properties"]["mode"])
    assert [v["value"] for v in mode["enum"]] == ["Shared", "Dedicated"]


@pytest.mark.parametrize(
    "kind", ["AIMModel", "AIMClusterModel", "AIMProfile", "AIMClusterProfile", "AIMRuntimeConfig"]
)
def test_every_catalog_spec_is_typed(schema: dict[str, Any], kind: str) -> None:
    spec = _resolve(schema, schema["resources"][f"aim:index:{kind}"]["inputProperties"]["spec"])
    assert spec["properties"]


def _any_paths(schema: dict[str, Any]) -> set[str]:
    found: set[str] = set()

    def walk(prop: dict[str, Any], path: str) -> None:
        if prop.get("$ref") == "pulumi.json#/Any":
            found.add(path)
        for key in ("items", "additionalProperties"):
            if key in prop:
                walk(prop[key], path)

    for token, definition in schema["types"].items():
        for key, prop in (definition.get("properties") or {}).items():
            walk(prop, f"{token.rsplit(':', 1)[-1]}.{key}")
    return found


def test_only_free_form_fields_are_any(schema: dict[str, Any]) -> None:
    """`pulumi.json#/Any` only where the API itself takes any JSON (engine args, unsupported fields)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import generate_types
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    expected = {
        f"{generate_types.type_name(cls)}.{field.key}"
        for cls in generate_types.ordered_models()
        for field in generate_types.fields_of(cls)
        if any(part.kind == "any" for part in generate_types._walk(field.type))
    }
    # An output free-form as the spec it merges: a runtime config's effective spec.
    expected.add("AIMRuntimeConfigStatus.effectiveSpec")
    assert _any_paths(schema) == expected
    assert "ProfileSelector.engineArgs" in expected and "AIMServiceSpec.replicas" not in expected


def test_enum_values_reach_the_component_as_plain_strings() -> None:
    """The SDK turns a schema enum into its Python member; a component must see what Python passes."""
    provider = AIMComponentProvider()
    definition = provider._component_defs["AIMService"]
    inputs = {"spec": {"caching": {"mode": "Dedicated"}, "routing": {"enabled": True}}}

    mapped: Any = provider.map_inputs(inputs, definition)

    assert mapped == inputs
    assert type(mapped["spec"]["caching"]["mode"]) is str


def test_the_plugin_manifest_runs_the_python_entry_module() -> None:
    manifest = yaml.safe_load((ROOT / "PulumiPlugin.yaml").read_text())
    assert manifest["runtime"]["name"] == "python"
    assert "aim_pulumi.provider import main" in (ROOT / "__main__.py").read_text()


@pytest.fixture(scope="module")
def session() -> Iterator[ProviderSession]:
    with provider_session() as started:
        yield started


def test_the_provider_serves_its_schema_over_grpc(session: ProviderSession, schema: dict[str, Any]) -> None:
    """What `pulumi package get-schema` does: start the plugin, read its port, call GetSchema."""
    assert json.loads(session.get_schema()) == schema


MODEL = {
    "namespace": "ml-team",
    "spec": {
        "modelId": "Qwen/Qwen3-8B",
        "accelerator": {"vendor": "nvidia", "count": 1},
        "source": {"size": "17Gi"},
    },
}


def test_a_model_constructed_for_another_language_is_declared(session: ProviderSession) -> None:
    """Numbers cross the wire as floats; `accelerator.count` must still reach the model as 1."""
    state = session.construct("aim:index:AIMModel", "qwen3-8b", MODEL)

    assert state["modelName"] == "qwen3-8b"
    assert state["spec"]["accelerator"] == {"vendor": "nvidia", "count": 1}
    assert state["status"]["status"] == "Ready"
    assert [p.startswith("qwen3-8b-nvidia-vllm-") for p in state["status"]["generatedProfiles"]] == [True]


def test_an_unknown_key_fails_the_construct_naming_its_path(session: ProviderSession) -> None:
    import grpc

    misspelt = {"namespace": "ml-team", "spec": {**MODEL["spec"], "sourse": {"size": "1Gi"}}}
    with pytest.raises(grpc.RpcError) as failure:
        session.construct("aim:index:AIMModel", "typo", misspelt)

    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "spec.sourse" in (failure.value.details() or "")
    assert "typo" not in [r.name for r in session.monitor.registrations]


def test_a_stack_construct_resolves_its_services_and_registers_the_binding(session: ProviderSession) -> None:
    """One Construct call holds a whole catalog: the service resolves against the model beside it.

    Its sticky binding is the Python dynamic resource, registered by the provider process.
    """
    state = session.construct(
        "aim:index:AIMStack",
        "platform",
        {"path": str(ROOT / "examples" / "yaml-manifests" / "manifests")},
        stack="manifests",
    )

    assert state["objects"] == ["AIMModel/ml-team/qwen3-8b", "AIMService/ml-team/qwen-chat"]
    bindings = [
        r for r in session.monitor.registrations if r.name == "platform-aimservice-ml-team-qwen-chat-binding"
    ]
    # Not the Python dynamic resource: a program of another language has no Python to run it.
    assert [(b.type, b.custom) for b in bindings] == [("aim:index:Binding", True)]
    assert bindings[0].inputs["winner"].startswith("AIMProfile/ml-team/qwen3-8b-nvidia-vllm-")


SERVICE = {
    "namespace": "ml-team",
    "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
    "spec": {
        "model": {"name": "qwen3-8b"},
        "routing": {
            "enabled": True,
            "gatewayRef": {"name": "inference-gateway", "namespace": "gateway-system"},
        },
        "caching": {"mode": "Shared"},
    },
}


def _isvc(session: ProviderSession, name: str) -> dict[str, Any]:
    [found] = [r for r in session.monitor.registrations if r.name == name]
    assert found.type == "kubernetes:serving.kserve.io/v1beta1:InferenceService"
    return found.inputs


def test_a_service_constructed_in_a_later_call_resolves_against_the_model(session: ProviderSession) -> None:
    """The engine's calls for one program: GetSchema, then the model, then the service naming it."""
    served = json.loads(session.get_schema())
    spec = _resolve(served, served["resources"]["aim:index:AIMService"]["inputProperties"]["spec"])
    assert spec["type"] == "object"
    assert {"model", "replicas", "routing", "caching"} <= set(spec["properties"])

    model = session.construct("aim:index:AIMModel", "qwen3-8b", MODEL, stack="two-calls")
    service = session.construct("aim:index:AIMService", "qwen-chat", SERVICE, stack="two-calls")

    [generated] = model["status"]["generatedProfiles"]
    assert service["status"]["resolvedProfile"] == {
        **service["status"]["resolvedProfile"],
        "kind": "AIMProfile",
        "namespace": "ml-team",
        "name": generated,
    }
    isvc = _isvc(session, "qwen-chat-isvc")
    assert isvc["metadata"]["labels"]["aim.eai.amd.com/profile"] == generated
    assert isvc["metadata"]["annotations"]["aim.eai.amd.com/model-id"] == "Qwen/Qwen3-8B"


def test_a_service_of_another_run_does_not_see_the_model(session: ProviderSession) -> None:
    """The catalog is the deployment's: the same service in another stack finds no model."""
    import grpc

    with pytest.raises(grpc.RpcError) as failure:
        session.construct("aim:index:AIMService", "qwen-chat", SERVICE, stack="no-model")

    assert 'AIMService/ml-team/qwen-chat: spec.model.name: ProfileNotFound: model "qwen3-8b"' in (
        failure.value.details() or ""
    )


RUNTIME_CONFIG = {
    "name": "default",
    "namespace": "ml-team",
    "spec": {"env": [{"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"}]},
}


def test_a_catalog_object_constructed_after_a_service_it_changes_fails_naming_it(
    session: ProviderSession,
) -> None:
    """The plan must not depend on the order independent calls arrive in: a late object that would
    change what a service already resolved to fails, asking for the dependency."""
    import grpc

    session.construct("aim:index:AIMModel", "qwen3-8b", MODEL, stack="late")
    session.construct("aim:index:AIMService", "qwen-chat", SERVICE, stack="late")
    # One that changes nothing already resolved is welcome.
    elsewhere = {**MODEL, "namespace": "other-team"}
    session.construct("aim:index:AIMModel", "other", elsewhere, stack="late")

    with pytest.raises(grpc.RpcError) as failure:
        session.construct("aim:index:AIMRuntimeConfig", "ml-default", RUNTIME_CONFIG, stack="late")

    details = failure.value.details() or ""
    assert "AIMRuntimeConfig/ml-team/default" in details
    assert "DeclaredAfterResolution" in details
    assert "AIMService/ml-team/qwen-chat" in details
    assert "dependsOn" in details


def test_the_runtime_config_constructed_first_reaches_the_service(session: ProviderSession) -> None:
    """The same objects in dependency order: the service's InferenceService carries the config's env."""
    session.construct("aim:index:AIMRuntimeConfig", "ml-default", RUNTIME_CONFIG, stack="ordered")
    session.construct("aim:index:AIMModel", "qwen3-8b", MODEL, stack="ordered")
    session.construct(
        "aim:index:AIMService", "ordered-chat", {**SERVICE, "name": "qwen-chat"}, stack="ordered"
    )

    [container] = _isvc(session, "ordered-chat-isvc")["spec"]["predictor"]["containers"]
    env = container["env"]
    assert {"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"} in env


def test_field_descriptions_come_from_the_model_docstrings(schema: dict[str, Any]) -> None:
    from aim_pulumi.api.service import ServiceSpec
    from aim_pulumi.resources.attribute_docs import attribute_docs

    replicas = schema["types"]["aim:index:AIMServiceSpec"]["properties"]["replicas"]
    written = attribute_docs(ServiceSpec)["replicas"]
    assert written
    assert " ".join(replicas["description"].split()) == written


def test_a_failed_construct_says_what_failed_without_frames(session: ProviderSession) -> None:
    """Under `pulumi preview` of another language the SDK appended the component's stack frames to
    an error raised in a component's constructor."""
    import grpc

    bad = {"namespace": "ml-team", "spec": {**MODEL["spec"], "image": "ghcr.io/amd/qwen3:0.8.5"}}
    with pytest.raises(grpc.RpcError) as failure:
        session.construct("aim:index:AIMModel", "both", bad, stack="frames")
    details = failure.value.details() or ""
    assert details.startswith("AIMModel both: spec.modelId: InvalidSpec: set exactly one of"), details
    for leak in ("Traceback", 'File "', "ComponentInitError", "AIMValidationError", "aim_pulumi/"):
        assert leak not in details, details


def test_an_internal_failure_is_said_in_words() -> None:
    """A failure inside the package (a defect a hostile input found) names no exception or frame."""
    from aim_pulumi.api.documents import expand_documents
    from aim_pulumi.provider_server import construct_failure

    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(RecursionError) as raised:
        list(expand_documents([cycle]))
    said = construct_failure(raised.value)
    assert said.startswith(
        "InternalError: the plan stopped inside aim-pulumi (the input is nested too deeply)"
    )
    assert "RecursionError" not in said and "maximum recursion" not in said
    # A user's own mistake keeps its name and words.
    assert construct_failure(KeyError("region")) == "KeyError: 'region'"
