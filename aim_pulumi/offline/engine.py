"""An offline Pulumi engine: runs a program against mocks and records what it would register.

`aim-pulumi plan` and the test suite both need the same thing: run a Pulumi program with no
cluster and no Pulumi service, and see every resource it declares with its full inputs and
options, the outputs components export, and the diagnostics they log. Pulumi's own mock
monitor answers the registrations; the subclasses here only write down what they were asked.

Each run gets a fresh copy of the caller's context variables, so Pulumi's ambient settings,
the root stack, the stack config and the AIM stack catalog never leak from one run into the
next (or into the caller).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import contextvars
import gc
import logging
import os
import runpy
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import dill  # type: ignore[import-untyped]
from google.protobuf import empty_pb2  # type: ignore[import-untyped]
from pulumi.dynamic.dynamic import PROVIDER_KEY, ResourceProvider
from pulumi.runtime import mocks as pulumi_mocks
from pulumi.runtime import rpc
from pulumi.runtime import settings as pulumi_settings
from pulumi.runtime.config import set_all_config
from pulumi.runtime.proto import callback_pb2, engine_pb2, resource_pb2
from pulumi.runtime.stack import Stack, run_pulumi_func

from aim_pulumi.offline.recording import DynamicCheckFailed, LogRecord, PlanRecording, RecordedResource, plain
from aim_pulumi.resources import _sdk, levers
from aim_pulumi.resources.registry import reset_registry

__all__ = [
    "RecordingEngine",
    "RecordingMocks",
    "RecordingMonitor",
    "program_callable",
    "run_program",
]

_SEVERITIES = {
    engine_pb2.DEBUG: "debug",
    engine_pb2.INFO: "info",
    engine_pb2.WARNING: "warning",
    engine_pb2.ERROR: "error",
}
_PY_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
_LOGGER = logging.getLogger("aim_pulumi.engine")
_LOGGER.addHandler(logging.NullHandler())
_DYNAMIC_PREFIX = "pulumi-python:dynamic"
_KUBERNETES_PREFIX = "kubernetes:"


def _numbers(value: Any) -> Any:
    """Protobuf carries every number as a double; give integral ones back their Kubernetes type."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return value


