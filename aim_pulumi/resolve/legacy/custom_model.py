"""The legacy inline custom model: a v1alpha1 `AIMService.spec.model.custom` planned as the operator's
bridge plans it.

`spec.model.custom{baseImage, modelSources (exactly one), hardware}` names weights on a base image
without a model object. The operator reuses an AIMModel of the service's namespace with the same
image and the same sources, compared as upstream compares them (in order: `modelId`, `sourceUri`
and the `AWS_ENDPOINT_URL` env value, which tells two S3 endpoints apart), else it makes a
compatibility model: named `GenerateCustomModelName` (the first source's modelId, hashed with the
base image and every source's id, URI and endpoint), labelled `origin: auto-generated`,
`custom-model: "true"` and `service: <service>`, with the base image, the service's pull secrets,
service account and runtime config, and (the bridge's v1alpha2-valid form) the custom input kept in
the `aim.eai.amd.com/legacy-auto-custom-spec` annotation. From it the model controller makes one
auto-generated custom template (`<model>-custom-<hash>`, type `unoptimized`, the custom hardware and
sources, the service's env), which the template pipeline deploys.

Everything here is a plain function of manifests; the template pipeline calls it
(`aim_pulumi/resolve/legacy/templates.py`) and `migrate` writes its v1alpha2 form
(`aim_pulumi/resolve/legacy/migration.py`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from aim_pulumi.api import AIM_GROUP, AIMClusterModel, AIMModel, to_manifest
from aim_pulumi.resolve.children.names import derived_name
from aim_pulumi.resolve.scalars import text

AnyModel = AIMModel | AIMClusterModel

ORIGIN_LABEL = f"{AIM_GROUP}/origin"
AUTO_GENERATED = "auto-generated"
CUSTOM_MODEL_LABEL = f"{AIM_GROUP}/custom-model"
SERVICE_LABEL = f"{AIM_GROUP}/service"
MODEL_LABEL = f"{AIM_GROUP}/model"
LEGACY_AUTO_CUSTOM_ANNOTATION = f"{AIM_GROUP}/legacy-auto-custom-spec"
S3_ENDPOINT_ENV = "AWS_ENDPOINT_URL"
CUSTOM_TEMPLATE_TYPE = "unoptimized"


def endpoint_of(source: Mapping[str, Any]) -> str:
    """The literal `AWS_ENDPOINT_URL` of a source's env ("" when unset or read from a reference)."""
    for entry in source.get("env") or ():
        if isinstance(entry, Mapping) and entry.get("name") == S3_ENDPOINT_ENV:
            return text(entry.get("value"))
    return ""


def _source_uri(source: Mapping[str, Any]) -> str:
    return text(source.get("sourceUri") if source.get("sourceUri") is not None else source.get("sourceURI"))


def _model_id(source: Mapping[str, Any]) -> str:
    return text(source.get("modelId") if source.get("modelId") is not None else source.get("name"))


def sources_match(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]) -> bool:
    """Upstream's `modelSourcesMatch`: same length, and pairwise the same id, URI and S3 endpoint."""
    return len(a) == len(b) and all(
        _model_id(x) == _model_id(y) and _source_uri(x) == _source_uri(y) and endpoint_of(x) == endpoint_of(y)
        for x, y in zip(a, b, strict=True)
    )


def custom_model_name(custom: Mapping[str, Any]) -> str:
    """Upstream's `GenerateCustomModelName`."""
    base_image = text(custom.get("baseImage"))
    sources = [s for s in custom.get("modelSources") or () if isinstance(s, Mapping)]
    if not sources:
        return derived_name(["custom-model"], [base_image])
    inputs: list[str | int] = [base_image]
    for source in sources:
        inputs += [_model_id(source), _source_uri(source)]
        if endpoint_of(source):
            inputs.append(endpoint_of(source))
    return derived_name([_model_id(sources[0])], inputs)


