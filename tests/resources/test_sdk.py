"""The Pulumi SDK internals `aim_pulumi.resources._sdk` relies on are still there, and only it uses them.

Each check names the private attribute and the module to update, so an SDK upgrade that moves one
fails here with that sentence instead of somewhere inside a plan or a deployment.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import re
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from pulumi.runtime import _callbacks, stack, sync_await
from pulumi.runtime import config as pulumi_config
from pulumi.runtime import settings as pulumi_settings

import aim_pulumi
from aim_pulumi.resources import _sdk

INSTALLED = version("pulumi")


def _changed(what: str) -> str:
    return (
        f"pulumi {INSTALLED}: {what} is not what aim_pulumi/resources/_sdk.py was written against "
        f"(pulumi {_sdk.CHECKED_SDK_VERSION}); update that module and CHECKED_SDK_VERSION"
    )


def _parameters(function: Callable[..., Any]) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_sync_await_and_the_event_loop() -> None:
    assert callable(getattr(sync_await, "_sync_await", None)), _changed(
        "pulumi.runtime.sync_await._sync_await"
    )
    assert _parameters(sync_await._sync_await) == ["awaitable"], _changed("_sync_await(awaitable)")
    ensure = getattr(sync_await, "_ensure_event_loop", None)
    assert callable(ensure) and _parameters(ensure) == [], _changed("_ensure_event_loop()")
    assert _sdk.sync_await(asyncio.sleep(0, result="done")) == "done"
    assert _sdk.event_loop() is _sdk.event_loop()


def test_transform_callbacks_by_token() -> None:
    servicer = getattr(_callbacks, "_CallbackServicer", None)
    assert isinstance(getattr(servicer, "_servicers", None), list), _changed("_CallbackServicer._servicers")
    assert "_callbacks" in servicer.__init__.__code__.co_names, _changed("_CallbackServicer()._callbacks")
    with pytest.raises(KeyError, match="transform callback no-such-token is not registered"):
        _sdk.transform_callback("no-such-token")


def test_the_settings_a_run_clears() -> None:
    assert isinstance(pulumi_settings.ROOT, contextvars.ContextVar), _changed("pulumi.runtime.settings.ROOT")
    settings = pulumi_settings.SETTINGS
    assert callable(getattr(getattr(settings, "outputs", None), "clear", None)), _changed("SETTINGS.outputs")
    assert callable(getattr(getattr(settings, "rpc_manager", None), "clear", None)), _changed(
        "SETTINGS.rpc_manager"
    )


def test_the_stack_config() -> None:
    assert isinstance(pulumi_config.CONFIG, contextvars.ContextVar), _changed("pulumi.runtime.config.CONFIG")
    assert isinstance(_sdk.stack_config_values(), dict)


def test_the_end_of_the_program_body() -> None:
    finish = getattr(stack.Stack, "_finish", None)
    assert callable(finish) and _parameters(finish) == ["self"], _changed("Stack._finish(self)")
    assert _sdk.sdk_supports_program_end(), _changed("Stack._finish setting _outputs_registered")


def test_the_loop_default_executor() -> None:
    loop = asyncio.new_event_loop()
    try:
        assert hasattr(loop, "_default_executor"), "asyncio's loop._default_executor is gone; update _sdk.py"
        assert _sdk.default_executor(loop) is None
        _sdk.restore_default_executor(loop, None)
        assert _sdk.default_executor(loop) is None
    finally:
        loop.close()


def test_the_provider_servers_grpc_options() -> None:
    from pulumi.runtime import _grpc_settings

    options = getattr(_grpc_settings, "_GRPC_CHANNEL_OPTIONS", None)
    assert isinstance(options, list), _changed("pulumi.runtime._grpc_settings._GRPC_CHANNEL_OPTIONS")
    assert "grpc.max_receive_message_length" in dict(_sdk.grpc_server_options())


def test_the_stack_trace_of_a_registration() -> None:
    from pulumi.runtime import resource as sdk_resource

    original = getattr(sdk_resource, "_get_stack_trace", None)
    assert callable(original) and _parameters(original) == [], _changed("resource._get_stack_trace()")
    with _sdk.without_source_positions():
        assert len(sdk_resource._get_stack_trace().frames) == 0
    assert sdk_resource._get_stack_trace is original


def test_the_source_position_of_a_registration() -> None:
    from pulumi.runtime import resource as sdk_resource

    original = getattr(sdk_resource, "_get_source_position", None)
    changed = _changed("resource._get_source_position(stack)")
    assert callable(original) and _parameters(original) == ["stack"], changed
    trace = sdk_resource._get_stack_trace()
    # The SDK's position is its trace's first frame: what the package's empty trace must stand in for.
    assert original(trace) == (trace.frames[0].pc if trace.frames else None)


def test_a_position_is_the_sdks_form_of_a_frame() -> None:
    position = _sdk.position_of(__file__, 12)
    assert position is not None and position.uri == Path(__file__).as_uri() and position.line == 12
    # Code run from a string (no path) or with no file: no position, as the SDK writes it.
    assert _sdk.position_of("", 3) is None and _sdk.position_of(__file__, None) is None
    assert _sdk.position_of(__file__, 12) is position


def _sent() -> tuple[int, object]:
    """What a registration made here sends: the number of frames of its trace, and its position."""
    from pulumi.runtime import resource as sdk_resource

    trace = sdk_resource._get_stack_trace()
    return len(trace.frames), sdk_resource._get_source_position(trace)


def test_sending_source_positions_is_scoped_nests_and_keeps_the_offline_engines_choice() -> None:
    from pulumi.runtime import resource as sdk_resource
    from pulumi.runtime.proto import source_pb2

    originals = (sdk_resource._get_stack_trace, sdk_resource._get_source_position)
    outer, inner = _sdk.position_of(__file__, 1), _sdk.position_of(__file__, 2)
    with _sdk.sending_source_positions(lambda: outer):
        assert _sent() == (0, outer)
        with _sdk.sending_source_positions(lambda: inner):
            assert _sent() == (0, inner)
        with _sdk.sending_source_positions(lambda: None):  # no answer: the one around it decides
            assert _sent() == (0, outer)
        assert _sent() == (0, outer)
        # A trace the package did not hand out keeps the SDK's position: its first frame.
        own = _sdk.position_of(__file__, 3)
        other = source_pb2.StackTrace(frames=[source_pb2.StackFrame(pc=own)])
        assert sdk_resource._get_source_position(other) == own
    assert (sdk_resource._get_stack_trace, sdk_resource._get_source_position) == originals
    with _sdk.sending_source_positions(lambda: None):  # no answer at all: no trace, no position
        assert _sent() == (0, None)
    with _sdk.without_source_positions(), _sdk.sending_source_positions(lambda: outer):
        assert _sent() == (0, None)
    assert (sdk_resource._get_stack_trace, sdk_resource._get_source_position) == originals


def test_the_output_types_of_a_resource_class() -> None:
    from pulumi import CustomResource
    from pulumi import _types as sdk_types

    from aim_pulumi.resources.binding import Binding

    original = getattr(sdk_types, "resource_types", None)
    assert callable(original) and _parameters(original) == ["resource_cls"], _changed(
        "_types.resource_types(resource_cls)"
    )
    expected = original(Binding)
    assert "bound" in expected, _changed("_types.resource_types (Binding's annotated outputs)")
    calls: list[type] = []

    def counting(resource_cls: type) -> dict[str, type]:
        calls.append(resource_cls)
        return original(resource_cls)

    sdk_types.resource_types = counting
    try:
        with _sdk.remembered_resource_types():
            first, second = sdk_types.resource_types(Binding), sdk_types.resource_types(Binding)
            first["bound"] = int  # a caller's change does not reach the next caller
            assert sdk_types.resource_types(Binding) == expected
            sdk_types.resource_types(CustomResource)
            sdk_types.resource_types(CustomResource)
    finally:
        sdk_types.resource_types = original
    assert second == expected
    # Computed once for the package's own class; every time for any other class.
    assert calls == [Binding, CustomResource, CustomResource]
    assert sdk_types.resource_types is original


def test_a_run_of_the_offline_engine_takes_no_stack_trace() -> None:
    import pulumi
    from pulumi.runtime import resource as sdk_resource

    from aim_pulumi.offline.engine import run_program

    original = sdk_resource._get_stack_trace
    seen: list[Any] = []

    def program() -> None:
        seen.append(sdk_resource._get_stack_trace())
        pulumi.ComponentResource("test:index:Shell", "shell")

    recording = run_program(program)
    assert [r.name for r in recording.resources if r.type == "test:index:Shell"] == ["shell"]
    assert len(seen[0].frames) == 0
    assert sdk_resource._get_stack_trace is original


def test_input_types() -> None:
    import pulumi

    @pulumi.input_type
    class Args:
        pass

    assert _sdk.is_input_type(Args()) and not _sdk.is_input_type({}), _changed("pulumi._types.is_input_type")


# Names of SDK internals (and the asyncio attribute) no module but the adapter may use.
_PRIVATE = re.compile(
    r"(?<!\w)(_sync_await|_ensure_event_loop|_CallbackServicer|_outputs_registered|_default_executor|"
    r"_GRPC_CHANNEL_OPTIONS|_get_stack_trace|_get_source_position)\b|"
    r"\._finish\b|\bSETTINGS\b|settings\.ROOT\b|rpc_manager|pulumi_config\.CONFIG\b|"
    r"from pulumi[\w.]* import _|pulumi\.runtime\._"
)


def test_no_other_module_reaches_into_the_sdk() -> None:
    root = Path(aim_pulumi.__file__).parent
    adapter = Path(_sdk.__file__)
    found = [
        f"{path.relative_to(root.parent)}:{number}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        if path != adapter
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _PRIVATE.search(line)
    ]
    assert not found, "private Pulumi SDK use outside aim_pulumi/resources/_sdk.py:\n" + "\n".join(found)


def test_outputs_held_as_one_awaitable_of_their_data() -> None:
    from pulumi import output as sdk_output

    data_class = getattr(sdk_output, "_OutputData", None)
    assert data_class is not None, _changed("pulumi.output._OutputData")
    fields = list(inspect.signature(data_class).parameters)
    assert fields == ["resources", "value", "is_known", "is_secret"], _changed("_OutputData's fields")
    from_data = getattr(sdk_output.Output, "_from_data", None)
    assert callable(from_data) and _parameters(from_data) == ["data"], _changed("Output._from_data(data)")

    async def read() -> tuple[Any, ...]:
        future = asyncio.get_running_loop().create_future()
        future.set_result(_sdk.output_data(set(), {"a": 1}, True, True))
        output = _sdk.output_from_data(future)
        return (
            await output.future(),
            await output.is_known(),
            await output.is_secret(),
            await output.resources(),
        )

    assert _sdk.sync_await(read()) == ({"a": 1}, True, True, set())


def test_the_end_of_program_wait_awaits_what_is_held_with_the_rpcs() -> None:
    """The SDK's `wait_for_rpcs` awaits `rpc_manager.rpcs` one by one until the list is empty;
    an Output held there is awaited in that phase, its failure raised as the Output's own."""
    rpcs = getattr(pulumi_settings.SETTINGS.rpc_manager, "rpcs", None)
    assert isinstance(rpcs, list), _changed("SETTINGS.rpc_manager.rpcs")
    assert "rpc_manager.rpcs.pop()" in inspect.getsource(stack.wait_for_rpcs), _changed(
        "wait_for_rpcs awaiting rpc_manager.rpcs"
    )
    failure = ValueError("the round failed")

    async def run(outcome: Callable[[asyncio.Future[Any]], None]) -> tuple[list[str], BaseException | None]:
        _sdk.forget_previous_run()
        events: list[str] = []
        data = asyncio.get_running_loop().create_future()
        held = _sdk.output_from_data(data).apply(lambda value: events.append(f"round {value}"))
        _sdk.awaited_with_the_rpcs(held)
        asyncio.get_running_loop().call_later(0.05, outcome, data)
        try:
            await stack.wait_for_rpcs(await_all_outstanding_tasks=False)
        except ValueError as error:
            return events, error
        return events, None

    def settle(data: asyncio.Future[Any]) -> None:
        data.set_result(_sdk.output_data(set(), "done", True, False))

    # Nothing else is in flight: the wait returns only once the held Output's callback has run.
    assert _sdk.sync_await(run(settle)) == (["round done"], None)
    assert _sdk.sync_await(run(lambda data: data.set_exception(failure))) == ([], failure)
    _sdk.forget_previous_run()


