"""Reading a route's or ScaledObject's status from the program, once its InferenceService is ready.

Why the program reads it rather than a Pulumi read (a `get` resource): the engine records every
`read` step in the state, whatever it read. Its snapshot manager writes the whole checkpoint when a
read starts and again when it ends (`SnapshotManager.doRead` and `readSnapshotMutation.End` in
pulumi/pulumi `pkg/backend/snapshot.go`, which never elide a read as they elide a `same` step),
and every `pulumi up`, `up --refresh` and `refresh` runs each read again: one route per service
cost a stack of 100 services 200 writes of its whole state in each update that changed nothing,
and one more resource of each route in the state. Read here, the status costs one GET of the object,
nothing in the state and no step. What `pulumi refresh` cannot do either way stays so: a refresh
runs no program, so the status it leaves is the last `up`'s.

Which cluster: the one every read of the program asks (`CapacityCheck.live_access`, also the
binding's check in `live_services.py`): `aim:capacityKubeconfig`, else the default Kubernetes
provider's (`kubernetes:kubeconfig` and `kubernetes:context`, else `$KUBECONFIG`, else
`~/.kube/config`), with the capacity read's client and credentials, read-only. Where the program
cannot know the cluster (a service deploying through an explicit provider without
`aim:capacityKubeconfig`, a provider configured in-cluster without a kubeconfig)
`program_status_reader` gives None and the status is read by a Pulumi read as before
(`children.read_child`). Nothing is read under the SDK's mocks or when the provider renders YAML.

A read that fails (the API server unreachable or too slow, the credentials refused) is a warning
on the service, not an error: the update has applied by then, and the status says what the child's
own apply read, as with `aim:readBackStatus: false`. Each request is bounded by `TIMEOUT_SECONDS`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from typing import Any

import pulumi

from aim_pulumi.resources import capacity_read, levers
from aim_pulumi.resources.capacity_read import CapacityReadError, ClusterAccess, NoCluster
from aim_pulumi.resources.registry import current_registry

__all__ = [
    "PLURALS",
    "TIMEOUT_SECONDS",
    "ProgramRead",
    "StatusReadError",
    "StatusReader",
    "object_path",
    "program_status_reader",
    "reader_for",
]

# The resource (plural) each kind read back is served at.
PLURALS: Mapping[tuple[str, str], str] = {
    ("gateway.networking.k8s.io/v1", "HTTPRoute"): "httproutes",
    ("keda.sh/v1alpha1", "ScaledObject"): "scaledobjects",
}
# Connect and read bound of one GET: the API server answers a GET of one object in milliseconds.
TIMEOUT_SECONDS = 10.0


class StatusReadError(Exception):
    """The object could not be read: the kubeconfig, the API server or the credentials failed."""


def object_path(api_version: str, kind: str, namespace: str, name: str) -> str:
    """The API path of one namespaced object of a kind in `PLURALS`."""
    return f"/apis/{api_version}/namespaces/{namespace}/{PLURALS[(api_version, kind)]}/{name}"


class StatusReader:
    """GETs objects of one cluster through one client, made at the first read.

    The reads run in threads, so that a hundred services' reads do not hold the program's event
    loop; the client's connection pool is shared by them. The threads are the package's lane
    (`levers.late_lane`), not the SDK's RPC pool: there a read would wait behind every child the
    round registered, each holding a thread until the engine has created it.
    """

    def __init__(self, access: ClusterAccess, timeout_seconds: float = TIMEOUT_SECONDS) -> None:
        self.access = access
        self.timeout_seconds = timeout_seconds
        self._lock = threading.Lock()
        self._api: Any = None
        # A cluster that could not be reached (or a kubeconfig that cannot be used) is not asked
        # again in the run: a hundred services would otherwise each wait for the timeout.
        self._unreachable: StatusReadError | None = None

    def _client(self) -> Any:
        with self._lock:
            if self._unreachable is not None:
                raise self._unreachable
            if self._api is None:
                try:
                    self._api = capacity_read.open_client(self.access)
                except CapacityReadError as exc:
                    self._unreachable = StatusReadError(str(exc))
                    raise self._unreachable from None
            return self._api

    def status(self, api_version: str, kind: str, namespace: str, name: str) -> Mapping[str, Any] | None:
        """The object's `status`; None when it has none or no longer exists."""
        from kubernetes import client
        from urllib3.exceptions import HTTPError

        api = self._client()
        path = object_path(api_version, kind, namespace, name)
        try:
            found = capacity_read.get_json(api, path, [], (self.timeout_seconds, self.timeout_seconds))
        except client.ApiException as exc:
            if exc.status == 404:
                return None
            raise StatusReadError(f"GET {path}: HTTP {exc.status} {exc.reason}") from None
        except HTTPError as exc:  # refused, TLS, timeouts: urllib3 gave up
            with self._lock:
                self._unreachable = StatusReadError(f"GET {path}: {exc}")
            raise self._unreachable from None
        status = found.get("status") if isinstance(found, Mapping) else None
        return status if isinstance(status, Mapping) else None

    async def status_later(
        self, api_version: str, kind: str, namespace: str, name: str
    ) -> Mapping[str, Any] | None:
        return await asyncio.get_running_loop().run_in_executor(
            levers.late_lane(), self.status, api_version, kind, namespace, name
        )


_READERS: dict[ClusterAccess, StatusReader] = {}


def reader_for(access: ClusterAccess) -> StatusReader:
    """The reader of `access`'s cluster: one per cluster for the whole run (its client made once)."""
    reader = _READERS.get(access)
    if reader is None:
        reader = _READERS[access] = StatusReader(access)
    return reader


def program_status_reader(explicit_provider: bool) -> StatusReader | None:
    """The reader of the cluster the program's reads ask (`CapacityCheck.live_access`); None where
    the program cannot know it, and under the SDK's mocks (unit tests, `aim-pulumi plan`)."""
    access = current_registry().capacity.live_access(explicit_provider)
    return None if isinstance(access, NoCluster) else reader_for(access)


class ProgramRead:
    """The `status` of `child` read by `reader` once every resource of `after` (the child, its
    InferenceService) applied; the object is the one the child's id names (`namespace/name`).

    Stands where a Pulumi read of the child would (`_reported` takes its `status`), and reads when
    it would: in a preview too, where the ids are known (a child to be created has none, and its
    own planned status stands). None when the read failed (a warning on `warn_on`) or found no
    status.
    """

    def __init__(
        self,
        reader: StatusReader,
        api_version: str,
        kind: str,
        child: pulumi.CustomResource,
        after: list[pulumi.CustomResource],
        warn_on: pulumi.Resource,
    ) -> None:
        async def read(ids: list[Any]) -> Mapping[str, Any] | None:
            namespace, _, name = str(ids[0]).rpartition("/")
            try:
                return await reader.status_later(api_version, kind, namespace or "default", name)
            except StatusReadError as error:
                pulumi.log.warn(
                    f"{kind} {namespace}/{name}: its status was not read back ({error}); the status "
                    "says what its own apply read",
                    resource=warn_on,
                )
                return None

        others = [resource.id for resource in after if resource is not child]
        self.status: pulumi.Output[Any] = pulumi.Output.all(child.id, *others).apply(read)
