"""AIMProfileSet and AIMClusterProfileSet components: derive profiles from other profiles.

A profile set is catalog data, as profiles and models are: it registers no Kubernetes object. Its
derived profiles join the program's catalog (`aim_pulumi/resolve/derivation/`), so a service
selects them like any profile, in any declaration order. The component exports the set's status as
the operator would show it: `managedProfiles`, the `DerivationReady` condition and the names of the
derived profiles.
"""

from collections.abc import Callable
from typing import Any, TypeVar, Unpack, overload

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.derivation.derive import derivation_status
from aim_pulumi.resources.catalog_component import CatalogComponent
from aim_pulumi.resources.constructors import plain_args, schema_args
from aim_pulumi.resources.inputs import (
    AIMClusterProfileSetArgs,
    AIMClusterProfileSetArgsDict,
    AIMClusterProfileSetKwargs,
    AIMProfileSetArgs,
    AIMProfileSetArgsDict,
    AIMProfileSetKwargs,
)
from aim_pulumi.resources.statuses import AIMProfileSetStatus

__all__ = [
    "AIMClusterProfileSet",
    "AIMClusterProfileSetArgs",
    "AIMClusterProfileSetArgsDict",
    "AIMProfileSet",
    "AIMProfileSetArgs",
    "AIMProfileSetArgsDict",
    "profile_set_status",
]

AnyProfileSet = api.AIMProfileSet | api.AIMClusterProfileSet
_SetT = TypeVar("_SetT", bound=AnyProfileSet)


def profile_set_status(profile_set: AnyProfileSet, catalog: Catalog) -> dict[str, Any]:
    """The set's deploy-time status against the program's complete catalog."""
    derivation = catalog.derivation(profile_set)
    assert derivation is not None, f"{profile_set.object_ref} is not in this catalog"
    return derivation_status(derivation, lambda profile: catalog.entry_for(profile).available)


class _ProfileSetComponent(CatalogComponent[_SetT]):
    """What both set kinds do; the subclasses only fix the kind and the argument type.

    `status` holds status, managedProfiles, the derived profiles' names and DerivationReady.
    """

    profile_set_name: pulumi.Output[str]
    """metadata.name of the profile set."""
    status: pulumi.Output[AIMProfileSetStatus]
    """The derivation's counts, condition and derived profiles, against the whole catalog."""

    _NAME_OUTPUT = "profile_set_name"

    @classmethod
    def status_of(
        cls, declared: api.AIMObject, catalog: Catalog, warn: Callable[[str], None]
    ) -> dict[str, Any]:
        """A set that derives nothing still declares; the program run says why."""
        assert isinstance(declared, api.AIMProfileSet | api.AIMClusterProfileSet)
        status = profile_set_status(declared, catalog)
        for condition in status["conditions"]:
            if condition["status"] != "True":
                warn(f"{condition['reason']}: {condition.get('message', '')}")
        return status


class AIMProfileSet(_ProfileSetComponent[api.AIMProfileSet]):
    """A namespaced profile set: derives AIMProfiles (custom weights, remixes) every service can select."""

    _KIND_CLASS = api.AIMProfileSet

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMProfileSetArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMProfileSet | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMProfileSetArgs,
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
        **kwargs: Unpack[AIMProfileSetKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMProfileSetArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMProfileSetArgsDict | AIMProfileSetArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMProfileSet | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMProfileSet", args, kwargs, AIMProfileSetArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)


class AIMClusterProfileSet(_ProfileSetComponent[api.AIMClusterProfileSet]):
    """A cluster-wide profile set: derives AIMClusterProfiles from cluster profiles, for every namespace."""

    _KIND_CLASS = api.AIMClusterProfileSet

    # Constructor overloads, written by scripts/generate_types.py: run it after changing one.
    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterProfileSetArgsDict,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterProfileSet | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterProfileSetArgs,
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
        **kwargs: Unpack[AIMClusterProfileSetKwargs],
    ) -> None: ...

    # End of the generated constructor overloads.

    @schema_args(AIMClusterProfileSetArgsDict)
    def __init__(
        self,
        resource_name: str,
        args: AIMClusterProfileSetArgsDict | AIMClusterProfileSetArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterProfileSet | None = None,
        **kwargs: Any,
    ) -> None:
        options = plain_args("AIMClusterProfileSet", args, kwargs, AIMClusterProfileSetArgs)
        super().__init__(resource_name, options, opts, catalog=catalog, _object=_object)
