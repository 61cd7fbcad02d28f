"""The image a derived profile runs, decided as the operator decides it (upstream `aimimage` and
`ResolveDerivedProfileImage`).

An override wins. A base source (a base image's profile, the custom-model flow) is already the
runtime image. A deployable source whose weights are kept keeps its model-optimised image. A
deployable source given new weights no longer matches its optimised image, so the derived profile
runs the lean base runtime the source image was built on: the source's `AIM_BASE_IMAGE_REF` with its
tag cut to MAJOR.MINOR (aim-base publishes only rolling MAJOR.MINOR tags), moved onto the source
image's registry and organisation so a private mirror stays self-contained; without a base image
ref, `aim-base:MAJOR.MINOR` of the source image's own tag (images cached before the ref existed).

String handling is upstream's, not an OCI reference parser's: the tag is what follows the last `:`
with no `/` after it, and the registry and organisation are everything before the last `/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# `v0.11`, `0.11.2`, `0.11-rc21`, `0.11.0+build.1`: MAJOR.MINOR and whatever follows (ASCII digits,
# as Go's `\d`).
_MAJOR_MINOR = re.compile(r"v?([0-9]+)\.([0-9]+)(?:\.[0-9]+)?(?:[-+].*)?\Z")

ImageRule = Literal["override", "base-source", "weights-kept", "rebased", "legacy-rebased", "source"]


@dataclass(frozen=True)
class ImageDecision:
    """The image and the rule that chose it (`explain` shows both)."""

    image: str
    rule: ImageRule
    detail: str


def _tag_colon(image: str) -> int:
    colon = image.rfind(":")
    if colon < 0 or colon == len(image) - 1 or "/" in image[colon + 1 :]:
        return -1
    return colon


def _major_minor(tag: str) -> str | None:
    match = _MAJOR_MINOR.match(tag)
    return f"{match.group(1)}.{match.group(2)}" if match else None


def normalize_base_image_tag(base_image: str) -> str:
    """`aim-base:0.11-rc21` -> `aim-base:0.11`; unchanged without a version-shaped tag."""
    colon = _tag_colon(base_image)
    if colon < 0:
        return base_image
    major_minor = _major_minor(base_image[colon + 1 :])
    return base_image if major_minor is None else f"{base_image[:colon]}:{major_minor}"


def legacy_base_image(source_image: str) -> str:
    """`aim-base:MAJOR.MINOR` from the source image's tag, or "" when the tag is no version."""
    colon = _tag_colon(source_image)
    if colon < 0:
        return ""
    major_minor = _major_minor(source_image[colon + 1 :])
    return "" if major_minor is None else f"aim-base:{major_minor}"


def rebase_registry(source_image: str, base_image: str) -> str:
    """`base_image`'s name and tag under `source_image`'s registry and organisation."""
    slash = source_image.rfind("/")
    if slash <= 0:
        return base_image
    prefix = source_image[:slash]
    base_slash = base_image.rfind("/")
    if base_slash < 0:
        return f"{prefix}/{base_image}"
    return prefix + base_image[base_slash:]


def derived_image(
    override: str, base_image: str, source_image: str, *, source_deployable: bool, weights_changed: bool
) -> ImageDecision:
    """The derived profile's image and why (the resolution order of the module docstring)."""
    if override:
        return ImageDecision(override, "override", "the set's image override")
    if not source_deployable:
        return ImageDecision(source_image, "base-source", "a base source is already the runtime image")
    if not weights_changed:
        return ImageDecision(source_image, "weights-kept", "the source's weights are kept, so is its image")
    if base_image:
        normalized = normalize_base_image_tag(base_image)
        return ImageDecision(
            rebase_registry(source_image, normalized),
            "rebased",
            f"new weights: the source's base image {base_image} at MAJOR.MINOR, on the source's registry",
        )
    legacy = legacy_base_image(source_image)
    if legacy:
        return ImageDecision(
            rebase_registry(source_image, legacy),
            "legacy-rebased",
            f"new weights and no base image recorded: {legacy} from the source image's tag",
        )
    return ImageDecision(
        source_image, "source", "new weights, but neither a base image nor a version tag to rebase on"
    )
