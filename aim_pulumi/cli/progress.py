"""A one-line progress report while a long plan runs, for a person watching a terminal.

A plan of hundreds of services takes seconds and printed nothing until it ended. On a terminal
the command now keeps one status line on standard error, rewritten in place and erased at the
end, so the plan itself prints exactly as before; a pipe, a file, `--quiet` or `--debug` get
nothing extra.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from types import TracebackType
from typing import TextIO

from aim_pulumi.cli.render import is_terminal

__all__ = ["Progress"]

_ERASE = "\r\x1b[K"
_INTERVAL_SECONDS = 0.1


class Progress:
    """Counts the services planned during a run and shows the count on a terminal."""

    def __init__(self, stream: TextIO, *, enabled: bool = True) -> None:
        self.stream = stream
        self.enabled = enabled and is_terminal(stream)
        self.services: set[str] = set()
        self._shown = False
        self._last = 0.0
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Progress:
        if self.enabled:
            self._stack.enter_context(self._observing())
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stack.close()
        if self._shown:
            self.stream.write(_ERASE)
            self.stream.flush()

    @contextlib.contextmanager
    def _observing(self) -> Iterator[None]:
        from aim_pulumi.resources.resolutions import Resolution, observe_resolutions

        def seen(record: Resolution) -> None:
            # A service is planned again once its binding settles: count services, not plannings.
            self.services.add(record.key)
            self.show(f"planning: {len(self.services)} service(s) resolved, last {record.key}")

        with observe_resolutions(seen):
            yield

    def show(self, text: str) -> None:
        now = time.monotonic()
        if not self.enabled or now - self._last < _INTERVAL_SECONDS:
            return
        self._last = now
        self._shown = True
        self.stream.write(_ERASE + text)
        self.stream.flush()
