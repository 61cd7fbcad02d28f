"""What discovery read from one image and one model source: plain, ordered, comparable data.

These records are what the lock file holds (`lock.py`) and what the catalog turns into AIM objects
(`aim_pulumi/resolve/catalog/discovered.py`); both sides read the same types, so a plan from the
lock and a plan from a live read cannot differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "AIM_BASE_IMAGE_ENV",
    "AIM_ID_ENV",
    "ImageRecord",
    "LockedProfile",
    "SourceImage",
    "SourceRecord",
]

AIM_ID_ENV = "AIM_ID"
AIM_BASE_IMAGE_ENV = "AIM_BASE_IMAGE_REF"
# The image config entries discovery reads: the AIM environment and AIM's own labels.
ENV_PREFIX = "AIM_"
LABEL_PREFIX = "com.amd.aim."


@dataclass(frozen=True)
class LockedProfile:
    """One profile file: its path under `/workspace/aim-runtime/profiles`, the layer that holds it
    and its text exactly as the image holds it."""

    path: str
    layer: str
    content: str


@dataclass(frozen=True)
class ImageRecord:
    """One image reference and what discovery read from it.

    `digest` is what the reference resolved to (an image index for a multi-platform image);
    `platform_digest` the linux/amd64 manifest chosen from that index (None when the reference
    names a single manifest). `env` and `labels` are the config's `AIM_*` variables and
    `com.amd.aim.*` labels; `profiles` the files of `$AIM_ID/` and `general/`, by path.
    """

    image: str
    digest: str
    platform_digest: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    profiles: tuple[LockedProfile, ...] = ()

    @property
    def aim_id(self) -> str:
        return self.env.get(AIM_ID_ENV, "")

    @property
    def base_image(self) -> str:
        return self.env.get(AIM_BASE_IMAGE_ENV, "")

    @property
    def manifest_digest(self) -> str:
        """The manifest whose layers were read."""
        return self.platform_digest or self.digest

    def for_image(self, image: str) -> ImageRecord:
        """The same content under another reference (the cache keys by digest, not by name)."""
        return ImageRecord(image, self.digest, self.platform_digest, self.env, self.labels, self.profiles)


@dataclass(frozen=True, order=True)
class SourceImage:
    """One image a model source lists: registry, repository and tag, as the operator records them."""

    registry: str
    repository: str
    tag: str

    @property
    def uri(self) -> str:
        """`repository:tag` on Docker Hub, `registry/repository:tag` elsewhere (the operator's form)."""
        if self.registry in ("docker.io", ""):
            return f"{self.repository}:{self.tag}"
        return f"{self.registry}/{self.repository}:{self.tag}"


@dataclass(frozen=True)
class SourceRecord:
    """What a model source's listing found: the images it materialises, in order.

    `images` are the ones kept (the source's `maxModels` applied, images of earlier listings
    never dropped), `listed` the images the registry lists now that match the filters, and
    `spec_hash` the listing inputs of the spec, so a changed filter makes the entry stale.
    """

    name: str
    spec_hash: str
    images: tuple[SourceImage, ...] = ()
    listed: tuple[SourceImage, ...] = ()
