"""The profiles derivation may copy, as the plain facts it reads of them.

A source is any profile of the catalog: declared, generated from an ID-backed model, discovered
from an image's registry, or read from a discovery cache. Derivation reads the same few facts of
each, so they are plain fields here and whoever produces a profile only has to say them: the
`aim.eai.amd.com/profile-copyable` annotation (upstream marks discovered and generated profiles
copyable, and never a derived one: a derived profile is not derived again), the base image
(`AIM_BASE_IMAGE_REF` of the image the profile came from: `status.baseImage`, else the
`aim.eai.amd.com/base-image` annotation), the role and origin labels, the source-model labels and
the version (`status.version`, else the image tag, as the operator's profile controller sets it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aim_pulumi.api import AIM_GROUP, to_manifest
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.candidate import ProfileEntry

COPYABLE_ANNOTATION = f"{AIM_GROUP}/profile-copyable"
BASE_IMAGE_ANNOTATION = f"{AIM_GROUP}/base-image"
PROFILE_SOURCE_ANNOTATION = f"{AIM_GROUP}/profile-source"
PROFILE_SET_UID_ANNOTATION = f"{AIM_GROUP}/profile-set-uid"
PROFILE_SET_NAME_ANNOTATION = f"{AIM_GROUP}/profile-set-name"
PROFILE_SET_NAMESPACE_ANNOTATION = f"{AIM_GROUP}/profile-set-namespace"
PROFILE_SOURCE_COPY = "copy"

# Go's strconv.ParseBool, which reads the copyable annotation.
_GO_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})


def go_parse_bool(value: str | None) -> bool:
    """True only for what Go's `strconv.ParseBool` reads as true (anything else, unset included, is false)."""
    return value in _GO_TRUE


def extract_tag(image: str) -> str:
    """The operator's image version: the tag after the last `:` that has no `/` after it.

    Unlike selection's version (`aim_pulumi/resolve/selection/versions.py`) it keeps a leading `v`
    and any text: `pinned` compares it as written, and it is a hash input of derived names. A
    digest reference has none.
    """
    if "@sha256:" in image:
        return ""
    colon = image.rfind(":")
    if colon < 0 or colon == len(image) - 1 or "/" in image[colon + 1 :]:
        return ""
    return image[colon + 1 :]


def is_deployable_spec(spec: Mapping[str, Any]) -> bool:
    """Upstream's `IsProfileDeployable`: an aimId and at least one model source."""
    return bool(text(spec.get("aimId"))) and bool(spec.get("modelSources"))


@dataclass(frozen=True)
class SourceProfile:
    """One profile as derivation sees it.

    `kind` is AIMProfile or AIMClusterProfile and `namespace` is "" for a cluster profile; a
    discovery-cache entry has kind "" (it is no object). `spec` is the profile's manifest spec
    (camelCase), shared and never mutated.
    """

    kind: str
    namespace: str
    name: str
    spec: Mapping[str, Any]
    version: str
    base_image: str
    role: str
    origin: str
    source_model: str
    source_model_scope: str
    copyable: bool

    @property
    def ref(self) -> str:
        if not self.kind:
            return f"discovery cache entry {self.name}"
        return f"{self.kind}/{self.namespace}/{self.name}" if self.namespace else f"{self.kind}/{self.name}"


def source_of(entry: ProfileEntry) -> SourceProfile:
    """The derivation facts of a catalog entry (declared, generated or discovered alike)."""
    annotations = entry.obj.metadata.annotations or {}
    status = entry.status
    status_version = text(status.version if status is not None else None)
    extra = (status.model_extra or {}) if status is not None else {}
    base_image = text(extra.get("baseImage")) or text(annotations.get(BASE_IMAGE_ANNOTATION))
    spec = to_manifest(entry.obj).get("spec") or {}
    return SourceProfile(
        kind=entry.kind,
        namespace=entry.namespace,
        name=entry.name,
        spec=spec,
        version=status_version or extract_tag(entry.field("image")),
        base_image=base_image,
        role=entry.role,
        origin=entry.origin,
        source_model=entry.source_model,
        source_model_scope=entry.source_model_scope,
        # Generated profiles carry upstream's copyable mark implicitly: the operator writes it on them.
        copyable=go_parse_bool(annotations.get(COPYABLE_ANNOTATION)) or entry.generated,
    )
