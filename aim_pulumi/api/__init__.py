"""Typed AIM objects (aim.eai.amd.com): parse, validate and write AIM manifests without Pulumi."""

from typing import TYPE_CHECKING, Any

__all__ = [
    "AIM_GROUP",
    "KINDS",
    "AIMClusterModel",
    "AIMClusterModelSource",
    "AIMClusterProfile",
    "AIMClusterRuntimeConfig",
    "AIMError",
    "AIMKind",
    "AIMModel",
    "AIMObject",
    "AIMProfile",
    "AIMRuntimeConfig",
    "AIMService",
    "AIMServiceObject",
    "AIMValidationError",
    "Kinds",
    "ManifestDocument",
    "ObjectMeta",
    "admission_problems",
    "dump_manifests",
    "kind_class",
    "load_manifests",
    "parse",
    "read_documents",
    "to_manifest",
]

# Each name is imported on first use (PEP 562): `aim_pulumi.api.errors` alone, which every CLI
# command needs, then does not build every model class, and `aim-pulumi --version` starts fast.
_ERRORS = frozenset({"AIMError", "AIMValidationError"})
_BASE = frozenset({"AIMKind", "AIM_GROUP", "ObjectMeta"})


def __getattr__(name: str) -> Any:
    if name == "AIMService":
        # The stable name of the API (the contract's `aim_pulumi.api.AIMService`): the typed object,
        # whose class is named `AIMServiceObject` so that the component is the only `AIMService`.
        from aim_pulumi.api.service import AIMServiceObject as AIMService

        globals()[name] = AIMService
        return AIMService
    if name in _ERRORS:
        from aim_pulumi.api import errors

        value = getattr(errors, name)
    elif name in _BASE:
        from aim_pulumi.api import base

        value = getattr(base, name)
    elif name in __all__:  # the models and their reader: `io` builds every model class
        from aim_pulumi.api import io

        value = getattr(io, name)
    else:
        raise AttributeError(f"module 'aim_pulumi.api' has no attribute {name!r}")
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from aim_pulumi.api.base import AIM_GROUP, AIMKind, ObjectMeta
    from aim_pulumi.api.errors import AIMError, AIMValidationError
    from aim_pulumi.api.io import (
        KINDS,
        AIMObject,
        Kinds,
        ManifestDocument,
        admission_problems,
        dump_manifests,
        kind_class,
        load_manifests,
        parse,
        read_documents,
        to_manifest,
    )
    from aim_pulumi.api.model import AIMClusterModel, AIMModel
    from aim_pulumi.api.model_source import AIMClusterModelSource
    from aim_pulumi.api.profile import AIMClusterProfile, AIMProfile
    from aim_pulumi.api.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
    from aim_pulumi.api.service import AIMServiceObject
    from aim_pulumi.api.service import AIMServiceObject as AIMService
