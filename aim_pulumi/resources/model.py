"""AIMModel and AIMClusterModel components: models whose profiles services select.

A model is catalog data (no Kubernetes children). An ID-backed model (`spec.modelId`) gets
profiles generated from the fallbacks of its runtime config (behaviour §6); an image-backed model
needs its profiles declared with the `aim.eai.amd.com/source-model` label, since no discovery Job
can run. The component exports the generated profile names as they stand when it is declared.
"""

from typing import Any, TypedDict

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog import Catalog
from aim_pulumi.resources.registry import CatalogComponent, default_resource_name

__all__ = ["AIMClusterModel", "AIMClusterModelArgs", "AIMModel", "AIMModelArgs", "model_status"]

AnyModel = api.AIMModel | api.AIMClusterModel


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
    spec: dict[str, Any]
    """The AIMModel spec (camelCase): exactly one of `image` or `modelId`, accelerator, source, ..."""


class AIMClusterModelArgs(TypedDict, total=False):
    """The AIMClusterModel object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: dict[str, str]
    """metadata.labels."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: dict[str, Any]
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


class _ModelComponent(CatalogComponent):
    """What both model kinds do; the subclasses only fix the kind and the argument type."""

    model_name: pulumi.Output[str]
    """metadata.name of the model."""
    spec: pulumi.Output[dict[str, Any]]
    """The model spec as declared (camelCase)."""
    status: pulumi.Output[dict[str, Any]]
    """status, onboarding source and generated profile names."""

    def _setup(
        self,
        name: str,
        args: Any,
        opts: pulumi.ResourceOptions | None,
        catalog: Catalog | None,
        obj: AnyModel | None,
    ) -> None:
        declared, target = self._declare(name, args, opts, catalog=catalog, obj=obj)
        assert isinstance(declared, api.AIMModel | api.AIMClusterModel)
        spec: dict[str, Any] = api.to_manifest(declared).get("spec") or {}
        status = model_status(declared, target)
        for condition in status.get("conditions", []):
            pulumi.log.warn(f"{condition['reason']}: {condition['message']}", resource=self)
        self.model_name = pulumi.Output.from_input(declared.metadata.name)
        self.spec = pulumi.Output.from_input(spec)
        self.status = pulumi.Output.from_input(status)
        self.register_outputs({"modelName": declared.metadata.name, "spec": spec, "status": status})


class AIMModel(_ModelComponent):
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
        self._setup(name, args, opts, catalog, _object)

    @classmethod
    def from_object(
        cls, obj: api.AIMModel, opts: pulumi.ResourceOptions | None = None, *, catalog: Catalog | None = None
    ) -> "AIMModel":
        """Declare a typed AIMModel; the resource is named `<namespace>-<name>`."""
        return cls(default_resource_name(obj), {}, opts, catalog=catalog, _object=obj)


class AIMClusterModel(_ModelComponent):
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
        self._setup(name, args, opts, catalog, _object)

    @classmethod
    def from_object(
        cls,
        obj: api.AIMClusterModel,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> "AIMClusterModel":
        """Declare a typed AIMClusterModel; the resource is named `<name>`."""
        return cls(default_resource_name(obj), {}, opts, catalog=catalog, _object=obj)