class RecordingMocks(pulumi_mocks.Mocks):
    """Answers registrations with the inputs as outputs and a deterministic id.

    `previous` holds the state a resource had after an earlier `pulumi up`, by Pulumi name.
    For a dynamic resource the mock runs its provider's `check(olds=previous, news=inputs)`
    exactly as the engine would, so a program sees what it would see on its second run. A
    Kubernetes object whose previous state has a `status` reports it, as the provider reads a live
    object's status back (what a controller wrote); without one it reports none.
    """

    def __init__(self, previous: Mapping[str, Mapping[str, Any]] | None = None, *, preview: bool = True):
        self.previous = {k: dict(v) for k, v in (previous or {}).items()}
        self.preview = preview

    def call(self, args: pulumi_mocks.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        return dict(args.args), None

    def new_resource(self, args: pulumi_mocks.MockResourceArgs) -> tuple[str | None, dict[str, Any]]:
        inputs = dict(args.inputs)
        resource_id = _deterministic_id(args.name, inputs)
        if args.typ.startswith(_DYNAMIC_PREFIX) and PROVIDER_KEY in inputs:
            return resource_id, self._dynamic(args.name, resource_id, inputs)
        observed = self.previous.get(args.name, {}).get("status")
        if args.typ.startswith(_KUBERNETES_PREFIX) and observed is not None:
            inputs["status"] = observed
        return resource_id, inputs

    def _dynamic(self, name: str, resource_id: str, inputs: dict[str, Any]) -> dict[str, Any]:
        serialized = rpc.unwrap_rpc_secret(inputs[PROVIDER_KEY])
        provider: ResourceProvider = dill.loads(base64.b64decode(serialized))
        news = plain(inputs)
        olds = plain(self.previous.get(name, {}))
        checked = provider.check(olds, news)
        if checked.failures:
            raise DynamicCheckFailed(name, [(f.property, f.reason) for f in checked.failures])
        outs: dict[str, Any] = dict(checked.inputs)
        if not self.preview:
            if olds:
                updated = provider.update(resource_id, olds, outs).outs
                outs = dict(updated) if updated is not None else outs
            else:
                outs = dict(provider.create(outs).outs or {})
        outs[PROVIDER_KEY] = inputs[PROVIDER_KEY]
        return outs


def _deterministic_id(name: str, inputs: Mapping[str, Any]) -> str:
    metadata = plain(inputs.get("metadata"))
    if isinstance(metadata, dict) and isinstance(metadata.get("name"), str):
        namespace = metadata.get("namespace")
        return f"{namespace}/{metadata['name']}" if isinstance(namespace, str) else str(metadata["name"])
    return f"{name}-id"


# RegisterResourceRequest fields a transform may change, by TransformResourceOptions field. The scalar
# ones are copied, the repeated ones replaced; custom timeouts, providers and aliases are handled apart.
_TRANSFORM_SCALARS = {
    "protect": "protect",
    "retain_on_delete": "retainOnDelete",
    "delete_before_replace": "deleteBeforeReplace",
    "provider": "provider",
    "version": "version",
    "plugin_download_url": "pluginDownloadURL",
    "deleted_with": "deletedWith",
}
_TRANSFORM_LISTS = {
    "depends_on": "dependencies",
    "ignore_changes": "ignoreChanges",
    "replace_on_changes": "replaceOnChanges",
    "additional_secret_outputs": "additionalSecretOutputs",
}


def _transform_options(request: Any) -> Any:
    options = resource_pb2.TransformResourceOptions()
    for option, field_name in _TRANSFORM_SCALARS.items():
        value = getattr(request, field_name)
        if value:
            setattr(options, option, value)
    for option, field_name in _TRANSFORM_LISTS.items():
        getattr(options, option).extend(getattr(request, field_name))
    if request.HasField("customTimeouts"):
        options.custom_timeouts.CopyFrom(request.customTimeouts)
    options.providers.update(request.providers)
    options.aliases.extend(request.aliases)
    return options


def _apply_transform_options(request: Any, options: Any) -> None:
    for option, field_name in _TRANSFORM_SCALARS.items():
        setattr(request, field_name, getattr(options, option))
    if options.HasField("delete_before_replace"):
        request.deleteBeforeReplaceDefined = True
    for option, field_name in _TRANSFORM_LISTS.items():
        del getattr(request, field_name)[:]
        getattr(request, field_name).extend(getattr(options, option))
    request.ClearField("customTimeouts")
    if options.HasField("custom_timeouts"):
        request.customTimeouts.CopyFrom(options.custom_timeouts)
    request.providers.clear()
    request.providers.update(options.providers)
    del request.aliases[:]
    request.aliases.extend(options.aliases)


class RecordingMonitor(pulumi_mocks.MockMonitor):
    """A mock resource monitor that writes down every registration and every registered output.

    It runs transforms as the Pulumi engine does (the SDK's mock monitor does not): a resource's own
    `ResourceOptions.transforms` first, then those of each ancestor, then the stack transforms
    (`pulumi.runtime.register_resource_transform`), each seeing the previous one's result, before the
    registration is recorded.
    """

    def __init__(self, mocks: pulumi_mocks.Mocks) -> None:
        super().__init__(mocks)
        self.recorded: list[RecordedResource] = []
        self.registered_outputs: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._stack_callbacks: list[Any] = []
        self._own_callbacks: dict[str, list[Any]] = {}
        self._parents: dict[str, str] = {}

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        """The URN the Pulumi engine gives: the parent's whole type chain, without the root stack.

        The SDK's mock keeps only the parent's own type, and prefixes the stack's too
        (`pulumi:pulumi:Stack$aim:...`), so grandchildren and top-level resources got other URNs.
        """
        if parent:
            chain = parent.split("::")[2]
            if chain != "pulumi:pulumi:Stack":
                type_ = f"{chain}${type_}"
        stack, project = pulumi_settings.get_stack(), pulumi_settings.get_project()
        return f"urn:pulumi:{stack}::{project}::{type_}::{name}"

    def RegisterStackTransform(self, request: Any) -> Any:
        with self._lock:
            self._stack_callbacks.append(callback_pb2.Callback(token=request.token, target=request.target))
        return super().RegisterStackTransform(request)  # type: ignore[no-untyped-call]

    def _transformed(self, request: Any) -> Any:
        with self._lock:
            chain = list(request.transforms)
            parent = request.parent
            while parent:
                chain.extend(self._own_callbacks.get(parent, ()))
                parent = self._parents.get(parent, "")
            chain.extend(self._stack_callbacks)
        if not chain:
            return request
        properties, options = request.object, _transform_options(request)
        for callback in chain:
            asked = resource_pb2.TransformRequest(
                type=request.type,
                name=request.name,
                custom=request.custom,
                parent=request.parent,
                properties=properties,
                options=options,
            )
            answer = _sdk.sync_await(_sdk.transform_callback(callback.token)(asked.SerializeToString()))
            properties = answer.properties
            if answer.HasField("options"):
                options = answer.options
        transformed = type(request)()
        transformed.CopyFrom(request)
        transformed.object.CopyFrom(properties)
        _apply_transform_options(transformed, options)
        return transformed

    def RegisterResource(self, request: Any) -> Any:
        if request.type != "pulumi:pulumi:Stack":
            _sdk.event_loop()
            own = list(request.transforms)
            request = self._transformed(request)
        response = super().RegisterResource(request)  # type: ignore[no-untyped-call]
        with self._lock:
            self._parents[response.urn] = request.parent
            if request.type != "pulumi:pulumi:Stack" and own:
                self._own_callbacks[response.urn] = own
        if request.type == "pulumi:pulumi:Stack":
            return response
        registration = self.resources[response.urn]
        timeouts = request.customTimeouts
        record = RecordedResource(
            type=request.type,
            name=request.name,
            urn=response.urn,
            parent=request.parent,
            custom=bool(request.custom),
            inputs=_numbers(rpc.deserialize_properties(request.object)),
            outputs=_numbers(dict(registration.state)),
            id=registration.id or "",
            dependencies=tuple(request.dependencies),
            property_dependencies={
                key: tuple(deps.urns) for key, deps in sorted(request.propertyDependencies.items())
            },
            retain_on_delete=bool(request.retainOnDelete),
            protect=bool(request.protect),
            delete_before_replace=bool(request.deleteBeforeReplace),
            ignore_changes=tuple(request.ignoreChanges),
            replace_on_changes=tuple(request.replaceOnChanges),
            custom_timeouts={
                k: v
                for k, v in (
                    ("create", timeouts.create),
                    ("update", timeouts.update),
                    ("delete", timeouts.delete),
                )
                if v
            },
            provider=request.provider,
            providers=dict(sorted(request.providers.items())),
        )
        with self._lock:
            self.recorded.append(record)
        return response

    def RegisterResourceOutputs(self, request: Any) -> Any:
        outputs = rpc.deserialize_properties(request.outputs) if request.outputs else {}
        with self._lock:
            self.registered_outputs[request.urn] = _numbers(dict(outputs))
        return empty_pb2.Empty()


class RecordingEngine:
    """The engine half of the mocks: keeps every `pulumi.log` message with its resource URN.

    The SDK's own debug messages (several per resource) go to the logger only: no plan shows
    them, and keeping them would grow the recording by thousands of records per stack.
    """

    def __init__(self, logger: logging.Logger | None = None) -> None:
        self.records: list[LogRecord] = []
        self.logger = logger or _LOGGER
        self._lock = threading.Lock()

    def Log(self, request: Any) -> None:
        severity = _SEVERITIES.get(request.severity, "info")
        if severity == "debug":
            self.logger.debug(request.message)
            return
        record = LogRecord(severity=severity, message=request.message, urn=request.urn)
        with self._lock:
            self.records.append(record)
        self.logger.log(_PY_LEVELS[severity], request.message)


Program = Callable[[], object] | str | os.PathLike[str]


_INSTALLED_PACKAGE_DIRS = frozenset({"site-packages", "dist-packages"})


def _programs_own_module(module_file: str | None, root: Path) -> bool:
    """A module of the program itself, which the next run of the same directory must import afresh.

    Not what its virtualenv holds: `pulumi new python` puts `venv/` inside the project directory,
    and the packages there (pulumi_kubernetes's lazily imported submodules among them) must stay
    imported, or the next use of a half-forgotten package fails inside the SDK.
    """
    if not module_file:
        return False
    path = Path(module_file).resolve()
    try:
        relative = path.relative_to(root)
    except ValueError:
        return False  # another directory, even one whose name starts like the program's
    if _INSTALLED_PACKAGE_DIRS.intersection(relative.parts):
        return False
    return not path.is_relative_to(Path(sys.prefix).resolve())  # the running virtualenv, wherever it is


def run_program(
    entry: Program,
    *,
    project: str = "project",
    stack: str = "stack",
    config: Mapping[str, str] | None = None,
    secret_config_keys: Sequence[str] = (),
    preview: bool = True,
    previous: Mapping[str, Mapping[str, Any]] | None = None,
    logger: logging.Logger | None = None,
) -> PlanRecording:
    """Run a Pulumi program under the recording mocks and return what it declared.

    `entry` is a callable or a program directory holding `__main__.py`. `config` keys are full
    Pulumi keys (`aim:strict`). `previous` is earlier state by resource name (see
    `RecordingMocks`). An exception raised by the program, or by one of its applies, propagates
    unchanged once the run's global state has been discarded.
    """
    context = contextvars.copy_context()
    return context.run(
        _run,
        entry,
        project=project,
        stack=stack,
        config=dict(config or {}),
        secret_config_keys=list(secret_config_keys),
        preview=preview,
        previous=previous,
        logger=logger,
    )


def _run(
    entry: Program,
    *,
    project: str,
    stack: str,
    config: dict[str, str],
    secret_config_keys: list[str],
    preview: bool,
    previous: Mapping[str, Mapping[str, Any]] | None,
    logger: logging.Logger | None,
) -> PlanRecording:
    mocks = RecordingMocks(previous, preview=preview)
    monitor = RecordingMonitor(mocks)
    engine = RecordingEngine(logger)
    features = set(monitor.GetDeploymentInfo(empty_pb2.Empty()).supportedFeatures)  # type: ignore[no-untyped-call]
    pulumi_settings.configure(
        pulumi_mocks.MockSettings(  # type: ignore[no-untyped-call]
            monitor=monitor,
            monitor_features=features,
            engine=engine,
            project=project,
            stack=stack,
            dry_run=preview,
            organization="organization",
            callbacks=None,
        )
    )
    # Outputs and RPC failures an earlier failed run left behind would otherwise fail this one
    # (what `pulumi.runtime.test` clears between unit tests).
    _sdk.forget_previous_run()
    set_all_config(config, secret_config_keys)
    program = program_callable(entry)

    async def run_in_stack() -> None:
        root = Stack()
        try:
            program()
        finally:
            _sdk.finish_stack(root)

    loop = _sdk.event_loop()
    # The caller's own tasks on the loop (a unit test's Outputs, say) are not this run's to end.
    callers_tasks = set(asyncio.all_tasks(loop))
    saved_executor = _sdk.default_executor(loop)
    saved_factory = loop.get_task_factory()
    loop.set_task_factory(_origin_keeping_task)
    # One worker: registrations reach the monitor in the order the program issued them.
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aim-mock-monitor")
    loop.set_default_executor(executor)
    try:
        # The recording keeps no source position: the SDK need not walk the stack per resource.
        with levers.offline_run():
            _sdk.sync_await(run_pulumi_func(run_in_stack))
            _drain(loop)
    except BaseException:
        # Pulumi stops at the first failed task; the others of this run finish here, so they
        # cannot surface in a later run on the same event loop.
        with contextlib.suppress(BaseException):
            _drain(loop)
        _mark_failures_retrieved(loop)
        raise
    finally:
        _abandon_unfinished(loop, callers_tasks)
        loop.set_task_factory(saved_factory)
        _sdk.restore_default_executor(loop, saved_executor)
        executor.shutdown(wait=True)
        reset_registry()
    return PlanRecording(
        project=project,
        stack=stack,
        resources=list(monitor.recorded),
        outputs=dict(monitor.registered_outputs),
        logs=list(engine.records),
    )


ORIGIN_TRACEBACK = "aim_origin_traceback"
"""Attribute of a failed run's exception: its traceback where it was first raised."""


def _origin_keeping_task(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
    """A task that remembers where its exception was first raised.

    A failed Output is awaited by every Output derived from it, and each await re-raises the one
    exception object with its own traceback; the one that reaches the caller may no longer reach
    the user's `apply` callback. The first traceback does, so the caller can name the user's line.
    """
    return asyncio.Task(_keeping_origin(coro), loop=loop, **kwargs)


async def _keeping_origin(coro: Any) -> Any:
    try:
        return await coro
    except Exception as exc:
        if getattr(exc, ORIGIN_TRACEBACK, None) is None:
            with contextlib.suppress(AttributeError, TypeError):
                setattr(exc, ORIGIN_TRACEBACK, exc.__traceback__)
        raise


def _mark_failures_retrieved(loop: asyncio.AbstractEventLoop) -> None:
    """The failure reaches the caller as an exception; the futures that carried it need not report it.

    Left alone, each failed Output future logs "exception was never retrieved" when it is
    garbage collected, at whatever moment that happens in the caller's code.
    """
    for obj in gc.get_objects():
        if isinstance(obj, asyncio.Future) and obj.get_loop() is loop and obj.done() and not obj.cancelled():
            obj.exception()


def _abandon_unfinished(loop: asyncio.AbstractEventLoop, callers_tasks: set[asyncio.Task[Any]]) -> None:
    """Cancel what the run left unfinished, so nothing of it resumes in a later run on this loop.

    A run that failed leaves registrations queued in the monitor's worker and the tasks waiting on
    them. Resumed the next time the loop runs (the next plan in the same process), they would
    register this run's resources with that run's monitor.
    """
    unfinished = [task for task in asyncio.all_tasks(loop) if not task.done() and task not in callers_tasks]
    if not unfinished:
        return
    for task in unfinished:
        task.cancel()
    with contextlib.suppress(BaseException):
        _sdk.sync_await(asyncio.wait(unfinished, timeout=_ABANDON_SECONDS))


# How long cancelled leftovers may take to finish; a task that outlives it is left behind.
_ABANDON_SECONDS = 5.0


def _drain(loop: asyncio.AbstractEventLoop) -> None:
    """Let fire-and-forget tasks (log messages waiting for a URN) finish."""
    for _ in range(100):
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if not pending:
            return
        _sdk.sync_await(asyncio.sleep(0))


def program_callable(entry: Program) -> Callable[[], object]:
    """A program as a callable: itself, or the `__main__.py` of a Pulumi program directory."""
    if callable(entry):
        return entry
    directory = Path(entry)
    main = directory / "__main__.py"
    if not main.is_file():
        raise FileNotFoundError(f"{directory}: no __main__.py (a Pulumi Python program directory)")

    def run_directory() -> None:
        before = set(sys.modules)
        sys.path.insert(0, str(directory.resolve()))
        cwd = Path.cwd()
        os.chdir(directory)
        try:
            runpy.run_path(str(main.resolve()), run_name="__main__")
        finally:
            os.chdir(cwd)
            sys.path.remove(str(directory.resolve()))
            root = directory.resolve()
            for name in set(sys.modules) - before:
                if _programs_own_module(getattr(sys.modules[name], "__file__", None), root):
                    del sys.modules[name]

    return run_directory
