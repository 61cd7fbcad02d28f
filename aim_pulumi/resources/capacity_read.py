"""Reading a cluster's capacity in `pulumi preview`: which cluster, the lists, their bounds.

Which cluster: the one the program's children go to, found the way the Kubernetes provider finds
its default cluster, since that is the provider a service's children use unless the program gives
one: the stack config `kubernetes:kubeconfig` (a path or the kubeconfig itself) with
`kubernetes:context`, else `$KUBECONFIG`, else `~/.kube/config`. `aim:capacityKubeconfig` names the
cluster explicitly, and is how a program whose services deploy through an explicit
`kubernetes.Provider` is checked (the provider's kubeconfig is an input of that resource, which a
program cannot read back). Nothing is read when `aim:capacity` is `off`, when the default provider
renders YAML (`kubernetes:renderYamlToDirectory`) instead of applying, under the SDK's mocks (unit
tests and `aim-pulumi plan`, unless `plan --kubeconfig` hands a cluster down), or when no
kubeconfig exists: then `aim:inventory` is the source, as before.

What is read: one paged `list` (500 objects a page) of each of nodes, pods (all namespaces, those
neither succeeded nor failed), resourcequotas, storageclasses, namespaces and
persistentvolumeclaims, with the kubeconfig's credentials, read-only (`persist_config=False`: not
even a refreshed token is written back). Every request is bounded by what is left of
`aim:capacityTimeoutSeconds` for the whole read. Nodes are required; a kind the credentials may
not list (HTTP 403) is left unread and named, so its checks are skipped rather than judged against
nothing.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from aim_pulumi.resolve.capacity.cluster import ClusterCapacity, capacity_from_objects

__all__ = [
    "CapacityReadError",
    "ClusterAccess",
    "Deadline",
    "NoCluster",
    "default_access",
    "get_json",
    "new_client",
    "open_client",
    "read_capacity",
]

PAGE = 500
# (kind as users read it, what a ClusterRole grants: resource and API group).
KINDS = (
    ("nodes", ""),
    ("pods", ""),
    ("resourcequotas", ""),
    ("storageclasses", "storage.k8s.io"),
    ("namespaces", ""),
    ("persistentvolumeclaims", ""),
)


class CapacityReadError(Exception):
    """The cluster could not be read: unreachable, too slow, nodes refused, a broken kubeconfig."""


@dataclass(frozen=True)
class ClusterAccess:
    """Where the kubeconfig comes from: a path or its content (None: `$KUBECONFIG`/`~/.kube/config`)."""

    kubeconfig: str | None
    context: str | None
    origin: str

    def describe(self) -> str:
        context = f", context {self.context}" if self.context else ""
        return f"{self.origin}{context}"


@dataclass(frozen=True)
class NoCluster:
    """Why no cluster is read (said once in the preview)."""

    reason: str


def _is_content(value: str) -> bool:
    """A kubeconfig given inline (YAML or JSON with clusters) rather than a path."""
    if "\n" not in value and not value.lstrip().startswith("{"):
        return False
    try:
        data = yaml.safe_load(value)
    except yaml.YAMLError:
        return False
    return isinstance(data, Mapping) and "clusters" in data


def default_access(
    kubernetes_config: Mapping[str, str | None],
    environ: Mapping[str, str],
    home: Path,
) -> ClusterAccess | NoCluster:
    """The cluster the default Kubernetes provider would apply to, found as the provider finds it."""
    if kubernetes_config.get("renderYamlToDirectory"):
        return NoCluster("the Kubernetes provider renders YAML (kubernetes:renderYamlToDirectory)")
    context = kubernetes_config.get("context") or None
    configured = kubernetes_config.get("kubeconfig")
    if configured:
        return ClusterAccess(configured, context, "kubernetes:kubeconfig")
    listed = environ.get("KUBECONFIG", "")
    if listed:
        paths = [Path(p).expanduser() for p in listed.split(os.pathsep) if p]
        if not any(p.is_file() for p in paths):
            return NoCluster(f"KUBECONFIG names no file ({listed})")
        return ClusterAccess(None, context, "KUBECONFIG")
    default = home / ".kube" / "config"
    if not default.is_file():
        return NoCluster("no kubeconfig: neither kubernetes:kubeconfig, KUBECONFIG nor ~/.kube/config")
    return ClusterAccess(None, context, "~/.kube/config")


def new_client(access: ClusterAccess) -> Any:
    """A client of the cluster `access` names, read-only (`persist_config=False`)."""
    from kubernetes import config

    value = access.kubeconfig
    if value is not None and _is_content(value):
        loaded = yaml.safe_load(value)
        load_dict: Any = config.new_client_from_config_dict  # untyped in the client
        return load_dict(loaded, context=access.context, persist_config=False)
    path = str(Path(value).expanduser()) if value is not None else None
    load: Any = config.new_client_from_config  # untyped in the client
    return load(config_file=path, context=access.context, persist_config=False)


def open_client(access: ClusterAccess) -> Any:
    """`new_client`, or CapacityReadError naming the kubeconfig when it cannot be used: the one
    message every read of the cluster (capacity, live InferenceServices, status) gives for it."""
    from kubernetes.config import ConfigException

    try:
        return new_client(access)
    except (ConfigException, OSError, yaml.YAMLError, ValueError, TypeError) as exc:
        raise CapacityReadError(f"the kubeconfig ({access.describe()}) cannot be used: {exc}") from None


class Deadline:
    """What is left of a bound on all of a read's requests; CapacityReadError once it is spent."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        remaining = self.end - time.monotonic()
        if remaining <= 0:
            raise CapacityReadError(
                f"the cluster did not answer within {self.seconds:g} s (aim:capacityTimeoutSeconds)"
            )
        return remaining


