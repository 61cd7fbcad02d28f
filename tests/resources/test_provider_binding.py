"""`aim:index:Binding` as the component provider serves it: the dynamic binding's rule, over gRPC.

A program of another language gets its sticky binding from the provider process; each call here is
what the engine sends for one step of `pulumi preview` / `pulumi up` of that resource.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format, struct_pb2
from pulumi.runtime.proto import provider_pb2

from aim_pulumi.resources.binding import BindingProvider

from .provider_engine import ProviderSession, provider_session
from .test_binding import NEW, OLD, news

URN = "urn:pulumi:dev::aim::aim:index:AIMService$aim:index:Binding::chat-binding"


def _struct(values: dict[str, Any]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(values)
    return struct


def _plain(struct: struct_pb2.Struct) -> dict[str, Any]:
    values: dict[str, Any] = json_format.MessageToDict(struct)
    return values


@pytest.fixture(scope="module")
def session() -> Iterator[ProviderSession]:
    with provider_session() as started:
        yield started


def _check(session: ProviderSession, olds: dict[str, Any], new_inputs: dict[str, Any]) -> Any:
    request = provider_pb2.CheckRequest(urn=URN, olds=_struct(olds), news=_struct(new_inputs))
    return session.stub.Check(request, timeout=60)


@pytest.mark.parametrize(
    ("olds", "new_inputs"),
    [
        pytest.param({}, news(), id="first-binding"),
        pytest.param({"bound": OLD}, news(), id="kept-while-qualifying"),
        pytest.param({"bound": OLD}, news(qualifying=[NEW]), id="stopped-qualifying"),
        pytest.param({"bound": OLD}, news(force=True), id="force-rebind"),
        pytest.param({"cacheSizes": {"pvc": 30}}, news(cacheSizes={"pvc": 20}), id="pvc-never-shrinks"),
    ],
)
def test_check_decides_as_the_dynamic_provider_does(
    session: ProviderSession, olds: dict[str, Any], new_inputs: dict[str, Any]
) -> None:
    served = _check(session, olds, new_inputs)
    dynamic = BindingProvider().check(olds, new_inputs)

    assert list(served.failures) == []
    # The wire carries every number as a float; the decision is the same.
    assert _plain(served.inputs) == _plain(_struct(dict(dynamic.inputs or {})))


def test_check_refuses_a_cache_mode_change_naming_the_property(session: ProviderSession) -> None:
    served = _check(session, {"bound": NEW, "cacheMode": "Shared"}, news(cacheMode="Dedicated"))

    assert [(f.property, "immutable" in f.reason) for f in served.failures] == [("cacheMode", True)]


def test_the_binding_sticks_across_an_update(session: ProviderSession) -> None:
    """`pulumi up` twice: a new winner that the bound profile does not stop qualifying keeps it."""
    first = _check(session, {}, news(winner=OLD, qualifying=[OLD]))
    created = session.stub.Create(provider_pb2.CreateRequest(urn=URN, properties=first.inputs), timeout=60)
    assert created.id == "ml-team/chat"
    assert _plain(created.properties)["bound"] == OLD

    second = _check(session, _plain(first.inputs), news(winner=NEW, qualifying=[NEW, OLD]))
    state = _plain(second.inputs)
    assert (state["bound"], state["previous"], state["reason"]) == (OLD, "", "")
    diff = session.stub.Diff(
        provider_pb2.DiffRequest(id=created.id, urn=URN, olds=created.properties, news=second.inputs),
        timeout=60,
    )
    # Only the inputs the program changed; the binding itself stays.
    assert diff.changes == provider_pb2.DiffResponse.DIFF_SOME
    assert sorted(diff.diffs) == ["qualifying", "winner"]
    assert list(diff.replaces) == []
    updated = session.stub.Update(
        provider_pb2.UpdateRequest(id=created.id, urn=URN, olds=created.properties, news=second.inputs),
        timeout=60,
    )
    assert _plain(updated.properties) == state


def test_a_rebind_is_noted_in_a_preview_and_never_stored(session: ProviderSession) -> None:
    """The run that rebinds is told by its check (what a preview's outputs are); `Create` and
    `Update` store the note cleared, so the runs after it do not say the rebind again."""
    first = _check(session, {}, news(winner=OLD, qualifying=[OLD]))
    assert _plain(first.inputs)["rebinding"] is False
    created = session.stub.Create(provider_pb2.CreateRequest(urn=URN, properties=first.inputs), timeout=60)
    rebinding = _check(session, _plain(created.properties), news(force=True))
    assert _plain(rebinding.inputs)["rebinding"] is True

    def update(preview: bool) -> dict[str, Any]:
        request = provider_pb2.UpdateRequest(
            id=created.id, urn=URN, olds=created.properties, news=rebinding.inputs, preview=preview
        )
        return _plain(session.stub.Update(request, timeout=60).properties)

    assert update(preview=True)["rebinding"] is True
    stored = update(preview=False)
    assert stored["rebinding"] is False
    assert {k: v for k, v in stored.items() if k != "rebinding"} == {
        k: v for k, v in _plain(rebinding.inputs).items() if k != "rebinding"
    }
    after = _check(session, stored, news(force=True))
    assert _plain(after.inputs)["rebinding"] is False


def test_a_new_binding_is_noted_in_a_preview_and_never_stored(session: ProviderSession) -> None:
    """A binding the state has no record of is noted by its check and a preview's Create (what
    tells the program to look at the live InferenceService); the stored state never keeps it."""
    first = _check(session, {}, news())
    assert _plain(first.inputs)["newBinding"] is True

    def create(preview: bool) -> dict[str, Any]:
        request = provider_pb2.CreateRequest(urn=URN, properties=first.inputs, preview=preview)
        return _plain(session.stub.Create(request, timeout=60).properties)

    assert create(preview=True)["newBinding"] is True
    stored = create(preview=False)
    assert stored["newBinding"] is False
    assert _plain(_check(session, stored, news()).inputs)["newBinding"] is False


def test_an_unchanged_binding_has_no_diff(session: ProviderSession) -> None:
    checked = _check(session, {}, news()).inputs
    again = _check(session, _plain(checked), news()).inputs
    diff = session.stub.Diff(provider_pb2.DiffRequest(id="x", urn=URN, olds=checked, news=again), timeout=60)

    assert diff.changes == provider_pb2.DiffResponse.DIFF_NONE
    assert list(diff.diffs) == []


def test_read_returns_the_state_and_delete_has_nothing_to_remove(session: ProviderSession) -> None:
    checked = _check(session, {}, news()).inputs
    read = session.stub.Read(
        provider_pb2.ReadRequest(id="ml-team/chat", urn=URN, properties=checked, inputs=checked), timeout=60
    )
    assert (read.id, _plain(read.properties)) == ("ml-team/chat", _plain(checked))
    session.stub.Delete(
        provider_pb2.DeleteRequest(id="ml-team/chat", urn=URN, properties=checked), timeout=60
    )


def test_no_other_custom_resource_is_served(session: ProviderSession) -> None:
    other = "urn:pulumi:dev::aim::aim:index:Other::x"
    with pytest.raises(grpc.RpcError) as failure:
        session.stub.Check(provider_pb2.CheckRequest(urn=other, news=_struct({})), timeout=60)

    assert failure.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "aim:index:Other" in (failure.value.details() or "")
