"""Where the user's program declared a component: the line an error about it points at.

Resolution runs after the program body, far from the user's frames, so each component notes its
declaring line when it is constructed; errors raised later (and the language host's one-line
report of them) carry it.
"""

from __future__ import annotations

import functools
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pulumi

__all__ = ["DeclarationSite", "declaration_site"]

# Frames in these are never the user's: this package, Pulumi, the standard library, installed packages.
_PACKAGE_ROOTS = tuple(
    str(Path(p).resolve()) + os.sep
    for p in {
        Path(__file__).parents[1],
        Path(pulumi.__file__).parent,
        *(Path(sysconfig.get_path(key)) for key in ("stdlib", "platstdlib", "purelib", "platlib")),
    }
)


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
    return not filename.startswith("<") and not os.path.realpath(filename).startswith(_PACKAGE_ROOTS)


def declaration_site() -> DeclarationSite | None:
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if _is_users_file(filename):
            return DeclarationSite(filename, frame.f_lineno)
        frame = frame.f_back  # type: ignore[assignment]
    return None
