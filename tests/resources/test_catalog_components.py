"""Profiles, models and runtime configs: catalog data with no Kubernetes children, and their status."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from aim_pulumi.api import AIMValidationError
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resources import (
    AIMClusterModel,
    AIMClusterProfile,
    AIMClusterRuntimeConfig,
    AIMModel,
    AIMProfile,
    AIMRuntimeConfig,
    AIMService,
    current_registry,
)
from tests.versions import parse

from .catalog import NS, model_labels, profile_spec


def test_catalog_components_register_themselves_and_nothing_else(recording: Any) -> None:
    def program() -> None:
        AIMClusterRuntimeConfig("rc", {"name": "default", "spec": {"env": [{"name": "A", "value": "1"}]}})
        AIMModel("m", {"namespace": NS, "spec": {"image": "img:1"}})
        AIMProfile("p", {"namespace": NS, "spec": profile_spec()})

    rec = recording(program)

    assert [(r.type, r.name) for r in rec.resources] == [
        ("aim:index:AIMClusterRuntimeConfig", "rc"),
        ("aim:index:AIMModel", "m"),
        ("aim:index:AIMProfile", "p"),
    ]
    assert all(r.parent.endswith("Stack::aim-dev") for r in rec.resources)


@pytest.mark.parametrize(
    ("component", "args", "expected"),
    [
        pytest.param(
            AIMProfile,
            {"namespace": NS, "labels": model_labels(), "spec": profile_spec()},
            {
                "status": "Ready",
                "available": True,
                "role": "deployable",
                "origin": "user-authored",
                "labels": {"aim.eai.amd.com/source-model": "qwen"},
                "version": "0.8.5",
            },
            id="namespaced-profile-version-from-image-tag",
        ),
        pytest.param(
            AIMClusterProfile,
            {
                "labels": {"aim.eai.amd.com/profile-role": "base"},
                "spec": profile_spec(image="img@sha256:abc"),
            },
            {
                "status": "Ready",
                "available": True,
                "role": "base",
                "origin": "user-authored",
                "labels": {"aim.eai.amd.com/profile-role": "base"},
            },
            id="cluster-base-profile-without-version",
        ),
    ],
)
def test_profile_status(
    recording: Any, component: Any, args: dict[str, Any], expected: dict[str, Any]
) -> None:
    rec = recording(lambda: component("p", args))

    outputs = rec.outputs_of("p")
    assert outputs["status"] == expected
    assert outputs["spec"] == args["spec"]
    assert outputs["profileName"] == "p"


def test_the_inventory_decides_profile_availability(recording: Any) -> None:
    inventory = '[{"vendor": "amd", "type": "gpu", "model": "MI325X", "devices": 8}]'

    rec = recording(
        lambda: AIMProfile("p", {"namespace": NS, "spec": profile_spec()}),
        config={"aim:inventory": inventory},
    )

    assert rec.outputs_of("p")["status"]["available"] is False
    assert rec.outputs_of("p")["status"]["status"] == "NotAvailable"


def test_an_id_backed_model_exports_its_generated_profiles(recording: Any) -> None:
    def program() -> None:
        AIMClusterModel(
            "llama", {"spec": {"modelId": "meta/llama-3", "accelerator": {"vendor": "nvidia", "count": 2}}}
        )
        # Nothing listens on port 9 here: the image cannot be discovered, which its status says.
        AIMModel("image-model", {"namespace": NS, "spec": {"image": "127.0.0.1:9/aim/img:1"}})

    rec = recording(program)

    llama = rec.outputs_of("llama")["status"]
    assert llama["status"] == "Ready" and llama["source"] == "modelId"
    assert len(llama["generatedProfiles"]) == 1 and llama["generatedProfiles"][0].startswith(
        "llama-nvidia-vllm-"
    )
    image_model = rec.outputs_of("image-model")["status"]
    assert (image_model["source"], image_model["generatedProfiles"]) == ("image", [])
    assert image_model["status"] == "Degraded"
    assert [(c["type"], c["reason"]) for c in image_model["conditions"]] == [
        ("ProfilesDiscovered", "RegistryUnreachable")
    ]


def test_a_model_whose_runtime_config_is_missing_reports_it(recording: Any) -> None:
    rec = recording(
        lambda: AIMModel("m", {"namespace": NS, "spec": {"modelId": "org/m", "runtimeConfigName": "nope"}})
    )

    status = rec.outputs_of("m")["status"]
    assert status["status"] == "Failed"
    assert status["conditions"][0]["reason"] == "ReferenceNotFound"
    assert any("ReferenceNotFound" in m for m in rec.messages("warning", urn=rec.by_name("m").urn))


def test_a_namespaced_runtime_config_exports_its_merge_over_the_cluster_config(recording: Any) -> None:
    def program() -> None:
        AIMClusterRuntimeConfig(
            "cluster", {"name": "default", "spec": {"routing": {"enabled": True, "pathTemplate": "/a"}}}
        )
        AIMRuntimeConfig("ns", {"name": "default", "namespace": NS, "spec": {"routing": {"enabled": False}}})

    rec = recording(program)

    assert rec.outputs_of("ns")["status"]["effectiveSpec"] == {
        "routing": {"enabled": False, "pathTemplate": "/a"}
    }
    assert rec.outputs_of("cluster")["status"]["effectiveSpec"] == {
        "routing": {"enabled": True, "pathTemplate": "/a"}
    }


@pytest.mark.parametrize(
    ("declare", "field"),
    [
        pytest.param(
            lambda: AIMProfile(
                "p",
                {
                    "namespace": NS,
                    "spec": {"image": "x", "modelSources": [{"modelId": "org/m", "sourceUri": "hf://org/m"}]},
                },
            ),
            "spec.aimId",
            id="model-sources-without-aim-id",
        ),
        pytest.param(
            lambda: AIMClusterProfile("p", {"namespace": NS, "spec": profile_spec()}),  # type: ignore[typeddict-unknown-key]
            "metadata.namespace",
            id="cluster-kind-with-namespace",
        ),
        pytest.param(
            lambda: AIMProfile(
                "p", {"namespace": NS, "spec": profile_spec(image=pulumi.Output.from_input("x"))}
            ),
            "spec.image",
            id="output-in-catalog-data",
        ),
        pytest.param(
            lambda: AIMModel("m", {"namespace": NS, "spec": {"image": "a", "modelId": "b"}}),
            "spec",
            id="model-both-anchors",
        ),
    ],
)
def test_invalid_catalog_objects_fail_before_registering(recording: Any, declare: Any, field: str) -> None:
    registered: list[int] = []

    def program() -> None:
        try:
            declare()
        finally:
            registered.append(len(current_registry().catalog))

    with pytest.raises(AIMValidationError) as caught:
        recording(program)
    assert caught.value.field.startswith(field)
    assert registered == [0], "nothing reached the catalog"


def test_the_same_object_twice_is_harmless_but_a_conflicting_one_fails(recording: Any) -> None:
    def program() -> None:
        AIMProfile("first", {"name": "p", "namespace": NS, "spec": profile_spec()})
        AIMProfile("again", {"name": "p", "namespace": NS, "spec": profile_spec()})
        AIMProfile("conflict", {"name": "p", "namespace": NS, "spec": profile_spec(precision="fp16")})

    with pytest.raises(AIMResolutionError) as caught:
        recording(program)
    assert caught.value.reason == "DuplicateObject"


@pytest.mark.parametrize(
    ("manifest", "component", "resource_name"),
    [
        pytest.param(
            {"kind": "AIMProfile", "metadata": {"name": "p", "namespace": NS}, "spec": profile_spec()},
            AIMProfile,
            f"{NS}-p",
            id="namespaced",
        ),
        pytest.param(
            {"kind": "AIMClusterProfile", "metadata": {"name": "c"}, "spec": profile_spec()},
            AIMClusterProfile,
            "c",
            id="cluster",
        ),
        pytest.param(
            {"kind": "AIMModel", "metadata": {"name": "m", "namespace": NS}, "spec": {"image": "i"}},
            AIMModel,
            f"{NS}-m",
            id="model",
        ),
        pytest.param(
            {
                "apiVersion": "aim.eai.amd.com/v1alpha1",
                "kind": "AIMRuntimeConfig",
                "metadata": {"name": "r"},
                "spec": {},
            },
            AIMRuntimeConfig,
            "default-r",
            id="runtime-config-in-default-namespace",
        ),
    ],
)
def test_from_object_names_the_component_after_the_object(
    recording: Any, manifest: dict[str, Any], component: Any, resource_name: str
) -> None:
    manifest = {"apiVersion": "aim.eai.amd.com/v1alpha2", **manifest}
    obj = parse(manifest)

    rec = recording(lambda: component.from_object(obj))

    assert rec.names() == [resource_name]
    assert rec.by_name(resource_name).type == f"aim:index:{component.__name__}"


def test_a_profile_declared_with_status_keeps_it(recording: Any) -> None:
    obj = parse(
        {
            "apiVersion": "aim.eai.amd.com/v1alpha2",
            "kind": "AIMProfile",
            "metadata": {"name": "p", "namespace": NS},
            "spec": profile_spec(),
            "status": {"status": "NotAvailable", "version": "2.0.0"},
        }
    )

    rec = recording(lambda: AIMProfile.from_object(obj))  # type: ignore[arg-type]

    status = rec.outputs_of(f"{NS}-p")["status"]
    assert (status["status"], status["available"], status["version"]) == ("NotAvailable", False, "2.0.0")


def test_spec_and_status_outputs_are_known_plain_values_with_no_dependencies(recording: Any) -> None:
    """They hold what `from_input` would: the same value, known, not secret, depending on nothing."""
    seen: dict[str, Any] = {}

    def program() -> None:
        profile = AIMProfile("p", {"namespace": NS, "labels": model_labels(), "spec": profile_spec()})
        for name in ("spec", "status"):
            output = getattr(profile, name)
            deep = pulumi.Output.from_input(output)
            pulumi.Output.all(output, deep).apply(lambda pair, name=name: seen.update({name: pair}))

    rec = recording(program)

    assert seen["spec"][0] == seen["spec"][1] == rec.outputs_of("p")["spec"]
    assert seen["status"][0] == seen["status"][1] == rec.outputs_of("p")["status"]
    assert seen["spec"][0]["aimId"] == profile_spec()["aimId"]


def test_a_known_output_is_known_not_secret_and_has_no_resources() -> None:
    import asyncio

    from aim_pulumi.resources.outputs import known_output

    async def state() -> tuple[Any, ...]:
        output = known_output({"a": [1, {"b": None}]})
        return (
            await output.future(),
            await output.is_known(),
            await output.is_secret(),
            await output.resources(),
        )

    assert asyncio.run(state()) == ({"a": [1, {"b": None}]}, True, False, set())


@pytest.mark.parametrize(
    ("declare", "key", "suggestion"),
    [
        pytest.param(
            lambda: AIMService("chat", {"namspace": NS, "spec": {"model": {"name": "m"}}}),  # type: ignore[typeddict-unknown-key]
            "namspace",
            "namespace",
            id="service-namespace",
        ),
        pytest.param(
            lambda: AIMService("chat", {"namespace": NS, "skipAwiat": True, "spec": {}}),  # type: ignore[typeddict-unknown-key]
            "skipAwiat",
            "skipAwait",
            id="service-option",
        ),
        pytest.param(
            lambda: AIMProfile("p", {"namespace": NS, "specs": profile_spec()}),  # type: ignore[typeddict-unknown-key]
            "specs",
            "spec",
            id="profile-spec",
        ),
    ],
)
def test_a_misspelt_argument_is_an_unknown_field_with_a_suggestion(
    recording: Any, declare: Any, key: str, suggestion: str
) -> None:
    """Ignored, `namspace` would deploy to `default` and `skipAwiat` would wait: both are refused."""
    with pytest.raises(AIMValidationError) as caught:
        recording(declare)
    assert (caught.value.field, caught.value.reason) == (key, "UnknownField")
    assert f"did you mean `{suggestion}`?" in caught.value.message
