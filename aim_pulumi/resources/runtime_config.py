"""AIMRuntimeConfig and AIMClusterRuntimeConfig components: the settings services and caches merge.

A runtime config is catalog data (no Kubernetes children). A namespaced config is merged over the
cluster config of the same name (behaviour §3); the component exports the merged spec as a
consumer in its namespace would see it, with the same presence rules.
"""

from collections.abc import Callable
from typing import Any, TypeVar, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config
from aim_pulumi.resources.catalog_component import CatalogComponent
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import (
    AIMClusterRuntimeConfigArgs,
    AIMClusterRuntimeConfigArgsDict,
    AIMClusterRuntimeConfigKwargs,
    AIMRuntimeConfigArgs,
    AIMRuntimeConfigArgsDict,
    AIMRuntimeConfigKwargs,
)
from aim_pulumi.resources.statuses import AIMRuntimeConfigStatus

__all__ = [
    "AIMClusterRuntimeConfig",
    "AIMClusterRuntimeConfigArgs",
    "AIMClusterRuntimeConfigArgsDict",
    "AIMRuntimeConfig",
    "AIMRuntimeConfigArgs",
    "AIMRuntimeConfigArgsDict",
    "runtime_config_status",
]

AnyRuntimeConfig = api.AIMRuntimeConfig | api.AIMClusterRuntimeConfig
_RuntimeConfigT = TypeVar("_RuntimeConfigT", bound=AnyRuntimeConfig)


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
    status: pulumi.Output[AIMRuntimeConfigStatus]
    """The spec a consumer in the config's namespace sees, merged over the cluster config."""

    _NAME_OUTPUT = "config_name"
    _ENV_OUTPUTS = True

    @classmethod
    def status_of(
        cls, declared: api.AIMObject, catalog: Catalog, warn: Callable[[str], None]
    ) -> dict[str, Any]:
        assert isinstance(declared, api.AIMRuntimeConfig | api.AIMClusterRuntimeConfig)
        return runtime_config_status(declared, catalog)


class AIMRuntimeConfig(_RuntimeConfigComponent[api.AIMRuntimeConfig]):
    """Namespace runtime settings: storage, routing, env, label propagation, download settings."""

    _KIND_CLASS = api.AIMRuntimeConfig

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMRuntimeConfigArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMRuntimeConfig | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMRuntimeConfigArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        *,
        opts: pulumi.ResourceOptions | None = None,
        catalog: Catalog | None = None,
        **kwargs: Unpack[AIMRuntimeConfigKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMRuntimeConfigArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMRuntimeConfigArgsDict | AIMRuntimeConfigArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMRuntimeConfig | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMRuntimeConfig", args, kwargs, AIMRuntimeConfigArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)


class AIMClusterRuntimeConfig(_RuntimeConfigComponent[api.AIMClusterRuntimeConfig]):
    """Cluster-wide runtime settings and profile-generation fallbacks."""

    _KIND_CLASS = api.AIMClusterRuntimeConfig

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterRuntimeConfigArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterRuntimeConfig | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterRuntimeConfigArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        *,
        opts: pulumi.ResourceOptions | None = None,
        catalog: Catalog | None = None,
        **kwargs: Unpack[AIMClusterRuntimeConfigKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMClusterRuntimeConfigArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterRuntimeConfigArgsDict | AIMClusterRuntimeConfigArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterRuntimeConfig | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMClusterRuntimeConfig", args, kwargs, AIMClusterRuntimeConfigArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)
