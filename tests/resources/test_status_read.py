"""The program's read of a route's or ScaledObject's status: one GET, bounded, failures named.

The client's request path is replaced by a fake API server that records every request; the real
one is read in `tests/cluster/test_readiness_cluster.py` and `test_day2_cluster.py`.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from urllib3.exceptions import MaxRetryError, NewConnectionError

from aim_pulumi.resources import capacity_read
from aim_pulumi.resources.capacity_read import ClusterAccess
from aim_pulumi.resources.status_read import (
    TIMEOUT_SECONDS,
    StatusReader,
    StatusReadError,
    object_path,
    reader_for,
)

ROUTE = "/apis/gateway.networking.k8s.io/v1/namespaces/ml-team/httproutes/chat-1"
ACCEPTED = {"parents": [{"conditions": [{"type": "Accepted", "status": "True"}]}]}


class _Response:
    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.reason = {200: "OK", 403: "Forbidden", 404: "Not Found"}[status]
        self._data = json.dumps(body).encode()

    def read(self) -> bytes:
        return self._data


class FakeServer:
    def __init__(self, objects: dict[str, Any], refused: frozenset[str] = frozenset()) -> None:
        self.objects = objects
        self.refused = refused
        self.down = False
        self.requests: list[tuple[str, Any]] = []
        self.configuration = type("Configuration", (), {"host": "https://fake"})()

    def param_serialize(self, method: str, path: str, **kwargs: Any) -> tuple[Any, ...]:
        assert method == "GET" and kwargs["auth_settings"] == ["BearerToken"]
        return (method, path, {}, None, None)

    def call_api(
        self, method: str, path: Any, headers: Any, body: Any, post: Any, _request_timeout: Any
    ) -> Any:
        self.requests.append((path, _request_timeout))
        if self.down:
            raise MaxRetryError(None, path, reason=NewConnectionError(None, "Connection refused"))
        if path in self.refused:
            return _Response(403, {})
        if path not in self.objects:
            return _Response(404, {})
        return _Response(200, self.objects[path])


def reader(monkeypatch: pytest.MonkeyPatch, server: FakeServer) -> StatusReader:
    made: list[ClusterAccess] = []

    def client(access: ClusterAccess) -> FakeServer:
        made.append(access)
        return server

    monkeypatch.setattr(capacity_read, "new_client", client)
    found = StatusReader(ClusterAccess("/kubeconfig", None, "test"))
    found.made = made  # type: ignore[attr-defined]
    return found


def test_one_get_of_the_object_gives_its_status(monkeypatch: pytest.MonkeyPatch) -> None:
    server = FakeServer({ROUTE: {"metadata": {"name": "chat-1"}, "status": ACCEPTED}})
    read = reader(monkeypatch, server)
    assert read.status("gateway.networking.k8s.io/v1", "HTTPRoute", "ml-team", "chat-1") == ACCEPTED
    assert asyncio.run(
        read.status_later("gateway.networking.k8s.io/v1", "HTTPRoute", "ml-team", "chat-1")
    ) == (ACCEPTED)
    assert server.requests == [(ROUTE, (TIMEOUT_SECONDS, TIMEOUT_SECONDS))] * 2
    assert len(read.made) == 1  # type: ignore[attr-defined]


def test_an_object_gone_or_without_status_reads_as_none(monkeypatch: pytest.MonkeyPatch) -> None:
    scaled = object_path("keda.sh/v1alpha1", "ScaledObject", "ml-team", "chat-1")
    assert scaled == "/apis/keda.sh/v1alpha1/namespaces/ml-team/scaledobjects/chat-1"
    read = reader(monkeypatch, FakeServer({scaled: {"metadata": {"name": "chat-1"}}}))
    assert read.status("keda.sh/v1alpha1", "ScaledObject", "ml-team", "chat-1") is None
    assert read.status("gateway.networking.k8s.io/v1", "HTTPRoute", "ml-team", "chat-1") is None


def test_a_refused_read_names_the_object_and_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    read = reader(monkeypatch, FakeServer({}, refused=frozenset({ROUTE})))
    with pytest.raises(StatusReadError, match=f"GET {ROUTE}: HTTP 403 Forbidden"):
        read.status("gateway.networking.k8s.io/v1", "HTTPRoute", "ml-team", "chat-1")


def test_a_cluster_that_cannot_be_reached_is_asked_once_in_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hundred services' reads must not each wait for the timeout of an unreachable API server."""
    server = FakeServer({})
    server.down = True
    read = reader(monkeypatch, server)
    for _ in range(3):
        with pytest.raises(StatusReadError, match=f"GET {ROUTE}: .*Connection refused"):
            read.status("gateway.networking.k8s.io/v1", "HTTPRoute", "ml-team", "chat-1")
    assert len(server.requests) == 1


def test_a_broken_kubeconfig_is_a_read_error(tmp_path: Path) -> None:
    broken = tmp_path / "kubeconfig"
    broken.write_text("clusters: [}\n")
    read = StatusReader(ClusterAccess(str(broken), None, "kubernetes:kubeconfig"))
    with pytest.raises(StatusReadError, match=r"the kubeconfig .* cannot be used"):
        read.status("gateway.networking.k8s.io/v1", "HTTPRoute", "ml-team", "chat-1")


def test_one_reader_per_cluster_for_the_whole_run() -> None:
    access = ClusterAccess("/kubeconfig", "ctx", "kubernetes:kubeconfig")
    assert reader_for(access) is reader_for(ClusterAccess("/kubeconfig", "ctx", "kubernetes:kubeconfig"))
    assert reader_for(access) is not reader_for(ClusterAccess("/other", "ctx", "kubernetes:kubeconfig"))
