"""The error of discovery: a registry or an image that could not be read, said in one line.

A fault of what discovery reads (the registry answered 401, a layer's bytes do not match its
digest, a profile file is not YAML) is not bad input of the program, but the user sees it the same
way: one line naming the image, and where it matters the layer and the file, the AIM-style reason
and what to do. Nothing is written when one is raised: the lock and the cache are replaced only
once a whole answer is known.
"""

from __future__ import annotations

from aim_pulumi.api.errors import AIMError, bounded, escape

__all__ = ["DiscoveryError"]


class DiscoveryError(AIMError):
    """Discovery of `image` failed for `reason`; `message` says why and what to do.

    Reasons: `ImageNotFound`, `Unauthorized`, `Forbidden`, `RateLimited`, `RegistryUnavailable`,
    `RegistryUnreachable`, `RegistryTimeout`, `InsecureRegistry`, `InvalidReference`,
    `InvalidManifest`, `PlatformNotFound`, `DigestMismatch`, `TruncatedBlob`, `CorruptLayer`,
    `UnsafeLayer`, `ProfileTooLarge`, `TooManyFiles`, `InvalidProfile`, `NotInLock`,
    `ListingFailed`. `field` is empty: the fault is in what was read, not in a field of the program;
    `object_ref` names the model or source that needed the image once that is known.
    """

    def __init__(self, reason: str, message: str, *, image: str = "", object_ref: str = "") -> None:
        self.reason = reason
        self.message = message
        self.image = image
        self.field = ""
        self.object_ref = object_ref
        super().__init__(self.__str__())

    def located(self, *, object_ref: str | None = None) -> DiscoveryError:
        if self.object_ref or not object_ref:
            return self
        return DiscoveryError(self.reason, self.message, image=self.image, object_ref=object_ref)

    def __str__(self) -> str:
        subject = f"image {self.image}" if self.image else ""
        parts = [p for p in (self.object_ref, subject, self.reason, self.message) if p]
        return bounded(": ".join(escape(p) for p in parts))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.reason, self.message, self.image, self.object_ref))


def _rebuild(reason: str, message: str, image: str, object_ref: str) -> DiscoveryError:
    return DiscoveryError(reason, message, image=image, object_ref=object_ref)
