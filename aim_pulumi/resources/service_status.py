"""What an AIMService reports: its status after `pulumi up`, where its children came from, its URL."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from aim_pulumi import api
from aim_pulumi.manifests.child_admission import Source
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.plan.result import ServicePlan

__all__ = ["observed_status", "plan_sources", "route_endpoint"]


_CACHE_CONDITIONS = ("ProfileCacheReady", "CacheReady")

Health = Literal["ready", "progressing", "degraded", "failed"]
"""How a component is doing, in the operator's terms: ready, on its way (`Starting`), degraded
(it may recover without a change, or still serves an earlier revision) or failed (it needs a change).
The service's `status` is the worst of its components' (`_ROLLUP`)."""

# The operator's rollup of its components' states, worst first (aim-engine's AIMStatusPriority):
# Failed < Degraded < Starting/Progressing < Running.
_ROLLUP: tuple[tuple[Health, str], ...] = (("failed", "Failed"), ("degraded", "Degraded"))

# An exit status of 137 is a SIGKILL, which is how the kernel's OOM killer ends a container.
_OOM_EXIT_CODE = 137


@dataclass(frozen=True)
class Observed:
    """What one child's own status says about its component: the condition and its health."""

    condition: dict[str, str]
    health: Health


def _condition(observed: Mapping[str, Any] | None, kind: str) -> Mapping[str, Any] | None:
    """The condition `kind` an object's reported status carries, if it reports one."""
    if not isinstance(observed, Mapping):
        return None
    for condition in observed.get("conditions") or ():
        if isinstance(condition, Mapping) and condition.get("type") == kind:
            return condition
    return None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _detail(condition: Mapping[str, Any], default: str) -> str:
    return str(condition.get("message") or condition.get("reason") or default)


def _cache_condition(jobs: Sequence[Mapping[str, Any] | None]) -> Observed | None:
    """What the download Jobs report: failed if one failed, ready once all completed, else nothing."""
    failed = [c for c in (_condition(job, "Failed") for job in jobs) if c and c.get("status") == "True"]
    if failed:
        detail = _detail(failed[0], "the download Job failed")
        return Observed(
            {"status": "False", "reason": "CacheFailed", "message": f"a model download failed: {detail}"},
            "failed",
        )
    complete = [_condition(job, "Complete") for job in jobs]
    if jobs and all(c is not None and c.get("status") == "True" for c in complete):
        return Observed(
            {"status": "True", "reason": "CacheReady", "message": "the model caches were downloaded"}, "ready"
        )
    return None


def _model_failure(isvc: Mapping[str, Any]) -> Observed | None:
    """KServe's verdict on the predictor's pods (`status.modelStatus`), when it is a failure.

    KServe reads the predictor's containers and records a container that exits in error or loops
    in `CrashLoopBackOff` as `FailedToLoad` (`transitionStatus: BlockedByFailedLoad`, the exit code
    in `lastFailureInfo`), and a spec it cannot serve as `InvalidSpec`. The operator reads the same
    pods itself and reports them `Failed` (an out-of-memory kill as `PodOOMKilled`, any other
    failure as `PodFailed`); while an earlier revision still serves (`activeModelState: Loaded`) the
    service is `Degraded` here instead, chosen: it answers requests, but the change did not roll out.
    """
    model = isvc.get("modelStatus")
    if not isinstance(model, Mapping):
        return None
    transition = str(model.get("transitionStatus") or "")
    states = _mapping(model.get("states"))
    failure = _mapping(model.get("lastFailureInfo"))
    failed_load = states.get("targetModelState") == "FailedToLoad" or transition == "BlockedByFailedLoad"
    if transition != "InvalidSpec" and not failed_load:
        return None
    message = str(failure.get("message") or "").strip()
    exit_code = failure.get("exitCode")
    if transition == "InvalidSpec":
        reason = "InvalidPredictorSpec"
    elif exit_code == _OOM_EXIT_CODE or "OOMKilled" in message:
        reason = "PodOOMKilled"
    else:
        reason = "PodFailed"
    detail = message or str(failure.get("reason") or "the predictor failed to load the model")
    if exit_code:
        detail = f"{detail} (exit code {exit_code})"
    serving = states.get("activeModelState") == "Loaded"
    return Observed(
        {
            "status": "False",
            "reason": reason,
            "message": (
                f"the predictor's latest revision fails, an earlier one still serves: {detail}"
                if serving
                else f"the predictor fails: {detail}"
            ),
        },
        "degraded" if serving else "failed",
    )


def _runtime_condition(isvc: Mapping[str, Any] | None) -> Observed | None:
    """The InferenceService as KServe reports it: a failing predictor first, else its `Ready`."""
    if not isinstance(isvc, Mapping):
        return None
    failure = _model_failure(isvc)
    if failure is not None:
        return failure
    ready = _condition(isvc, "Ready")
    if ready is None:
        return None
    if ready.get("status") == "True":
        return Observed(
            {"status": "True", "reason": "RuntimeReady", "message": "the InferenceService is Ready"}, "ready"
        )
    return Observed(
        {
            "status": str(ready.get("status") or "Unknown"),
            "reason": "RuntimeNotReady",
            "message": f"the InferenceService reports: {_detail(ready, 'not Ready')}",
        },
        "progressing",
    )


