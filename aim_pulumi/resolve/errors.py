"""The error of resolution: a hard failure raised before any child is registered."""

from __future__ import annotations

from aim_pulumi.api.errors import AIMError, bounded, escape


class AIMResolutionError(AIMError):
    """A decision the operator would report as a failed condition; here it stops the program.

    `field` is the dotted path of the input that caused it ("" when no one input did), `reason` the
    AIM condition reason (`ProfileNotFound`, `ReferenceNotFound`, ...), `object_ref` the
    `Kind/namespace/name` it concerns. The arguments come in the order of `AIMValidationError`'s
    (field, reason, message), the order both errors print them in.
    """

    def __init__(self, field: str, reason: str, message: str = "", *, object_ref: str = "") -> None:
        self.reason = reason
        self.field = field
        self.message = message
        self.object_ref = object_ref
        super().__init__(self.__str__())

    def located(self, *, object_ref: str | None = None) -> AIMResolutionError:
        """A copy naming the object the error concerns, unless it already names one."""
        if self.object_ref or not object_ref:
            return self
        return AIMResolutionError(self.field, self.reason, self.message, object_ref=object_ref)

    def __str__(self) -> str:
        parts = [p for p in (self.object_ref, self.field, self.reason, self.message) if p]
        return bounded(": ".join(escape(p) for p in parts))
