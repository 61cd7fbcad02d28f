"""Image references read as Docker reads them: `amdenterpriseai/aim-x:0.8.5` is on Docker Hub.

The grammar and the defaults are the distribution project's (`reference.ParseNormalizedNamed`):
the first path component is a registry host only when it has a `.` or a `:` or is `localhost`;
otherwise the image is on `docker.io`, and a one-component name there is under `library/`; no tag
means `latest`. Docker Hub's API lives at `registry-1.docker.io`. The module is small enough that a
library (and the Go behaviour it might disagree on) would cost more than it saves.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from aim_pulumi.discovery.errors import DiscoveryError

__all__ = ["DOCKER_HUB", "ImageReference", "is_loopback", "parse_reference"]

DOCKER_HUB = "docker.io"
DOCKER_HUB_API = "registry-1.docker.io"
_DOCKER_HUB_ALIASES = frozenset({"docker.io", "index.docker.io", "registry-1.docker.io"})

_PATH_COMPONENT = re.compile(r"^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$")
_DOMAIN = re.compile(
    r"^(?:localhost|(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
    r"(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[0-9a-fA-F:.]+\])(?::[0-9]+)?$"
)
_TAG = re.compile(r"^[\w][\w.-]{0,127}$")
_DIGEST = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$")
MAX_REFERENCE_LENGTH = 255


@dataclass(frozen=True)
class ImageReference:
    """One image: where it lives (`registry`, `repository`) and which one (`tag` or `digest`)."""

    registry: str
    repository: str
    tag: str | None
    digest: str | None

    @property
    def api_host(self) -> str:
        """The host:port the distribution API answers on (Docker Hub's differs from its name)."""
        return DOCKER_HUB_API if self.registry == DOCKER_HUB else self.registry

    @property
    def reference(self) -> str:
        """What a manifest is fetched by: the digest when the reference pins one, else the tag."""
        return self.digest or self.tag or "latest"

    @property
    def version_tag(self) -> str:
        """The tag as the operator reads a version from it ("" for a digest-only reference)."""
        return self.tag or ""

    def with_tag(self, tag: str) -> ImageReference:
        return ImageReference(self.registry, self.repository, tag, None)

    def __str__(self) -> str:
        text = f"{self.registry}/{self.repository}"
        if self.tag:
            text += f":{self.tag}"
        if self.digest:
            text += f"@{self.digest}"
        return text


def parse_reference(text: str) -> ImageReference:
    """`text` as Docker reads it; raises DiscoveryError(`InvalidReference`) saying what is wrong."""
    original = text
    if not text or len(text) > MAX_REFERENCE_LENGTH or text != text.strip():
        raise _invalid(
            original, f"an image reference is 1 to {MAX_REFERENCE_LENGTH} characters without spaces"
        )
    name, at, digest = text.partition("@")
    if at and not _DIGEST.match(digest):
        raise _invalid(original, f"{digest!r} is not a digest (algorithm:hex)")
    first, slash, rest = name.partition("/")
    if slash and (("." in first or ":" in first or first == "localhost") or first != first.lower()):
        registry, path = first, rest
        if not _DOMAIN.match(registry):
            raise _invalid(original, f"{registry!r} is not a registry host")
    else:
        registry, path = DOCKER_HUB, name
    tag: str | None = None
    last_slash = path.rfind("/")
    colon = path.rfind(":")
    if colon > last_slash:
        path, tag = path[:colon], path[colon + 1 :]
        if not _TAG.match(tag):
            raise _invalid(original, f"{tag!r} is not a tag")
    if registry.lower() in _DOCKER_HUB_ALIASES:
        registry = DOCKER_HUB
        if "/" not in path:
            path = f"library/{path}"
    components = path.split("/")
    if not path or not all(_PATH_COMPONENT.match(c) for c in components):
        raise _invalid(original, f"{path!r} is not a repository name (lowercase letters, digits, . _ -)")
    if tag is None and not at:
        tag = "latest"
    return ImageReference(registry, path, tag, digest if at else None)


def is_loopback(host: str) -> bool:
    """Whether `host` (with or without a port) is this machine: plain HTTP is allowed there."""
    name = host
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else name[1:]
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _invalid(text: str, why: str) -> DiscoveryError:
    return DiscoveryError("InvalidReference", why, image=text)
