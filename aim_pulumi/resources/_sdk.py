"""The one place that reaches into the Pulumi SDK's private parts.

Everything below is SDK internals the project needs and the SDK offers no public form of; no other
module names them (a test checks), and a test checks each one's shape, so an SDK upgrade that
moves one fails there, by name, instead of somewhere in a plan.

Checked against pulumi 3.272.0 (`CHECKED_SDK_VERSION`). What is used, and why:

- `Stack._finish` and `Stack._outputs_registered`: the end of the program body. A program declares
  AIM objects in any order, and every service must resolve against all of them (`program.py`), so
  the resolution has to run once the body has declared everything and before Pulumi waits for the
  outstanding registrations. The SDK has no public hook for that moment. Its entry point
  (`pulumi.runtime.stack.run_in_stack`, also used by the automation API and by the offline engine)
  creates the root `Stack`, runs the body and then calls `Stack._finish()`, which registers the
  stack outputs exactly once; `_outputs_registered` says whether that has happened. Wrapping
  `_finish` on the one root instance runs a callback at exactly that point, whether the body
  returned or raised (`after_program_body`); the offline engine calls it as the SDK's entry point
  does (`finish_stack`). Where no body is running (unit tests that call `pulumi.runtime.set_mocks`,
  which finishes the root stack at once), the caller falls back to the event loop: declarations
  happen before the loop runs, so a callback scheduled on it runs after them.
- `pulumi.runtime.sync_await._ensure_event_loop` and `_sync_await`: the loop Pulumi runs Outputs
  on, and running a coroutine to completion on it from synchronous code (`event_loop`,
  `sync_await`), as the SDK's own entry points do.
- `pulumi.runtime._callbacks._CallbackServicer._servicers` and each servicer's `_callbacks`: the
  transforms a program registered, by token; the offline engine's monitor calls them as the
  Pulumi engine would (`transform_callback`).
- `pulumi.runtime.settings.ROOT` and `SETTINGS.outputs` / `SETTINGS.rpc_manager`: the root
  resource and the outputs and RPCs in flight; the offline engine clears what an earlier failed run
  left behind, as `pulumi.runtime.test` does between unit tests (`forget_previous_run`).
- `SETTINGS.rpc_manager.rpcs`: the RPCs the SDK's end-of-program wait awaits one by one before it
  turns to the pending Output tasks. The round registers every child from an Output's callback;
  held there, its registrations are awaited in that linear phase rather than in the SDK's
  per-completion loop over every pending task (`awaited_with_the_rpcs`); the same hold tells the
  round when the engine has answered them, which ends the collector's window (`collector.py`).
- `pulumi.runtime.config.CONFIG`: the config values set on the running stack, next to the public
  `get_config_env` (`stack_config_values`).
- `pulumi.runtime.resource._get_stack_trace` and `_get_source_position`: the stack trace each
  registration carries and its source position (the trace's first frame); the engine stores both
  in the state for every resource (`sourcePosition`, `stackTrace`). The SDK sends every frame of
  the interpreter's stack below the resource's constructor: for a component's child, registered by
  the resolution round from an Output's callback, that is a dozen frames of this package, the SDK
  and asyncio, each a long file URI, and the source position points into the package rather than
  at the user's line. The offline engine records no source position, so it replaces the first
  with one returning an empty trace while a program runs (`without_source_positions`). Under the
  real engine the package's own registrations send the user's line as their source position and
  no trace (`sending_source_positions`, `position_of`; `levers.py` decides which line): the SDK
  takes the position of the trace it was just handed, and gets the user's line for the empty one.
- `pulumi._types.resource_types`: the output types of a resource class, read from its annotations
  with `typing.get_type_hints` on every registration (the SDK keeps no cache). It is a function of
  the class alone; the offline engine remembers it for this package's own classes, whose typed
  outputs (`status: pulumi.Output[AIMServiceStatus]`, ...) make it costly, while a program runs
  (`remembered_resource_types`). Other classes are left to the SDK.
- `pulumi._types.is_input_type`: whether a value is an instance of an `@input_type` class, which
  `Output.from_input` takes apart like a dict; `resources/outputs.py` builds the same Outputs
  without the SDK's walk of plain data and must know what the SDK would walk (`is_input_type`).
- `pulumi.output._OutputData` and `Output._from_data`: an Output held as one awaitable of its
  resources, value, knownness and secrecy (pulumi 3.233 on; the SDK's own `from_input` of a plain
  value builds its Outputs so). The public constructor takes four awaitables and starts a task to
  join them; a plan makes thousands of Outputs of data already known (a catalog object's name and
  spec, every status), so `resources/outputs.py` builds them the SDK's way: one resolved future for
  known data (`output_data`, `output_from_data`), one task for data joined from other Outputs.
- `asyncio`'s `loop._default_executor`: the offline engine runs registrations on its own
  one-worker executor and puts the loop's own back afterwards; asyncio can set a default executor
  but not read or restore one (`default_executor`, `restore_default_executor`).
- `asyncio`'s `loop._default_executor` again, with `pulumi.runtime.settings.get_monitor`: the RPCs
  of chosen registrations (a service's binding, its outputs) sent on an executor the package
  chooses (`rpcs_on`) instead of the loop's default one, where they would wait behind every
  registration still queued for a thread (why that matters: the lanes in `levers.py`). The SDK
  sends each RPC from a task it creates at the registration; the loop's default executor is wrapped
  by one that sends what tasks created inside `rpcs_on` submit to that executor. The request, its
  serialisation, the wait tracked among the program's RPCs and the error handling are the SDK's
  own; only the thread differs, and the engine's answer is the same.
- `pulumi.runtime._grpc_settings._GRPC_CHANNEL_OPTIONS`: the options (message size limits) the
  SDK's own provider server is created with; the component provider's server
  (`aim_pulumi.provider_server`) serves with the same (`grpc_server_options`).

Not here: the public names the SDK's mock engine and dynamic providers are built from
(`pulumi.runtime.mocks`, `pulumi.runtime.rpc`, `pulumi.dynamic.dynamic.PROVIDER_KEY`), which
`binding.py` imports itself because it must load in the provider host with Pulumi alone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import pathlib
import sys
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Executor
from typing import Any, TypeVar

import pulumi
from pulumi import _types as pulumi_types
from pulumi import output as pulumi_output
from pulumi.runtime import config as pulumi_config
from pulumi.runtime import resource as pulumi_resource
from pulumi.runtime import settings as pulumi_settings
from pulumi.runtime._callbacks import _CallbackServicer
from pulumi.runtime.proto import resource_pb2_grpc, source_pb2
from pulumi.runtime.stack import Stack
from pulumi.runtime.sync_await import _ensure_event_loop, _sync_await

__all__ = [
    "CHECKED_SDK_VERSION",
    "after_program_body",
    "default_executor",
    "event_loop",
    "finish_stack",
    "forget_previous_run",
    "grpc_server_options",
    "is_input_type",
    "kubernetes_sdk_version",
    "output_data",
    "output_from_data",
    "position_of",
    "remembered_resource_types",
    "restore_default_executor",
    "rpcs_on",
    "sdk_supports_program_end",
    "sending_source_positions",
    "stack_config_values",
    "sync_await",
    "transform_callback",
    "without_source_positions",
]

T = TypeVar("T")

CHECKED_SDK_VERSION = "3.272.0"
_FINISH = "_finish"
_FINISHED_FLAG = "_outputs_registered"
_STACK_TRACE = "_get_stack_trace"
_SOURCE_POSITION = "_get_source_position"
_RESOURCE_TYPES = "resource_types"
_OWN_MODULES = __name__.split(".", 1)[0] + "."
_OUTPUT_DATA = "_OutputData"
_FROM_DATA = "_from_data"


def sdk_supports_program_end() -> bool:
    """Whether the SDK's root stack still ends the program body the way this module expects."""
    finish = getattr(Stack, _FINISH, None)
    code = getattr(finish, "__code__", None)
    return code is not None and _FINISHED_FLAG in code.co_names


