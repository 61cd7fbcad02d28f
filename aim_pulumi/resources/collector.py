"""The garbage collector's thresholds while the package's program round is under way.

A program that declares AIM components allocates hundreds of thousands of short-lived objects:
the catalog's models, every service's plan and manifests, and the SDK's futures, Outputs and
protobuf messages of each registration and of the engine's answer to it. They die young, but at
the interpreter's default thresholds (700, 10, 10) the collector runs hundreds of times and its
full passes walk the whole heap each time, which in a Pulumi program holds every imported module
(pulumi-kubernetes alone is over a hundred thousand tracked objects): about a fifth of a preview's
CPU under the SDK's own runtime at 100 services.

So the thresholds are raised from a round's first declaration until the engine has answered the
round's last registration (`program.py` opens and closes that window), and while the round plans
and registers (`collecting_less`). Nothing is frozen or disabled: cycles are still collected, less
often. Rounds may overlap (the component provider runs one per Construct call on its server's
threads): the thresholds found by the first are put back when the last one ends.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterator

__all__ = ["RAISED_THRESHOLDS", "collect_less", "collecting_less", "put_back_all"]

RAISED_THRESHOLDS = (50_000, 20, 100)
"""Allocations between young collections, and young collections per middle and per full one."""

_FOUND: list[tuple[int, ...]] = []  # one entry per open window: the thresholds the first one found
_GENERATION = [0]  # put_back_all starts a new one: the closers of older windows do nothing
_LOCK = threading.Lock()


def collect_less() -> Callable[[], None]:
    """Raise the thresholds (unless a window already has); the function returned puts them back.

    Calling it more than once puts them back once, so every path that ends a round may call it.
    """
    with _LOCK:
        if not _FOUND:
            found = gc.get_threshold()
            raised = (max(mine, theirs) for mine, theirs in zip(RAISED_THRESHOLDS, found, strict=True))
            gc.set_threshold(*raised)
            _FOUND.append(found)
        else:
            _FOUND.append(_FOUND[0])
        generation = _GENERATION[0]
    closed = False

    def put_back() -> None:
        nonlocal closed
        with _LOCK:
            if closed or generation != _GENERATION[0]:
                return
            closed = True
            restored = _FOUND.pop()
            if not _FOUND:
                gc.set_threshold(*restored)

    return put_back


def put_back_all() -> None:
    """Close every window: the run that opened them has ended, whether or not they saw it end.

    A run that fails on an RPC stops its loop with registrations still pending, so the round that
    waits for their answers never hears of them; whoever ran the program closes what it left.
    """
    with _LOCK:
        _GENERATION[0] += 1
        if _FOUND:
            gc.set_threshold(*_FOUND[0])
            _FOUND.clear()


@contextlib.contextmanager
def collecting_less() -> Iterator[None]:
    """A window for the duration of a block."""
    put_back = collect_less()
    try:
        yield
    finally:
        put_back()
