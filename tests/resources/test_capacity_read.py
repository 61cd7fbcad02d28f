"""Reading a cluster: one paged list per kind, refusals named, the whole read bounded in time.

The client's request path is replaced by a fake API server that records every request; the real
one is read in `tests/cluster/test_capacity_cluster.py`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import pytest

from aim_pulumi.resources import capacity_read
from aim_pulumi.resources.capacity_read import PAGE, CapacityReadError, ClusterAccess, read_capacity


class _Response:
    def __init__(self, status: int, body: Mapping[str, Any]) -> None:
        self.status = status
        self.reason = "Forbidden" if status == 403 else "OK"
        self._data = json.dumps(body).encode()

    def read(self) -> bytes:
        return self._data


class FakeServer:
    """Answers the client's `param_serialize` / `call_api` with pages of `items` per path."""

    def __init__(
        self, items: Mapping[str, list[dict[str, Any]]], refused: set[str] = frozenset(), delay: float = 0
    ):
        self.items = items
        self.refused = refused
        self.delay = delay
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.timeouts: list[Any] = []
        self.configuration = type("Configuration", (), {"host": "https://fake"})()

    def param_serialize(self, method: str, path: str, **kwargs: Any) -> tuple[Any, ...]:
        assert method == "GET" and kwargs["auth_settings"] == ["BearerToken"]
        return (method, (path, dict(kwargs["query_params"])), {}, None, None)

    def call_api(
        self, method: str, url: Any, headers: Any, body: Any, post: Any, _request_timeout: Any
    ) -> Any:
        path, query = url
        self.requests.append((path, query))
        self.timeouts.append(_request_timeout)
        time.sleep(self.delay)
        if path in self.refused:
            return _Response(403, {})
        everything = self.items.get(path, [])
        start = int(query.get("continue", 0))
        end = start + int(query["limit"])
        page: dict[str, Any] = {"items": everything[start:end], "metadata": {}}
        if end < len(everything):
            page["metadata"]["continue"] = str(end)
        return _Response(200, page)

    def close(self) -> None:
        pass


def serve(monkeypatch: pytest.MonkeyPatch, server: FakeServer) -> None:
    monkeypatch.setattr(capacity_read, "new_client", lambda access: server)


def nodes(count: int) -> list[dict[str, Any]]:
    return [{"metadata": {"name": f"n{i:04}"}, "status": {"allocatable": {"cpu": "8"}}} for i in range(count)]


def pods(count: int) -> list[dict[str, Any]]:
    return [
        {
            "metadata": {"name": f"p{i:04}", "namespace": "x"},
            "spec": {"nodeName": "n0000", "containers": [{"resources": {"requests": {"cpu": "1m"}}}]},
            "status": {"phase": "Running"},
        }
        for i in range(count)
    ]


ACCESS = ClusterAccess("/kubeconfig", None, "test")


def test_one_paged_list_per_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    server = FakeServer({"/api/v1/nodes": nodes(100), "/api/v1/pods": pods(1200)})
    serve(monkeypatch, server)
    capacity = read_capacity(ACCESS, 20)
    assert len(capacity.nodes) == 100 and len(capacity.pods or ()) == 1200
    paths = [path for path, _ in server.requests]
    assert paths == [
        "/api/v1/nodes",
        "/api/v1/pods",
        "/api/v1/pods",
        "/api/v1/pods",
        "/api/v1/resourcequotas",
        "/apis/storage.k8s.io/v1/storageclasses",
        "/api/v1/namespaces",
        "/api/v1/persistentvolumeclaims",
    ]
    pod_pages = [query for path, query in server.requests if path == "/api/v1/pods"]
    assert [q.get("continue") for q in pod_pages] == [None, "500", "1000"]
    assert all(q["limit"] == PAGE for q in pod_pages)
    assert pod_pages[0]["fieldSelector"] == "status.phase!=Succeeded,status.phase!=Failed"
    assert capacity.source == "cluster https://fake (test)"


def test_a_kind_the_credentials_may_not_list_is_named_and_left_unread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    serve(monkeypatch, FakeServer({"/api/v1/nodes": nodes(1)}, refused={"/api/v1/resourcequotas"}))
    capacity = read_capacity(ACCESS, 20)
    assert capacity.quotas is None and capacity.pods == ()
    assert capacity.unread == ("resourcequotas (HTTP 403 Forbidden)",)


def test_nodes_are_required(monkeypatch: pytest.MonkeyPatch) -> None:
    serve(monkeypatch, FakeServer({}, refused={"/api/v1/nodes"}))
    with pytest.raises(
        CapacityReadError, match=r"listing nodes at https://fake: HTTP 403 Forbidden \(the capacity"
    ):
        read_capacity(ACCESS, 20)


def test_the_whole_read_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    server = FakeServer({"/api/v1/nodes": nodes(1)}, delay=0.3)
    serve(monkeypatch, server)
    with pytest.raises(
        CapacityReadError, match=r"did not answer within 0.5 s \(aim:capacityTimeoutSeconds\)"
    ):
        read_capacity(ACCESS, 0.5)
    assert len(server.requests) <= 2
    # Each request may take only what is left of the bound.
    assert all(read <= 0.5 for _, read in server.timeouts)


def test_a_broken_kubeconfig_is_a_read_error(tmp_path: Any) -> None:
    broken = tmp_path / "kubeconfig"
    broken.write_text("apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n")
    with pytest.raises(CapacityReadError, match="cannot be used"):
        read_capacity(ClusterAccess(str(broken), None, "--kubeconfig"), 5)
