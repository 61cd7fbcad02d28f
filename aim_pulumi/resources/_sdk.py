"""The one place that reaches into the Pulumi SDK's private parts: the end of the program body.

A program declares AIM objects in any order, and every service must resolve against all of them
(`program.py`), so the resolution has to run once the program body has declared everything and
before Pulumi waits for the outstanding registrations. The SDK has no public hook for that
moment. Its entry point (`pulumi.runtime.stack.run_in_stack`, also used by the automation API
and by this project's offline engine) creates the root `Stack`, runs the program body and then
calls `Stack._finish()`, which registers the stack outputs exactly once; `_outputs_registered`
says whether that has happened. Wrapping `_finish` on the one root instance runs a callback at
exactly that point, whether the body returned or raised.

Checked against pulumi 3.272.0 (`CHECKED_SDK_VERSION`); `sdk_supports_program_end()` verifies
the attributes, and a test fails loudly when an SDK upgrade changes them.

Where no program body is running (unit tests that call `pulumi.runtime.set_mocks`, which
finishes the root stack at once), the caller falls back to the event loop: declarations happen
before the loop runs, so a callback scheduled on it runs after them.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from pulumi.runtime import settings as pulumi_settings
from pulumi.runtime.stack import Stack
from pulumi.runtime.sync_await import _ensure_event_loop

__all__ = ["CHECKED_SDK_VERSION", "after_program_body", "event_loop", "sdk_supports_program_end"]

CHECKED_SDK_VERSION = "3.272.0"
_FINISH = "_finish"
_FINISHED_FLAG = "_outputs_registered"


def sdk_supports_program_end() -> bool:
    """Whether the SDK's root stack still ends the program body the way this module expects."""
    finish = getattr(Stack, _FINISH, None)
    code = getattr(finish, "__code__", None)
    return code is not None and _FINISHED_FLAG in code.co_names


def event_loop() -> asyncio.AbstractEventLoop:
    """The loop Pulumi runs the program's Outputs on (created when a unit test has none yet)."""
    loop: asyncio.AbstractEventLoop = _ensure_event_loop()  # type: ignore[no-untyped-call]
    return loop


def after_program_body(callback: Callable[[BaseException | None], None]) -> bool:
    """Call `callback(error)` when the running program body ends; False if no body is running.

    `error` is the exception the body is ending with, or None. An exception the callback raises
    fails the program; the stack outputs are registered either way.
    """
    root: Any = pulumi_settings.get_root_resource()
    if not isinstance(root, Stack) or getattr(root, _FINISHED_FLAG, True):
        return False
    original = getattr(root, _FINISH, None)
    if not callable(original):
        return False
    in_flight_at_arming = sys.exc_info()[1]

    def finish() -> None:
        in_flight = sys.exc_info()[1]
        try:
            callback(in_flight if in_flight is not in_flight_at_arming else None)
        finally:
            setattr(root, _FINISH, original)
            original()

    setattr(root, _FINISH, finish)
    return True