def test_what_follows_a_held_output_waits_for_the_rpcs_its_callback_made() -> None:
    """`then` runs after the held Output and after every RPC in flight once it settled (the
    registrations its callback made), however they end; another hold is not waited for."""
    rpc_manager = pulumi_settings.SETTINGS.rpc_manager

    async def run(fail: bool) -> list[str]:
        _sdk.forget_previous_run()
        loop = asyncio.get_running_loop()
        events: list[str] = []
        answer = loop.create_future()

        async def registration() -> None:
            await answer
            events.append("answered")
            if fail:
                raise RuntimeError("the engine refused it")

        def callback(value: Any) -> None:
            events.append(f"round {value}")
            rpc_manager.rpcs.append(asyncio.ensure_future(registration()))

        data = loop.create_future()
        held = _sdk.output_from_data(data).apply(callback)
        settled = loop.create_future()
        settled.set_result(_sdk.output_data(set(), "other", True, False))
        other = _sdk.output_from_data(settled)  # another round's hold
        _sdk.awaited_with_the_rpcs(other, then=lambda: events.append("other round ended"))
        _sdk.awaited_with_the_rpcs(held, then=lambda: events.append("then"))
        data.set_result(_sdk.output_data(set(), "done", True, False))
        loop.call_later(0.05, answer.set_result, None)
        try:
            await stack.wait_for_rpcs(await_all_outstanding_tasks=False)
        except RuntimeError:
            events.append("failure reported by the SDK")
        return events

    ended = _sdk.sync_await(run(fail=False))
    assert ended.index("round done") < ended.index("answered") < ended.index("then")
    failed = _sdk.sync_await(run(fail=True))
    assert failed.index("answered") < failed.index("then")
    assert "failure reported by the SDK" in failed
    _sdk.forget_previous_run()


