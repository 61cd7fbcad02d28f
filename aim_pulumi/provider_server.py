"""The component provider's gRPC server: the SDK's, plus one program run per deployment and the binding.

The SDK's `ProviderServicer` serves Construct, Call and GetSchema. Two things a program of another
language needs go beyond it:

- Every Construct call of one deployment must share one stack catalog, so a service sees the models
  constructed before it; each call names its run here (`enter_program_run`) before the SDK
  constructs anything, from what the engine sends with every call of that deployment.
- A service's sticky binding cannot be a Python dynamic resource there (`resources/binding.py`), so
  this server also serves the custom resource `aim:index:Binding`: `Check` is the binding rule
  (`decide_binding`), `Diff` reports the keys that changed (an update, never a replacement),
  `Create`, `Update` and `Read` keep what `Check` decided, and `Delete` has nothing to remove.
  The provider holds no state of its own, as the dynamic provider does not: all of it is Pulumi state.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import grpc  # type: ignore[import-untyped]
from google.protobuf import empty_pb2, json_format, struct_pb2  # type: ignore[import-untyped]
from pulumi.errors import InputPropertiesError, InputPropertyError
from pulumi.provider.provider import Provider
from pulumi.provider.server import ComponentInitError, ProviderServicer
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

from aim_pulumi.api.errors import INTERNAL_ERROR, AIMError, internal_failure
from aim_pulumi.resources import _sdk
from aim_pulumi.resources.binding import PROVIDER_BINDING_TYPE, binding_changes, decide_binding, stored
from aim_pulumi.resources.registry import enter_program_run
from aim_pulumi.resources.reported import plain_text

__all__ = ["AIMProviderServicer", "construct_failure", "serve"]


def construct_failure(error: BaseException, resource: str = "") -> str:
    """What a failed Construct says: an AIM error's line, naming the object or else the resource
    being constructed (`AIMModel qwen`; a program of another language has no declaring line here);
    a failure inside this package in words (`internal_failure`, never its class or frames);
    anything else as its type and message."""
    prefix = f"{resource}: " if resource else ""
    if isinstance(error, AIMError):
        text = " ".join(plain_text(error).split())
        return text if error.object_ref else prefix + text
    internal = internal_failure(error)
    if internal is not None:
        return f"{prefix}{INTERNAL_ERROR}: {internal}"
    return prefix + " ".join(f"{type(error).__name__}: {error}".split())


def _constructed(request: provider_pb2.ConstructRequest) -> str:
    """`AIMModel qwen`: the component a Construct request declares."""
    return f"{str(request.type).rpartition(':')[2]} {request.name}"


def _plain(struct: struct_pb2.Struct) -> dict[str, Any]:
    values: dict[str, Any] = json_format.MessageToDict(struct)
    return values


def _struct(values: Mapping[str, Any]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(dict(values))
    return struct


def _resource_type(urn: str) -> str:
    """The resource's own type: the last segment of the URN's type chain (parent types come first)."""
    return urn.split("::")[2].rsplit("$", 1)[-1] if urn.count("::") >= 3 else ""


class AIMProviderServicer(ProviderServicer):
    """The SDK's servicer with program runs named per deployment and the binding resource served."""

    async def Construct(self, request: provider_pb2.ConstructRequest, context: Any) -> Any:
        # The engine sends the same monitor address with every call of one deployment; the call's
        # own task (and everything it schedules) sees the run it belongs to.
        enter_program_run(
            request.monitorEndpoint,
            request.organization,
            request.project,
            request.stack,
            "preview" if request.dryRun else "update",
        )
        try:
            return await self._construct(request, context)
        except InputPropertiesError as error:
            await context.abort_with_status(
                self.create_grpc_invalid_properties_status(error.message, error.errors)
            )
            raise
        except InputPropertyError as error:
            details: Any = [{"property_path": error.property_path, "reason": error.reason}]
            await context.abort_with_status(self.create_grpc_invalid_properties_status("", details))
            raise
        except ComponentInitError as error:
            # The SDK would append the component's stack frames to the message.
            await context.abort(
                grpc.StatusCode.UNKNOWN, construct_failure(error.inner, _constructed(request))
            )
            raise  # abort raises; kept for the type checker
        except Exception as error:
            await context.abort(grpc.StatusCode.UNKNOWN, construct_failure(error, _constructed(request)))
            raise

    async def _only_bindings(self, urn: str, context: Any) -> None:
        kind = _resource_type(urn)
        if kind != PROVIDER_BINDING_TYPE:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"aim serves no custom resource {kind!r}")

    async def Check(self, request: provider_pb2.CheckRequest, context: Any) -> Any:
        await self._only_bindings(request.urn, context)
        state, failures = decide_binding(_plain(request.olds), _plain(request.news))
        return provider_pb2.CheckResponse(
            inputs=_struct(state),
            failures=[provider_pb2.CheckFailure(property=prop, reason=reason) for prop, reason in failures],
        )

    async def Diff(self, request: provider_pb2.DiffRequest, context: Any) -> Any:
        await self._only_bindings(request.urn, context)
        changed = binding_changes(_plain(request.olds), _plain(request.news))
        return provider_pb2.DiffResponse(
            changes=provider_pb2.DiffResponse.DIFF_SOME if changed else provider_pb2.DiffResponse.DIFF_NONE,
            diffs=changed,
            deleteBeforeReplace=False,
        )

    async def Create(self, request: provider_pb2.CreateRequest, context: Any) -> Any:
        await self._only_bindings(request.urn, context)
        properties = _plain(request.properties)
        # A preview's outputs keep the run's rebinding note; stored state never does (`REBINDING_KEY`).
        return provider_pb2.CreateResponse(
            id=str(properties.get("service") or "binding"),
            properties=_struct(properties if request.preview else stored(properties)),
        )

    async def Update(self, request: provider_pb2.UpdateRequest, context: Any) -> Any:
        await self._only_bindings(request.urn, context)
        if request.preview:
            return provider_pb2.UpdateResponse(properties=request.news)
        return provider_pb2.UpdateResponse(properties=_struct(stored(_plain(request.news))))

    async def Read(self, request: provider_pb2.ReadRequest, context: Any) -> Any:
        # There is no cluster object behind a binding: what state holds is what there is.
        await self._only_bindings(request.urn, context)
        return provider_pb2.ReadResponse(id=request.id, properties=request.properties, inputs=request.inputs)

    async def Delete(self, request: provider_pb2.DeleteRequest, context: Any) -> Any:
        await self._only_bindings(request.urn, context)
        return empty_pb2.Empty()


def serve(provider: Provider, args: Sequence[str]) -> None:
    """What `pulumi.provider.main` does, with this servicer: print the port, serve until stopped."""
    import argparse

    parser = argparse.ArgumentParser(description="Pulumi provider plugin (gRPC server)")
    parser.add_argument("engine", help="Pulumi engine address")
    parser.add_argument("--logflow", action="store_true", help="ignored, as the SDK's server does")
    parser.add_argument("--logtostderr", action="store_true", help="ignored, as the SDK's server does")
    known, _ = parser.parse_known_args(list(args))

    async def run() -> None:
        server = grpc.aio.server(options=_sdk.grpc_server_options())
        servicer = AIMProviderServicer(provider, list(args), engine_address=known.engine)
        provider_pb2_grpc.add_ResourceProviderServicer_to_server(servicer, server)
        port = server.add_insecure_port(address="127.0.0.1:0")
        await server.start()
        sys.stdout.buffer.write(f"{port}\n".encode())
        sys.stdout.buffer.flush()
        await server.wait_for_termination()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
