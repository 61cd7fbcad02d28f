"""The performance levers, behind one module: what makes a program of AIM components cheap to run.

None of them changes what a program registers (`bench/record_examples.py` records every example
byte for byte before and after one); each takes work the SDK or the interpreter would do for
nothing out of a run. The lifecycle calls them in one line each: the program's round
(`program.py`: `open_round`, `registering`, `after_registrations`), a component's constructor
(`reported.py`: `constructing`) and the offline engine (`aim_pulumi/cli/engine.py`: `offline_run`).
What they reach of the SDK's private parts is in `_sdk.py` (each name, why, and a test of its
shape); the thresholds of the collector are in `collector.py` (`RAISED_THRESHOLDS`, the only place
they are written).

- The collector's window (`open_round`, `registering`): a round allocates hundreds of thousands
  of short-lived models, plans, manifests and SDK messages; at the default thresholds the collector
  walks the whole heap (every imported module) again and again. The thresholds are raised from a
  round's first declaration until the engine has answered its last registration. About a quarter
  of the components' CPU under the SDK's runtime (-23% to -33% at 100 and 300 services).
- Registrations held among the RPCs in flight (`after_registrations`): the SDK ends a program by
  awaiting its RPCs one by one, then the pending Output tasks in a loop that is quadratic in their
  number; the round registers every child from an Output's callback, so it holds that Output
  among the RPCs and the loop is never reached (under the real engine: 0 waits against 1,114 at
  100 services over 200 profiles; program CPU 23.9 s -> 13.5 s). The same hold closes the window.
- The user's source positions (`registering`, `constructing`, `declared_at`): every registration
  carries a stack trace, and the engine stores it with the resource in the state, which it writes
  whole after every step of an update. The SDK's trace of a child the round registers is a dozen
  frames of this package, the SDK and asyncio (and its source position a line of the package);
  the package's registrations send the user's line as their source position and no trace
  instead: a component's own, the line of the user's code that constructed it; its children's,
  the line where the user declared the component (its `DeclarationSite`). The state's traces and
  positions per service: 38.5 KB against the bare graph's 14.6 KB with the SDK's traces (10
  services), 1.9 KB against its 5.0 KB with the user's frames (100 services); at 2,000 profiles the
  user's frames still made each catalog object 164 bytes heavier than the bare graph's shell,
  whose registration the SDK sends with neither, and every one of the first `up`'s 2,100 writes of
  the catalog's outputs carried them; the line alone is what users read (in the state, in errors).
- A lane of the package's own for what a service sends after its children applied
  (`late_lane`, `register_late_outputs`): its outputs (its status, observed once the
  InferenceService is ready) and the read-backs of its route and ScaledObject. The SDK sends every
  RPC on the loop's default executor, 4 threads per engine step the language host allows, each
  held until the engine answers; a registration of a resource to be created holds its thread for
  the whole create, so the round's children fill the pool and whatever is sent after them waits,
  first in, first out, behind every child of every service. Through that pool the 100 services'
  outputs of a first `up` (100 services over 2,000 profiles) reached the engine only once the last
  child had a thread, 100 writes of the whole state after the last InferenceService; on the lane
  each service's outputs go as soon as its status is read, among the other services' creates
  (`-v=5` logs, one run each: 151.5 s from the first binding to the last output registration
  through the SDK's pool, 138.6 s on the lane). Only under the engine: the SDK's mocks and the
  offline engine keep the SDK's path and its order.
- A lane for the round's bindings (`on_binding_lane`, `binding_lane`): the round registers each
  service's binding first and every child once all of them have answered (their final plans are
  checked together). Through the SDK's pool the bindings waited behind the output registrations of every
  catalog object the program declared (2,000 at 2,000 profiles), then ran alone, each create two
  writes of a state that by then held the whole catalog, before the first child could go. On
  their lane they reach the engine as soon as their service is registered, among the catalog's
  output registrations, while the state is smaller, and the round's children queue right behind
  the catalog's outputs.
- The offline engine's run (`offline_run`): the heap as it stands is frozen and the thresholds
  raised for the whole run; no stack trace is computed (nothing records it offline); the output
  types of the package's own resource classes are remembered rather than read from their
  annotations on every registration. Everything is put back when the run ends.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import sys
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import pulumi
from pulumi.runtime.proto import source_pb2

from aim_pulumi.resources import _sdk, collector
from aim_pulumi.resources.sites import DeclarationSite, users_frame

__all__ = [
    "after_registrations",
    "binding_lane",
    "constructing",
    "declared_at",
    "late_lane",
    "offline_run",
    "on_binding_lane",
    "open_round",
    "register_late_outputs",
    "registering",
]


def open_round() -> Callable[[], None]:
    """Open a round's window of the collector; the function returned closes it (idempotent)."""
    return collector.collect_less()


