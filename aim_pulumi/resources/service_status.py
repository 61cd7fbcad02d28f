"""What an AIMService reports: its status after `pulumi up`, where its children came from, its URL."""

from collections.abc import Mapping, Sequence
from typing import Any

from aim_pulumi import api
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.schemas.children import Source

__all__ = ["applied_status", "plan_sources", "route_endpoint"]


def applied_status(
    status: Mapping[str, Any], *, caches_awaited: bool, runtime_awaited: bool
) -> dict[str, Any]:
    """The status after `pulumi up` (behaviour §15): what Pulumi waited for is Ready, the rest Unknown.

    A preview keeps the planned status; an update knows that every awaited child became ready,
    since Pulumi fails the update otherwise.
    """
    conditions: list[dict[str, Any]] = []
    for condition in status.get("conditions") or []:
        updated = dict(condition)
        kind = updated.get("type")
        if kind in ("ProfileCacheReady", "CacheReady"):
            updated.update(
                {"status": "True", "reason": "CacheReady", "message": "the model caches were downloaded"}
                if caches_awaited
                else {
                    "status": "Unknown",
                    "reason": "CacheCreating",
                    "message": "the downloads were not awaited",
                }
            )
        elif kind == "InferenceServiceReady":
            updated.update(
                {"status": "True", "reason": "RuntimeReady", "message": "the InferenceService is Ready"}
                if runtime_awaited
                else {
                    "status": "Unknown",
                    "reason": "CreatingRuntime",
                    "message": "the InferenceService readiness was not awaited",
                }
            )
        conditions.append(updated)
    components = [c for c in conditions if c.get("type") != "Ready"]
    ready = all(c.get("status") == "True" for c in components)
    for condition in conditions:
        if condition.get("type") == "Ready":
            condition.update(
                {"status": "True", "reason": "AllComponentsReady", "message": "every component is ready"}
                if ready
                else {
                    "status": "False",
                    "reason": "ComponentsNotReady",
                    "message": "not every component is known to be ready",
                }
            )
    out = dict(status)
    out["conditions"] = conditions
    if out.get("status") != "Degraded":
        out["status"] = "Running" if ready else "Starting"
    return out


def plan_sources(service: api.AIMService, plan: ServicePlan, catalog: Catalog) -> list[Source]:
    """The AIM objects a service's children are built from: itself, its profile, model, configs."""
    objects: list[Any] = [service]
    for ref in (plan.resolved_profile, plan.resolved_model, plan.resolved_template):
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
