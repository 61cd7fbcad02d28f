"""AIMStack: every object of an AIM YAML file or directory, declared in a fixed order and named per §14."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMValidationError
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resources import AIMStack
from aim_pulumi.resources.resolutions import observe_resolutions

from .catalog import IMAGE, ISVC, NS, deployed, invalid_manifests, model_labels, profile_spec

CATALOG_DOCS: list[dict[str, Any]] = [
    {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMRuntimeConfig",
        "metadata": {"name": "default", "namespace": NS},
        "spec": {"routing": {"enabled": True, "gatewayRef": {"name": "gw"}}},
    },
    {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMModel",
        "metadata": {"name": "qwen", "namespace": NS},
        "spec": {"image": IMAGE},
    },
    {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMProfile",
        "metadata": {"name": "qwen-fp8", "namespace": NS, "labels": model_labels()},
        "spec": profile_spec(primary=True),
    },
    {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMClusterProfile",
        "metadata": {"name": "qwen-mi325x", "labels": model_labels()},
        "spec": profile_spec(acceleratorModel="MI325X"),
    },
    {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMServiceTemplate",
        "metadata": {"name": "qwen-latency", "namespace": NS},
        "spec": {
            "modelName": "qwen",
            "metric": "latency",
            "precision": "fp8",
            "hardware": {"gpu": {"requests": 1}},
            "modelSources": [{"name": "qwen/qwen3-32b", "sourceURI": "hf://qwen/qwen3-32b", "size": "20Gi"}],
        },
    },
]
SERVICE_DOCS: list[dict[str, Any]] = [
    {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMService",
        "metadata": {"name": "chat", "namespace": NS},
        "spec": {"profile": {"name": "qwen-fp8"}},
    },
    {
        "apiVersion": "aim.eai.amd.com/v1alpha1",
        "kind": "AIMService",
        "metadata": {"name": "legacy", "namespace": NS},
        "spec": {"model": {"name": "qwen"}, "templateName": "qwen-latency"},
    },
]


def write_docs(path: Path, docs: list[dict[str, Any]]) -> Path:
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return path


def test_every_object_becomes_a_component_named_after_the_stack(recording: Any, tmp_path: Path) -> None:
    source = write_docs(tmp_path / "aim.yaml", SERVICE_DOCS + CATALOG_DOCS)

    rec = recording(lambda: AIMStack("prod", {"path": str(source)}))

    stack = rec.by_name("prod")
    assert stack.type == "aim:index:AIMStack"
    assert [(r.type, r.name) for r in rec.children(stack)] == [
        ("aim:index:AIMRuntimeConfig", f"prod-aimruntimeconfig-{NS}-default"),
        ("aim:index:AIMModel", f"prod-aimmodel-{NS}-qwen"),
        ("aim:index:AIMClusterProfile", "prod-aimclusterprofile-qwen-mi325x"),
        ("aim:index:AIMProfile", f"prod-aimprofile-{NS}-qwen-fp8"),
        ("aim:index:AIMService", f"prod-aimservice-{NS}-chat"),
        ("aim:index:AIMService", f"prod-aimservice-{NS}-legacy"),
    ], "catalog objects first, whatever the file order; templates are catalog data only"
    assert invalid_manifests(rec.resources) == {}


def test_services_resolve_against_the_loaded_catalog_including_templates(
    recording: Any, tmp_path: Path
) -> None:
    source = write_docs(tmp_path / "aim.yaml", SERVICE_DOCS + CATALOG_DOCS)

    rec = recording(lambda: AIMStack("prod", {"path": str(source)}))

    services = rec.outputs_of("prod")["services"]
    assert services[f"{NS}/chat"]["resolvedProfile"]["name"] == "qwen-fp8"
    assert services[f"{NS}/chat"]["routing"]["path"].startswith(f"/{NS}/")
    assert services[f"{NS}/legacy"]["reconcilerPipeline"] == "template"
    assert services[f"{NS}/legacy"]["resolvedTemplate"]["name"] == "qwen-latency"
    assert len(rec.of_type(ISVC)) == 2
    assert rec.outputs_of("prod")["objects"][0] == f"AIMRuntimeConfig/{NS}/default"


def test_file_and_document_order_change_nothing(recording: Any, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    write_docs(one / "all.yaml", CATALOG_DOCS + SERVICE_DOCS)
    write_docs(two / "a-services.yml", list(reversed(SERVICE_DOCS)))
    write_docs(two / "b-catalog.yaml", list(reversed(CATALOG_DOCS)))

    def recorded(path: Path) -> str:
        rec = recording(lambda: AIMStack("prod", {"path": str(path)}))
        return json.dumps(sorted([r.name, r.type, r.inputs] for r in rec.resources), sort_keys=True)

    assert recorded(one) == recorded(two)


def test_service_options_apply_to_every_service(recording: Any, tmp_path: Path) -> None:
    source = write_docs(tmp_path / "aim.yaml", CATALOG_DOCS + SERVICE_DOCS)

    rec = recording(lambda: AIMStack("prod", {"path": str(source), "skipAwait": True}))

    for isvc in rec.of_type(ISVC):
        annotations = isvc.manifest["metadata"]["annotations"]
        assert annotations["pulumi.com/skipAwait"] == "true" and "pulumi.com/waitFor" not in annotations


@pytest.mark.parametrize(
    ("args", "field"),
    [
        pytest.param({}, "path", id="no-path"),
        pytest.param({"path": "/nonexistent/aim"}, "path", id="missing-path"),
    ],
)
def test_a_bad_path_fails_before_anything_registers(recording: Any, args: dict[str, Any], field: str) -> None:
    with pytest.raises(AIMValidationError) as caught:
        recording(lambda: AIMStack("prod", args))  # type: ignore[arg-type]
    assert caught.value.field == field


def test_an_invalid_manifest_fails_before_anything_registers(recording: Any, tmp_path: Path) -> None:
    bad = {**SERVICE_DOCS[0], "spec": {"profile": {"name": "x"}, "replicas": -1}}
    source = write_docs(tmp_path / "aim.yaml", [*CATALOG_DOCS, bad])
    registered: list[str] = []

    def program() -> None:
        try:
            AIMStack("prod", {"path": str(source)})
        except AIMValidationError:
            registered.append("failed")

    rec = recording(program)

    assert registered == ["failed"] and rec.resources == []


BROKEN_SERVICE = {
    "apiVersion": "aim.eai.amd.com/v1alpha2",
    "kind": "AIMService",
    "metadata": {"name": "zz-broken", "namespace": NS},
    "spec": {"profile": {"name": "no-such-profile"}},
}
DUPLICATE_PROFILE = {**CATALOG_DOCS[2], "spec": profile_spec(primary=True, precision="fp16")}


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        pytest.param([BROKEN_SERVICE], "ProfileNotFound", id="a-later-service-fails-to-resolve"),
        pytest.param([DUPLICATE_PROFILE], "DuplicateObject", id="an-object-declared-twice"),
    ],
)
def test_a_resolution_failure_anywhere_in_the_manifests_registers_nothing(
    failed_run: Any, tmp_path: Path, extra: list[dict[str, Any]], reason: str
) -> None:
    source = write_docs(tmp_path / "aim.yaml", [*CATALOG_DOCS, *SERVICE_DOCS, *extra])
    observed: dict[str, str] = {}

    with observe_resolutions(lambda r: observed.update({r.key: "failed" if r.error else "planned"})):
        error, registered = failed_run(lambda: AIMStack("prod", {"path": str(source)}))

    assert isinstance(error, AIMResolutionError) and error.reason == reason
    assert deployed(registered) == [], "the valid services of the same manifests are not half-deployed"
    if reason == "ProfileNotFound":
        assert observed == {f"{NS}/chat": "planned", f"{NS}/legacy": "planned", f"{NS}/zz-broken": "failed"}


# ------------------------------------------------------------------------ catalogAs: data


def _children_of_services(rec: Any) -> str:
    """Every resource below a service, by name, with its type, parent's name and inputs."""
    names = {r.urn: r.name for r in rec.resources}
    below = [r for r in rec.resources if r.type not in _CATALOG_TYPES and r.type != "aim:index:AIMStack"]
    return json.dumps(
        sorted([r.name, r.type, names.get(r.parent, ""), r.inputs] for r in below),
        sort_keys=True,
        default=str,
    )


