"""Offline admission checks for the Kubernetes manifests aim-pulumi emits.

The upstream schemas of every emitted kind ship with the package (see README.md beside this file)
and are checked as the API server would check them on create: structural defaulting, the schema
with strict unknown fields, list-type uniqueness and quantities, ObjectMeta syntax, the CRD CEL
rules, and the Go-coded rules of the API server and KServe's webhook. Pure: no pulumi import.
"""

from aim_pulumi.schemas.registry import known_kinds
from aim_pulumi.schemas.validator import (
    ManifestValidationError,
    assert_valid,
    manifest_identity,
    validate_manifest,
)

__all__ = [
    "ManifestValidationError",
    "assert_valid",
    "known_kinds",
    "manifest_identity",
    "validate_manifest",
]