def grpc_server_options() -> list[tuple[str, Any]]:
    """The options the SDK's provider server is created with (message size limits)."""
    from pulumi.runtime import _grpc_settings

    return list(_grpc_settings._GRPC_CHANNEL_OPTIONS)


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


def finish_stack(root: Stack) -> None:
    """End a program body run under `root` as the SDK's entry point does: register the stack outputs."""
    getattr(root, _FINISH)()


def sync_await(awaitable: Awaitable[T]) -> T:
    """Run `awaitable` to completion on Pulumi's event loop, from synchronous code."""
    result: T = _sync_await(awaitable)
    return result


def transform_callback(token: str) -> Callable[[bytes], Any]:
    """The transform the program registered under `token` (it takes and returns serialized requests)."""
    for servicer in _CallbackServicer._servicers:
        found = servicer._callbacks.get(token)
        if found is not None:
            return found
    raise KeyError(f"transform callback {token} is not registered")


def forget_previous_run() -> None:
    """No root stack, and no outputs or RPC failures an earlier failed run left behind."""
    pulumi_settings.ROOT.set(None)
    pulumi_settings.SETTINGS.outputs.clear()
    pulumi_settings.SETTINGS.rpc_manager.clear()


def stack_config_values() -> dict[str, Any]:
    """The config values set on the running stack (`pulumi.Config` reads them, with the environment's)."""
    values: dict[str, Any] = pulumi_config.CONFIG.get()
    return values


