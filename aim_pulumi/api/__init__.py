"""Typed AIM objects (aim.eai.amd.com): parse, validate and write AIM manifests without Pulumi."""

from aim_pulumi.api.base import AIM_GROUP, AIMKind, ObjectMeta
from aim_pulumi.api.errors import AIMValidationError
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
from aim_pulumi.api.profile import AIMClusterProfile, AIMProfile
from aim_pulumi.api.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
from aim_pulumi.api.service import AIMService
from aim_pulumi.api.template import AIMClusterServiceTemplate, AIMServiceTemplate

__all__ = [
    "AIM_GROUP",
    "KINDS",
    "AIMClusterModel",
    "AIMClusterProfile",
    "AIMClusterRuntimeConfig",
    "AIMClusterServiceTemplate",
    "AIMKind",
    "AIMModel",
    "AIMObject",
    "AIMProfile",
    "AIMRuntimeConfig",
    "AIMService",
    "AIMServiceTemplate",
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