_CATALOG_TYPES = {
    "aim:index:AIMRuntimeConfig",
    "aim:index:AIMModel",
    "aim:index:AIMProfile",
    "aim:index:AIMClusterProfile",
}


def test_catalog_as_data_declares_one_resource_and_deploys_the_same(recording: Any, tmp_path: Path) -> None:
    source = write_docs(tmp_path / "aim.yaml", SERVICE_DOCS + CATALOG_DOCS)

    as_components = recording(lambda: AIMStack("prod", {"path": str(source)}))
    as_data = recording(lambda: AIMStack("prod", {"path": str(source), "catalogAs": "data"}))

    stack = as_data.by_name("prod")
    assert [(r.type, r.name) for r in as_data.children(stack)] == [
        ("aim:index:AIMService", f"prod-aimservice-{NS}-chat"),
        ("aim:index:AIMService", f"prod-aimservice-{NS}-legacy"),
    ]
    assert not [r for r in as_data.resources if r.type in _CATALOG_TYPES]
    assert len(as_components.resources) - len(as_data.resources) == 4
    assert _children_of_services(as_data) == _children_of_services(as_components)
    assert as_data.outputs_of("prod")["services"] == as_components.outputs_of("prod")["services"]
    assert invalid_manifests(as_data.resources) == {}


