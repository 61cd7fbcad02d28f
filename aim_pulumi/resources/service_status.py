"""What an AIMService reports: its status after `pulumi up`, where its children came from, its URL."""

from collections.abc import Mapping, Sequence
from typing import Any

from aim_pulumi import api
from aim_pulumi.manifests.child_admission import Source
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.plan.result import ServicePlan

__all__ = ["observed_status", "plan_sources", "route_endpoint"]


_CACHE_CONDITIONS = ("ProfileCacheReady", "CacheReady")


def _condition(observed: Mapping[str, Any] | None, kind: str) -> Mapping[str, Any] | None:
    """The condition `kind` an object's reported status carries, if it reports one."""
    if not isinstance(observed, Mapping):
        return None
    for condition in observed.get("conditions") or ():
        if isinstance(condition, Mapping) and condition.get("type") == kind:
            return condition
    return None


def _cache_condition(jobs: Sequence[Mapping[str, Any] | None]) -> dict[str, str] | None:
    """What the download Jobs report: failed if one failed, ready once all completed, else nothing."""
    failed = [c for c in (_condition(job, "Failed") for job in jobs) if c and c.get("status") == "True"]
    if failed:
        detail = str(failed[0].get("message") or failed[0].get("reason") or "the download Job failed")
        return {"status": "False", "reason": "CacheFailed", "message": f"a model download failed: {detail}"}
    complete = [_condition(job, "Complete") for job in jobs]
    if jobs and all(c is not None and c.get("status") == "True" for c in complete):
        return {"status": "True", "reason": "CacheReady", "message": "the model caches were downloaded"}
    return None


def _runtime_condition(isvc: Mapping[str, Any] | None) -> dict[str, str] | None:
    """The InferenceService's own `Ready` condition, as KServe reports it."""
    ready = _condition(isvc, "Ready")
    if ready is None:
        return None
    if ready.get("status") == "True":
        return {"status": "True", "reason": "RuntimeReady", "message": "the InferenceService is Ready"}
    detail = str(ready.get("message") or ready.get("reason") or "not Ready")
    return {
        "status": str(ready.get("status") or "Unknown"),
        "reason": "RuntimeNotReady",
        "message": f"the InferenceService reports: {detail}",
    }


def _route_condition(route: Mapping[str, Any] | None) -> dict[str, str] | None:
    """Accepted by every parent gateway that reports on the route (Gateway API `status.parents`)."""
    parents = [p for p in (route or {}).get("parents") or () if isinstance(p, Mapping)]
    accepted = [_condition(p, "Accepted") for p in parents]
    if not parents or any(c is None for c in accepted):
        return None
    refused = [c for c in accepted if c is not None and c.get("status") != "True"]
    if refused:
        detail = str(refused[0].get("message") or refused[0].get("reason") or "not accepted")
        return {
            "status": "False",
            "reason": "HTTPRouteNotAccepted",
            "message": f"the gateway reports: {detail}",
        }
    return {"status": "True", "reason": "HTTPRouteAccepted", "message": "the gateway accepted the HTTPRoute"}


def observed_status(
    status: Mapping[str, Any],
    *,
    runtime: Mapping[str, Any] | None = None,
    caches: Sequence[Mapping[str, Any] | None] = (),
    route: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The planned status (behaviour §15) updated with what the children's own status reports.

    Each argument is the `status` the engine last observed of a child: what the provider read after
    creating or updating it (after its await, if any) or at the last `pulumi refresh`; None where the
    object reports nothing yet or the engine has not observed it (a child a preview would create).
    Nothing is assumed from what Pulumi waited for, so a failed `up` claims nothing, and a preview of
    an unchanged stack reads the same children's state as the `up` before it: the same status.
    A condition no child reports on keeps its planned value, and without any report the planned
    status is returned unchanged.
    """
    observed: dict[str, dict[str, str]] = {}
    cache = _cache_condition(caches)
    if cache is not None:
        observed.update({kind: cache for kind in _CACHE_CONDITIONS})
    runtime_condition = _runtime_condition(runtime)
    if runtime_condition is not None:
        observed["InferenceServiceReady"] = runtime_condition
    route_condition = _route_condition(route)
    if route_condition is not None:
        observed["HTTPRouteReady"] = route_condition
    out = dict(status)
    planned = [dict(c) for c in status.get("conditions") or []]
    changed = False
    for condition in planned:
        update = observed.get(str(condition.get("type")))
        if update is not None and any(condition.get(k) != v for k, v in update.items()):
            condition.update(update)
            changed = True
    if not changed:
        return out
    components = [c for c in planned if c.get("type") != "Ready"]
    ready = all(c.get("status") == "True" for c in components)
    for condition in planned:
        if condition.get("type") == "Ready":
            condition.update(
                {"status": "True", "reason": "AllComponentsReady", "message": "every component is ready"}
                if ready
                else {
                    "status": "False",
                    "reason": "ComponentsNotReady",
                    "message": "not every component reports ready",
                }
            )
    out["conditions"] = planned
    if out.get("status") != "Degraded":
        out["status"] = "Running" if ready else "Starting"
    return out


def plan_sources(service: api.AIMServiceObject, plan: ServicePlan, catalog: Catalog) -> list[Source]:
    """The AIM objects a service's children are built from: itself, its profile, model, configs."""
    objects: list[Any] = [service]
    for ref in (plan.resolved_profile, plan.resolved_model, *(ref for _, ref in plan.also_resolved)):
        if ref is not None:
            objects.append(catalog.get(ref.kind, ref.namespace or None, ref.name))
    if plan.runtime_config is not None:
        objects.extend(catalog.runtime_config_objects(plan.namespace, plan.runtime_config.ref.name))
    return [(obj.object_ref, api.to_manifest(obj)) for obj in objects if obj is not None]


def route_endpoint(hostnames: Sequence[str], path: str | None) -> str | None:
    """`<host><path>` for the first hostname a client can call (no wildcard), else the path; None unrouted."""
    if path is None:
        return None
    host = next((h for h in hostnames if not h.startswith("*")), None)
    return f"{host}{path}" if host else path
