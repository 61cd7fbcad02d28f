"""The live InferenceServices of services whose binding is new: read once, bounded, said when it differs.

A service's binding is new in the state on its first deploy, and when its record was lost
(`pulumi state delete`, a lost or partial state): the binding then binds the fresh winner, which
may not be the profile the cluster runs (`aim_pulumi/resolve/selection/lost_binding.py`). Only the
cluster can tell the two apart, so for those services, and only those, the program reads their
InferenceServices: a run whose bindings are all recorded asks the cluster nothing.

Which cluster, and with which bound: the capacity check's (`capacity.py`, `capacity_read.py`):
`aim:capacityKubeconfig`, else the default Kubernetes provider's (stack config
`kubernetes:kubeconfig`/`kubernetes:context`, `$KUBECONFIG`, `~/.kube/config`); nothing is read under
the SDK's mocks (unit tests, `aim-pulumi plan`), when the provider renders YAML, when a service
deploys through an explicit provider and `aim:capacityKubeconfig` is not set, or when no kubeconfig
exists. The whole read is bounded by `aim:capacityTimeoutSeconds` (default 20 s), whatever
`aim:capacity` says: the check is the binding's, not the capacity's.

What is read: in a namespace with one such service, one GET of its InferenceService by name; with
several, one paged list of the namespace's InferenceServices that carry a profile label (a first
deploy of 300 services is one list per namespace, not 300 GETs). Namespaces are read in parallel
(`WORKERS` at a time). 404 is "not deployed" (a first deploy: nothing to say). A refusal (403),
an unreachable or slow API server, or a broken kubeconfig never fails the program: the services
that could not be read are named in one info line, and the run goes on as if they were new.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pulumi

from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.caching import PROFILE_LABEL
from aim_pulumi.resolve.selection.lost_binding import Chosen, live_of, lost_binding_warning
from aim_pulumi.resources import capacity_read
from aim_pulumi.resources.capacity_read import CapacityReadError, ClusterAccess, NoCluster
from aim_pulumi.resources.round_member import Judged

__all__ = ["WORKERS", "LiveRead", "read_inference_services", "warn_lost_bindings"]

WORKERS = 8
ISVC_PATH = "/apis/serving.kserve.io/v1beta1/namespaces/{namespace}/inferenceservices"


@dataclass
class LiveRead:
    """What was read: each wanted (namespace, name) found (its object) or absent (None); what was not."""

    found: dict[tuple[str, str], Mapping[str, Any] | None] = field(default_factory=dict)
    unread: list[str] = field(default_factory=list)


def _read_namespace(
    api: Any, namespace: str, names: Sequence[str], deadline: capacity_read.Deadline
) -> dict[tuple[str, str], Mapping[str, Any] | None]:
    """One GET (one name) or one paged, label-selected list (several) of one namespace."""
    from kubernetes import client

    base = ISVC_PATH.format(namespace=namespace)
    out: dict[tuple[str, str], Mapping[str, Any] | None] = {(namespace, n): None for n in names}
    if len(names) == 1:
        left = deadline.left()
        try:
            found = capacity_read.get_json(api, f"{base}/{names[0]}", [], (min(left, 5.0), left))
        except client.ApiException as exc:
            if exc.status == 404:
                return out
            raise
        out[(namespace, names[0])] = found if isinstance(found, Mapping) else None
        return out
    wanted = set(names)
    token: str | None = None
    while True:
        left = deadline.left()
        query: list[tuple[str, Any]] = [("limit", capacity_read.PAGE), ("labelSelector", PROFILE_LABEL)]
        if token:
            query.append(("continue", token))
        try:
            page = capacity_read.get_json(api, base, query, (min(left, 5.0), left))
        except client.ApiException as exc:
            if exc.status == 404:  # no InferenceService kind served (yet): nothing deployed
                return out
            raise
        page = page if isinstance(page, Mapping) else {}
        for item in page.get("items") or ():
            name = str((item.get("metadata") or {}).get("name") or "")
            if name in wanted:
                out[(namespace, name)] = item
        token = (page.get("metadata") or {}).get("continue") or None
        if token is None:
            return out


def read_inference_services(
    access: ClusterAccess, wanted: Sequence[tuple[str, str]], timeout_seconds: float
) -> LiveRead:
    """The live InferenceServices (namespace, name) of `wanted`, within `timeout_seconds` in all.

    Raises CapacityReadError when the kubeconfig cannot be used or the API server cannot be reached
    or answers too slowly; a namespace the credentials may not read is named in `unread`.
    """
    from kubernetes import client
    from urllib3.exceptions import HTTPError

    by_namespace: dict[str, list[str]] = {}
    for namespace, name in sorted(set(wanted)):
        by_namespace.setdefault(namespace, []).append(name)
    api = capacity_read.open_client(access)
    deadline = capacity_read.Deadline(timeout_seconds)
    server = str(getattr(api.configuration, "host", "") or "the API server")
    result = LiveRead()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(WORKERS, len(by_namespace) or 1))
    try:
        futures = {
            ns: pool.submit(_read_namespace, api, ns, names, deadline) for ns, names in by_namespace.items()
        }
        for namespace, future in futures.items():
            try:
                result.found.update(future.result(timeout=max(deadline.left(), 0.001)))
            except client.ApiException as exc:
                result.unread.append(f"namespace {namespace} (HTTP {exc.status} {exc.reason})")
            except concurrent.futures.TimeoutError:
                raise CapacityReadError(
                    f"the cluster did not answer within {timeout_seconds:g} s (aim:capacityTimeoutSeconds)"
                ) from None
    except HTTPError as exc:  # refused, TLS, timeouts: urllib3 gave up
        raise CapacityReadError(f"cannot reach {server}: {exc}") from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        api.close()
    return result


def _chosen(judged: Judged) -> Chosen:
    plan = judged.plan
    return Chosen(
        service=f"{plan.namespace}/{plan.name}",
        isvc_name=plan.isvc_name,
        profile_name=plan.profile_name,
        profile_label=str(plan.isvc_labels.get(PROFILE_LABEL) or plan.profile_name),
        image=plan.container.image,
        caches=tuple(c.pvc_name for c in plan.caches),
    )


def _declared(catalog: Catalog, namespace: str, label: str) -> bool:
    """Whether a profile of that name is declared where the service can bind it."""
    return (
        catalog.profile_entry("AIMProfile", namespace, label) is not None
        or catalog.profile_entry("AIMClusterProfile", None, label) is not None
    )


def warn_lost_bindings(
    new: Sequence[tuple[Judged, Catalog]], access: ClusterAccess | NoCluster, timeout_seconds: float
) -> None:
    """Read the live InferenceServices of the services whose binding is new; warn where one runs
    another profile than this run binds (`lost_binding_warning`), once per service.

    Never fails the program: a cluster that cannot be read is said once, at info level.
    """
    if not new or isinstance(access, NoCluster):
        return
    chosen = [(judged, catalog, _chosen(judged)) for judged, catalog in new]
    wanted = [(j.plan.namespace, c.isvc_name) for j, _, c in chosen]
    what = "the live profile of services whose binding is new in the state"
    try:
        read = read_inference_services(access, wanted, timeout_seconds)
    except CapacityReadError as error:
        pulumi.log.info(f"{what} was not checked: {error}")
        return
    if read.unread:
        pulumi.log.info(
            f"{what} was not checked in {', '.join(read.unread)} (it needs get and list on "
            "inferenceservices.serving.kserve.io)"
        )
    for judged, catalog, planned in chosen:
        found = read.found.get((judged.plan.namespace, planned.isvc_name))
        live = live_of(found) if found is not None else None
        label = live.profile_label if live is not None else None
        declared = bool(label) and _declared(catalog, judged.plan.namespace, str(label))
        message = lost_binding_warning(planned, live, live_declared=declared)
        if message is not None:
            pulumi.log.warn(message, resource=judged.owner)
