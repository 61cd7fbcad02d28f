"""A stand-in for the Pulumi engine around the component provider plugin, over real gRPC.

The plugin runs as the engine starts it (`python __main__.py <engine address>`, port on stdout);
Construct requests name a resource monitor served here, which records every registration and
echoes its inputs as outputs (no resource provider runs behind it; a read likewise), except for the
resources the plugin serves itself (`aim:index:Binding`): those go through the plugin's `Check` first, and the
checked inputs are the outputs, as the engine does in a preview of a new resource.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import empty_pb2, struct_pb2
from pulumi.runtime import rpc
from pulumi.runtime.proto import (
    engine_pb2,
    engine_pb2_grpc,
    provider_pb2,
    provider_pb2_grpc,
    resource_pb2,
    resource_pb2_grpc,
)

ROOT = Path(__file__).resolve().parents[2]
_FEATURES = frozenset({"secrets", "resourceReferences", "outputValues"})


@dataclass
class Registration:
    type: str
    name: str
    custom: bool
    inputs: dict[str, Any]


_SERVED_BY_PLUGIN = "aim:index:Binding"


@dataclass
class _Monitor(resource_pb2_grpc.ResourceMonitorServicer):
    registrations: list[Registration] = field(default_factory=list)
    plugin: Any = None

    def SupportsFeature(self, request: Any, context: Any) -> Any:
        return resource_pb2.SupportsFeatureResponse(hasSupport=request.id in _FEATURES)

    def RegisterResource(self, request: Any, context: Any) -> Any:
        inputs = rpc.deserialize_properties(request.object)
        self.registrations.append(Registration(request.type, request.name, request.custom, inputs))
        urn = f"urn:pulumi:dev::aim::{request.type}::{request.name}"
        outputs = request.object
        if request.custom and request.type == _SERVED_BY_PLUGIN:
            checked = self.plugin.Check(
                provider_pb2.CheckRequest(urn=urn, olds=struct_pb2.Struct(), news=request.object), timeout=60
            )
            assert not checked.failures, checked.failures
            outputs = checked.inputs
        return resource_pb2.RegisterResourceResponse(
            urn=urn, id=f"{request.name}-id" if request.custom else "", object=outputs
        )

    def RegisterResourceOutputs(self, request: Any, context: Any) -> Any:
        return empty_pb2.Empty()

    def ReadResource(self, request: Any, context: Any) -> Any:
        """A read (a child's status read back) finds the object as it was declared: no status."""
        urn = f"urn:pulumi:dev::aim::{request.type}::{request.name}"
        return resource_pb2.ReadResourceResponse(urn=urn, properties=request.properties)

    def Invoke(self, request: Any, context: Any) -> Any:
        return resource_pb2.InvokeResponse(**{"return": struct_pb2.Struct()})


class _Engine(engine_pb2_grpc.EngineServicer):
    def Log(self, request: Any, context: Any) -> Any:
        return empty_pb2.Empty()

    def GetRootResource(self, request: Any, context: Any) -> Any:
        return engine_pb2.GetRootResourceResponse(urn="")

    def SetRootResource(self, request: Any, context: Any) -> Any:
        return engine_pb2.SetRootResourceResponse()


def _struct(values: dict[str, Any]) -> Any:
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(rpc.serialize_properties(values, {}))
    finally:
        loop.close()


@dataclass
class ProviderSession:
    stub: Any
    monitor: _Monitor
    address: str

    def construct(
        self, type_: str, name: str, inputs: dict[str, Any], *, stack: str = "dev"
    ) -> dict[str, Any]:
        """One Construct call, as the engine makes it for a resource of another language's program.

        Calls with the same `stack` belong to one deployment (the engine sends the same monitor
        address, project and stack with each); another stack is another program run.
        """
        request = provider_pb2.ConstructRequest(
            project="aim",
            stack=stack,
            organization="organization",
            dryRun=True,
            monitorEndpoint=self.address,
            type=type_,
            name=name,
            inputs=_struct(inputs),
        )
        response = self.stub.Construct(request, timeout=120)
        state: dict[str, Any] = rpc.deserialize_properties(response.state)
        return state

    def get_schema(self) -> str:
        schema: str = self.stub.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=60).schema
        return schema


@contextmanager
def provider_session() -> Iterator[ProviderSession]:
    monitor = _Monitor()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    resource_pb2_grpc.add_ResourceMonitorServicer_to_server(monitor, server)
    engine_pb2_grpc.add_EngineServicer_to_server(_Engine(), server)
    address = f"127.0.0.1:{server.add_insecure_port('127.0.0.1:0')}"
    server.start()
    plugin = subprocess.Popen(
        [sys.executable, str(ROOT / "__main__.py"), address],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    try:
        assert plugin.stdout is not None
        port = int(plugin.stdout.readline().decode().strip())
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = provider_pb2_grpc.ResourceProviderStub(channel)
            monitor.plugin = stub
            yield ProviderSession(stub, monitor, address)
    finally:
        plugin.kill()
        plugin.wait(timeout=10)
        server.stop(0)
