"""The AIMClusterModels an AIMClusterModelSource materialises, as the operator names and marks them.

From the operator's `internal/aimclustermodelsource/{builder,reconcile}.go`: one AIMClusterModel per
listed image, named `derived_name([repository, tag], [registry, repository, tag])` with a
6-character hash, label `aim.eai.amd.com/model-source: <source>` (and `aim.eai.amd.com/origin:
auto-generated`), annotations `source-registry`, `source-repository`, `source-tag`, its spec the
image (`repository:tag` on Docker Hub, `registry/repository:tag` elsewhere) and the source's pull
secrets. A `models[]` declaration becomes an ID-backed cluster model (name chosen here:
`derived_name([modelId], [source, modelId])`, 6 characters, the operator's declared-model builder
not being public) with the same label. The listing itself was recorded by discovery
(`SourceRecord`); an image an earlier listing materialised stays, whatever the registry lists now.

Status, as the operator reports it: `availableModels` counts what the filters match now (and the
declarations), `discoveredModels` the listed images and declarations that have a model,
`modelsLimitReached` whether `maxModels` left some out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aim_pulumi.api import AIM_GROUP, AIMClusterModel, AIMValidationError, to_manifest
from aim_pulumi.api.io import parse
from aim_pulumi.api.model_source import AIMClusterModelSource
from aim_pulumi.discovery.model_source import max_models
from aim_pulumi.discovery.records import SourceImage, SourceRecord
from aim_pulumi.resolve.children.names import derived_name
from aim_pulumi.resolve.errors import AIMResolutionError

__all__ = ["MODEL_SOURCE_LABEL", "SourceModels", "source_model_name", "source_models"]

MODEL_SOURCE_LABEL = f"{AIM_GROUP}/model-source"
ORIGIN_LABEL = f"{AIM_GROUP}/origin"
SOURCE_HASH_LENGTH = 6


@dataclass(frozen=True)
class SourceModels:
    """The cluster models of one source and the status it reports."""

    models: tuple[AIMClusterModel, ...]
    status: dict[str, Any]


def source_model_name(image: SourceImage) -> str:
    return derived_name(
        [image.repository, image.tag],
        [image.registry, image.repository, image.tag],
        hash_length=SOURCE_HASH_LENGTH,
    )


def _image_model(source: AIMClusterModelSource, image: SourceImage) -> dict[str, Any]:
    spec: dict[str, Any] = {"image": image.uri}
    if source.spec.image_pull_secrets:
        spec["imagePullSecrets"] = [s.model_dump(by_alias=True) for s in source.spec.image_pull_secrets]
    return {
        "apiVersion": f"{AIM_GROUP}/v1alpha2",
        "kind": "AIMClusterModel",
        "metadata": {
            "name": source_model_name(image),
            "labels": {MODEL_SOURCE_LABEL: source.metadata.name, ORIGIN_LABEL: "auto-generated"},
            "annotations": {
                f"{AIM_GROUP}/source-registry": image.registry,
                f"{AIM_GROUP}/source-repository": image.repository,
                f"{AIM_GROUP}/source-tag": image.tag,
            },
        },
        "spec": spec,
    }


def _declared_model(source: AIMClusterModelSource, index: int) -> dict[str, Any]:
    declared = to_manifest(source)["spec"]["models"][index]
    spec: dict[str, Any] = {"modelId": declared["modelId"]}
    for key in ("aimId", "source", "accelerator"):
        if declared.get(key) is not None:
            spec[key] = declared[key]
    return {
        "apiVersion": f"{AIM_GROUP}/v1alpha2",
        "kind": "AIMClusterModel",
        "metadata": {
            "name": derived_name(
                [declared["modelId"]],
                [source.metadata.name, declared["modelId"]],
                hash_length=SOURCE_HASH_LENGTH,
            ),
            "labels": {MODEL_SOURCE_LABEL: source.metadata.name, ORIGIN_LABEL: "auto-generated"},
        },
        "spec": spec,
    }


def source_models(source: AIMClusterModelSource, record: SourceRecord | None) -> SourceModels:
    """The models `source` materialises from its recorded listing (None: declarations only)."""
    manifests: list[dict[str, Any]] = []
    images = record.images if record is not None else ()
    listed = record.listed if record is not None else ()
    manifests.extend(_image_model(source, image) for image in images)
    limit = max_models(to_manifest(source)["spec"])
    kept_listed = sum(1 for image in listed if image in set(images))
    declared = len(source.spec.models)
    room = max(0, limit - len(images))
    declared_kept = min(declared, room)
    manifests.extend(_declared_model(source, i) for i in range(declared_kept))
    models: list[AIMClusterModel] = []
    for manifest in manifests:
        try:
            model = parse(manifest)
        except AIMValidationError as error:
            raise AIMResolutionError(
                "spec",
                "InvalidSpec",
                f"the model materialised for "
                f"{manifest['spec'].get('image') or manifest['spec'].get('modelId')} "
                f"is invalid: {error.field}: {error.message}",
                object_ref=source.object_ref,
            ) from None
        assert isinstance(model, AIMClusterModel)
        models.append(model)
    available = len(listed) + declared
    discovered = kept_listed + declared_kept
    status: dict[str, Any] = {
        "status": "Ready",
        "discoveredModels": discovered,
        "availableModels": available,
        "modelsLimitReached": available > discovered,
        "models": [m.metadata.name for m in models],
    }
    return SourceModels(tuple(models), status)