def custom_input(model: AnyModel) -> Mapping[str, Any] | None:
    """The custom input a compatibility model keeps in its annotation, or None for any other model."""
    raw = model.metadata.annotations.get(LEGACY_AUTO_CUSTOM_ANNOTATION)
    if not raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, Mapping) else None


def matching_model(models: Iterable[AnyModel], custom: Mapping[str, Any]) -> AnyModel | None:
    """The first model (by name) with the base image and the same sources, as upstream reuses one."""
    base_image = text(custom.get("baseImage"))
    wanted = [s for s in custom.get("modelSources") or () if isinstance(s, Mapping)]
    for model in sorted(models, key=lambda m: m.metadata.name):
        if text(model.spec.image) != base_image:
            continue
        kept = custom_input(model)
        sources = [s for s in (kept or {}).get("modelSources") or () if isinstance(s, Mapping)]
        if sources_match(sources, wanted):
            return model
    return None


def compatibility_model(service: Mapping[str, Any], custom: Mapping[str, Any]) -> dict[str, Any]:
    """The AIMModel the bridge makes for a service's inline custom model (a manifest)."""
    metadata = service.get("metadata") or {}
    spec = service.get("spec") or {}
    model_spec: dict[str, Any] = {"image": text(custom.get("baseImage"))}
    for key in ("imagePullSecrets", "serviceAccountName", "runtimeConfigName"):
        if spec.get(key):
            model_spec[key] = spec[key]
    return {
        "apiVersion": f"{AIM_GROUP}/v1alpha2",
        "kind": "AIMModel",
        "metadata": {
            "name": custom_model_name(custom),
            "namespace": metadata.get("namespace") or "default",
            "labels": {
                ORIGIN_LABEL: AUTO_GENERATED,
                CUSTOM_MODEL_LABEL: "true",
                SERVICE_LABEL: text(metadata.get("name")),
            },
            "annotations": {LEGACY_AUTO_CUSTOM_ANNOTATION: json.dumps(dict(custom), sort_keys=True)},
        },
        "spec": model_spec,
    }


def custom_template_name(model: str) -> str:
    """Upstream's `generateCustomTemplateName` of the one auto-generated template (index 0)."""
    return derived_name([model, "custom"], [model, 0])


def custom_template(model: AnyModel, custom: Mapping[str, Any], service: Mapping[str, Any]) -> dict[str, Any]:
    """The auto-generated custom template of a compatibility model (upstream
    `buildAutoGeneratedCustomTemplate` over the model the service would make)."""
    name = model.metadata.name
    model_spec = to_manifest(model).get("spec") or {}
    hardware = custom.get("hardware") if isinstance(custom.get("hardware"), Mapping) else {}
    spec: dict[str, Any] = {
        "modelName": name,
        "modelSources": [dict(s) for s in custom.get("modelSources") or () if isinstance(s, Mapping)],
        "type": CUSTOM_TEMPLATE_TYPE,
    }
    for key in ("imagePullSecrets", "serviceAccountName"):
        if model_spec.get(key):
            spec[key] = model_spec[key]
    env = (service.get("spec") or {}).get("env")
    if env:
        spec["env"] = [dict(e) for e in env]
    if hardware:
        spec["hardware"] = dict(hardware)
        cpu = hardware.get("cpu")
        if isinstance(cpu, Mapping) and cpu.get("requests") is not None:
            resources: dict[str, Any] = {"requests": {"cpu": cpu["requests"]}}
            if cpu.get("limits") is not None:
                resources["limits"] = {"cpu": cpu["limits"]}
            spec["resources"] = resources
    return {
        "apiVersion": f"{AIM_GROUP}/v1alpha1",
        "kind": "AIMServiceTemplate",
        "metadata": {
            "name": custom_template_name(name),
            "namespace": model.metadata.namespace or "default",
            "labels": {MODEL_LABEL: name, ORIGIN_LABEL: AUTO_GENERATED},
        },
        "spec": spec,
    }
