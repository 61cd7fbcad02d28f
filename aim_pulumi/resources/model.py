"""AIMModel and AIMClusterModel components: models whose profiles services select.

A model is catalog data (no Kubernetes children). An ID-backed model (`spec.modelId`) gets
profiles generated from the fallbacks of its runtime config (behaviour §6); an image-backed model
needs its profiles declared with the `aim.eai.amd.com/source-model` label, since no discovery Job
can run. The component exports the generated profile names against the program's complete catalog.
"""

from typing import Any, TypedDict, TypeVar

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resources import inputs
from aim_pulumi.resources.registry import CatalogComponent

__all__ = ["AIMClusterModel", "AIMClusterModelArgs", "AIMModel", "AIMModelArgs", "model_status"]

AnyModel = api.AIMModel | api.AIMClusterModel
_ModelT = TypeVar("_ModelT", bound=AnyModel)


class AIMModelArgs(TypedDict, total=False):
    """The AIMModel object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: str
    """metadata.namespace; defaults to `default`."""
    labels: dict[str, str]
    """metadata.labels."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: inputs.AIMModelSpec
    """The AIMModel spec (camelCase): exactly one of `image` or `modelId`, accelerator, source, ..."""


class AIMClusterModelArgs(TypedDict, total=False):
    """The AIMClusterModel object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: dict[str, str]
    """metadata.labels."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: inputs.AIMModelSpec
    """The AIMClusterModel spec (camelCase): exactly one of `image` or `modelId`, accelerator, ..."""


def model_status(model: AnyModel, catalog: Catalog) -> dict[str, Any]:
    """The model's deploy-time status: its onboarding path and the profiles generated for it."""
    spec: dict[str, Any] = api.to_manifest(model).get("spec") or {}
    error = catalog.generation_error(model)
    generated = [p.metadata.name for p in catalog.generated_profiles_of(model)]
    status: dict[str, Any] = {
        "status": "Failed" if error is not None else "Ready",
        "source": "image" if spec.get("image") else "modelId",
        "generatedProfiles": generated,
    }
    if error is not None:
        status["conditions"] = [
            {
                "type": "RuntimeConfigReady",
                "status": "False",
                "reason": error.reason,
                "message": error.message,
            }
        ]
    return status


class _ModelComponent(CatalogComponent[_ModelT]):
    """What both model kinds do; the subclasses only fix the kind and the argument type.

    `status` holds status, onboarding source and generated profile names.
    """

    model_name: pulumi.Output[str]
    """metadata.name of the model."""

    _NAME_OUTPUT = "model_name"

    def _status(self, declared: api.AIMObject, catalog: Catalog) -> dict[str, Any]:
        """A model whose profiles cannot be generated still declares; the program run says why."""
        assert isinstance(declared, api.AIMModel | api.AIMClusterModel)
        status = model_status(declared, catalog)
        for condition in status.get("conditions", []):
            pulumi.log.warn(f"{condition['reason']}: {condition['message']}", resource=self)
        return status


class AIMModel(_ModelComponent[api.AIMModel]):
    """A namespaced AIM model: the anchor `spec.model.name` of a service refers to."""

    _KIND_CLASS = api.AIMModel

    def __init__(
        self,
        name: str,
        args: AIMModelArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMModel | None = None,
    ) -> None:
        super().__init__(name, args, opts, catalog=catalog, _object=_object)


class AIMClusterModel(_ModelComponent[api.AIMClusterModel]):
    """A cluster-wide AIM model, visible to services in every namespace."""

    _KIND_CLASS = api.AIMClusterModel

    def __init__(
        self,
        name: str,
        args: AIMClusterModelArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterModel | None = None,
    ) -> None:
        super().__init__(name, args, opts, catalog=catalog, _object=_object)