@contextlib.contextmanager
def registering() -> Iterator[None]:
    """The round's planning and registrations: the collector's thresholds raised (also in a round
    that opened no window), and each registration's source position the user's line (inside
    `declared_at`: that of the declaration being registered)."""
    with collector.collecting_less(), _sdk.sending_source_positions(_users_position):
        yield


@contextlib.contextmanager
def constructing() -> Iterator[None]:
    """A component's constructor: its registrations' source position is the user's line."""
    with _sdk.sending_source_positions(_users_position):
        yield


@contextlib.contextmanager
def declared_at(site: DeclarationSite | None) -> Iterator[None]:
    """Registrations made inside (a component's children, from the round) carry the user's line
    that declared that component, whatever else is on the stack (a test running the program's
    event loop, a component the round constructs). Without a site, what is around decides."""
    position = _sdk.position_of(site.filename, site.line) if site is not None else None
    _DECLARED.append(position)
    try:
        with _sdk.sending_source_positions(lambda: position):
            yield
    finally:
        _DECLARED.pop()


# The declarations being registered (`declared_at`), innermost last; None: no site known.
_DECLARED: list[source_pb2.SourcePosition | None] = []


def _users_position() -> source_pb2.SourcePosition | None:
    """The innermost of the user's frames on the stack of the registration being made; None
    without any, or inside `declared_at` (the declaration's line is the user's answer there)."""
    if _DECLARED and _DECLARED[-1] is not None:
        return None
    frame = users_frame(sys._getframe(1))
    return _sdk.position_of(*frame) if frame is not None else None


def after_registrations(done: pulumi.Output[Any] | None, then: Callable[[], None]) -> None:
    """Call `then` once the engine has answered the registrations just made.

    With `done` (the Output whose callback registers the children), that Output is held among the
    RPCs the SDK awaits first at the program's end; without one, the registrations already made
    are watched without holding anything.
    """
    if done is None:
        _sdk.after_the_rpcs_in_flight(then)
    else:
        _sdk.awaited_with_the_rpcs(done, then=then)


# Threads of the late lane: its calls are one GET of an object or one output registration each,
# and the engine answers output registrations one at a time.
LATE_LANE_WORKERS = 4
# Threads of the bindings' lane: each binding's registration holds one for the whole create, and
# the engine creates them in parallel; with 16, the 100 bindings of a first `up` over 2,000
# profiles all reached the engine within 13 s, among the catalog's output registrations.
BINDING_LANE_WORKERS = 16


@functools.cache
def _lane(name: str, workers: int) -> Executor:
    """A lane's threads, apart from the SDK's RPC pool: made at its first call, one per lane for
    the process (idle threads cost nothing)."""
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"aim-{name}-lane")


def late_lane() -> Executor:
    """The threads for what a service sends once its children applied."""
    return _lane("late", LATE_LANE_WORKERS)


def binding_lane() -> Executor:
    """The threads the round's bindings are registered on."""
    return _lane("binding", BINDING_LANE_WORKERS)


def register_late_outputs(component: pulumi.ComponentResource, outputs: Mapping[str, Any]) -> None:
    """Register outputs that resolve only once the component's children have applied, on the late lane."""
    with _sdk.rpcs_on(late_lane()):
        component.register_outputs(dict(outputs))


@contextlib.contextmanager
def on_binding_lane() -> Iterator[None]:
    """A service's binding registered inside goes to the engine on the bindings' lane."""
    with _sdk.rpcs_on(binding_lane()):
        yield


@contextlib.contextmanager
def offline_run() -> Iterator[None]:
    """A whole program run by the offline engine: collect less, never walk what existed before it,
    compute no stack trace and remember the package's resource types; all put back after."""
    with _collector_tuned(), _sdk.without_source_positions(), _sdk.remembered_resource_types():
        yield


@contextlib.contextmanager
def _collector_tuned() -> Iterator[None]:
    """Collect less often while a program runs, and never walk what existed before it.

    A run allocates hundreds of thousands of short-lived futures, Outputs and protobuf messages
    that die young. At the default thresholds the collector runs thousands of times, and its full
    passes walk the whole interpreter heap (imported modules, the caller's data) each time: that was
    up to half of a plan's CPU. Freezing the heap as it stands moves it out of every collection
    until the run ends; higher thresholds make young collections rare. Both are restored after.
    """
    thresholds = gc.get_threshold()
    owns_freeze = gc.get_freeze_count() == 0
    gc.freeze()
    gc.set_threshold(*collector.RAISED_THRESHOLDS)
    try:
        yield
    finally:
        collector.put_back_all()  # a run that failed on an RPC left its round's window open
        gc.set_threshold(*thresholds)
        if owns_freeze:
            gc.unfreeze()
