"""AIM errors as Pulumi's language host reports a user's mistake: one line, no Python traceback.

The Python language host prints any exception that ends a program as "Program failed with an
unhandled exception" and a traceback of the SDK's and this package's frames, which buries the one
line that says what to fix; a `pulumi.RunError` it prints as its message alone. The pure layers
cannot know Pulumi, so an AIM error leaving a component (its constructor, or the program's
resolution round) is raised as a Pulumi-native error that wraps it, as pulumi-eks raises a
`ResourceError` around what failed: `ReportedValidationError` or `ReportedResolutionError`, a
`RunError` whose `error` is the AIM error and whose text is that error's, after the line of the
program that declared it. Each is also the AIM error's class, with the AIM error's fields, so
`except AIMValidationError` in a program still catches it, and `aim-pulumi plan` formats it as
before; under `pulumi preview` and `pulumi up` it reads as it does offline.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import pulumi

from aim_pulumi.api.errors import INTERNAL_ERROR, AIMError, AIMValidationError, internal_failure
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resources import levers
from aim_pulumi.resources.sites import declaration_of, declaration_site, declare

__all__ = [
    "ReportedResolutionError",
    "ReportedValidationError",
    "as_reported",
    "plain_text",
    "reported",
    "reported_text",
    "reports_errors",
]

_E = TypeVar("_E", bound=BaseException)
_P = ParamSpec("_P")
_R = TypeVar("_R")


class _Reported(pulumi.RunError):
    """A Pulumi `RunError` wrapping an AIM error: its fields and traceback, its text after its site."""

    #: The AIM error this one reports.
    error: AIMError

    @classmethod
    def wrapping(cls, error: AIMError) -> Any:
        wrapped = cls.__new__(cls, *error.args)
        wrapped.__dict__.update(vars(error))
        wrapped.args = error.args
        wrapped.error = error
        wrapped.__cause__, wrapped.__context__ = error.__cause__, error.__context__
        wrapped.__suppress_context__ = error.__suppress_context__
        return wrapped.with_traceback(error.__traceback__)

    def __str__(self) -> str:
        return reported_text(self.error)


class ReportedValidationError(_Reported, AIMValidationError):
    """An `AIMValidationError` leaving a component, as Pulumi reports a user's mistake."""


class ReportedResolutionError(_Reported, AIMResolutionError):
    """An `AIMResolutionError` leaving the program's round, as Pulumi reports a user's mistake."""


def reported_text(error: BaseException) -> str:
    """What Pulumi shows for an AIM error: the line of the program that declared it, then its text."""
    site, _ = declaration_of(error)
    text = plain_text(error)
    return f"{site}: {text}" if site is not None else text


def plain_text(error: BaseException) -> str:
    """The error's own text, without the declaring line `reported` puts in front of it."""
    return str(error.error) if isinstance(error, _Reported) else str(error)


def reported(error: _E) -> _E:
    """`error`, or the Pulumi error that reports it as its line alone when it is an AIM error."""
    if isinstance(error, _Reported) or not isinstance(error, AIMError):
        return error
    if isinstance(error, AIMValidationError):
        return ReportedValidationError.wrapping(error)  # type: ignore[no-any-return]
    if isinstance(error, AIMResolutionError):
        return ReportedResolutionError.wrapping(error)  # type: ignore[no-any-return]
    return error


def as_reported(error: BaseException, object_ref: str | None = None) -> BaseException:
    """`error` as `reported`, a failure inside this package becoming an `InternalError` line.

    The language host would print a traceback of this package's frames and the exception's own
    text, which can carry the input; the traceback goes to the engine's debug log instead.
    """
    internal = internal_failure(error)
    if internal is None:
        return reported(error)
    pulumi.log.debug("".join(traceback.format_exception(error)))
    site, by = declaration_of(error)
    replacement = AIMResolutionError("", INTERNAL_ERROR, internal, object_ref=object_ref or "")
    return reported(replacement.declared(site, by))


def reports_errors(init: Callable[_P, _R]) -> Callable[_P, _R]:
    """A component constructor whose AIM errors carry the declaring line and read as one line."""

    @functools.wraps(init)
    def constructor(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            # The component's registrations send the trace the SDK would, computed for less.
            with levers.constructing():
                return init(*args, **kwargs)
        except AIMError as error:
            if error.declared_at is None:
                error.declared(declaration_site())
            raise reported(error) from None
        except Exception as error:
            if internal_failure(error) is None:
                raise
            raise as_reported(declare(error, declaration_site())) from None

    return constructor
