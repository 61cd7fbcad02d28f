"""What an AIMService's status says once its children report: the operator's rollup, child by child.

`observed_status` is given the planned status and each child's `status` as the engine read it
(KServe's on the InferenceService, the Job controller's on a download Job, a gateway's on the
HTTPRoute, KEDA's on the ScaledObject), shaped here as those controllers write them.
"""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.resources.service_status import observed_status


def planned(*, cache: bool = True, route: bool = True, autoscaling: bool = False) -> dict[str, Any]:
    """A planned status with the conditions behaviour §15 lists, in its order."""
    conditions = [
        {"type": "RuntimeConfigReady", "status": "True", "reason": "RuntimeConfigResolved", "message": ""},
        {"type": "ConfigValid", "status": "True", "reason": "ConfigurationValid", "message": ""},
        {"type": "ProfileReady", "status": "True", "reason": "ProfileResolved", "message": ""},
    ]
    if cache:
        conditions.append(
            {"type": "ProfileCacheReady", "status": "False", "reason": "CacheCreating", "message": ""}
        )
    conditions.append(
        {"type": "InferenceServiceReady", "status": "False", "reason": "CreatingRuntime", "message": ""}
    )
    if route:
        conditions.append(
            {"type": "HTTPRouteReady", "status": "Unknown", "reason": "HTTPRoutePending", "message": ""}
        )
    if autoscaling:
        conditions.append(
            {"type": "HPAReady", "status": "Unknown", "reason": "WaitingForMetrics", "message": ""}
        )
    conditions.append({"type": "Ready", "status": "False", "reason": "Progressing", "message": ""})
    return {"conditions": conditions, "status": "Starting"}


def isvc(ready: str = "True", model: dict[str, Any] | None = None) -> dict[str, Any]:
    """KServe's InferenceService status: `Ready`, and its `modelStatus` when given."""
    status: dict[str, Any] = {
        "conditions": [
            {"type": "PredictorReady", "status": ready},
            {
                "type": "Ready",
                "status": ready,
                "reason": "" if ready == "True" else "MinimumReplicasUnavailable",
            },
        ]
    }
    if model is not None:
        status["modelStatus"] = model
    return status


JOB_COMPLETE = {"conditions": [{"type": "Complete", "status": "True"}]}
ROUTE_ACCEPTED = {"parents": [{"conditions": [{"type": "Accepted", "status": "True"}]}]}
ROUTE_REFUSED = {
    "parents": [{"conditions": [{"type": "Accepted", "status": "False", "reason": "NotAllowedByListeners"}]}]
}
KEDA_READY = {"conditions": [{"type": "Ready", "status": "True", "reason": "ScaledObjectReady"}]}
KEDA_FAILING = {
    "conditions": [
        {"type": "Ready", "status": "False", "reason": "ScaledObjectCheckFailed", "message": "no metrics"}
    ]
}


def condition(status: dict[str, Any], kind: str) -> tuple[str, str]:
    found = next(c for c in status["conditions"] if c["type"] == kind)
    return found["status"], found["reason"]


def crash(*, exit_code: int, message: str = "", serving: bool = False) -> dict[str, Any]:
    """What KServe writes for a predictor container in CrashLoopBackOff (or exited in error)."""
    return {
        "transitionStatus": "BlockedByFailedLoad",
        "states": {"activeModelState": "Loaded" if serving else "", "targetModelState": "FailedToLoad"},
        "lastFailureInfo": {"reason": "ModelLoadFailed", "message": message, "exitCode": exit_code},
    }


def test_every_child_ready_is_running() -> None:
    status = observed_status(planned(), runtime=isvc(), caches=[JOB_COMPLETE], route=ROUTE_ACCEPTED)
    assert condition(status, "Ready") == ("True", "AllComponentsReady")
    assert status["status"] == "Running"


def test_a_route_nobody_has_answered_keeps_the_service_starting() -> None:
    status = observed_status(planned(), runtime=isvc(), caches=[JOB_COMPLETE], route=None)
    assert condition(status, "HTTPRouteReady") == ("Unknown", "HTTPRoutePending")
    assert condition(status, "Ready") == ("False", "ComponentsNotReady")
    assert status["status"] == "Starting"


