"""AIMClusterModelSource: cluster models kept in step with a registry, listed at discover time.

The component is catalog data, as the model components are: the AIMClusterModels its listing
materialises (`aim_pulumi/resolve/catalog/model_sources.py`, from the lock or, when the lock has
no entry for it, a live listing) join the program's catalog, each image's profiles discovered
in turn, and the status says what the operator's would (`discoveredModels`, `availableModels`,
`modelsLimitReached`) and names the models.
"""

from collections.abc import Callable
from typing import Any, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resources.catalog_component import CatalogComponent
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import (
    AIMClusterModelSourceArgs,
    AIMClusterModelSourceArgsDict,
    AIMClusterModelSourceKwargs,
)
from aim_pulumi.resources.statuses import AIMClusterModelSourceStatus

__all__ = [
    "AIMClusterModelSource",
    "AIMClusterModelSourceArgs",
    "AIMClusterModelSourceArgsDict",
    "source_status",
]


def source_status(source: api.AIMClusterModelSource, catalog: Catalog) -> dict[str, Any]:
    """What the source materialised; a listing that failed fails the program on this object."""
    failed = catalog.source_error(source)
    if failed is not None:
        raise failed
    made = catalog.source_models(source)
    return dict(made.status) if made is not None else {"status": "Ready", "models": []}


class AIMClusterModelSource(CatalogComponent[api.AIMClusterModelSource]):
    """Cluster models for the images a registry lists (`aim-pulumi discover` records the listing)."""

    source_name: pulumi.Output[str]
    """metadata.name of the source."""
    status: pulumi.Output[AIMClusterModelSourceStatus]
    """discoveredModels, availableModels, modelsLimitReached and the names of the models."""

    _KIND_CLASS = api.AIMClusterModelSource
    _NAME_OUTPUT = "source_name"

    @classmethod
    def status_of(
        cls, declared: api.AIMObject, catalog: Catalog, warn: Callable[[str], None]
    ) -> dict[str, Any]:
        assert isinstance(declared, api.AIMClusterModelSource)
        status = source_status(declared, catalog)
        if status.get("modelsLimitReached"):
            warn(
                f"MaxModelsLimitReached: {status['discoveredModels']} models made, "
                f"{status['availableModels']} available; raise spec.maxModels to make more"
            )
        return status

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterModelSourceArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterModelSource | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterModelSourceArgs,
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
        **kwargs: Unpack[AIMClusterModelSourceKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMClusterModelSourceArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterModelSourceArgsDict | AIMClusterModelSourceArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterModelSource | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMClusterModelSource", args, kwargs, AIMClusterModelSourceArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)
