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
    "AIMValidationError",
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
_SOURCES = {
    "AIMClusterModel": "aim_pulumi.api.model",
    "AIMClusterModelSource": "aim_pulumi.api.model_source",
    "AIMClusterProfile": "aim_pulumi.api.profile",
    "AIMClusterRuntimeConfig": "aim_pulumi.api.runtime_config",
    "AIMKind": "aim_pulumi.api.base",
    "AIMModel": "aim_pulumi.api.model",
    "AIMObject": "aim_pulumi.api.io",
    "AIMProfile": "aim_pulumi.api.profile",
    "AIMRuntimeConfig": "aim_pulumi.api.runtime_config",
    "AIMService": "aim_pulumi.api.service",
    "AIMError": "aim_pulumi.api.errors",
    "AIMValidationError": "aim_pulumi.api.errors",
    "AIM_GROUP": "aim_pulumi.api.base",
    "KINDS": "aim_pulumi.api.io",
    "ManifestDocument": "aim_pulumi.api.io",
    "ObjectMeta": "aim_pulumi.api.base",
    "admission_problems": "aim_pulumi.api.io",
    "dump_manifests": "aim_pulumi.api.io",
    "kind_class": "aim_pulumi.api.io",
    "load_manifests": "aim_pulumi.api.io",
    "parse": "aim_pulumi.api.io",
    "read_documents": "aim_pulumi.api.io",
    "to_manifest": "aim_pulumi.api.io",
}


def __getattr__(name: str) -> Any:
    module = _SOURCES.get(name)
    import importlib

    if module is None:
        # A kind a version's folder registers (`aim_pulumi.api.extensions`) is read by its name too.
        kinds = importlib.import_module("aim_pulumi.api.io").KINDS if name.startswith("AIM") else {}
        if name not in kinds:
            raise AttributeError(f"module 'aim_pulumi.api' has no attribute {name!r}")
        return kinds[name]
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from aim_pulumi.api.base import AIM_GROUP, AIMKind, ObjectMeta
    from aim_pulumi.api.errors import AIMError, AIMValidationError
    from aim_pulumi.api.io import (
        KINDS,
        AIMObject,
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
    from aim_pulumi.api.service import AIMService
