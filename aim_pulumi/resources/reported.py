"""AIM errors as Pulumi's language host reports a user's mistake: one line, no Python traceback.

The Python language host prints any exception that ends a program as "Program failed with an
unhandled exception" and a traceback of the SDK's and this package's frames, which buries the one
line that says what to fix; a `pulumi.RunError` it prints as its message alone. The pure layers
cannot know Pulumi, so an AIM error leaving a component (its constructor, or the program's
resolution round) becomes its own subclass that is also a `RunError`: `except AIMValidationError`
in a program still catches it, `aim-pulumi plan` formats it as before, and under `pulumi preview`
and `pulumi up` it reads as it does offline, with the line of the program that declared it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import pulumi

from aim_pulumi.api.errors import AIMError
from aim_pulumi.resources._sdk import cheaper_source_positions
from aim_pulumi.resources.sites import declaration_of, declaration_site

__all__ = ["plain_text", "reported", "reports_errors"]

_E = TypeVar("_E", bound=BaseException)
_P = ParamSpec("_P")
_R = TypeVar("_R")
_VARIANTS: dict[type[BaseException], type[BaseException]] = {}
_PLAIN = "_aim_plain"


def plain_text(error: BaseException) -> str:
    """The error's own text, without the declaring line `reported` puts in front of it."""
    plain: type[BaseException] | None = getattr(type(error), _PLAIN, None)
    return plain.__str__(error) if plain is not None else str(error)


def _reported_text(error: BaseException) -> str:
    site, _ = declaration_of(error)
    text = plain_text(error)
    return f"{site}: {text}" if site is not None else text


def _variant(cls: type[BaseException]) -> type[BaseException]:
    variant = _VARIANTS.get(cls)
    if variant is None:
        namespace = {
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
            "__str__": _reported_text,
            _PLAIN: cls,
        }
        variant = type(cls.__name__, (cls, pulumi.RunError), namespace)
        _VARIANTS[cls] = variant
    return variant


def reported(error: _E) -> _E:
    """`error`, reported by the language host as its line alone when it is an AIM error."""
    if isinstance(error, AIMError) and not isinstance(error, pulumi.RunError):
        error.__class__ = _variant(type(error))  # type: ignore[assignment]
    return error


def reports_errors(init: Callable[_P, _R]) -> Callable[_P, _R]:
    """A component constructor whose AIM errors carry the declaring line and read as one line."""

    @functools.wraps(init)
    def constructor(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            # The component's registrations send the trace the SDK would, computed for less.
            with cheaper_source_positions():
                return init(*args, **kwargs)
        except AIMError as error:
            if error.declared_at is None:
                error.declared(declaration_site())
            raise reported(error) from None

    return constructor
