"""AIMRuntimeConfig and AIMClusterRuntimeConfig components: the settings services and caches merge.

A runtime config is catalog data (no Kubernetes children). A namespaced config is merged over the
cluster config of the same name (behaviour §3); the component exports the merged spec as a
consumer in its namespace would see it, with the same presence rules.
"""

from typing import Any, TypedDict, TypeVar

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config
from aim_pulumi.resources import inputs
from aim_pulumi.resources.registry import CatalogComponent

__all__ = [
    "AIMClusterRuntimeConfig",
    "AIMClusterRuntimeConfigArgs",
    "AIMRuntimeConfig",
    "AIMRuntimeConfigArgs",
    "runtime_config_status",
]

AnyRuntimeConfig = api.AIMRuntimeConfig | api.AIMClusterRuntimeConfig
_RuntimeConfigT = TypeVar("_RuntimeConfigT", bound=AnyRuntimeConfig)


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
    spec: inputs.AIMRuntimeConfigSpec
    """The runtime config spec (camelCase): storage, routing, scaleFromZero, env, labelPropagation, ..."""


class AIMClusterRuntimeConfigArgs(TypedDict, total=False):
    """The AIMClusterRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name (`default` replaces the embedded default)."""
    labels: dict[str, str]
    """metadata.labels."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: inputs.AIMClusterRuntimeConfigSpec
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


class _RuntimeConfigComponent(CatalogComponent[_RuntimeConfigT]):
    """What both runtime-config kinds do; the subclasses only fix the kind and the argument type.

    `status` holds status and effectiveSpec (a namespaced config merged over the cluster config of
    its name).
    """

    config_name: pulumi.Output[str]
    """metadata.name of the runtime config."""

    _NAME_OUTPUT = "config_name"
    _ENV_OUTPUTS = True

    def _status(self, declared: api.AIMObject, catalog: Catalog) -> dict[str, Any]:
        assert isinstance(declared, api.AIMRuntimeConfig | api.AIMClusterRuntimeConfig)
        return runtime_config_status(declared, catalog)


class AIMRuntimeConfig(_RuntimeConfigComponent[api.AIMRuntimeConfig]):
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
        super().__init__(name, args, opts, catalog=catalog, _object=_object)


class AIMClusterRuntimeConfig(_RuntimeConfigComponent[api.AIMClusterRuntimeConfig]):
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
        super().__init__(name, args, opts, catalog=catalog, _object=_object)
