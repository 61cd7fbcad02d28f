"""AIMProfile and AIMClusterProfile components: profiles services bind to, declared in the program.

A profile is catalog data: declaring one registers no Kubernetes object (no operator reads AIM
custom resources here, behaviour §16.6). The component validates the profile, makes it visible
to every service of the program wherever either is declared, and exports what the operator would
show in its status.
"""

from typing import Any, TypedDict, TypeVar

import pulumi

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.objects import (
    PROFILE_ORIGIN_LABEL,
    PROFILE_ROLE_LABEL,
    SOURCE_MODEL_LABEL,
    SOURCE_MODEL_SCOPE_LABEL,
)
from aim_pulumi.resolve.selection.versions import profile_version
from aim_pulumi.resources import inputs
from aim_pulumi.resources.registry import CatalogComponent

__all__ = ["AIMClusterProfile", "AIMClusterProfileArgs", "AIMProfile", "AIMProfileArgs", "profile_status"]

_PROVENANCE_LABELS = (SOURCE_MODEL_LABEL, SOURCE_MODEL_SCOPE_LABEL, PROFILE_ROLE_LABEL, PROFILE_ORIGIN_LABEL)
AnyProfile = api.AIMProfile | api.AIMClusterProfile
_ProfileT = TypeVar("_ProfileT", bound=AnyProfile)


class AIMProfileArgs(TypedDict, total=False):
    """The AIMProfile object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    namespace: str
    """metadata.namespace; defaults to `default`. The profile is visible only to services there."""
    labels: dict[str, str]
    """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: inputs.AIMProfileSpec
    """The AIMProfile spec (camelCase): aimId, image, accelerator*, engineArgs, modelSources, ..."""


class AIMClusterProfileArgs(TypedDict, total=False):
    """The AIMClusterProfile object: camelCase `spec` as in the CRD, plus its metadata."""

    name: str
    """metadata.name; defaults to the Pulumi resource name."""
    labels: dict[str, str]
    """metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model."""
    annotations: dict[str, str]
    """metadata.annotations."""
    spec: inputs.AIMProfileSpec
    """The AIMClusterProfile spec (camelCase); `caching` is namespace-only."""


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

    _NAME_OUTPUT = "profile_name"

    def _status(self, declared: api.AIMObject, catalog: Catalog) -> dict[str, Any]:
        assert isinstance(declared, api.AIMProfile | api.AIMClusterProfile)
        return profile_status(declared, catalog)


class AIMProfile(_ProfileComponent[api.AIMProfile]):
    """A namespaced AIM profile: one runtime (image, accelerators, engine settings) a service can bind."""

    _KIND_CLASS = api.AIMProfile

    def __init__(
        self,
        name: str,
        args: AIMProfileArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMProfile | None = None,
    ) -> None:
        super().__init__(name, args, opts, catalog=catalog, _object=_object)


class AIMClusterProfile(_ProfileComponent[api.AIMClusterProfile]):
    """A cluster-wide AIM profile, visible to services in every namespace."""

    _KIND_CLASS = api.AIMClusterProfile

    def __init__(
        self,
        name: str,
        args: AIMClusterProfileArgs,
        opts: pulumi.ResourceOptions | None = None,
        *,
        catalog: Catalog | None = None,
        _object: api.AIMClusterProfile | None = None,
    ) -> None:
        super().__init__(name, args, opts, catalog=catalog, _object=_object)