@pytest.mark.parametrize(
    ("model", "reason"),
    [
        pytest.param(crash(exit_code=137), "PodOOMKilled", id="oom-killed-by-exit-code"),
        pytest.param(crash(exit_code=1, message="OOMKilled"), "PodOOMKilled", id="oom-killed-by-message"),
        pytest.param(crash(exit_code=1, message="CUDA error"), "PodFailed", id="exits-in-error"),
        pytest.param(
            {"transitionStatus": "InvalidSpec", "lastFailureInfo": {"reason": "InvalidPredictorSpec"}},
            "InvalidPredictorSpec",
            id="invalid-spec",
        ),
    ],
)
def test_a_crashing_predictor_fails_the_service(model: dict[str, Any], reason: str) -> None:
    """The operator reports a predictor whose pods fail as Failed, never as still starting."""
    status = observed_status(
        planned(), runtime=isvc("False", model), caches=[JOB_COMPLETE], route=ROUTE_ACCEPTED
    )
    assert condition(status, "InferenceServiceReady") == ("False", reason)
    ready = next(c for c in status["conditions"] if c["type"] == "Ready")
    assert (ready["status"], ready["reason"]) == ("False", reason)
    assert ready["message"].startswith("Component InferenceService is not ready: the predictor fails")
    assert status["status"] == "Failed"


def test_the_exit_code_is_in_the_message() -> None:
    status = observed_status(planned(), runtime=isvc("False", crash(exit_code=137, message="Killed")))
    found = next(c for c in status["conditions"] if c["type"] == "InferenceServiceReady")
    assert found["message"] == "the predictor fails: Killed (exit code 137)"


def test_a_failing_revision_while_an_earlier_one_serves_degrades_the_service() -> None:
    model = crash(exit_code=1, message="bad flag", serving=True)
    status = observed_status(
        planned(), runtime=isvc("True", model), caches=[JOB_COMPLETE], route=ROUTE_ACCEPTED
    )
    assert condition(status, "InferenceServiceReady") == ("False", "PodFailed")
    assert status["status"] == "Degraded"


def test_a_loaded_model_is_not_a_failure() -> None:
    model = {
        "transitionStatus": "UpToDate",
        "states": {"activeModelState": "Loaded", "targetModelState": "Loaded"},
    }
    status = observed_status(
        planned(), runtime=isvc("True", model), caches=[JOB_COMPLETE], route=ROUTE_ACCEPTED
    )
    assert status["status"] == "Running"


def test_a_refused_route_fails_the_service() -> None:
    """The operator counts a route its gateway rejected as an invalid spec: Failed."""
    status = observed_status(planned(), runtime=isvc(), caches=[JOB_COMPLETE], route=ROUTE_REFUSED)
    assert condition(status, "HTTPRouteReady") == ("False", "HTTPRouteNotAccepted")
    assert status["status"] == "Failed"


def test_failed_outranks_degraded() -> None:
    model = crash(exit_code=1, serving=True)
    status = observed_status(
        planned(), runtime=isvc("True", model), caches=[JOB_COMPLETE], route=ROUTE_REFUSED
    )
    assert status["status"] == "Failed"


def test_a_planned_degradation_stays_degraded_while_the_children_start() -> None:
    degraded = {**planned(), "status": "Degraded"}
    status = observed_status(degraded, runtime=isvc("False"), caches=[JOB_COMPLETE])
    assert status["status"] == "Degraded"


def test_an_autoscaled_service_is_running_once_keda_reports_its_scaled_object_ready() -> None:
    """KEDA writes `Ready` on the ScaledObject; without reading it the service never left Starting."""
    plan = planned(cache=False, route=False, autoscaling=True)
    waiting = observed_status(plan, runtime=isvc())
    assert condition(waiting, "HPAReady") == ("Unknown", "WaitingForMetrics")
    assert waiting["status"] == "Starting"

    status = observed_status(plan, runtime=isvc(), autoscaler=KEDA_READY)
    assert condition(status, "HPAReady") == ("True", "HPAOperational")
    assert status["status"] == "Running"


def test_a_scaled_object_keda_cannot_use_waits_while_the_predictor_starts_then_fails() -> None:
    plan = planned(cache=False, route=False, autoscaling=True)
    starting = observed_status(plan, runtime=isvc("False"), autoscaler=KEDA_FAILING)
    assert condition(starting, "HPAReady") == ("Unknown", "WaitingForMetrics")
    assert starting["status"] == "Starting"

    ready = observed_status(plan, runtime=isvc(), autoscaler=KEDA_FAILING)
    assert condition(ready, "HPAReady") == ("False", "MetricsFailed")
    assert ready["status"] == "Failed"


def test_nothing_reported_returns_the_plan_unchanged() -> None:
    plan = planned()
    assert observed_status(plan) == plan