def default_executor(loop: asyncio.AbstractEventLoop) -> Executor | None:
    """The executor `loop.run_in_executor(None, ...)` uses now (None: asyncio creates one on demand)."""
    found: Executor | None = getattr(loop, "_default_executor", None)
    return found


def restore_default_executor(loop: asyncio.AbstractEventLoop, executor: Executor | None) -> None:
    """Put back what `default_executor` returned, None included (`set_default_executor` refuses None)."""
    loop._default_executor = executor  # type: ignore[attr-defined]


def _no_stack_trace() -> source_pb2.StackTrace:
    return source_pb2.StackTrace()


@contextlib.contextmanager
def without_source_positions() -> Iterator[None]:
    """Registrations made inside carry no stack trace (nor, so, a source position)."""
    original = getattr(pulumi_resource, _STACK_TRACE)
    setattr(pulumi_resource, _STACK_TRACE, _no_stack_trace)
    try:
        yield
    finally:
        setattr(pulumi_resource, _STACK_TRACE, original)


# One entry per (file, line) a registration was ever made below: bounded by the code, not the data.
_POSITIONS: dict[tuple[str, int | None], source_pb2.SourcePosition | None] = {}


def position_of(filename: str, line: int | None) -> source_pb2.SourcePosition | None:
    """A registration's source position at (file, line), as the SDK writes one; None where the
    SDK writes none (code run from a string, no file, not a path)."""
    key = (filename, line)
    if key not in _POSITIONS:
        position: source_pb2.SourcePosition | None = None
        if filename != "" and line is not None:
            try:
                position = source_pb2.SourcePosition(uri=pathlib.Path(filename).as_uri(), line=line)
            except BaseException:
                position = None
        _POSITIONS[key] = position
    return _POSITIONS[key]


# What the package's registrations send, innermost choice last (`sending_source_positions`).
_CHOICES: list[Callable[[], source_pb2.SourcePosition | None]] = []
# The SDK's own position of a trace, for traces the package did not hand out.
_SDK_SOURCE_POSITION: Callable[[source_pb2.StackTrace], source_pb2.SourcePosition | None] = getattr(
    pulumi_resource, _SOURCE_POSITION
)
# The trace last handed to the SDK and the position that goes with it, per thread: the SDK asks
# for the position of the very trace it was just given (`_get_source_position(_get_stack_trace())`).
_HANDED = threading.local()


