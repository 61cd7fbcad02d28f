"""AIMProfile and AIMClusterProfile components: profiles services bind to, declared in the program.

A profile is catalog data: declaring one registers no Kubernetes object (no operator reads AIM
custom resources here, behaviour §16.6). The component validates the profile, makes it visible
to every service of the program wherever either is declared, and exports what the operator would
show in its status.
"""

from collections.abc import Callable
from typing import Any, TypeVar, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.api.profile import deprecation_notes
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.objects import (
    PROFILE_ORIGIN_LABEL,
    PROFILE_ROLE_LABEL,
    SOURCE_MODEL_LABEL,
    SOURCE_MODEL_SCOPE_LABEL,
)
from aim_pulumi.resolve.selection.versions import profile_version
from aim_pulumi.resources.catalog_component import CatalogComponent
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import (
    AIMClusterProfileArgs,
    AIMClusterProfileArgsDict,
    AIMClusterProfileKwargs,
    AIMProfileArgs,
    AIMProfileArgsDict,
    AIMProfileKwargs,
)
from aim_pulumi.resources.statuses import AIMProfileStatus

__all__ = [
    "AIMClusterProfile",
    "AIMClusterProfileArgs",
    "AIMClusterProfileArgsDict",
    "AIMProfile",
    "AIMProfileArgs",
    "AIMProfileArgsDict",
    "profile_status",
]

_PROVENANCE_LABELS = (SOURCE_MODEL_LABEL, SOURCE_MODEL_SCOPE_LABEL, PROFILE_ROLE_LABEL, PROFILE_ORIGIN_LABEL)
AnyProfile = api.AIMProfile | api.AIMClusterProfile
_ProfileT = TypeVar("_ProfileT", bound=AnyProfile)


def profile_status(profile: AnyProfile, catalog: Catalog) -> dict[str, Any]:
    """What a profile's status says at deploy time: availability, version and provenance."""
    entry = catalog.entry_for(profile)
    manifest = api.to_manifest(profile)
    declared: dict[str, Any] = manifest.get("status") or {}
    image = (manifest.get("spec") or {}).get("image")
    status: dict[str, Any] = {
        "status": declared.get("status") or ("Ready" if entry.available else "NotAvailable"),
        "available": entry.available,
        "role": entry.role,
        "origin": entry.origin,
        "labels": {k: v for k, v in sorted(entry.labels.items()) if k in _PROVENANCE_LABELS},
    }
    version = profile_version(declared.get("version"), str(image) if image else None)
    if version:
        status["version"] = version
    return status


class _ProfileComponent(CatalogComponent[_ProfileT]):
    """What both profile kinds do; the subclasses only fix the kind and the argument type.

    `status` holds status, availability, role, origin, version and provenance labels.
    """

    profile_name: pulumi.Output[str]
    """metadata.name of the profile."""
    status: pulumi.Output[AIMProfileStatus]
    """Availability, role, origin, version and provenance labels, against the whole catalog."""

    _NAME_OUTPUT = "profile_name"

    @classmethod
    def status_of(
        cls, declared: api.AIMObject, catalog: Catalog, warn: Callable[[str], None]
    ) -> dict[str, Any]:
        assert isinstance(declared, api.AIMProfile | api.AIMClusterProfile)
        for note in deprecation_notes(declared.spec):
            field, _, rest = note.partition(": ")
            warn(f"{rest.partition(': ')[0]}: {field}: {rest.partition(': ')[2]}")
        return profile_status(declared, catalog)


class AIMProfile(_ProfileComponent[api.AIMProfile]):
    """A namespaced AIM profile: one runtime (image, accelerators, engine settings) a service can bind."""

    _KIND_CLASS = api.AIMProfile

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMProfileArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMProfile | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMProfileArgs,
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
        **kwargs: Unpack[AIMProfileKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMProfileArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMProfileArgsDict | AIMProfileArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMProfile | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMProfile", args, kwargs, AIMProfileArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)


class AIMClusterProfile(_ProfileComponent[api.AIMClusterProfile]):
    """A cluster-wide AIM profile, visible to services in every namespace."""

    _KIND_CLASS = api.AIMClusterProfile

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterProfileArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterProfile | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterProfileArgs,
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
        **kwargs: Unpack[AIMClusterProfileKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMClusterProfileArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterProfileArgsDict | AIMClusterProfileArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterProfile | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMClusterProfile", args, kwargs, AIMClusterProfileArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)
