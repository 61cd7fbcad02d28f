"""Profile versions: where they come from and how two of them compare (behaviour §4.5 tier 4).

Published AIM images carry their release in the image tag, so a profile without `status.version`
still ranks by release. Two SemVer 2.0 versions compare as the operator compares them (a pre-release
such as `0.17.1-cu130` sorts before `0.17.1`, build metadata `+build2` is ignored); otherwise two PEP 440
versions compare by `packaging` (`1.0` equals `1.0.0`), and anything else by its numeric runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import semver
from packaging.version import InvalidVersion, Version

# Separators (`.`, `-`, `_`, `+`) only delimit runs; they are not compared themselves.
_TOKEN = re.compile(r"\d+|[^\d.\-_+]+")

# A token is (1, number) for a digit run and (0, text) for anything else, so that the two never meet
# in one comparison and a numeric run outranks a textual one at the same position (`1.0.1` > `1.0.x`).
Token = tuple[int, int | str]


def image_tag_version(image: str | None) -> str | None:
    """The version an image tag announces, or None when the tag is no version.

    The tag is the text after the last `:` that follows the last `/` (a registry port is not a tag);
    a leading `v` is dropped; digests and tags that do not start with a digit give no version.
    """
    if not image or "@" in image:
        return None
    last_part = image.rsplit("/", 1)[-1]
    if ":" not in last_part:
        return None
    tag = last_part.rsplit(":", 1)[1]
    if tag[:1] in ("v", "V"):
        tag = tag[1:]
    if not tag[:1].isdigit():
        return None
    return tag


def profile_version(status_version: Any, image: str | None) -> str | None:
    """`status.version` when given (non-empty), else the image-tag version."""
    if status_version is not None and str(status_version).strip():
        return str(status_version).strip()
    return image_tag_version(image)


def version_tokens(text: str) -> tuple[Token, ...]:
    """Digit runs as integers, other runs as strings: the fallback order for unparseable versions."""
    return tuple((1, int(t)) if t.isdigit() else (0, t) for t in _TOKEN.findall(text))


@dataclass(frozen=True)
class VersionKey:
    """A profile's version prepared once for many comparisons (`None` text = no version)."""

    text: str | None
    parsed: Version | None
    tokens: tuple[Token, ...]
    semantic: semver.Version | None = None

    @classmethod
    def of(cls, text: str | None) -> VersionKey:
        if text is None:
            return cls(None, None, ())
        try:
            parsed: Version | None = Version(text)
        except InvalidVersion:
            parsed = None
        try:
            semantic: semver.Version | None = semver.Version.parse(text)
        except ValueError:
            semantic = None
        return cls(text, parsed, version_tokens(text), semantic)


NO_VERSION = VersionKey(None, None, ())


def compare_versions(a: VersionKey, b: VersionKey) -> int:
    """Negative when `a` is older than `b`, zero when equal, positive when newer.

    Any version beats none. Both SemVer → SemVer precedence; else both PEP 440 → `packaging` order;
    otherwise the token lists compare.
    """
    if a.text is None or b.text is None:
        return (a.text is not None) - (b.text is not None)
    if a.semantic is not None and b.semantic is not None:
        return a.semantic.compare(b.semantic)
    if a.parsed is not None and b.parsed is not None:
        return (a.parsed > b.parsed) - (a.parsed < b.parsed)
    return (a.tokens > b.tokens) - (a.tokens < b.tokens)