def _package_stack_trace() -> source_pb2.StackTrace:
    """An empty trace, its position the innermost choice's that has one (none: no position)."""
    position = None
    for choice in reversed(_CHOICES):
        position = choice()
        if position is not None:
            break
    trace = source_pb2.StackTrace()
    _HANDED.last = (trace, position)
    return trace


def _package_source_position(stack: source_pb2.StackTrace) -> source_pb2.SourcePosition | None:
    last = getattr(_HANDED, "last", None)
    if last is not None and last[0] is stack:
        found: source_pb2.SourcePosition | None = last[1]
        return found
    return _SDK_SOURCE_POSITION(stack)


@contextlib.contextmanager
def sending_source_positions(position: Callable[[], source_pb2.SourcePosition | None]) -> Iterator[None]:
    """Registrations made inside carry `position()` as their source position and no stack trace,
    instead of the SDK's trace of the whole stack (whose first frame is its position).

    Nests: the innermost `position` that returns one wins, one that returns None defers to the one
    around it. Leaves `without_source_positions` in force when entered inside it. The SDK's
    functions are swapped module-wide: a registration another thread makes meanwhile gets the same.
    """
    original = getattr(pulumi_resource, _STACK_TRACE)
    if original is _no_stack_trace:
        yield
        return
    original_position = getattr(pulumi_resource, _SOURCE_POSITION)
    _CHOICES.append(position)
    setattr(pulumi_resource, _STACK_TRACE, _package_stack_trace)
    setattr(pulumi_resource, _SOURCE_POSITION, _package_source_position)
    try:
        yield
    finally:
        _CHOICES.pop()
        setattr(pulumi_resource, _STACK_TRACE, original)
        setattr(pulumi_resource, _SOURCE_POSITION, original_position)


def is_input_type(value: object) -> bool:
    """Whether `value` is an instance of an `@pulumi.input_type` class."""
    return bool(pulumi_types.is_input_type(type(value)))


@contextlib.contextmanager
def remembered_resource_types() -> Iterator[None]:
    """Inside, the output types of this package's resource classes are computed once per class."""
    original = getattr(pulumi_types, _RESOURCE_TYPES)
    known: dict[type, dict[str, type]] = {}

    def resource_types(resource_cls: type) -> dict[str, type]:
        if not resource_cls.__module__.startswith(_OWN_MODULES):
            found: dict[str, type] = original(resource_cls)
            return found
        if resource_cls not in known:
            known[resource_cls] = original(resource_cls)
        return dict(known[resource_cls])

    setattr(pulumi_types, _RESOURCE_TYPES, resource_types)
    try:
        yield
    finally:
        setattr(pulumi_types, _RESOURCE_TYPES, original)


def output_data(resources: set[pulumi.Resource], value: Any, known: bool, secret: bool) -> Any:
    """What an Output resolves to inside the SDK (a value holding unknowns is marked unknown)."""
    data = getattr(pulumi_output, _OUTPUT_DATA)
    return data(resources=resources, value=value, is_known=known, is_secret=secret)


def output_from_data(data: Awaitable[Any]) -> pulumi.Output[Any]:
    """The Output of one awaitable of `output_data`: no task when it is already resolved."""
    output: pulumi.Output[Any] = getattr(pulumi.Output, _FROM_DATA)(data)
    return output


def kubernetes_sdk_version() -> str:
    """The pulumi-kubernetes plugin version its SDK classes pin (the `version` resource option).

    A custom resource registered by hand (`children.ObservedCustomResource`) asks for the same
    provider plugin as the SDK's own classes, or the engine would load a second provider.
    """
    from pulumi_kubernetes import _utilities as kubernetes_utilities

    version: str = kubernetes_utilities.get_version()  # type: ignore[no-untyped-call]
    return version


_HELD: weakref.WeakSet[asyncio.Future[None]] = weakref.WeakSet()


def _rpcs_in_flight() -> list[asyncio.Future[Any]]:
    """The RPCs in flight, but no round's hold (two rounds' holds would wait for each other)."""
    return [rpc for rpc in pulumi_settings.SETTINGS.rpc_manager.rpcs if rpc not in _HELD]