def _route_condition(route: Mapping[str, Any] | None) -> Observed | None:
    """Accepted by every parent gateway that reports on the route (Gateway API `status.parents`);
    a refusal fails the service, as the operator counts a rejected route an invalid spec."""
    parents = [p for p in (route or {}).get("parents") or () if isinstance(p, Mapping)]
    accepted = [_condition(p, "Accepted") for p in parents]
    if not parents or any(c is None for c in accepted):
        return None
    refused = [c for c in accepted if c is not None and c.get("status") != "True"]
    if refused:
        return Observed(
            {
                "status": "False",
                "reason": "HTTPRouteNotAccepted",
                "message": f"the gateway reports: {_detail(refused[0], 'not accepted')}",
            },
            "failed",
        )
    return Observed(
        {"status": "True", "reason": "HTTPRouteAccepted", "message": "the gateway accepted the HTTPRoute"},
        "ready",
    )


def _autoscaler_condition(
    scaled_object: Mapping[str, Any] | None, runtime: Observed | None
) -> Observed | None:
    """KEDA's `Ready` on the ScaledObject (its triggers are valid and it drives the HPA it made).

    The operator reads that HPA and reports `HPAOperational` once it can scale; while the
    predictor is not ready yet a scaler without metrics is expected (`WaitingForMetrics`), and once
    it is ready the same failure is the operator's `MetricsFailed`.
    """
    ready = _condition(scaled_object, "Ready")
    if ready is None or ready.get("status") == "Unknown":
        return None
    if ready.get("status") == "True":
        return Observed(
            {"status": "True", "reason": "HPAOperational", "message": "KEDA reports the ScaledObject ready"},
            "ready",
        )
    detail = _detail(ready, "not ready")
    if runtime is None or runtime.health != "ready":
        return Observed(
            {
                "status": "Unknown",
                "reason": "WaitingForMetrics",
                "message": f"KEDA reports the ScaledObject not ready while the predictor starts: {detail}",
            },
            "progressing",
        )
    return Observed(
        {"status": "False", "reason": "MetricsFailed", "message": f"KEDA reports the ScaledObject: {detail}"},
        "failed",
    )


def observed_status(
    status: Mapping[str, Any],
    *,
    runtime: Mapping[str, Any] | None = None,
    caches: Sequence[Mapping[str, Any] | None] = (),
    route: Mapping[str, Any] | None = None,
    autoscaler: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The planned status (behaviour §15) updated with what the children's own status reports.

    Each argument is the `status` the engine last observed of a child: what the provider read after
    creating or updating it (after its await, if any), what a read after the apply found (the
    route, `service_record`), or what the last `pulumi refresh` read; None where the object reports
    nothing yet or the engine has not observed it (a child a preview would create). Nothing is
    assumed from what Pulumi waited for, so a failed `up` claims nothing, and a preview of an
    unchanged stack reads the same children's state as the `up` before it: the same status. A
    condition no child reports on keeps its planned value, and without any report the planned
    status is returned unchanged.

    The rollup is the operator's: the worst component wins (`Failed`, then `Degraded`, then
    `Starting`), `Running` once every component is ready; `Ready` names the first component in an
    error state, as the operator's `Component <name> is not ready: ...`.
    """
    observed: dict[str, Observed] = {}
    cache = _cache_condition(caches)
    if cache is not None:
        observed.update({kind: cache for kind in _CACHE_CONDITIONS})
    runtime_condition = _runtime_condition(runtime)
    if runtime_condition is not None:
        observed["InferenceServiceReady"] = runtime_condition
    route_condition = _route_condition(route)
    if route_condition is not None:
        observed["HTTPRouteReady"] = route_condition
    autoscaler_condition = _autoscaler_condition(autoscaler, runtime_condition)
    if autoscaler_condition is not None:
        observed["HPAReady"] = autoscaler_condition
    out = dict(status)
    planned = [dict(c) for c in status.get("conditions") or []]
    changed = False
    healths: list[tuple[str, Observed]] = []
    for condition in planned:
        update = observed.get(str(condition.get("type")))
        if update is None:
            continue
        healths.append((str(condition.get("type")), update))
        if any(condition.get(k) != v for k, v in update.condition.items()):
            condition.update(update.condition)
            changed = True
    if not changed:
        return out
    components = [c for c in planned if c.get("type") != "Ready"]
    ready = all(c.get("status") == "True" for c in components)
    broken = next(((kind, o) for kind, o in healths if o.health in ("failed", "degraded")), None)
    for condition in planned:
        if condition.get("type") != "Ready":
            continue
        if ready:
            condition.update(
                {"status": "True", "reason": "AllComponentsReady", "message": "every component is ready"}
            )
        elif broken is not None:
            kind, found = broken
            component = kind.removesuffix("Ready")
            condition.update(
                {
                    "status": "False",
                    "reason": found.condition["reason"],
                    "message": f"Component {component} is not ready: {found.condition['message']}",
                }
            )
        else:
            condition.update(
                {
                    "status": "False",
                    "reason": "ComponentsNotReady",
                    "message": "not every component reports ready",
                }
            )
    out["conditions"] = planned
    found_healths = {o.health for _, o in healths}
    worst = next((name for health, name in _ROLLUP if health in found_healths), None)
    if worst is not None:
        out["status"] = worst
    elif out.get("status") != "Degraded":
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