def test_catalog_as_data_statuses_are_the_components_statuses(recording: Any, tmp_path: Path) -> None:
    source = write_docs(tmp_path / "aim.yaml", SERVICE_DOCS + CATALOG_DOCS)

    as_components = recording(lambda: AIMStack("prod", {"path": str(source)}))
    as_data = recording(lambda: AIMStack("prod", {"path": str(source), "catalogAs": "data"}))

    expected = {
        f"AIMRuntimeConfig/{NS}/default": f"prod-aimruntimeconfig-{NS}-default",
        f"AIMModel/{NS}/qwen": f"prod-aimmodel-{NS}-qwen",
        f"AIMProfile/{NS}/qwen-fp8": f"prod-aimprofile-{NS}-qwen-fp8",
        "AIMClusterProfile/qwen-mi325x": "prod-aimclusterprofile-qwen-mi325x",
    }
    catalog = as_data.outputs_of("prod")["catalog"]
    assert set(catalog) == set(expected), "templates are catalog data in either mode, with no status"
    for ref, component in expected.items():
        assert catalog[ref] == as_components.outputs_of(component)["status"], ref
    assert catalog[f"AIMProfile/{NS}/qwen-fp8"]["status"] == "Ready"
    assert "catalog" not in as_components.outputs_of("prod"), "a stack of components keeps its outputs"


def test_catalog_as_data_says_what_a_status_warns_of_on_the_stack(recording: Any, tmp_path: Path) -> None:
    broken_model = {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMModel",
        "metadata": {"name": "m", "namespace": NS},
        "spec": {"modelId": "org/m", "runtimeConfigName": "nope"},
    }
    source = write_docs(tmp_path / "aim.yaml", [broken_model])

    rec = recording(lambda: AIMStack("prod", {"path": str(source), "catalogAs": "data"}))

    warnings = rec.messages("warning", urn=rec.by_name("prod").urn)
    assert any(m.startswith(f"AIMModel/{NS}/m: ReferenceNotFound") for m in warnings), warnings
    assert rec.outputs_of("prod")["catalog"][f"AIMModel/{NS}/m"]["status"] == "Failed"


def test_catalog_as_data_still_refuses_an_object_declared_twice(failed_run: Any, tmp_path: Path) -> None:
    source = write_docs(tmp_path / "aim.yaml", [*CATALOG_DOCS, *SERVICE_DOCS, DUPLICATE_PROFILE])

    error, registered = failed_run(lambda: AIMStack("prod", {"path": str(source), "catalogAs": "data"}))

    assert isinstance(error, AIMValidationError | AIMResolutionError) and error.reason == "DuplicateObject"
    assert deployed(registered) == []


def test_catalog_as_must_be_a_known_value(recording: Any, tmp_path: Path) -> None:
    source = write_docs(tmp_path / "aim.yaml", CATALOG_DOCS)

    with pytest.raises(AIMValidationError) as caught:
        recording(lambda: AIMStack("prod", {"path": str(source), "catalogAs": "resources"}))  # type: ignore[typeddict-item]

    assert caught.value.field == "catalogAs" and caught.value.reason == "InvalidSpec"
    assert "components, data" in caught.value.message