def test_rpcs_sent_on_an_executor_of_the_packages() -> None:
    """Under the engine (a gRPC monitor) the RPCs of what is registered inside `rpcs_on` go on its
    executor, the request the SDK's own and awaited among the program's RPCs; everything else, and
    everything under the SDK's mocks, on the loop's default executor."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import pulumi
    from google.protobuf import empty_pb2, json_format
    from pulumi.runtime import mocks
    from pulumi.runtime import resource as sdk_resource
    from pulumi.runtime.proto import resource_pb2_grpc

    class _NoMocks(mocks.Mocks):
        def new_resource(self, args: Any) -> Any:
            raise AssertionError("nothing is registered")

        def call(self, args: Any) -> Any:
            raise AssertionError("nothing is invoked")

    sent: list[tuple[str, Any]] = []

    class Engine(resource_pb2_grpc.ResourceMonitorStub):
        def __init__(self) -> None:  # no channel: nothing is dialled
            pass

        def RegisterResourceOutputs(self, request: Any) -> Any:
            sent.append((threading.current_thread().name, request))
            return empty_pb2.Empty()

    class Component:
        """What the SDK's output registration reads of a component: its URN."""

        def __init__(self, name: str) -> None:
            self.urn = pulumi.Output.from_input(f"urn:pulumi:dev::p::aim:index:AIMService::{name}")

    assert callable(getattr(sdk_resource, "register_resource_outputs", None)), _changed(
        "resource.register_resource_outputs(res, outputs)"
    )
    lane = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lane-under-test")
    status = pulumi.Output.from_input({"status": "Running"})
    saved = pulumi_settings.SETTINGS.monitor
    loop = _sdk.event_loop()
    saved_executor = _sdk.default_executor(loop)
    default = ThreadPoolExecutor(max_workers=1, thread_name_prefix="default-under-test")

    async def run(monitor: Any) -> None:
        _sdk.forget_previous_run()
        pulumi_settings.SETTINGS.monitor = monitor
        with _sdk.rpcs_on(lane):
            sdk_resource.register_resource_outputs(Component("laned"), {"status": status, "port": 8000})
        sdk_resource.register_resource_outputs(Component("other"), {"port": 8000})
        await asyncio.sleep(0)
        await stack.wait_for_rpcs(await_all_outstanding_tasks=False)

    try:
        _sdk.restore_default_executor(loop, default)
        _sdk.sync_await(run(Engine()))
        by_urn = {request.urn.rsplit("::", 1)[1]: (thread, request) for thread, request in sent}
        assert sorted(by_urn) == ["laned", "other"]
        thread, request = by_urn["laned"]
        assert thread.startswith("lane-under-test")
        assert json_format.MessageToDict(request.outputs) == {"status": {"status": "Running"}, "port": 8000.0}
        assert by_urn["other"][0].startswith("default-under-test")
        # The loop's executor shuts down what it wraps.
        _sdk.default_executor(loop).shutdown(wait=True)  # type: ignore[union-attr]
        assert default._shutdown  # type: ignore[attr-defined]

        # Under the SDK's mocks the loop's executor is left as it is: the registrations keep its order.
        sent.clear()
        mocked = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mocked-under-test")
        _sdk.restore_default_executor(loop, mocked)
        _sdk.sync_await(run(mocks.MockMonitor(_NoMocks())))
        assert sent == [] and _sdk.default_executor(loop) is mocked
        mocked.shutdown()
    finally:
        pulumi_settings.SETTINGS.monitor = saved
        _sdk.restore_default_executor(loop, saved_executor)
        _sdk.forget_previous_run()
        lane.shutdown()
        default.shutdown()