def after_the_rpcs_in_flight(then: Callable[[], None]) -> None:
    """Call `then` once the RPCs in flight after this turn of the loop (the registrations just made:
    each registers its RPC on its task's first step) have been answered; nothing is held."""
    event_loop().call_soon(lambda: _when_done(_rpcs_in_flight(), then))


def _when_done(futures: list[asyncio.Future[Any]], then: Callable[[], None]) -> None:
    """Call `then` once every one of `futures` is done, however it ended."""
    pending = [future for future in futures if not future.done()]
    if not pending:
        then()
        return
    left = len(pending)

    def one_done(_: asyncio.Future[Any]) -> None:
        nonlocal left
        left -= 1
        if left == 0:
            then()

    for future in pending:
        future.add_done_callback(one_done)


def awaited_with_the_rpcs(output: pulumi.Output[Any], then: Callable[[], None] | None = None) -> None:
    """Have the SDK's end-of-program wait await `output` among the outstanding RPCs.

    `wait_for_rpcs` first awaits the RPCs in flight one by one, then waits for the remaining Output
    tasks with `asyncio.wait(..., FIRST_COMPLETED)` in a loop, which adds and removes a callback on
    every pending task for each one that completes. Registrations made from an Output's callback
    once the RPCs ran out (the round's children, after the sticky bindings settle) have their
    engine round-trips waited for in that second loop, with every other pending task re-watched
    per answer. Held as an RPC, the callback's registrations join the first, linear wait. Its
    failure is raised there, as the same exception the Output's task raises.

    `then` runs once `output` has settled (or failed) and the RPCs in flight at that point (the
    registrations its callback made) have been answered; their failures are the SDK's to report.
    """

    async def settled() -> None:
        try:
            await output.future()
        finally:
            if then is not None:
                # Watched, not awaited, so the SDK alone awaits (and reports) each RPC, in its order.
                _when_done(_rpcs_in_flight(), then)

    held = asyncio.ensure_future(settled())
    _HELD.add(held)
    pulumi_settings.SETTINGS.rpc_manager.rpcs.append(held)


# The executor the RPCs of the registrations being made go on (`rpcs_on`); None: the loop's own.
_LANE: contextvars.ContextVar[Executor | None] = contextvars.ContextVar("aim_pulumi_rpc_lane", default=None)


class _Lanes(Executor):
    """The loop's default executor, wrapped: what a task made inside `rpcs_on` submits goes on that
    call's executor, everything else on the executor wrapped (made as asyncio makes it if none was set)."""

    def __init__(self, default: Executor | None) -> None:
        self.default = default

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[T]:
        lane = _LANE.get()
        if lane is None:
            if self.default is None:
                self.default = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="asyncio")
            lane = self.default
        return lane.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self.default is not None:
            self.default.shutdown(wait=wait, cancel_futures=cancel_futures)


@contextlib.contextmanager
def rpcs_on(executor: Executor) -> Iterator[None]:
    """Registrations made inside (a resource's, a component's outputs) send their RPC on `executor`
    instead of the loop's default one, where it would wait, first in first out, behind every
    registration queued for a thread before it (why that matters: the lanes in `levers.py`).

    The SDK sends each registration's RPC from a task it creates when the registration is made, and
    a task runs in a copy of the context it was created in: the loop's default executor is wrapped
    (once) by one that sends what such a task submits to `executor`. The request, its
    serialisation, its tracking among the program's RPCs and its errors stay the SDK's own. Only
    where the program talks to the engine over gRPC: under the SDK's mocks and the offline engine
    (whose one-worker executor keeps the registrations in the program's order) nothing changes.
    """
    if not isinstance(pulumi_settings.get_monitor(), resource_pb2_grpc.ResourceMonitorStub):
        yield
        return
    loop = event_loop()
    current = default_executor(loop)
    if not isinstance(current, _Lanes):
        restore_default_executor(loop, _Lanes(current))
    token = _LANE.set(executor)
    try:
        yield
    finally:
        _LANE.reset(token)