def _pages(fetch: Callable[[str | None], Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    token: str | None = None
    while True:
        page = fetch(token)
        yield from page.get("items") or ()
        token = (page.get("metadata") or {}).get("continue") or None
        if token is None:
            return


# The path each kind is listed at, and the query it is listed with (pods: those still holding room).
PATHS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "nodes": ("/api/v1/nodes", ()),
    "pods": ("/api/v1/pods", (("fieldSelector", "status.phase!=Succeeded,status.phase!=Failed"),)),
    "resourcequotas": ("/api/v1/resourcequotas", ()),
    "storageclasses": ("/apis/storage.k8s.io/v1/storageclasses", ()),
    "namespaces": ("/api/v1/namespaces", ()),
    "persistentvolumeclaims": ("/api/v1/persistentvolumeclaims", ()),
}


def get_json(api: Any, path: str, query: list[tuple[str, Any]], timeout: tuple[float, float]) -> Any:
    """GET `path` through the client's own request path (its auth, TLS and proxies), as JSON.

    The typed API classes are not loaded: their modules are most of the client's import time. The
    client changed this entry point (its generator's version 7, with `param_serialize`); both the
    newer and the older form are public, so both are used as the installed client offers them.
    """
    from kubernetes import client

    headers = {"Accept": "application/json"}
    if hasattr(api, "param_serialize"):
        method, url, header_params, body, post = api.param_serialize(
            "GET", path, query_params=query, header_params=headers, auth_settings=["BearerToken"]
        )
        response = api.call_api(method, url, header_params, body, post, _request_timeout=timeout)
        data = response.read()
        if not 200 <= response.status < 300:
            raise client.ApiException(status=response.status, reason=response.reason)
    else:
        data = api.call_api(
            path,
            "GET",
            query_params=query,
            header_params=headers,
            auth_settings=["BearerToken"],
            _return_http_data_only=True,
            _preload_content=False,
            _request_timeout=timeout,
        ).data
    return json.loads(data)


def _lister(api: Any, kind: str, deadline: Deadline) -> Callable[[str | None], Mapping[str, Any]]:
    path, extra = PATHS[kind]

    def fetch(token: str | None) -> Mapping[str, Any]:
        left = deadline.left()
        query: list[tuple[str, Any]] = [("limit", PAGE), *extra]
        if token:
            query.append(("continue", token))
        page = get_json(api, path, query, (min(left, 5.0), left))
        return page if isinstance(page, Mapping) else {}

    return fetch


def read_capacity(access: ClusterAccess, timeout_seconds: float) -> ClusterCapacity:
    """One paged list of each kind, within `timeout_seconds` in all.

    Raises CapacityReadError when the kubeconfig cannot be used, the API server cannot be reached
    or answered too slowly, or nodes cannot be listed; another kind refused is named in `unread`.
    """
    from kubernetes import client
    from urllib3.exceptions import HTTPError

    api = open_client(access)
    # The bound is on the cluster's answers, from the first request on.
    deadline = Deadline(timeout_seconds)
    server = str(getattr(api.configuration, "host", "") or "the API server")
    listed: dict[str, list[Mapping[str, Any]] | None] = {}
    unread: list[str] = []
    try:
        for kind, group in KINDS:
            try:
                listed[kind] = list(_pages(_lister(api, kind, deadline)))
            except client.ApiException as exc:
                what = f"{kind}{'.' + group if group else ''}"
                if kind == "nodes":
                    raise CapacityReadError(
                        f"listing {what} at {server}: HTTP {exc.status} {exc.reason} (the capacity "
                        "check needs get and list on nodes, pods, resourcequotas, storageclasses, "
                        "namespaces and persistentvolumeclaims)"
                    ) from None
                listed[kind] = None
                unread.append(f"{what} (HTTP {exc.status} {exc.reason})")
    except HTTPError as exc:  # refused, TLS, timeouts: urllib3 gave up
        raise CapacityReadError(f"cannot reach {server}: {exc}") from None
    finally:
        api.close()
    nodes = listed["nodes"]
    assert nodes is not None
    return capacity_from_objects(
        f"cluster {server} ({access.describe()})",
        nodes=nodes,
        pods=listed["pods"],
        quotas=listed["resourcequotas"],
        storage_classes=listed["storageclasses"],
        namespaces=listed["namespaces"],
        claims=listed["persistentvolumeclaims"],
        unread=unread,
    )
