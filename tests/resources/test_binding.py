"""The sticky-binding state: keep/rebind, cache-mode immutability, PVC sizes that never shrink."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.selection.sticky import sticky_decision
from aim_pulumi.resources.binding import (
    BINDING_KEYS,
    BindingProvider,
    decide_binding,
    parse_profile_key,
    profile_key,
)

OLD = "AIMProfile/ml-team/old"
NEW = "AIMProfile/ml-team/new"
CLUSTER = "AIMClusterProfile/shared"


def news(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "service": "ml-team/chat",
        "winner": NEW,
        "qualifying": [NEW, OLD],
        "force": False,
        "cacheMode": "",
        "cacheSizes": {},
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("olds", "new_inputs", "bound", "previous", "reason"),
    [
        pytest.param({}, news(), NEW, "", "", id="first-binding-takes-the-winner"),
        pytest.param({"bound": OLD}, news(), OLD, "", "", id="previous-still-qualifies-is-kept"),
        pytest.param({"bound": NEW}, news(), NEW, "", "", id="previous-is-the-winner"),
        pytest.param(
            {"bound": OLD},
            news(qualifying=[NEW]),
            NEW,
            OLD,
            "no-longer-matches",
            id="previous-stopped-qualifying",
        ),
        pytest.param({"bound": OLD}, news(force=True), NEW, OLD, "force-rebind", id="force-rebind-re-ranks"),
        pytest.param({"bound": NEW}, news(force=True), NEW, "", "", id="force-rebind-to-the-same-profile"),
        pytest.param(
            {"bound": CLUSTER}, news(qualifying=[NEW, CLUSTER]), CLUSTER, "", "", id="cluster-profile-kept"
        ),
    ],
)
def test_check_keeps_a_qualifying_binding_and_otherwise_takes_the_winner(
    olds: dict[str, Any], new_inputs: dict[str, Any], bound: str, previous: str, reason: str
) -> None:
    state, failures = decide_binding(olds, new_inputs)

    assert failures == []
    assert (state["bound"], state["previous"], state["reason"]) == (bound, previous, reason)
    assert state["winner"] == new_inputs["winner"], "the inputs are carried into the state"


@given(
    previous=st.sampled_from(["", OLD, NEW, CLUSTER]),
    winner=st.sampled_from([OLD, NEW, CLUSTER]),
    qualifying=st.sets(st.sampled_from([OLD, NEW, CLUSTER])),
    force=st.booleans(),
    deleted=st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_the_provider_rule_agrees_with_the_resolver_rule(
    previous: str, winner: str, qualifying: set[str], force: bool, deleted: bool
) -> None:
    deleted = deleted and bool(previous) and previous != winner
    qualifying = qualifying | {winner}  # a fresh winner always qualifies
    if deleted:
        qualifying.discard(previous)  # a deleted profile qualifies for nothing
    state, _ = decide_binding(
        {"bound": previous} if previous else {},
        news(winner=winner, qualifying=sorted(qualifying), force=force),
    )

    decision = sticky_decision(
        previous or None, candidate_ok=previous in qualifying, force_rebind=force, exists=not deleted
    )

    if decision.keep:
        assert (state["bound"], state["previous"], state["reason"]) == (previous, "", "")
        return
    # A rebind is reported only when the bound profile changes.
    rebound = bool(previous) and previous != winner
    assert state["bound"] == winner
    assert state["previous"] == (previous if rebound else "")
    # The provider sees qualifying names only, so a deleted profile is one that no longer matches;
    # the resolver, which sees the catalog, is what reports `deleted` (in ProfileRebound).
    reason = (decision.reason or "") if rebound else ""
    assert state["reason"] == ("no-longer-matches" if reason == "deleted" else reason)


@pytest.mark.parametrize(
    "rebinding", [news(force=True), news(qualifying=[NEW])], ids=["force-rebind", "stopped-qualifying"]
)
def test_the_run_after_a_rebind_changes_nothing_and_keeps_the_rebind_on_record(
    rebinding: dict[str, Any],
) -> None:
    """Finding 7: the run after a rebind cleared `previous` and `reason`, an update of the binding
    alone, so `pulumi preview --expect-no-changes` after a rebind failed."""
    provider = BindingProvider()
    deployed = provider.check({}, news(winner=OLD, qualifying=[OLD])).inputs
    rebound = provider.check(deployed, rebinding).inputs
    assert (rebound["bound"], rebound["previous"]) == (NEW, OLD)
    stored = provider.update("id", deployed, rebound).outs
    # The engine gives `check` the old inputs and `diff` the old outputs.
    again = provider.check(rebound, rebinding).inputs
    assert (again["bound"], again["previous"], again["reason"]) == (NEW, OLD, rebound["reason"])
    assert provider.diff("id", stored, again).changes is False
    # The next rebind replaces the record.
    onwards = provider.check(again, news(winner=CLUSTER, qualifying=[CLUSTER])).inputs
    assert (onwards["bound"], onwards["previous"], onwards["reason"]) == (CLUSTER, NEW, "no-longer-matches")


@pytest.mark.parametrize(
    "rebinding", [news(force=True), news(qualifying=[NEW])], ids=["force-rebind", "stopped-qualifying"]
)
def test_only_the_check_of_the_run_that_rebinds_notes_it_and_the_state_never_keeps_the_note(
    rebinding: dict[str, Any],
) -> None:
    """The last rebind stays on record, and its ProfileRebound warning was repeated at every run
    until the next rebind: the program sees outputs only, which an unchanged binding keeps. The
    check that sees the old binding notes the rebind (what a preview's outputs are), `create` and
    `update` store it cleared, and no diff compares it."""
    provider = BindingProvider()
    deployed = provider.check({}, news(winner=OLD, qualifying=[OLD])).inputs
    assert deployed["rebinding"] is False, "a first binding rebinds nothing"
    assert provider.create(deployed).outs["rebinding"] is False
    rebound = provider.check(deployed, rebinding).inputs
    assert rebound["rebinding"] is True
    stored = provider.update("id", deployed, rebound).outs
    assert stored is not None and stored["rebinding"] is False
    assert {k: v for k, v in stored.items() if k != "rebinding"} == {
        k: v for k, v in rebound.items() if k != "rebinding"
    }
    again = provider.check(rebound, rebinding).inputs
    assert again["rebinding"] is False
    assert provider.diff("id", stored, again).changes is False
    assert provider.diff("id", {**stored, "rebinding": True}, again).changes is False, "never compared"


# The provider as every stack deployed since the binding was introduced stores it: a reference to
# `aim_pulumi.resources.binding.BindingProvider`, nothing of its code. A change of these bytes would
# be a change of the `__provider` input of every binding on the next preview.
STORED_PROVIDER = "gASVNwAAAAAAAACMHGFpbV9wdWx1bWkucmVzb3VyY2VzLmJpbmRpbmeUjA9CaW5kaW5nUHJvdmlkZXKUk5QpgZQu"


def test_the_provider_is_pickled_by_reference_as_earlier_versions_stored_it() -> None:
    """The provider lives in state: by reference, so the rule it runs is whatever this module
    imports, and with the bytes earlier versions stored, so their stacks preview with no change."""
    import ast
    import base64
    import sys
    from pathlib import Path

    from pulumi.dynamic.dynamic import serialize_provider

    import aim_pulumi.resources.binding as binding

    assert serialize_provider(BindingProvider()) == binding.serialized_provider() == STORED_PROVIDER
    assert b"aim_pulumi.resources.binding" in base64.b64decode(STORED_PROVIDER)
    tree = ast.parse(Path(binding.__file__).read_text())
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    # pulumi, the standard library, and the one sticky rule (`resolve/selection/sticky.py`).
    own = {name for name in imported if name.split(".")[0] == "aim_pulumi"}
    assert own == {"aim_pulumi.resolve.selection.sticky"}, own
    others = {name.split(".")[0] for name in imported - own}
    assert others - {"pulumi"} <= set(sys.stdlib_module_names) | {"__future__"}, others


@pytest.mark.parametrize(
    ("old_mode", "new_mode", "fails"),
    [
        pytest.param("", "Shared", False, id="caching-turned-on"),
        pytest.param("Shared", "Shared", False, id="unchanged"),
        pytest.param("Shared", "", False, id="caching-turned-off"),
        pytest.param("Shared", "Dedicated", True, id="shared-to-dedicated-rejected"),
        pytest.param("Dedicated", "Shared", True, id="dedicated-to-shared-rejected"),
    ],
)
def test_changing_the_cache_mode_of_an_existing_service_is_rejected(
    old_mode: str, new_mode: str, fails: bool
) -> None:
    _, failures = decide_binding({"bound": NEW, "cacheMode": old_mode}, news(cacheMode=new_mode))

    assert bool(failures) is fails
    if fails:
        assert failures[0][0] == "cacheMode"
        assert old_mode in failures[0][1] and new_mode in failures[0][1]


@pytest.mark.parametrize(
    ("old_sizes", "new_sizes", "expected"),
    [
        pytest.param({}, {"pvc-a": 5}, {"pvc-a": 5}, id="first-size"),
        pytest.param({"pvc-a": 5}, {"pvc-a": 8}, {"pvc-a": 8}, id="growth-is-taken"),
        pytest.param({"pvc-a": 9}, {"pvc-a": 4}, {"pvc-a": 9}, id="shrink-keeps-the-larger-size"),
        pytest.param(
            {"pvc-old": 3}, {"pvc-a": 4}, {"pvc-a": 4, "pvc-old": 3}, id="sizes-of-other-pvcs-are-kept"
        ),
    ],
)
def test_cache_sizes_are_a_high_water_mark(
    old_sizes: dict[str, int], new_sizes: dict[str, int], expected: dict[str, int]
) -> None:
    state, _ = decide_binding({"cacheSizes": old_sizes}, news(cacheSizes=new_sizes))

    assert state["cacheSizes"] == expected


@pytest.mark.parametrize(
    ("olds", "new_state", "changed"),
    [
        pytest.param(
            news(bound=NEW, previous="", reason=""), news(bound=NEW, previous="", reason=""), False, id="same"
        ),
        pytest.param(news(bound=OLD), news(bound=NEW), True, id="rebound"),
        pytest.param(
            news(bound=NEW, previous=OLD), news(bound=NEW, previous=""), True, id="rebind-reported-once"
        ),
        pytest.param(news(bound=NEW), news(bound=NEW, cacheSizes={"p": 2}), True, id="size-grew"),
    ],
)
def test_diff_reports_a_change_whenever_the_state_differs(
    olds: dict[str, Any], new_state: dict[str, Any], changed: bool
) -> None:
    assert BindingProvider().diff("id", olds, new_state).changes is changed


def test_only_a_binding_with_no_old_state_is_noted_new() -> None:
    provider = BindingProvider()
    assert provider.check({}, news()).inputs["newBinding"] is True
    recorded = provider.create(provider.check({}, news()).inputs).outs
    assert provider.check(recorded, news()).inputs["newBinding"] is False
    assert "newBinding" not in BINDING_KEYS, "a note no diff compares"


def test_provider_create_and_update_store_the_checked_state() -> None:
    provider = BindingProvider()
    checked = provider.check({}, news()).inputs

    created = provider.create(checked)
    updated = provider.update(created.id, checked, {**checked, "bound": OLD})

    assert created.id == "ml-team/chat"
    # The check notes that the state held no binding; the stored state never keeps the note.
    assert checked["newBinding"] is True
    assert created.outs == {**checked, "newBinding": False}
    assert updated.outs is not None and updated.outs["newBinding"] is False
    assert updated.outs is not None and updated.outs["bound"] == OLD


@pytest.mark.parametrize(
    ("kind", "namespace", "name", "key"),
    [
        pytest.param("AIMProfile", "ml-team", "p1", "AIMProfile/ml-team/p1", id="namespaced"),
        pytest.param("AIMClusterProfile", "", "c1", "AIMClusterProfile/c1", id="cluster"),
    ],
)
def test_profile_keys_round_trip(kind: str, namespace: str, name: str, key: str) -> None:
    assert profile_key(kind, namespace, name) == key
    assert parse_profile_key(key) == (kind, namespace, name)


@pytest.mark.parametrize("key", ["p1", "AIMModel/ns/x", "AIMProfile/p1", "AIMClusterProfile/ns/c"])
def test_malformed_profile_keys_are_rejected(key: str) -> None:
    with pytest.raises(ValueError, match="profile binding key"):
        parse_profile_key(key)


def test_the_sdk_dynamic_provider_host_runs_the_binding_check() -> None:
    """What the engine does on `pulumi preview`: start the SDK's dynamic provider host, call Check.

    The host (`python -m pulumi.dynamic`) unpickles the provider from the `__provider` input and runs
    its `check` behind gRPC on loopback, exactly as the Pulumi engine drives it.
    """
    import asyncio
    import subprocess
    import sys

    import grpc
    from pulumi.dynamic.dynamic import serialize_provider
    from pulumi.runtime import rpc
    from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

    provider = serialize_provider(BindingProvider())
    olds = {"__provider": provider, "bound": "AIMProfile/ml/kept", "cacheMode": "Shared"}
    news = {
        "__provider": provider,
        "service": "ml/chat",
        "winner": "AIMProfile/ml/better",
        "qualifying": ["AIMProfile/ml/better", "AIMProfile/ml/kept"],
        "force": False,
        "cacheMode": "Dedicated",
        "cacheSizes": {"pvc-a": 20},
    }

    def struct(values: dict[str, object]) -> Any:
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(rpc.serialize_properties(values, {}))
        finally:
            loop.close()

    host = subprocess.Popen(
        [sys.executable, "-m", "pulumi.dynamic"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        assert host.stdout is not None
        port = int(host.stdout.readline().decode().strip())
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = provider_pb2_grpc.ResourceProviderStub(channel)
            request = provider_pb2.CheckRequest(olds=struct(olds), news=struct(news))
            response = stub.Check(request, timeout=60)
    finally:
        host.kill()
        host.wait(timeout=10)
    inputs = rpc.deserialize_properties(response.inputs)
    assert inputs["bound"] == "AIMProfile/ml/kept"
    assert inputs["cacheSizes"] == {"pvc-a": 20}
    assert [(f.property, "immutable" in f.reason) for f in response.failures] == [("cacheMode", True)]


def test_every_binding_carries_the_provider_pickled_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The state holds what `pulumi.dynamic.Resource` would store, but pickling it is paid once."""
    from pulumi.dynamic.dynamic import serialize_provider

    import aim_pulumi.resources.binding as binding
    from aim_pulumi.offline.engine import run_program

    calls: list[object] = []

    def counting(provider: Any) -> str:
        calls.append(provider)
        return serialize_provider(provider)

    binding.serialized_provider.cache_clear()
    monkeypatch.setattr(binding, "serialize_provider", counting)

    def program() -> None:
        for index in range(3):
            binding.Binding(
                f"svc-{index}-binding",
                service=f"ml-team/svc-{index}",
                winner=NEW,
                qualifying=[NEW],
                force=False,
                cache_mode="",
                cache_sizes={},
            )

    try:
        recording = run_program(program)
    finally:
        binding.serialized_provider.cache_clear()
    stored = [r.inputs["__provider"] for r in recording.of_type("pulumi-python:dynamic/aim:Binding")]
    assert len(calls) == 1
    assert stored == [serialize_provider(BindingProvider())] * 3
    assert all(r.outputs["bound"] == NEW for r in recording.of_type("pulumi-python:dynamic/aim:Binding"))
