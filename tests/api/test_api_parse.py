"""Parsing: dispatch, served versions, unknown fields, types and paths, aliases, nulls, defaults, UIDs."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from api_builders import V1, V2, model, profile, profile_set, runtime_config, service, template

from aim_pulumi.api import (
    AIMClusterProfile,
    AIMProfile,
    AIMRuntimeConfig,
    AIMService,
    AIMValidationError,
    to_manifest,
)
from aim_pulumi.api.common import EnvVar
from aim_pulumi.api.service import ServiceSpec
from tests.versions import KINDS, admission_problems, parse

MODEL = {"name": "qwen-qwen3-32b"}


def _error(manifest: Any) -> AIMValidationError:
    with pytest.raises(AIMValidationError) as info:
        parse(manifest)
    return info.value


# --- unknown fields ----------------------------------------------------------------------------

UNKNOWN = [
    ("spec-top-level", service({"model": MODEL, "routng": {"enabled": True}}), "spec.routng", "spec.routing"),
    (
        "nested-selector",
        service({"model": MODEL, "profile": {"selectr": {}}}),
        "spec.profile.selectr",
        "spec.profile.selector",
    ),
    (
        "list-item",
        service({"model": MODEL, "env": [{"name": "A", "vlaue": "1"}]}),
        "spec.env[0].vlaue",
        "spec.env[0].value",
    ),
    ("metadata", service() | {"metadata": {"name": "q", "lables": {}}}, "metadata.lables", "metadata.labels"),
    ("root", service() | {"sepc": {}}, "sepc", "spec"),
    ("snake-case-spelling-of-alias", profile({"aim_idd": "x"}), "spec.aim_idd", "spec.aimId"),
    (
        "python-attribute-name-in-manifest",
        service({"model": MODEL, "min_replicas": 0}),
        "spec.min_replicas",
        "spec.minReplicas",
    ),
    (
        "python-attribute-name-beside-wire-name",
        service({"model": MODEL, "minReplicas": 0, "max_replicas": 3}),
        "spec.max_replicas",
        "spec.maxReplicas",
    ),
    (
        "python-attribute-name-nested",
        service({"profile": {"selector": {"aim_id": "q"}}}),
        "spec.profile.selector.aim_id",
        "spec.profile.selector.aimId",
    ),
    (
        "runtime-config-fallback",
        runtime_config(
            {
                "model": {
                    "profileGeneration": {
                        "fallbacks": [
                            {
                                "name": "a",
                                "match": {"acceleratorVendor": "amd", "acceleratorType": "gpu"},
                                "runtime": {"image": "i", "engine": "vllm", "engineArg": {}},
                            }
                        ]
                    }
                }
            }
        ),
        "spec.model.profileGeneration.fallbacks[0].runtime.engineArg",
        "spec.model.profileGeneration.fallbacks[0].runtime.engineArgs",
    ),
    (
        "namespace-rc-has-no-quota",
        runtime_config({"artifactStorageQuota": {"clusterLimit": "1Ti"}}),
        "spec.artifactStorageQuota",
        None,
    ),
]


@pytest.mark.parametrize(
    ("manifest", "field", "suggestion"), [u[1:] for u in UNKNOWN], ids=[u[0] for u in UNKNOWN]
)
def test_unknown_field_names_path_and_suggests_sibling(
    manifest: dict[str, Any], field: str, suggestion: str | None
) -> None:
    err = _error(manifest)
    assert (err.field, err.reason) == (field, "UnknownField")
    assert (field, "UnknownField") in [(p.field, p.reason) for p in admission_problems(manifest)]
    if suggestion is not None:
        assert f"did you mean `{suggestion}`?" in err.message
    else:
        assert "known fields here:" in err.message


def test_unknown_field_without_close_match_lists_known_fields() -> None:
    err = _error(service({"model": MODEL, "routing": {"zzzz": 1}}))
    assert err.field == "spec.routing.zzzz"
    assert (
        "known fields here: annotations, enabled, gatewayRef, hostnames, pathTemplate, requestTimeout"
        in err.message
    )


def test_status_accepts_fields_it_does_not_model() -> None:
    doc = service() | {
        "status": {
            "observedGeneration": 3,
            "conditions": [
                {
                    "type": "Ready",
                    "status": "True",
                    "reason": "AllComponentsReady",
                    "lastTransitionTime": "2024-01-01T00:00:00Z",
                }
            ],
            "resolvedProfile": {
                "kind": "AIMProfile",
                "name": "p",
                "namespace": "ml-team",
                "scope": "Namespace",
                "uid": "u-1",
            },
            "cache": {"mode": "Shared"},
        }
    }
    svc = parse(doc)
    assert svc.status is not None and svc.status.resolved_profile is not None
    assert svc.status.resolved_profile.name == "p"
    assert svc.status.conditions[0].reason == "AllComponentsReady"
    assert to_manifest(svc) == doc


def test_kubectl_metadata_is_accepted() -> None:
    doc = profile() | {
        "metadata": {
            "name": "p",
            "namespace": "ml-team",
            "uid": "0b7c",
            "resourceVersion": "42",
            "generation": 2,
            "creationTimestamp": "2024-01-01T00:00:00Z",
            "managedFields": [{"manager": "kubectl"}],
        }
    }
    assert to_manifest(parse(doc)) == doc


# --- dispatch and versions ---------------------------------------------------------------------

SERVED = {
    "AIMService": {"v1alpha1", "v1alpha2"},
    "AIMModel": {"v1alpha1", "v1alpha2"},
    "AIMClusterModel": {"v1alpha1", "v1alpha2"},
    "AIMProfile": {"v1alpha2"},
    "AIMClusterProfile": {"v1alpha2"},
    "AIMProfileSet": {"v1alpha2"},
    "AIMClusterProfileSet": {"v1alpha2"},
    "AIMRuntimeConfig": {"v1alpha1"},
    "AIMClusterRuntimeConfig": {"v1alpha1"},
    "AIMServiceTemplate": {"v1alpha1"},
    "AIMClusterServiceTemplate": {"v1alpha1"},
    "AIMClusterModelSource": {"v1alpha1"},
}

SAMPLES = {
    "AIMService": service(),
    "AIMModel": model(),
    "AIMClusterModel": model(cluster=True),
    "AIMProfile": profile(),
    "AIMClusterProfile": profile(cluster=True),
    "AIMProfileSet": profile_set(),
    "AIMClusterProfileSet": profile_set(cluster=True),
    "AIMRuntimeConfig": runtime_config(),
    "AIMClusterRuntimeConfig": runtime_config(cluster=True),
    "AIMServiceTemplate": template(),
    "AIMClusterServiceTemplate": template(cluster=True),
    "AIMClusterModelSource": {
        "apiVersion": V1,
        "kind": "AIMClusterModelSource",
        "metadata": {"name": "amd"},
        "spec": {"filters": [{"image": "amdenterpriseai/aim-*"}]},
    },
}

VERSION_CASES = [(kind, v) for kind in sorted(SERVED) for v in ("v1alpha1", "v1alpha2", "v1beta1")]


@pytest.mark.parametrize(("kind", "version"), VERSION_CASES, ids=[f"{k}-{v}" for k, v in VERSION_CASES])
def test_served_versions(kind: str, version: str) -> None:
    doc = SAMPLES[kind] | {"apiVersion": f"aim.eai.amd.com/{version}"}
    if version in SERVED[kind]:
        assert parse(doc).kind == kind
        return
    err = _error(doc)
    assert (err.field, err.reason) == ("apiVersion", "UnsupportedVersion")
    assert kind in err.message and f"aim.eai.amd.com/{version}" in err.message


def test_every_kind_is_registered() -> None:
    assert set(KINDS) == set(SERVED)
    assert {cls.SCOPE for cls in KINDS.values()} == {"Namespace", "Cluster"}


DISPATCH = [
    (
        "unknown-aim-kind",
        {"apiVersion": V2, "kind": "AIMThing", "metadata": {"name": "x"}},
        "kind",
        "UnknownKind",
        "unknown AIM kind",
    ),
    (
        "misspelt-kind",
        {"apiVersion": V2, "kind": "AIMServce", "metadata": {"name": "x"}},
        "kind",
        "UnknownKind",
        "did you mean `AIMService`?",
    ),
    (
        "other-group",
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}},
        "kind",
        "UnknownKind",
        "not an AIM kind",
    ),
    (
        "missing-api-version",
        {"kind": "AIMService", "metadata": {"name": "x"}},
        "apiVersion",
        "InvalidSpec",
        "required",
    ),
    (
        "api-version-not-string",
        {"apiVersion": 2, "kind": "AIMService"},
        "apiVersion",
        "InvalidSpec",
        "required",
    ),
    ("missing-kind", {"apiVersion": V2, "metadata": {"name": "x"}}, "kind", "InvalidSpec", "required"),
    (
        "aim-kind-without-group",
        service() | {"apiVersion": "v1alpha2"},
        "apiVersion",
        "UnsupportedVersion",
        "AIMService is not served at 'v1alpha2'; served: aim.eai.amd.com/v1alpha1",
    ),
    (
        "aim-kind-group-without-version",
        profile() | {"apiVersion": "aim.eai.amd.com"},
        "apiVersion",
        "UnsupportedVersion",
        "served: aim.eai.amd.com/v1alpha2",
    ),
    (
        "aim-kind-in-another-group",
        template() | {"apiVersion": "aim.example.com/v1alpha1"},
        "apiVersion",
        "UnsupportedVersion",
        "AIMServiceTemplate is not served at 'aim.example.com/v1alpha1'",
    ),
    ("list-document", [1, 2], "(root)", "InvalidSpec", "mapping"),
    ("string-document", "AIMService", "(root)", "InvalidSpec", "mapping"),
    ("metadata-not-mapping", service() | {"metadata": "qwen"}, "metadata", "InvalidSpec", "mapping"),
    ("spec-null-is-absent", service() | {"spec": None}, "spec", "InvalidSpec", "required"),
]


@pytest.mark.parametrize(
    ("doc", "field", "reason", "text"), [d[1:] for d in DISPATCH], ids=[d[0] for d in DISPATCH]
)
def test_dispatch_errors(doc: Any, field: str, reason: str, text: str) -> None:
    err = _error(doc)
    assert (err.field, err.reason) == (field, reason)
    assert text in err.message


# --- types and paths ---------------------------------------------------------------------------

TYPES = [
    ("string-for-int", service({"model": MODEL, "replicas": "2"}), "spec.replicas"),
    ("bool-for-int", service({"model": MODEL, "replicas": True}), "spec.replicas"),
    ("int-for-string", service({"model": {"name": 7}}), "spec.model.name"),
    ("env-name-int", service({"model": MODEL, "env": [{"name": 1}]}), "spec.env[0].name"),
    ("label-value-int", service(labels={"team": 1}), "metadata.labels.team"),
    ("label-key-int", service(labels={7: "x"}), "metadata.labels.7"),
    ("spec-key-int", service({"model": MODEL, 5: 1}), "spec.5"),
    ("list-for-model", service({"model": [MODEL]}), "spec.model"),
    (
        "dict-for-list",
        service({"model": MODEL, "routing": {"hostnames": {"a": 1}}}),
        "spec.routing.hostnames",
    ),
    (
        "bool-for-quantity",
        profile({"resources": {"limits": {"memory": True}}}),
        "spec.resources.limits.memory",
    ),
    ("engine-env-value-int", profile({"engineEnv": {"A": 1}}), "spec.engineEnv.A"),
    (
        "second-model-source",
        profile({"modelSources": [{"modelId": "a"}, {"modelId": ["b"]}]}),
        "spec.modelSources[1].modelId",
    ),
    (
        "bad-enum-fallback",
        runtime_config({"model": {"profileGeneration": {"fallbacks": [{"name": "a", "type": "x"}]}}}),
        "spec.model.profileGeneration.fallbacks[0].type",
    ),
]


@pytest.mark.parametrize(("doc", "field"), [t[1:] for t in TYPES], ids=[t[0] for t in TYPES])
def test_wrong_types_name_the_camel_case_path(doc: dict[str, Any], field: str) -> None:
    err = _error(doc)
    assert (err.field, err.reason) == (field, "InvalidSpec")


# --- nulls, defaults, aliases ------------------------------------------------------------------


def test_nulls_count_as_absent() -> None:
    doc = service({"model": {"name": "q", "image": None}, "replicas": None, "routing": None, "env": None})
    svc = parse(doc)
    assert svc.spec.replicas is None and svc.spec.env == []
    assert to_manifest(svc)["spec"] == {"model": {"name": "q"}}


def test_null_inside_engine_args_is_kept() -> None:
    doc = profile({"engineArgs": {"enforce-eager": None}})
    assert to_manifest(parse(doc))["spec"]["engineArgs"] == {"enforce-eager": None}


def test_namespace_defaults_but_is_not_written() -> None:
    doc = service() | {"metadata": {"name": "qwen-chat"}}
    svc = parse(doc)
    assert svc.metadata.namespace == "default"
    assert to_manifest(svc) == doc
    assert parse(profile(cluster=True)).metadata.namespace is None


def test_defaults_are_not_written() -> None:
    doc = service({"profile": {"selector": {"modelRef": {"name": "q"}}}, "caching": {}})
    svc = parse(doc)
    assert svc.spec.profile is not None and svc.spec.profile.selector is not None
    assert svc.spec.profile.selector.model_ref is not None
    assert svc.spec.profile.selector.model_ref.scope == "Auto"
    assert svc.spec.caching is not None and svc.spec.caching.mode == "Shared"
    assert to_manifest(svc) == doc


ALIASES = [
    ("model-ref", service({"model": {"ref": "q"}}), ["spec", "model"], {"name": "q"}),
    (
        "template-name",
        service({"model": MODEL, "templateName": "t"}, version=V1),
        ["spec", "template"],
        {"name": "t"},
    ),
    (
        "template-name-with-criteria",
        service(
            {"model": MODEL, "templateName": "t", "template": {"selectionCriteria": {"metric": "latency"}}},
            version=V1,
        ),
        ["spec", "template"],
        {"selectionCriteria": {"metric": "latency"}, "name": "t"},
    ),
    (
        "runtime-config-ref",
        service({"model": MODEL, "runtimeConfigRef": {"name": "rc"}}),
        ["spec", "runtimeConfigName"],
        "rc",
    ),
    (
        "source-uri-upper",
        profile({"modelSources": [{"modelId": "org/m", "sourceURI": "hf://org/m"}]}),
        ["spec", "modelSources"],
        [{"modelId": "org/m", "sourceUri": "hf://org/m"}],
    ),
    (
        "source-name-as-model-id",
        profile({"modelSources": [{"name": "org/m", "sourceUri": "hf://org/m"}]}),
        ["spec", "modelSources"],
        [{"modelId": "org/m", "sourceUri": "hf://org/m"}],
    ),
    (
        "override-source-uri",
        service(
            {
                "profile": {"name": "p"},
                "profileOverrides": {"modelSources": [{"name": "org/m", "sourceURI": "s3://b/m"}]},
            }
        ),
        ["spec", "profileOverrides", "modelSources"],
        [{"modelId": "org/m", "sourceUri": "s3://b/m"}],
    ),
    (
        "template-source-lower",
        template({"modelSources": [{"name": "org/m", "sourceUri": "hf://org/m"}]}),
        ["spec", "modelSources"],
        [{"name": "org/m", "sourceURI": "hf://org/m"}],
    ),
    (
        "cache-model",
        service({"model": MODEL, "cacheModel": True}, version=V1),
        ["spec", "caching"],
        {"mode": "Shared"},
    ),
]


@pytest.mark.parametrize(("doc", "path", "canonical"), [a[1:] for a in ALIASES], ids=[a[0] for a in ALIASES])
def test_input_aliases_are_written_canonically(doc: dict[str, Any], path: list[str], canonical: Any) -> None:
    out: Any = to_manifest(parse(doc))
    for key in path:
        out = out[key]
    assert out == canonical
    again = parse(to_manifest(parse(doc)))
    assert again == parse(doc)


ALIAS_CONFLICTS = [
    ("ref-and-name", service({"model": {"ref": "a", "name": "b"}}), "spec.model.ref"),
    (
        "template-name-and-template",
        service({"model": MODEL, "templateName": "a", "template": {"name": "b"}}, version=V1),
        "spec.templateName",
    ),
    (
        "runtime-config-ref-and-name",
        service({"model": MODEL, "runtimeConfigRef": {"name": "a"}, "runtimeConfigName": "b"}),
        "spec.runtimeConfigRef",
    ),
    ("runtime-config-ref-shape", service({"model": MODEL, "runtimeConfigRef": "a"}), "spec.runtimeConfigRef"),
    (
        "source-uri-both",
        profile({"modelSources": [{"sourceURI": "a", "sourceUri": "b"}]}),
        "spec.modelSources[0].sourceURI",
    ),
    (
        "source-name-and-model-id",
        profile({"modelSources": [{"name": "a", "modelId": "b"}]}),
        "spec.modelSources[0].name",
    ),
]


@pytest.mark.parametrize(
    ("doc", "field"), [a[1:] for a in ALIAS_CONFLICTS], ids=[a[0] for a in ALIAS_CONFLICTS]
)
def test_conflicting_alias_spellings_are_rejected(doc: dict[str, Any], field: str) -> None:
    err = _error(doc)
    assert err.field == field
    assert err.reason in ("InvalidSpec", "UnknownField")


# --- identity ----------------------------------------------------------------------------------


def test_service_uid_follows_contract_decision_2() -> None:
    svc = parse(service())
    assert svc.effective_uid == str(uuid.uuid5(uuid.NAMESPACE_URL, "aim.eai.amd.com/ml-team/qwen-chat"))
    adopted = parse(service(uid="6f1c-adopted"))
    assert adopted.effective_uid == "6f1c-adopted"


@pytest.mark.parametrize(
    ("doc", "key"),
    [
        (profile(), "aim.eai.amd.com/AIMProfile/ml-team/qwen-fp8"),
        (profile(cluster=True), "aim.eai.amd.com/AIMClusterProfile//qwen-fp8"),
        (runtime_config(cluster=True), "aim.eai.amd.com/AIMClusterRuntimeConfig//default"),
    ],
    ids=["namespaced-profile", "cluster-profile", "cluster-runtime-config"],
)
def test_other_uids_hash_kind_namespace_and_name(doc: dict[str, Any], key: str) -> None:
    assert parse(doc).effective_uid == str(uuid.uuid5(uuid.NAMESPACE_URL, key))


def test_scope_and_object_ref() -> None:
    assert parse(profile()).scope == "Namespace"
    assert parse(profile(cluster=True)).scope == "Cluster"
    assert parse(profile()).object_ref == "AIMProfile/ml-team/qwen-fp8"
    assert parse(profile(cluster=True)).object_ref == "AIMClusterProfile/qwen-fp8"


# --- Python construction -----------------------------------------------------------------------


def test_python_construction_with_snake_case_round_trips() -> None:
    svc = AIMService(
        metadata={"name": "qwen-chat", "namespace": "ml-team"},
        spec={
            "model": {"name": "qwen-qwen3-32b"},
            "min_replicas": 0,
            "max_replicas": 2,
            "scale_from_zero": {},
        },
    )
    assert svc.api_version == V2
    assert to_manifest(svc) == {
        "apiVersion": V2,
        "kind": "AIMService",
        "metadata": {"name": "qwen-chat", "namespace": "ml-team"},
        "spec": {
            "model": {"name": "qwen-qwen3-32b"},
            "minReplicas": 0,
            "maxReplicas": 2,
            "scaleFromZero": {},
        },
    }
    assert parse(to_manifest(svc)) == svc


def test_python_construction_defaults_and_errors() -> None:
    rc = AIMRuntimeConfig(metadata={"name": "default"})
    assert (rc.api_version, rc.metadata.namespace) == (V1, "default")
    assert to_manifest(rc) == {"apiVersion": V1, "kind": "AIMRuntimeConfig", "metadata": {"name": "default"}}
    with pytest.raises(AIMValidationError) as info:
        AIMProfile(api_version=V1, metadata={"name": "p"}, spec={"aim_id": "a", "image": "i"})
    assert (info.value.field, info.value.reason) == ("apiVersion", "UnsupportedVersion")
    with pytest.raises(AIMValidationError) as info:
        AIMClusterProfile(metadata={"name": "p"}, spec={"aim_id": "a", "image": "i", "routng": 1})
    assert (info.value.field, info.value.reason) == ("spec.routng", "UnknownField")


def test_python_construction_accepts_sub_models() -> None:
    from aim_pulumi.api.base import ObjectMeta
    from aim_pulumi.api.common import EnvVar
    from aim_pulumi.api.service import ServiceModel, ServiceSpec

    svc = AIMService(
        metadata=ObjectMeta(name="qwen-chat"),
        spec=ServiceSpec(model=ServiceModel(name="q"), env=[EnvVar(name="A", value="1")]),
    )
    assert to_manifest(svc)["spec"] == {"model": {"name": "q"}, "env": [{"name": "A", "value": "1"}]}


SUB_MODEL_ERRORS = [
    (
        "env-value-and-value-from",
        EnvVar,
        {"name": "A", "value": "1", "value_from": {"field_ref": {"field_path": "x"}}},
        "(root)",
    ),
    ("env-empty-name", EnvVar, {"name": ""}, "name"),
    ("spec-negative-min", ServiceSpec, {"model": {"name": "q"}, "min_replicas": -1}, "minReplicas"),
    ("spec-unknown-key", ServiceSpec, {"model": {"name": "q"}, "routng": {}}, "routng"),
]


@pytest.mark.parametrize(
    ("cls", "kwargs", "field"), [e[1:] for e in SUB_MODEL_ERRORS], ids=[e[0] for e in SUB_MODEL_ERRORS]
)
def test_sub_models_built_in_python_raise_validation_errors(
    cls: type[Any], kwargs: dict[str, Any], field: str
) -> None:
    with pytest.raises(AIMValidationError) as info:
        cls(**kwargs)
    assert info.value.field == field
    assert info.value.reason in ("InvalidSpec", "UnknownField")


def test_error_string_carries_location() -> None:
    err = AIMValidationError(
        "spec.x", "InvalidSpec", "bad", file="a.yaml", document=2, object_ref="AIMService/ns/n"
    )
    assert str(err) == "a.yaml:2: AIMService/ns/n: spec.x: InvalidSpec: bad"
    assert str(AIMValidationError("spec.x", "InvalidSpec", "bad")) == "spec.x: InvalidSpec: bad"
    assert isinstance(err, ValueError)


def test_the_stable_name_of_the_api_is_the_typed_object_and_the_component_the_only_aimservice() -> None:
    """`aim_pulumi.api.AIMService` (the contract's stable name) is the typed object, whose class has a
    name of its own; the only class defined as `AIMService` is the component."""
    import ast
    from pathlib import Path

    import aim_pulumi
    from aim_pulumi import api
    from aim_pulumi.api.service import AIMServiceObject

    assert api.AIMService is AIMServiceObject
    assert parse(service({"model": {"name": "m"}})).__class__.__name__ in (
        "AIMServiceObject",
        "AIMServiceV1Alpha1",
    )
    root = Path(aim_pulumi.__file__).parent
    defined = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name == "AIMService"
    ]
    assert defined == ["resources/service.py"]
