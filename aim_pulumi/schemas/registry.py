"""The vendored upstream schemas, found by apiVersion + kind.

The JSON files ship as package data so validation works from an installed wheel or a fresh clone;
each one names the kinds it describes in `x-kubernetes-group-version-kind`, which is the only index
needed. Files are parsed once per process: the InferenceService schema alone is over 600 KB.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

GroupVersionKind = tuple[str, str]
"""(apiVersion, kind), e.g. ("serving.kserve.io/v1beta1", "InferenceService")."""

OBJECT_META: GroupVersionKind = ("meta.k8s.io/v1", "ObjectMeta")


@dataclass(frozen=True)
class SchemaDocument:
    """One vendored schema file and what the validator needs to know about its origin."""

    filename: str
    schema: Mapping[str, Any]

    @property
    def is_crd(self) -> bool:
        """CRD schemas are structural (unknown fields get pruned); core swagger ones ship strict already."""
        source = self.schema.get("x-source", {})
        return isinstance(source, Mapping) and "crd" in source

    @property
    def group_version_kinds(self) -> list[GroupVersionKind]:
        return [
            (_api_version(gvk), gvk["kind"]) for gvk in self.schema.get("x-kubernetes-group-version-kind", [])
        ]


def _api_version(gvk: Mapping[str, str]) -> str:
    group = gvk.get("group", "")
    return f"{group}/{gvk['version']}" if group else gvk["version"]


@functools.cache
def _documents() -> dict[GroupVersionKind, SchemaDocument]:
    index: dict[GroupVersionKind, SchemaDocument] = {}
    package = resources.files(__package__ or "aim_pulumi.schemas")
    for entry in sorted(package.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        schema = json.loads(entry.read_text(encoding="utf-8"))
        document = SchemaDocument(filename=entry.name, schema=schema)
        for gvk in schema.get("x-kubernetes-group-version-kind", []):
            index[(_api_version(gvk), gvk["kind"])] = document
    return index


def schema_document(api_version: str, kind: str) -> SchemaDocument | None:
    """The schema file for a kind, or None when the project vendors none for it."""
    return _documents().get((api_version, kind))


def known_kinds() -> list[GroupVersionKind]:
    """Every top-level kind that can be validated, sorted by apiVersion then kind."""
    return sorted(gvk for gvk in _documents() if gvk != OBJECT_META)
