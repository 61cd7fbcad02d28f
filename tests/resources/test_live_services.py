"""Reading the live InferenceServices of services whose binding is new: batched, bounded, never fatal.

The client's request path is replaced by a fake API server that records every request (as in
`test_capacity_read.py`); the real one is read in `tests/cluster/test_day2_cluster.py`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any, cast

import pytest
from urllib3.exceptions import MaxRetryError

from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resources import capacity, capacity_read, live_services
from aim_pulumi.resources.capacity_read import CapacityReadError, ClusterAccess, NoCluster
from aim_pulumi.resources.live_services import ISVC_PATH, read_inference_services, warn_lost_bindings
from aim_pulumi.resources.round_member import Judged

ACCESS = ClusterAccess("/kubeconfig", None, "test")


class _Response:
    def __init__(self, status: int, body: Mapping[str, Any]) -> None:
        self.status = status
        self.reason = {403: "Forbidden", 404: "Not Found"}.get(status, "OK")
        self._data = json.dumps(body).encode()

    def read(self) -> bytes:
        return self._data


def isvc(namespace: str, name: str, profile: str, image: str = "aim/qwen:0.8") -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": namespace, "labels": {"aim.eai.amd.com/profile": profile}},
        "spec": {"predictor": {"containers": [{"image": image}]}},
    }


class FakeServer:
    """InferenceServices by namespace; a GET by name, or a paged list of a namespace (`page` a page)."""

    def __init__(
        self,
        live: list[dict[str, Any]],
        *,
        refused: set[str] = frozenset(),
        delay: float = 0,
        page: int = 500,
        unreachable: bool = False,
    ) -> None:
        self.live = live
        self.refused = refused
        self.delay = delay
        self.page = page
        self.unreachable = unreachable
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.timeouts: list[Any] = []
        self.lock = threading.Lock()
        self.configuration = type("Configuration", (), {"host": "https://fake"})()

    def param_serialize(self, method: str, path: str, **kwargs: Any) -> tuple[Any, ...]:
        assert method == "GET" and kwargs["auth_settings"] == ["BearerToken"]
        return (method, (path, dict(kwargs["query_params"])), {}, None, None)

    def call_api(
        self, method: str, url: Any, headers: Any, body: Any, post: Any, _request_timeout: Any
    ) -> Any:
        path, query = url
        with self.lock:
            self.requests.append((path, query))
            self.timeouts.append(_request_timeout)
        time.sleep(self.delay)
        if self.unreachable:
            raise MaxRetryError(None, path, "connection refused")  # type: ignore[arg-type]
        parts = path.split("/")
        namespace = parts[5]
        if namespace in self.refused:
            return _Response(403, {})
        here = [i for i in self.live if i["metadata"]["namespace"] == namespace]
        if len(parts) == 8:
            found = [i for i in here if i["metadata"]["name"] == parts[7]]
            return _Response(200, found[0]) if found else _Response(404, {})
        assert query["labelSelector"] == "aim.eai.amd.com/profile"
        start = int(query.get("continue", 0))
        end = start + self.page
        result: dict[str, Any] = {"items": here[start:end], "metadata": {}}
        if end < len(here):
            result["metadata"]["continue"] = str(end)
        return _Response(200, result)

    def close(self) -> None:
        pass


def serve(monkeypatch: pytest.MonkeyPatch, server: FakeServer) -> None:
    monkeypatch.setattr(capacity_read, "new_client", lambda access: server)


def test_one_service_of_a_namespace_is_one_get_and_404_is_not_deployed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = FakeServer([isvc("a", "chat-1", "p")])
    serve(monkeypatch, server)
    read = read_inference_services(ACCESS, [("a", "chat-1"), ("b", "chat-2")], 20)
    assert read.found[("a", "chat-1")] == isvc("a", "chat-1", "p")
    assert read.found[("b", "chat-2")] is None
    assert read.unread == []
    assert sorted(path for path, _ in server.requests) == [
        ISVC_PATH.format(namespace="a") + "/chat-1",
        ISVC_PATH.format(namespace="b") + "/chat-2",
    ]


def test_many_services_of_a_namespace_are_one_paged_list(monkeypatch: pytest.MonkeyPatch) -> None:
    live = [isvc("team", f"svc-{i:03}", "p") for i in range(300)]
    server = FakeServer(live, page=120)
    serve(monkeypatch, server)
    wanted = [("team", f"svc-{i:03}") for i in range(0, 300, 2)] + [("team", "not-yet")]
    read = read_inference_services(ACCESS, wanted, 20)
    assert len(server.requests) == 3, "three pages of one list, not 151 GETs"
    assert {path for path, _ in server.requests} == {ISVC_PATH.format(namespace="team")}
    assert [q.get("continue") for _, q in server.requests] == [None, "120", "240"]
    assert read.found[("team", "svc-002")] == live[2]
    assert read.found[("team", "not-yet")] is None
    assert set(read.found) == set(wanted), "only what was asked for"


def test_namespaces_are_read_in_parallel_within_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    server = FakeServer([], delay=0.2)
    serve(monkeypatch, server)
    started = time.monotonic()
    read = read_inference_services(ACCESS, [(f"ns-{i}", "chat") for i in range(16)], 20)
    took = time.monotonic() - started
    assert len(server.requests) == 16 and all(v is None for v in read.found.values())
    # 16 GETs of 0.2 s each: serially 3.2 s; eight at a time about 0.4 s.
    assert took < 1.6, took


def test_a_namespace_the_credentials_may_not_read_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    serve(monkeypatch, FakeServer([isvc("a", "chat", "p")], refused={"secret"}))
    read = read_inference_services(ACCESS, [("a", "chat"), ("secret", "chat")], 20)
    assert read.found[("a", "chat")] is not None
    assert read.unread == ["namespace secret (HTTP 403 Forbidden)"]


def test_the_whole_read_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    server = FakeServer([], delay=0.5)
    serve(monkeypatch, server)
    started = time.monotonic()
    with pytest.raises(
        CapacityReadError, match=r"did not answer within 0.3 s \(aim:capacityTimeoutSeconds\)"
    ):
        read_inference_services(ACCESS, [("a", "x"), ("a", "y")], 0.3)
    assert time.monotonic() - started < 0.45
    assert all(read <= 0.3 for _, read in server.timeouts)


def test_an_unreachable_server_is_a_read_error(monkeypatch: pytest.MonkeyPatch) -> None:
    serve(monkeypatch, FakeServer([], unreachable=True))
    with pytest.raises(CapacityReadError, match="cannot reach https://fake"):
        read_inference_services(ACCESS, [("a", "x")], 5)


# ---------------------------------------------------------------------- what the round is told


class _Catalog:
    def __init__(self, *declared: str) -> None:
        self.declared = declared

    def profile_entry(self, kind: str, namespace: str | None, name: str) -> object | None:
        return object() if name in self.declared else None


def new_service(name: str, profile: str, image: str = "aim/qwen:0.9") -> tuple[Judged, Any]:
    plan = SimpleNamespace(
        namespace="team",
        name=name,
        isvc_name=f"{name}-isvc",
        profile_name=profile,
        isvc_labels={"aim.eai.amd.com/profile": profile},
        container=SimpleNamespace(image=image),
        caches=(),
    )
    owner = SimpleNamespace(name=name)
    return Judged(f"AIMService/team/{name}", cast(Any, plan), cast(Any, owner)), _Catalog("general")


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, Any]]:
    lines: list[tuple[str, str, Any]] = []
    monkeypatch.setattr(
        live_services.pulumi.log, "warn", lambda m, resource=None: lines.append(("warn", m, resource))
    )
    monkeypatch.setattr(
        live_services.pulumi.log, "info", lambda m, resource=None: lines.append(("info", m, resource))
    )
    return lines


def test_only_a_service_running_another_profile_is_warned_once(
    monkeypatch: pytest.MonkeyPatch, said: list[tuple[str, str, Any]]
) -> None:
    server = FakeServer([isvc("team", "lost-isvc", "general"), isvc("team", "same-isvc", "optimized")])
    serve(monkeypatch, server)
    lost, same, first = (new_service(n, "optimized") for n in ("lost", "same", "first"))
    warn_lost_bindings([lost, same, first], ACCESS, 20)
    assert len(server.requests) == 1, "one list of the namespace"
    [(level, message, owner)] = said
    assert level == "warn" and owner is lost[0].owner
    assert message.startswith("ProfileBindingLost: ") and "AIMService team/lost" in message
    assert 'runs profile "general"' in message and 'binds "optimized"' in message
    assert "spec.profile.name: general" in message


@pytest.mark.parametrize(
    ("server", "line"),
    [
        (FakeServer([], unreachable=True), "was not checked: cannot reach https://fake"),
        (FakeServer([], refused={"team"}), "was not checked in namespace team (HTTP 403 Forbidden)"),
    ],
    ids=["unreachable", "forbidden"],
)
def test_a_cluster_that_cannot_be_read_is_one_info_line_and_no_failure(
    monkeypatch: pytest.MonkeyPatch, said: list[tuple[str, str, Any]], server: FakeServer, line: str
) -> None:
    serve(monkeypatch, server)
    warn_lost_bindings([new_service("a", "optimized"), new_service("b", "optimized")], ACCESS, 5)
    [(level, message, _)] = said
    assert level == "info" and line in message, message


def test_nothing_is_read_without_a_new_binding_or_a_cluster(
    monkeypatch: pytest.MonkeyPatch, said: list[tuple[str, str, Any]]
) -> None:
    def no_client(access: Any) -> Any:
        raise AssertionError("the cluster was read")

    monkeypatch.setattr(capacity_read, "new_client", no_client)
    warn_lost_bindings([], ACCESS, 5)
    warn_lost_bindings([new_service("a", "optimized")], NoCluster("no kubeconfig"), 5)
    assert said == []


def test_no_cluster_is_read_under_the_sdks_mocks_even_with_one_handed_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check = capacity.CapacityCheck(Settings(), access=ACCESS)
    monkeypatch.setattr(capacity, "_under_mocks", lambda: True)
    assert isinstance(check.live_access(False), NoCluster)
    monkeypatch.setattr(capacity, "_under_mocks", lambda: False)
    assert check.live_access(False) == ACCESS
