"""Where the user's program declared a component: the line an error about it points at.

Resolution runs after the program body, far from the user's frames, so each component notes its
declaring line when it is constructed; errors raised later (and the language host's one-line
report of them) carry it.
"""

from __future__ import annotations

import collections
import functools
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TypeVar

import pulumi

from aim_pulumi.api.errors import AIMError, Site

__all__ = ["DeclarationSite", "declaration_of", "declaration_site", "declare", "users_frame"]

_E = TypeVar("_E", bound=BaseException)

# Frames in these are never the user's: this package, Pulumi, the standard library, installed packages.
_PACKAGE_ROOTS = tuple(
    str(Path(p).resolve()) + os.sep
    for p in {
        Path(__file__).parents[1],
        Path(pulumi.__file__).parent,
        # The console scripts (`aim-pulumi` planning a YAML directory) are not a program either.
        *(Path(sysconfig.get_path(key)) for key in ("stdlib", "platstdlib", "purelib", "platlib", "scripts")),
    }
)
# The Python language host's own script (`pulumi-language-python-exec`, beside the Pulumi CLI) runs
# the program: its frames are below every program's, and never the user's.
_LANGUAGE_HOST = "pulumi-language-"


@dataclass(frozen=True)
class DeclarationSite:
    """Where the user's code declared a component: the innermost frame outside this package and Pulumi."""

    filename: str
    line: int

    def __str__(self) -> str:
        try:
            shown = str(Path(self.filename).resolve().relative_to(Path.cwd()))
        except ValueError:
            shown = self.filename
        return f"{shown}:{self.line}"


@functools.lru_cache(maxsize=4096)
def _is_users_file(filename: str) -> bool:
    """Resolving a path costs a system call per component: a program declares thousands from few files."""
    if filename.startswith("<") or os.path.basename(filename).startswith(_LANGUAGE_HOST):
        return False
    return not os.path.realpath(filename).startswith(_PACKAGE_ROOTS)


def users_frame(frame: FrameType | None) -> tuple[str, int] | None:
    """(file, line) of the innermost frame of the user's from `frame` outwards; None when no user's
    code is on the stack (the resolution round, the component provider serving another language)."""
    while frame is not None:
        if _is_users_file(frame.f_code.co_filename):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None


def declaration_site() -> DeclarationSite | None:
    found = users_frame(sys._getframe(1))
    return DeclarationSite(*found) if found is not None else None


# Where errors that are not AIM errors (a bug, an exception from a user's callback) were declared: an
# AIM error holds its declaration itself; any other exception is not ours to add attributes to, and
# built-in exceptions take no weak references, so the last few are kept here by identity (with the
# exception itself, so that an identity is never reused while its entry lives).
_FOREIGN: collections.OrderedDict[int, tuple[BaseException, DeclarationSite | None, str | None]] = (
    collections.OrderedDict()
)
_FOREIGN_KEPT = 256


def declare(error: _E, at: DeclarationSite | None, by: str | None = None) -> _E:
    """`error`, marked as belonging to the object `by` the program declared at `at`; what is known is kept."""
    if isinstance(error, AIMError):
        error.declared(at, by)
        return error
    _, known_at, known_by = _FOREIGN.get(id(error), (error, None, None))
    _FOREIGN[id(error)] = (error, known_at or at, known_by or by)
    _FOREIGN.move_to_end(id(error))
    while len(_FOREIGN) > _FOREIGN_KEPT:
        _FOREIGN.popitem(last=False)
    return error


def declaration_of(error: BaseException) -> tuple[Site | None, str | None]:
    """(the declaring line, the declared object) of an error the round or a component located."""
    if isinstance(error, AIMError):
        return error.declared_at, error.declared_by
    _, at, by = _FOREIGN.get(id(error), (error, None, None))
    return at, by
