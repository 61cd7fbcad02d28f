"""AIMRuntimeConfig and AIMClusterRuntimeConfig components: the settings services and caches merge.

A runtime config is catalog data (no Kubernetes children). A namespaced config is merged over the
cluster config of the same name (behaviour §3); the component exports the merged spec as a
consumer in its namespace would see it, with the same presence rules.
"""

from typing import Any, TypedDict

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog import Catalog
from aim_pulumi.resolve.runtime_config import resolve_runtime_config
from aim_pulumi.resources.registry import CatalogComponent, default_resource_name

__all__ = [
    "AIMClusterRuntimeConfig",
    "AIMClusterRuntimeConfigArgs",
    "AIMRuntimeConfig",
    "AIMRuntimeConfigArgs",
    "runtime_config_status",
]

AnyRuntimeConfig = api.AIMRuntimeConfig | api.AIMClusterRuntimeConfig


class AIMRuntimeConfigArgs(TypedDict, total=False):
    """The AIMRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name (`default` is what services use)."""
    namespace: str
    """metadata.namespace; defaults to `default`. Applies only to consumers in that namespace."""
    labels: dict[str, str]
    """metadata.labels."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: dict[str, Any]
    """The runtime config spec (camelCase): storage, routing, scaleFromZero, env, labelPropagation, ..."""


class AIMClusterRuntimeConfigArgs(TypedDict, total=False):
    """The AIMClusterRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name (`default` replaces the embedded default)."""
    labels: dict[str, str]
    """metadata.labels."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: dict[str, Any]
    """The runtime config spec (camelCase), including model.profileGeneration.fallbacks."""


def runtime_config_status(config: AnyRuntimeConfig, catalog: Catalog) -> dict[str, Any]:
    """The merged spec a consumer in the config's namespace sees, and which object it names."""
    effective: dict[str, Any] = dict(api.to_manifest(config).get("spec") or {})
    if config.kind == "AIMRuntimeConfig":
        resolved = resolve_runtime_config(
            catalog, config.metadata.namespace or "default", config.metadata.name
        )
        if resolved is not None:
            effective = dict(resolved.spec)
    return {"status": "Ready", "effectiveSpec": effective}


class _RuntimeConfigComponent(CatalogComponent):
    """What both runtime-config kinds do; the subclasses only fix the kind and the argument type."""

    config_name: pulumi.Output[str]
    """metadata.name of the runtime config."""
    spec: pulumi.Output[dict[str, Any]]
    """The spec as declared (camelCase)."""
    status: pulumi.Output[dict[str, Any]]
    """status and effectiveSpec (a namespaced config merged over the cluster config of its name)."""

    def _setup(
        self,
        name: str,
        args: Any,
        opts: pulumi.ResourceOptions | None,
        catalog: Catalog | None,
        obj: AnyRuntimeConfig | None,
    ) -> None:
        declared, target = self._declare(name, args, opts, catalog=catalog, obj=obj)
        assert isinstance(declared, api.AIMRuntimeConfig | api.AIMClusterRuntimeConfig)
        spec: dict[str, Any] = api.to_manifest(declared).get("spec") or {}
        status = runtime_config_status(declared, target)
        self.config_name = pulumi.Output.from_input(declared.metadata.name)
        self.spec = pulumi.Output.from_input(spec)
        self.status = pulumi.Output.from_input(status)
        self.register_outputs({"configName": declared.metadata.name, "spec": spec, "status": status})


class AIMRuntimeConfig(_RuntimeConfigComponent):
    """Namespace runtime settings: storage, routing, env, label propagation, download settings."""

    _KIND_CLASS = api.AIMRuntimeConfig

    def __init__(
        self,
        name: str,
        args: AIMRuntimeConfigArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMRuntimeConfig | None = None,
    ) -> None:
        self._setup(name, args, opts, catalog, _object)

    @classmethod
    def from_object(
        cls,
        obj: api.AIMRuntimeConfig,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> "AIMRuntimeConfig":
        """Declare a typed AIMRuntimeConfig; the resource is named `<namespace>-<name>`."""
        return cls(default_resource_name(obj), {}, opts, catalog=catalog, _object=obj)


class AIMClusterRuntimeConfig(_RuntimeConfigComponent):
    """Cluster-wide runtime settings and profile-generation fallbacks."""

    _KIND_CLASS = api.AIMClusterRuntimeConfig

    def __init__(
        self,
        name: str,
        args: AIMClusterRuntimeConfigArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterRuntimeConfig | None = None,
    ) -> None:
        self._setup(name, args, opts, catalog, _object)

    @classmethod
    def from_object(
        cls,
        obj: api.AIMClusterRuntimeConfig,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> "AIMClusterRuntimeConfig":
        """Declare a typed AIMClusterRuntimeConfig; the resource is named `<name>`."""
        return cls(default_resource_name(obj), {}, opts, catalog=catalog, _object=obj)
