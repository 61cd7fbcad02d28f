"""Typed AIM objects (aim.eai.amd.com): parse, validate and write AIM manifests without Pulumi."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING, Any

__all__ = [
    "AIM_GROUP",
    "KINDS",
    "AIMClusterModel",
    "AIMClusterModelSource",
    "AIMClusterProfile",
    "AIMClusterProfileSet",
    "AIMClusterRuntimeConfig",
    "AIMError",
    "AIMKind",
    "AIMModel",
    "AIMObject",
    "AIMProfile",
    "AIMProfileSet",
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
# The contract's readers, defined below: they serve every version this installation serves.
_READERS = frozenset({"admission_problems", "load_manifests", "parse"})
# Kinds of a version's folder (v1alpha1), named here as the contract names them, while it is installed.
_FOLDER_KINDS = frozenset({"AIMServiceTemplate", "AIMClusterServiceTemplate"})


# This package's `__init__` is the API's front door, as `aim_pulumi/__init__.py` is the package's:
# the contract's `aim_pulumi.api.parse`, `load_manifests` and `admission_problems` read every API
# version the installation serves (v1alpha1 while its folder is installed), so they ask
# `aim_pulumi.versions` for the kinds when the caller hands none. That is the one import of this
# layer that points up, made at call time by the front door only (tests/layout/test_package_order.py
# allows exactly it); the modules of the package and of every layer read with `aim_pulumi.api.io`'s
# functions and the kinds they were handed, so their own dependencies stay downward.
def _served_kinds() -> Kinds:
    from aim_pulumi import versions

    return versions.SERVED_KINDS


def parse(obj: Mapping[str, Any], kinds: Kinds | None = None) -> AIMObject:
    """The typed object a manifest describes, dispatched on apiVersion + kind, every admission rule applied.

    Reads every version this installation serves unless `kinds` says which.
    """
    from aim_pulumi.api import io

    return io.parse(obj, _served_kinds() if kinds is None else kinds)


def load_manifests(source: str | os.PathLike[str] | IO[str], kinds: Kinds | None = None) -> list[AIMObject]:
    """Every AIM object of a file, a directory (*.yaml, *.yml, recursive, sorted) or a stream.

    Reads every version this installation serves unless `kinds` says which.
    """
    from aim_pulumi.api import io

    return io.load_manifests(source, _served_kinds() if kinds is None else kinds)


def admission_problems(
    obj: Mapping[str, Any] | AIMKind, kinds: Kinds | None = None
) -> list[AIMValidationError]:
    """Every problem of a manifest (or typed object), not just the first; empty when it is admitted.

    Reads every version this installation serves unless `kinds` says which.
    """
    from aim_pulumi.api import io

    return io.admission_problems(obj, _served_kinds() if kinds is None else kinds)


def __getattr__(name: str) -> Any:
    if name == "AIMService":
        # The stable name of the API (the contract's `aim_pulumi.api.AIMService`): the typed object,
        # whose class is named `AIMServiceObject` so that the component is the only `AIMService`.
        from aim_pulumi.api.service import AIMServiceObject as AIMService

        globals()[name] = AIMService
        return AIMService
    if name in _FOLDER_KINDS:
        served = _served_kinds()
        if name not in served:
            raise AttributeError(f"{name} is a v1alpha1 kind, and v1alpha1 is not installed")
        value: Any = served[name]
    elif name in _ERRORS:
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
        dump_manifests,
        kind_class,
        read_documents,
        to_manifest,
    )
    from aim_pulumi.api.model import AIMClusterModel, AIMModel
    from aim_pulumi.api.model_source import AIMClusterModelSource
    from aim_pulumi.api.profile import AIMClusterProfile, AIMProfile
    from aim_pulumi.api.profile_set import AIMClusterProfileSet, AIMProfileSet
    from aim_pulumi.api.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
    from aim_pulumi.api.service import AIMServiceObject
    from aim_pulumi.api.service import AIMServiceObject as AIMService
