"""AIMService under the recording engine: which children exist, their key fields, and their validity."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest
from pulumi.runtime import rpc

from aim_pulumi.api import AIMValidationError
from aim_pulumi.manifests.env_secret import ENV_SECRET_DIGEST, env_secret_digest
from aim_pulumi.offline.engine import RecordingMocks
from aim_pulumi.offline.recording import DynamicCheckFailed, PlanRecording
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resources import AIMClusterProfile, AIMProfile, AIMRuntimeConfig, AIMService, service_record
from aim_pulumi.resources.capacity_read import ClusterAccess
from aim_pulumi.resources.status_read import StatusReader, StatusReadError
from aim_pulumi.schemas import validate_manifest

from .catalog import (
    BINDING,
    C1,
    CONFIG_MAP,
    GATEWAY,
    IMAGE,
    ISVC,
    JOB,
    MODEL,
    NS,
    P1,
    P2,
    PVC,
    ROUTE,
    SCALED_OBJECT,
    SECRET,
    SERVICE,
    SHARED_CACHE,
    by_model,
    catalog_declarations,
    children_of,
    condition,
    declare_catalog,
    declare_routing_config,
    declare_service,
    deployed,
    invalid_manifests,
    model_labels,
    profile_spec,
    service_status,
)

BASE = {(ISVC, "chat-isvc"), (CONFIG_MAP, "chat-profile-config")}
BOUND = BASE | {(BINDING, "chat-binding")}
METRICS = {
    "metrics": [
        {
            "type": "PodMetric",
            "podmetric": {
                "metric": {"metricNames": ["vllm:num_requests_running"]},
                "target": {"type": "Value", "value": "1"},
            },
        }
    ]
}
ROUTING = {"enabled": True, "gatewayRef": dict(GATEWAY)}


def run_chat(
    recording: Any, spec: dict[str, Any], *, before: Callable[[], object] | None = None, **kw: Any
) -> Any:
    config = kw.pop("config", None)
    previous = kw.pop("previous", None)
    preview = kw.pop("preview", True)

    def program() -> None:
        declare_catalog()
        if before is not None:
            before()
        declare_service("chat", spec, **kw)

    return recording(program, config=config, previous=previous, preview=preview)


def isvc_of(rec: PlanRecording, name: str = "chat") -> dict[str, Any]:
    return rec.by_name(f"{name}-isvc").manifest


def container(rec: PlanRecording, name: str = "chat") -> dict[str, Any]:
    containers: list[dict[str, Any]] = isvc_of(rec, name)["spec"]["predictor"]["containers"]
    return containers[0]


def names_of(rec: PlanRecording, urns: tuple[str, ...]) -> set[str]:
    by_urn = {r.urn: r.name for r in rec.resources}
    return {by_urn[u] for u in urns}


# ------------------------------------------------------------------------------ resolution shapes


@pytest.mark.parametrize(
    ("spec", "profile", "scope", "children"),
    [
        pytest.param({"profile": {"name": P2}}, P2, "Namespace", BASE, id="by-name-has-no-binding"),
        pytest.param({"model": {"image": IMAGE}}, P1, "Namespace", BOUND, id="model-image"),
        pytest.param(
            {"model": {"name": MODEL}, "profile": {"selector": {"precision": "fp16"}}},
            P2,
            "Namespace",
            BOUND,
            id="model-and-selector",
        ),
        pytest.param(
            {"profile": {"selector": {"aimId": "qwen/qwen3-32b", "acceleratorModel": "mi325x"}}},
            C1,
            "Cluster",
            BOUND,
            id="selector-falls-back-to-cluster",
        ),
        pytest.param(by_model(), P1, "Namespace", BOUND, id="model-ranks-primary-first"),
    ],
)
def test_each_resolution_shape_binds_its_profile_and_declares_exactly_its_children(
    recording: Any, spec: dict[str, Any], profile: str, scope: str, children: set[tuple[str, str]]
) -> None:
    rec = run_chat(recording, spec)

    assert children_of(rec, "chat") == children
    status = service_status(rec, "chat")
    assert (status["resolvedProfile"]["name"], status["resolvedProfile"]["scope"]) == (profile, scope)
    assert isvc_of(rec)["metadata"]["labels"]["aim.eai.amd.com/profile"] == profile
    assert rec.by_name("chat").type == SERVICE and rec.by_name("chat").parent.endswith("Stack::aim-dev")
    assert invalid_manifests(rec.resources) == {}


def test_children_carry_the_operator_names_and_service_namespace(recording: Any) -> None:
    rec = run_chat(recording, by_model(routing=ROUTING))

    for resource in rec.kubernetes():
        assert resource.manifest["metadata"]["namespace"] == NS
        assert resource.manifest["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "aim-pulumi"
    assert rec.outputs_of("chat")["inferenceServiceName"] == isvc_of(rec)["metadata"]["name"]
    assert isvc_of(rec)["metadata"]["name"].startswith("chat-")


def test_profile_config_is_mounted_and_the_isvc_waits_for_it(recording: Any) -> None:
    rec = run_chat(recording, by_model())

    config_map = rec.by_name("chat-profile-config")
    volumes = isvc_of(rec)["spec"]["predictor"]["volumes"]
    assert {"name": "aim-profile", "configMap": {"name": config_map.manifest["metadata"]["name"]}} in volumes
    assert names_of(rec, rec.by_name("chat-isvc").dependencies) == {"chat-profile-config"}


# ------------------------------------------------------------------------------------- routing


@pytest.mark.parametrize(
    ("routing", "rc_routing", "route", "path"),
    [
        pytest.param(None, None, False, None, id="routing-off"),
        pytest.param(ROUTING, None, True, None, id="service-enables-routing"),
        pytest.param(None, {}, True, None, id="runtime-config-enables-routing"),
        pytest.param(
            {**ROUTING, "pathTemplate": "/custom/{.metadata.name}"},
            None,
            True,
            "/custom/chat",
            id="path-template",
        ),
        pytest.param(
            None,
            {"pathTemplate": "/ml/{.metadata.namespace}/{.metadata.name}"},
            True,
            "/ml/ml-team/chat",
            id="rc-path-template",
        ),
    ],
)
def test_routing_declares_an_httproute_only_when_enabled(
    recording: Any,
    routing: dict[str, Any] | None,
    rc_routing: dict[str, Any] | None,
    route: bool,
    path: str | None,
) -> None:
    spec = by_model(**({"routing": routing} if routing else {}))
    before = (lambda: declare_routing_config(**rc_routing)) if rc_routing is not None else None

    rec = run_chat(recording, spec, before=before)

    status = service_status(rec, "chat")
    assert children_of(rec, "chat") == (BOUND | {(ROUTE, "chat-route")} if route else BOUND)
    assert (condition(status, "HTTPRouteReady") is not None) is route
    if route:
        rendered = status["routing"]["path"]
        assert rendered == path if path is not None else rendered.startswith(f"/{NS}/")
        prefix_rule = rec.by_name("chat-route").manifest["spec"]["rules"][-1]
        assert prefix_rule["matches"] == [{"path": {"type": "PathPrefix", "value": rendered}}]
        assert rec.outputs_of("chat")["routePath"] == rendered
    else:
        assert "routing" not in status
    assert invalid_manifests(rec.resources) == {}


def test_the_default_path_is_namespace_and_service_uid(recording: Any) -> None:
    rec = run_chat(recording, by_model(routing=ROUTING))

    status = service_status(rec, "chat")
    path = status["routing"]["path"]
    assert path.startswith(f"/{NS}/") and len(path.split("/")[2]) == 36


def test_an_invalid_path_template_degrades_the_service(recording: Any) -> None:
    rec = run_chat(recording, by_model(routing={**ROUTING, "pathTemplate": "/x/{.metadata.labels.missing}"}))

    status = service_status(rec, "chat")
    assert children_of(rec, "chat") == BOUND, "no HTTPRoute, the InferenceService is still declared"
    assert status["status"] == "Degraded"
    assert condition(status, "HTTPRouteReady") == {
        **(condition(status, "HTTPRouteReady") or {}),
        "status": "False",
        "reason": "PathTemplateInvalid",
    }
    warnings = rec.messages("warning", urn=rec.by_name("chat").urn)
    assert any(m.startswith("PathTemplateInvalid:") for m in warnings)


def test_strict_turns_a_degradation_into_a_hard_error_before_anything_registers(recording: Any) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        run_chat(recording, by_model(routing={**ROUTING, "pathTemplate": "/{.spec.nothing}"}), strict=True)
    assert caught.value.reason == "PathTemplateInvalid"


def test_strict_from_stack_config_applies_too(recording: Any) -> None:
    with pytest.raises(AIMResolutionError, match="PathTemplateInvalid"):
        run_chat(
            recording,
            by_model(routing={**ROUTING, "pathTemplate": "/{.spec.nothing}"}),
            config={"aim:strict": "true"},
        )


# ------------------------------------------------------------------------------------- scaling


@pytest.mark.parametrize(
    ("spec", "kw", "bounds", "autoscaler", "scaled", "wait_for"),
    [
        pytest.param(by_model(replicas=2), {}, (2, 2), "none", None, "condition=Ready", id="fixed-replicas"),
        pytest.param(
            by_model(minReplicas=1, maxReplicas=3, autoScaling=METRICS),
            {},
            (1, 3),
            "external",
            (1, 3),
            "condition=Ready",
            id="autoscaling",
        ),
        pytest.param(
            by_model(minReplicas=0, maxReplicas=2, routing=ROUTING),
            {"gatewayProvider": "kgateway"},
            (0, 2),
            "external",
            (0, 2),
            None,
            id="scale-from-zero",
        ),
    ],
)
def test_replicas_autoscaling_and_scale_from_zero(
    recording: Any,
    spec: dict[str, Any],
    kw: dict[str, Any],
    bounds: tuple[int, int],
    autoscaler: str,
    scaled: tuple[int, int] | None,
    wait_for: str | None,
) -> None:
    rec = run_chat(recording, spec, **kw)

    isvc = isvc_of(rec)
    predictor = isvc["spec"]["predictor"]
    assert (predictor["minReplicas"], predictor["maxReplicas"]) == bounds
    assert isvc["metadata"]["annotations"]["serving.kserve.io/autoscalerClass"] == autoscaler
    assert isvc["metadata"]["annotations"].get("pulumi.com/waitFor") == wait_for
    expected = BOUND | ({(ROUTE, "chat-route")} if "routing" in spec else set())
    assert children_of(rec, "chat") == (
        expected | {(SCALED_OBJECT, "chat-scaledobject")} if scaled is not None else expected
    )
    if scaled is not None:
        scaled_spec = rec.by_name("chat-scaledobject").manifest["spec"]
        assert (scaled_spec["minReplicaCount"], scaled_spec["maxReplicaCount"]) == scaled
        assert scaled_spec["scaleTargetRef"]["name"] == f"{isvc['metadata']['name']}-predictor"
    assert invalid_manifests(rec.resources) == {}


def test_scale_from_zero_without_a_provider_degrades_to_no_scaledobject(recording: Any) -> None:
    rec = run_chat(recording, by_model(minReplicas=0, maxReplicas=2, routing=ROUTING))

    assert children_of(rec, "chat") == BOUND | {(ROUTE, "chat-route")}, "no ScaledObject at all"
    status = service_status(rec, "chat")
    assert status["status"] == "Degraded"
    assert any("ActivationMetricQueryInvalid" in m for m in rec.messages("warning"))


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        pytest.param(
            by_model(minReplicas=0, maxReplicas=2), "RoutingRequiredForScaleToZero", id="zero-needs-routing"
        ),
        pytest.param(
            by_model(minReplicas=1, maxReplicas=2),
            "AutoscalingRequiresMetrics",
            id="autoscaling-needs-metrics",
        ),
        pytest.param({"profile": {"name": "nope"}}, "ProfileNotFound", id="profile-not-found"),
        pytest.param(by_model(runtimeConfigName="missing"), "ReferenceNotFound", id="runtime-config-missing"),
        pytest.param(
            by_model(caching={}, profile={"name": "sizeless"}), "CacheSizeUnknown", id="cache-size-unknown"
        ),
    ],
)
def test_hard_errors_register_no_child(failed_run: Any, spec: dict[str, Any], reason: str) -> None:
    def program() -> None:
        declare_catalog()
        AIMProfile(
            "ml-team-sizeless",
            {
                "name": "sizeless",
                "namespace": NS,
                "spec": profile_spec(modelSources=[{"modelId": "q/q", "sourceUri": "hf://q/q"}]),
            },
        )
        declare_service("chat", spec)

    error, registered = failed_run(program)

    assert isinstance(error, AIMResolutionError | AIMValidationError)
    assert error.reason == reason
    assert error.object_ref in ("AIMService/ml-team/chat", "AIMProfile/ml-team/sizeless")
    assert deployed(registered) == []


def test_a_hard_error_fails_the_program(recording: Any) -> None:
    with pytest.raises(AIMResolutionError, match="ProfileNotFound"):
        run_chat(recording, {"profile": {"name": "nope"}})


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        pytest.param({"model": {"name": MODEL}, "replicas": -1}, "spec.replicas", id="negative-replicas"),
        pytest.param({}, "spec", id="nothing-to-resolve"),
        pytest.param(
            {"model": {"name": MODEL}, "adapters": [{"name": "x"}]}, "spec.adapters", id="unsupported"
        ),
    ],
)
def test_admission_errors_name_the_field(recording: Any, spec: dict[str, Any], field: str) -> None:
    with pytest.raises(AIMValidationError) as caught:
        run_chat(recording, spec)
    assert caught.value.field == field


# ------------------------------------------------------------------------------------- caching


def test_shared_cache_is_a_stack_component_the_isvc_depends_on(recording: Any) -> None:
    rec = run_chat(recording, by_model(caching={"mode": "Shared"}))

    (shared,) = rec.of_type(SHARED_CACHE)
    assert shared.parent.endswith("Stack::aim-dev"), "no service owns a Shared cache"
    pvc_name = service_status(rec, "chat")["cache"]["persistentVolumeClaims"][0]
    assert shared.name == f"{NS}-{pvc_name}"
    assert children_of(rec, shared.name) == {(PVC, f"{shared.name}-pvc"), (JOB, f"{shared.name}-download")}
    pvc, job = rec.by_name(f"{shared.name}-pvc"), rec.by_name(f"{shared.name}-download")
    assert pvc.retain_on_delete is True and job.retain_on_delete is True
    assert names_of(rec, job.dependencies) == {pvc.name}
    assert pvc.manifest["spec"]["resources"]["requests"]["storage"] == "22Gi"
    assert "pulumi.com/replaceUnready" not in job.manifest["metadata"]["annotations"]
    # Applied under a field manager that names the stack (project `aim`, stack `dev`), not a random one.
    assert pvc.manifest["metadata"]["annotations"] == {
        "pulumi.com/skipAwait": "true",
        "pulumi.com/patchForce": "true",
        "pulumi.com/patchFieldManager": "aim-pulumi-aim-dev",
    }
    assert job.manifest["metadata"]["annotations"]["pulumi.com/patchFieldManager"] == "aim-pulumi-aim-dev"
    # The download Job is fixed at creation (a serving-only change leaves it be), all but its name.
    assert job.ignore_changes == ("spec", "metadata.labels", "metadata.annotations")
    # A PVC's access modes, class and field manager are fixed at its creation: a change is not applied.
    assert pvc.ignore_changes == (
        'metadata.annotations["pulumi.com/patchFieldManager"]',
        "spec.accessModes",
        "spec.storageClassName",
    )
    assert names_of(rec, rec.by_name("chat-isvc").dependencies) == {
        f"{shared.name}-pvc",
        f"{shared.name}-download",
        "chat-profile-config",
    }, "depending on the component means depending on its children"
    assert children_of(rec, "chat") == BOUND
    assert invalid_manifests(rec.resources) == {}


def test_dedicated_caches_are_children_of_their_service(recording: Any) -> None:
    rec = run_chat(recording, by_model(caching={"mode": "Dedicated"}))

    pvc_name = service_status(rec, "chat")["cache"]["persistentVolumeClaims"][0]
    suffix = pvc_name.rsplit("-", 1)[1]
    assert children_of(rec, "chat") == BOUND | {
        (PVC, f"chat-cache-{suffix}"),
        (JOB, f"chat-download-{suffix}"),
    }
    assert rec.of_type(SHARED_CACHE) == []
    assert rec.by_name(f"chat-cache-{suffix}").retain_on_delete is False
    assert rec.by_name(f"chat-cache-{suffix}").ignore_changes == ("spec.accessModes", "spec.storageClassName")
    # No stack shares them: they keep pulumi-kubernetes' own field manager (no update on upgrade).
    for child in (f"chat-cache-{suffix}", f"chat-download-{suffix}"):
        assert "pulumi.com/patchFieldManager" not in rec.by_name(child).manifest["metadata"]["annotations"]
    assert "pulumi.com/patchFieldManager" not in isvc_of(rec)["metadata"]["annotations"]
    assert names_of(rec, rec.by_name("chat-isvc").dependencies) == {
        f"chat-cache-{suffix}",
        f"chat-download-{suffix}",
        "chat-profile-config",
    }
    mounts = container(rec)["volumeMounts"]
    assert any(m["name"] == pvc_name for m in mounts)
    assert invalid_manifests(rec.resources) == {}


@pytest.mark.parametrize(
    ("kw", "waits"),
    [
        pytest.param({}, True, id="waits-by-default"),
        pytest.param({"waitForCache": False}, False, id="wait-for-cache-false"),
        pytest.param({"skipAwait": True}, False, id="skip-await"),
    ],
)
def test_the_isvc_waits_for_its_caches_unless_told_not_to(
    recording: Any, kw: dict[str, Any], waits: bool
) -> None:
    rec = run_chat(recording, by_model(caching={"mode": "Dedicated"}), **kw)

    dependencies = names_of(rec, rec.by_name("chat-isvc").dependencies)
    assert any(name.startswith("chat-download-") for name in dependencies) is waits
    if kw.get("skipAwait"):
        for resource in rec.kubernetes():
            assert resource.manifest["metadata"]["annotations"]["pulumi.com/skipAwait"] == "true"


def test_two_services_on_one_profile_share_one_cache_pair(recording: Any) -> None:
    def program() -> None:
        declare_catalog()
        declare_service("chat", by_model(caching={}))
        declare_service("chat-b", by_model(caching={}))

    rec = recording(program)

    (shared,) = rec.of_type(SHARED_CACHE)
    assert len(rec.of_type(PVC)) == 1 and len(rec.of_type(JOB)) == 1
    for service in ("chat", "chat-b"):
        assert f"{shared.name}-download" in names_of(rec, rec.by_name(f"{service}-isvc").dependencies)


def test_removing_one_service_keeps_the_shared_cache(recording: Any) -> None:
    def both() -> None:
        declare_catalog()
        declare_service("chat", by_model(caching={}))
        declare_service("chat-b", by_model(caching={}))

    def only_b() -> None:
        declare_catalog()
        declare_service("chat-b", by_model(caching={}))

    before, after = recording(both), recording(only_b)

    cache_names = {r.name for r in before.of_type(SHARED_CACHE)}
    assert cache_names == {r.name for r in after.of_type(SHARED_CACHE)}
    for name in cache_names:
        for suffix in ("-pvc", "-download"):
            kept, still = before.by_name(name + suffix), after.by_name(name + suffix)
            assert (still.urn, still.inputs) == (kept.urn, kept.inputs), (
                "same URN: Pulumi neither deletes nor replaces"
            )
        assert after.by_name(name + "-pvc").retain_on_delete is True


def test_dedicated_caches_are_one_pair_per_service(recording: Any) -> None:
    def program() -> None:
        declare_catalog()
        declare_service("chat", by_model(caching={"mode": "Dedicated"}))
        declare_service("chat-b", by_model(caching={"mode": "Dedicated"}))

    rec = recording(program)

    assert rec.of_type(SHARED_CACHE) == []
    pvcs = rec.of_type(PVC)
    assert len(pvcs) == 2 and len({p.manifest["metadata"]["name"] for p in pvcs}) == 2
    assert {p.parent.rsplit("::", 1)[1] for p in pvcs} == {"chat", "chat-b"}


def test_caching_enabled_on_the_profile_uses_a_shared_cache(recording: Any) -> None:
    def cached_profile() -> None:
        AIMProfile(
            "ml-team-cached",
            {
                "name": "cached",
                "namespace": NS,
                "labels": model_labels(),
                "spec": profile_spec(caching={"enabled": True}),
            },
        )

    rec = run_chat(recording, {"profile": {"name": "cached"}}, before=cached_profile)

    assert len(rec.of_type(SHARED_CACHE)) == 1
    assert service_status(rec, "chat")["cache"]["mode"] == "Shared"


# ------------------------------------------------------------------------------------- overlay


def test_an_overlay_deploys_the_overridden_profile(recording: Any) -> None:
    rec = run_chat(recording, {"profile": {"name": P1}, "profileOverrides": {"acceleratorCount": 2}})

    status = service_status(rec, "chat")
    assert status["resolvedProfile"]["name"] == P1
    assert status["profileOverlay"]["name"].startswith(f"{P1}-chat-overlay-")
    assert children_of(rec, "chat") == BASE
    assert container(rec)["resources"]["limits"]["amd.com/gpu"] == 2
    assert isvc_of(rec)["metadata"]["labels"]["aim.eai.amd.com/profile"] == status["profileOverlay"]["name"]
    assert invalid_manifests(rec.resources) == {}


# ---------------------------------------------------------------------------------- sticky binding


@pytest.mark.parametrize(
    ("spec", "kw", "previous", "bound", "rebind_reason"),
    [
        pytest.param(
            by_model(), {}, f"AIMProfile/{NS}/{P2}", P2, None, id="previous-still-qualifies-is-kept"
        ),
        pytest.param(by_model(), {}, f"AIMProfile/{NS}/{P1}", P1, None, id="previous-is-the-winner"),
        pytest.param(
            by_model(profile={"selector": {"precision": "fp8"}}),
            {},
            f"AIMProfile/{NS}/{P2}",
            P1,
            "no-longer-matches",
            id="previous-no-longer-matches",
        ),
        pytest.param(by_model(), {}, f"AIMProfile/{NS}/deleted", P1, "deleted", id="previous-deleted"),
        pytest.param(
            by_model(),
            {"forceRebind": True},
            f"AIMProfile/{NS}/{P2}",
            P1,
            "force-rebind",
            id="force-rebind-option",
        ),
        pytest.param(
            by_model(),
            {"annotations": {"aim.eai.amd.com/force-rebind": "2024-01-01"}},
            f"AIMProfile/{NS}/{P2}",
            P1,
            "force-rebind",
            id="force-rebind-annotation",
        ),
    ],
)
def test_the_binding_keeps_or_replaces_the_previous_profile(
    recording: Any,
    spec: dict[str, Any],
    kw: dict[str, Any],
    previous: str,
    bound: str,
    rebind_reason: str | None,
) -> None:
    rec = run_chat(recording, spec, previous={"chat-binding": {"bound": previous}}, **kw)

    assert service_status(rec, "chat")["resolvedProfile"]["name"] == bound
    assert rec.by_name("chat-binding").outputs["bound"] == f"AIMProfile/{NS}/{bound}"
    assert isvc_of(rec)["metadata"]["labels"]["aim.eai.amd.com/profile"] == bound
    urn = rec.by_name("chat").urn
    rebinds = [
        m
        for level in ("info", "warning")
        for m in rec.messages(level, urn=urn)
        if m.startswith("ProfileRebound")
    ]
    if rebind_reason is None:
        assert rebinds == []
    else:
        # A rebind nobody asked for (the bound profile was deleted) is a warning.
        warned = [m for m in rec.messages("warning", urn=urn) if m.startswith("ProfileRebound")]
        assert bool(warned) is (rebind_reason == "deleted")
        (message,) = rebinds
        old = previous.rsplit("/", 1)[1]
        assert f'"{old}"' in message and f'"{bound}"' in message and rebind_reason in message


@pytest.mark.parametrize("preview", [True, False], ids=["preview", "up"])
def test_the_rebind_on_record_is_not_reported_again_in_the_runs_after_it(
    recording: Any, preview: bool
) -> None:
    """The binding keeps its last rebind on record (so the run after it changes nothing), and the
    ProfileRebound warning of a deleted profile was repeated at every run until the next rebind."""
    deleted = f"AIMProfile/{NS}/deleted"
    rebinding = run_chat(recording, by_model(), previous={"chat-binding": {"bound": deleted}})
    (warned,) = [m for m in rebinding.messages("warning") if m.startswith("ProfileRebound")]
    assert '"deleted"' in warned and f'"{P1}"' in warned
    after = rebinding.by_name("chat-binding").outputs
    assert (after["bound"], after["previous"]) == (f"AIMProfile/{NS}/{P1}", deleted)

    stored = {**after, "rebinding": False}  # as the binding's update stored it
    rec = run_chat(recording, by_model(), previous={"chat-binding": stored}, preview=preview)
    assert [m for m in rec.messages() if "ProfileRebound" in m] == []
    assert rec.by_name("chat-binding").outputs["previous"] == deleted, "still on record"
    assert service_status(rec, "chat")["resolvedProfile"]["name"] == P1
    assert isvc_of(rec) == isvc_of(rebinding)


def test_without_previous_state_the_binding_records_the_winner_and_qualifying_profiles(
    recording: Any,
) -> None:
    rec = run_chat(recording, by_model())

    binding = rec.by_name("chat-binding")
    assert binding.parent == rec.by_name("chat").urn
    assert binding.inputs["winner"] == f"AIMProfile/{NS}/{P1}"
    assert binding.inputs["qualifying"] == [
        f"AIMClusterProfile/{C1}",
        f"AIMProfile/{NS}/{P2}",
        f"AIMProfile/{NS}/{P1}",
    ], "sorted keys of every profile the selector admits, in both scopes"
    assert binding.inputs["force"] is False


def test_changing_the_cache_mode_of_an_existing_service_is_rejected(recording: Any) -> None:
    previous = {"chat-binding": {"bound": f"AIMProfile/{NS}/{P1}", "cacheMode": "Shared"}}

    with pytest.raises(DynamicCheckFailed, match="immutable"):
        run_chat(recording, by_model(caching={"mode": "Dedicated"}), previous=previous)


@pytest.mark.parametrize("mode", ["Dedicated", "Shared"])
def test_a_cache_pvc_never_shrinks(recording: Any, mode: str) -> None:
    first = run_chat(recording, by_model(caching={"mode": mode}))
    pvc_name = service_status(first, "chat")["cache"]["persistentVolumeClaims"][0]
    previous = {
        "chat-binding": {
            "bound": f"AIMProfile/{NS}/{P1}",
            "cacheMode": mode,
            "cacheSizes": {pvc_name: 50},
        }
    }

    rec = run_chat(recording, by_model(caching={"mode": mode}), previous=previous)

    (pvc,) = rec.of_type(PVC)
    assert pvc.manifest["metadata"]["name"] == pvc_name
    assert pvc.manifest["spec"]["resources"]["requests"]["storage"] == "50Gi"
    assert rec.by_name("chat-binding").outputs["cacheSizes"] == {pvc_name: 50}
    warnings = rec.messages("warning", urn=rec.by_name("chat").urn)
    assert any(m.startswith("CacheShrinkRefused") and pvc_name in m for m in warnings)


# ------------------------------------------------------------------------------- status and logs


def test_status_outputs_follow_the_crd_status(recording: Any) -> None:
    rec = run_chat(recording, by_model(routing=ROUTING))

    outputs = rec.outputs_of("chat")
    status = outputs["status"]
    assert outputs["resolvedProfile"] == status["resolvedProfile"]
    assert status["reconcilerPipeline"] == "profile"
    assert [c["type"] for c in status["conditions"]] == [
        "RuntimeConfigReady",
        "ConfigValid",
        "ProfileReady",
        "InferenceServiceReady",
        "HTTPRouteReady",
        "Ready",
    ]
    assert condition(status, "Ready") == {
        **(condition(status, "Ready") or {}),
        "status": "False",
        "reason": "Progressing",
    }
    assert status["status"] == "Starting"


def _reported_ready(rec: PlanRecording, *, jobs: str = "Complete") -> dict[str, dict[str, Any]]:
    """Previous state in which KServe reported the InferenceService Ready and each Job `jobs`."""
    isvc = {"conditions": [{"type": "Ready", "status": "True"}]}
    job = {"conditions": [{"type": jobs, "status": "True", "message": "BackoffLimitExceeded"}]}
    previous: dict[str, dict[str, Any]] = {"chat-isvc": {"status": isvc}}
    for resource in rec.of_type(JOB):
        previous[resource.name] = {"status": job}
    return previous


def test_an_update_assumes_nothing_the_children_do_not_report(recording: Any) -> None:
    """Pulumi waited for the children, but none reports a status: the status is the planned one,
    the same a preview shows, so a preview after the update finds nothing changed."""
    spec = by_model(caching={"mode": "Dedicated"})
    updated = service_status(run_chat(recording, spec, preview=False), "chat")
    previewed = service_status(run_chat(recording, spec), "chat")

    assert updated == previewed
    assert (condition(updated, "ProfileCacheReady") or {})["reason"] == "CacheCreating"
    assert (condition(updated, "InferenceServiceReady") or {})["status"] == "False"
    assert updated["status"] == "Starting"


@pytest.mark.parametrize("preview", [False, True], ids=["update", "preview"])
def test_children_that_report_ready_make_the_service_running(recording: Any, preview: bool) -> None:
    spec = by_model(caching={"mode": "Dedicated"})
    first = run_chat(recording, spec)

    status = service_status(
        run_chat(recording, spec, previous=_reported_ready(first), preview=preview), "chat"
    )

    assert (condition(status, "ProfileCacheReady") or {})["reason"] == "CacheReady"
    assert (condition(status, "InferenceServiceReady") or {})["reason"] == "RuntimeReady"
    assert (condition(status, "Ready") or {})["reason"] == "AllComponentsReady"
    assert status["status"] == "Running"


ACCEPTED = {"parents": [{"conditions": [{"type": "Accepted", "status": "True"}]}]}
KEDA_READY = {"conditions": [{"type": "Ready", "status": "True", "reason": "ScaledObjectReady"}]}


NO_READ_BACK = {"aim:readBackStatus": "false"}
READS = ("chat-route-status", "chat-scaledobject-status")


@pytest.fixture
def engine_asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(name, id) of every resource the program asked the engine for, reads included (a read
    carries the object's id; the recording lists registrations only)."""
    asked: list[tuple[str, str]] = []
    answer = RecordingMocks.new_resource

    def spied(self: RecordingMocks, args: Any) -> Any:
        asked.append((args.name, args.resource_id or ""))
        return answer(self, args)

    monkeypatch.setattr(RecordingMocks, "new_resource", spied)
    return asked


@pytest.mark.parametrize("preview", [False, True], ids=["update", "preview"])
def test_without_read_back_nothing_is_read_and_the_status_is_what_the_children_report(
    recording: Any, engine_asked: list[tuple[str, str]], preview: bool
) -> None:
    """`aim:readBackStatus: false`: no read after the apply (no resource the engine waits on or
    writes after the last InferenceService is ready): the route's and the ScaledObject's status is
    what the provider read when it applied them (or `pulumi up --refresh` later), never a readiness
    it did not see."""
    spec = by_model(routing=ROUTING, minReplicas=1, maxReplicas=3, autoScaling=METRICS)
    previous = _reported_ready(run_chat(recording, spec, config=NO_READ_BACK))
    # What earlier runs' reads recorded is not read: those resources are no longer declared.
    previous.update({name: {"status": ACCEPTED if "route" in name else KEDA_READY} for name in READS})
    engine_asked.clear()
    rec = run_chat(recording, spec, previous=previous, preview=preview, config=NO_READ_BACK)
    assert {"chat-route", "chat-scaledobject", "chat-isvc"} <= {name for name, _ in engine_asked}
    assert [(name, id_) for name, id_ in engine_asked if id_ or name in READS] == []
    waiting = service_status(rec, "chat")
    assert (condition(waiting, "HTTPRouteReady") or {})["reason"] == "HTTPRoutePending"
    assert waiting["status"] == "Starting"

    previous.update({"chat-route": {"status": ACCEPTED}, "chat-scaledobject": {"status": KEDA_READY}})
    status = service_status(
        run_chat(recording, spec, previous=previous, preview=preview, config=NO_READ_BACK), "chat"
    )
    assert (condition(status, "HTTPRouteReady") or {})["reason"] == "HTTPRouteAccepted"
    assert (condition(status, "HPAReady") or {})["reason"] == "HPAOperational"
    assert status["status"] == "Running"


@pytest.mark.parametrize("preview", [False, True], ids=["update", "preview"])
def test_by_default_a_route_and_a_scaled_object_are_read_back_after_the_inference_service(
    recording: Any, engine_asked: list[tuple[str, str]], preview: bool
) -> None:
    """By default (`aim:readBackStatus`): Pulumi waits for neither; their status is read again
    (`<service>-route-status`, `<service>-scaledobject-status`) once the InferenceService is ready,
    and that read is what the status reports: the route and KEDA as their controllers had answered
    by then."""
    spec = by_model(routing=ROUTING, minReplicas=1, maxReplicas=3, autoScaling=METRICS)
    first = run_chat(recording, spec)
    previous = _reported_ready(first)
    engine_asked.clear()
    waiting_rec = run_chat(recording, spec, previous=previous, preview=preview)
    # Each read names the object it reads (its id); it is no registration of a resource to manage.
    read = {
        (name, f"{NS}/{waiting_rec.by_name(child).manifest['metadata']['name']}")
        for name, child in zip(READS, ("chat-route", "chat-scaledobject"), strict=True)
    }
    assert sorted((name, id_) for name, id_ in engine_asked if id_) == sorted(read)
    waiting = service_status(waiting_rec, "chat")
    assert (condition(waiting, "HTTPRouteReady") or {})["reason"] == "HTTPRoutePending"
    assert waiting["status"] == "Starting"

    previous.update(
        {"chat-route-status": {"status": ACCEPTED}, "chat-scaledobject-status": {"status": KEDA_READY}}
    )
    rec = run_chat(recording, spec, previous=previous, preview=preview)
    status = service_status(rec, "chat")
    assert (condition(status, "HTTPRouteReady") or {})["reason"] == "HTTPRouteAccepted"
    assert (condition(status, "HPAReady") or {})["reason"] == "HPAOperational"
    assert status["status"] == "Running"


class _ClusterStatuses(StatusReader):
    """A reader of a cluster whose route and ScaledObject carry their controllers' answers."""

    def __init__(self, answers: dict[str, Any], fails: bool = False) -> None:
        super().__init__(ClusterAccess("/kubeconfig", None, "test"))
        self.answers = answers
        self.fails = fails
        self.read: list[tuple[str, str, str, str]] = []

    def status(self, api_version: str, kind: str, namespace: str, name: str) -> Any:
        self.read.append((api_version, kind, namespace, name))
        if self.fails:
            raise StatusReadError("GET /apis/x: HTTP 403 Forbidden")
        return self.answers.get(kind)


@pytest.mark.parametrize("preview", [False, True], ids=["update", "preview"])
def test_where_the_program_knows_the_cluster_it_reads_the_status_itself_with_no_read_resource(
    recording: Any, engine_asked: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch, preview: bool
) -> None:
    """With the default provider's kubeconfig known, the route and the ScaledObject are read by the
    program once the InferenceService applied (`status_read.ProgramRead`): the status of the update
    says what the controllers answered, and no read resource enters the state (a read step makes the
    engine write the whole state twice, in every later update too). A preview of children that
    exist reads them as the update would."""
    cluster = _ClusterStatuses({"HTTPRoute": ACCEPTED, "ScaledObject": KEDA_READY})
    monkeypatch.setattr(service_record, "program_status_reader", lambda explicit: cluster)
    spec = by_model(routing=ROUTING, minReplicas=1, maxReplicas=3, autoScaling=METRICS)
    first = run_chat(recording, spec)
    cluster.read.clear()
    previous = _reported_ready(first)
    engine_asked.clear()
    rec = run_chat(recording, spec, previous=previous, preview=preview)
    assert [name for name, id_ in engine_asked if id_] == []
    assert not [r for r in rec.resources if r.name.endswith("-status")]
    status = service_status(rec, "chat")
    names = {
        kind: rec.by_name(f"chat-{role}").manifest["metadata"]["name"]
        for kind, role in (("HTTPRoute", "route"), ("ScaledObject", "scaledobject"))
    }
    assert sorted(cluster.read) == sorted(
        [
            ("gateway.networking.k8s.io/v1", "HTTPRoute", NS, names["HTTPRoute"]),
            ("keda.sh/v1alpha1", "ScaledObject", NS, names["ScaledObject"]),
        ]
    )
    assert (condition(status, "HTTPRouteReady") or {})["reason"] == "HTTPRouteAccepted"
    assert (condition(status, "HPAReady") or {})["reason"] == "HPAOperational"
    assert status["status"] == "Running"


def test_a_status_the_program_cannot_read_is_a_warning_and_the_childrens_own_status_stands(
    recording: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    cluster = _ClusterStatuses({}, fails=True)
    monkeypatch.setattr(service_record, "program_status_reader", lambda explicit: cluster)
    spec = by_model(routing=ROUTING)
    previous = _reported_ready(run_chat(recording, spec))
    rec = run_chat(recording, spec, previous=previous, preview=False)
    status = service_status(rec, "chat")
    assert (condition(status, "HTTPRouteReady") or {})["reason"] == "HTTPRoutePending"
    warnings = rec.messages("warning", urn=rec.by_name("chat").urn)
    assert any("its status was not read back (GET /apis/x: HTTP 403 Forbidden)" in m for m in warnings)


def test_a_service_with_its_own_provider_is_read_by_pulumi(
    recording: Any, engine_asked: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The program cannot read an explicit provider's kubeconfig, so that cluster's objects are
    read by a Pulumi read, as before."""
    asked: list[bool] = []

    def reader(explicit: bool) -> StatusReader | None:
        asked.append(explicit)
        return None if explicit else _ClusterStatuses({})

    monkeypatch.setattr(service_record, "program_status_reader", reader)
    spec = by_model(routing=ROUTING)
    previous = _reported_ready(run_chat(recording, spec))
    engine_asked.clear()
    asked.clear()

    def program() -> None:
        declare_catalog()
        own = k8s.Provider("own")
        declare_service("chat", spec, opts=pulumi.ResourceOptions(providers=[own]))

    recording(program, previous=previous, preview=False)
    assert asked == [True]
    assert [name for name, id_ in engine_asked if id_] == ["chat-route-status"]


@pytest.mark.parametrize(
    "config",
    [{"kubernetes:renderYamlToDirectory": "rendered"}, {"aim:skipAwait": "true"}],
    ids=["renders-yaml", "skip-await"],
)
def test_nothing_is_read_back_without_a_cluster_or_an_awaited_inference_service(
    recording: Any, engine_asked: list[tuple[str, str]], config: dict[str, str]
) -> None:
    """Even with the read-backs on (the default): rendering YAML there is no cluster (a read would fail the
    update); without the wait for the InferenceService a read finds what the route's own apply
    found."""
    spec = by_model(routing=ROUTING)
    previous = {**_reported_ready(run_chat(recording, spec)), "chat-route-status": {"status": ACCEPTED}}
    engine_asked.clear()
    status = service_status(run_chat(recording, spec, previous=previous, config=config), "chat")
    assert [name for name, id_ in engine_asked if id_] == []
    assert (condition(status, "HTTPRouteReady") or {})["reason"] == "HTTPRoutePending"


def test_a_failed_download_is_reported_and_fails_the_service(recording: Any) -> None:
    spec = by_model(caching={"mode": "Shared"})
    first = run_chat(recording, spec)

    status = service_status(run_chat(recording, spec, previous=_reported_ready(first, jobs="Failed")), "chat")

    cache = condition(status, "ProfileCacheReady") or {}
    assert (cache["status"], cache["reason"]) == ("False", "CacheFailed")
    assert "BackoffLimitExceeded" in cache["message"]
    # The operator's rollup: a failed template cache fails the service, and Ready names it.
    ready = condition(status, "Ready") or {}
    assert (ready["status"], ready["reason"]) == ("False", "CacheFailed")
    assert ready["message"].startswith("Component ProfileCache is not ready: a model download failed")
    assert status["status"] == "Failed"


def test_default_config_not_found_is_an_info_on_the_service(recording: Any) -> None:
    rec = run_chat(recording, {"profile": {"name": P1}}, config={"aim:embedDefaultRuntimeConfig": "false"})

    infos = rec.messages("info", urn=rec.by_name("chat").urn)
    assert any(m.startswith("DefaultConfigNotFound:") for m in infos)
    assert (condition(service_status(rec, "chat"), "RuntimeConfigReady") or {})[
        "reason"
    ] == "DefaultConfigNotFound"


@pytest.mark.parametrize(
    ("spec", "kw", "severity", "reason", "degraded"),
    [
        pytest.param(
            by_model(routing={"enabled": True}), {}, "warning", "GatewayNotConfigured", True, id="no-gateway"
        ),
        pytest.param(
            {"profile": {"name": P1}},
            {"annotations": {"aim.eai.amd.com/reconciler-pipeline": "operator"}},
            "warning",
            "InvalidReconcilerPipeline",
            False,
            id="unknown-pipeline-marker",
        ),
        pytest.param(
            by_model(replicas=3, minReplicas=1, maxReplicas=2, autoScaling=METRICS),
            {},
            "info",
            "ReplicasIgnored",
            False,
            id="replicas-ignored-with-autoscaling",
        ),
        pytest.param(
            by_model(caching={"mode": "Shared"}, env=[{"name": "A", "value": "b"}]),
            {},
            "warning",
            "CacheInputIgnored",
            False,
            id="service-env-ignored-by-a-shared-cache",
        ),
    ],
)
def test_operator_events_are_logged_on_the_service(
    recording: Any, spec: dict[str, Any], kw: dict[str, Any], severity: str, reason: str, degraded: bool
) -> None:
    rec = run_chat(recording, spec, **kw)

    messages = rec.messages(severity, urn=rec.by_name("chat").urn)
    assert [m for m in messages if m.startswith(f"{reason}:")], messages
    assert (service_status(rec, "chat")["status"] == "Degraded") is degraded
    assert invalid_manifests(rec.resources) == {}


def test_an_ambiguous_selection_warns_on_the_service(recording: Any) -> None:
    def twins() -> None:
        for name in ("a-x", "b-x"):
            AIMProfile(
                f"ml-team-{name}",
                {"name": name, "namespace": NS, "labels": model_labels("twins"), "spec": profile_spec()},
            )

    def program() -> None:
        twins()
        declare_service("chat", {"model": {"name": "twins"}})

    rec = recording(program)

    assert service_status(rec, "chat")["resolvedProfile"]["name"] == "a-x"
    warnings = rec.messages("warning", urn=rec.by_name("chat").urn)
    assert any(m.startswith("ProfileSelectorAmbiguous:") and "b-x" in m for m in warnings)


# ------------------------------------------------------------------------------- determinism


def _inputs(rec: PlanRecording) -> str:
    """Every registration, keyed by name: registration order across applies is not part of the plan."""
    return json.dumps(
        sorted([r.name, r.type, r.parent, r.inputs, sorted(r.dependencies)] for r in rec.resources),
        sort_keys=True,
    )


def _full_program(order: list[int] | None = None) -> Callable[[], None]:
    def program() -> None:
        declarations = catalog_declarations()
        declarations.append(
            lambda: declare_routing_config(pathTemplate="/{.metadata.namespace}/{.metadata.name}")
        )
        for index in order if order is not None else range(len(declarations)):
            declarations[index]()
        declare_service("chat", by_model(caching={}, minReplicas=1, maxReplicas=2, autoScaling=METRICS))
        declare_service("chat-b", by_model(caching={"mode": "Dedicated"}))
        declare_service("named", {"profile": {"name": P2}})

    return program


def test_the_same_program_registers_byte_identical_inputs(recording: Any) -> None:
    assert _inputs(recording(_full_program())) == _inputs(recording(_full_program()))


@pytest.mark.parametrize(
    "order", [[4, 3, 2, 1, 0], [2, 0, 4, 1, 3], [3, 1, 4, 0, 2]], ids=["reversed", "shuffle-a", "shuffle-b"]
)
def test_catalog_declaration_order_changes_nothing(recording: Any, order: list[int]) -> None:
    baseline = recording(_full_program())
    shuffled = recording(_full_program(order))

    def children(rec: PlanRecording) -> str:
        return json.dumps(
            sorted(
                [r.type, r.name, r.inputs]
                for r in rec.resources
                if not r.type.startswith("aim:index:AIMProfile")
                and r.type
                not in ("aim:index:AIMModel", "aim:index:AIMRuntimeConfig", "aim:index:AIMClusterProfile")
            ),
            sort_keys=True,
        )

    assert children(shuffled) == children(baseline)


# ---------------------------------------------------------------------------------- isolation


def test_namespace_objects_never_affect_a_service_in_another_namespace(recording: Any) -> None:
    def other_namespace() -> None:
        AIMProfile(
            "other-best",
            {
                "name": "zz-best",
                "namespace": "other-team",
                "labels": model_labels(),
                "spec": profile_spec(primary=True, image="ghcr.io/amd/qwen3:9.9.9"),
            },
        )
        AIMRuntimeConfig(
            "other-default",
            {
                "name": "default",
                "namespace": "other-team",
                "spec": {
                    "routing": {"enabled": True, "gatewayRef": dict(GATEWAY)},
                    "env": [{"name": "X", "value": "y"}],
                },
            },
        )
        AIMProfile(
            "other-p1",
            {
                "name": P1,
                "namespace": "other-team",
                "labels": model_labels(),
                "spec": profile_spec(image="other:1"),
            },
        )

    alone = run_chat(recording, by_model())
    with_others = run_chat(recording, by_model(), before=other_namespace)

    def chat_children(rec: PlanRecording) -> list[Any]:
        return [[r.type, r.name, r.inputs] for r in rec.resources if r.parent == rec.by_name("chat").urn]

    assert chat_children(with_others) == chat_children(alone)


def test_a_cluster_profile_is_visible_from_every_namespace(recording: Any) -> None:
    def program() -> None:
        AIMClusterProfile(
            "shared", {"labels": model_labels("shared-model"), "spec": profile_spec(primary=True)}
        )
        declare_service("a", {"model": {"name": "shared-model"}}, namespace="team-a")
        declare_service("b", {"model": {"name": "shared-model"}}, namespace="team-b")

    rec = recording(program)

    for name in ("a", "b"):
        assert service_status(rec, name)["resolvedProfile"] == {
            **service_status(rec, name)["resolvedProfile"],
            "kind": "AIMClusterProfile",
            "name": "shared",
        }


# ------------------------------------------------------------------------------------ secrets


def _secret_free(value: Any) -> Any:
    """The recorded value with every secret-wrapped subtree removed."""
    if rpc.is_rpc_secret(value):
        return "[secret]"
    if isinstance(value, dict):
        return {k: _secret_free(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_secret_free(v) for v in value]
    return value


def _contains_secret_with(value: Any, text: str) -> bool:
    if rpc.is_rpc_secret(value):
        return text in json.dumps(value["value"])
    if isinstance(value, dict):
        return any(_contains_secret_with(v, text) for v in value.values())
    if isinstance(value, list):
        return any(_contains_secret_with(v, text) for v in value)
    return False


def test_a_secret_env_value_lives_in_a_secret_the_workloads_reference(recording: Any) -> None:
    plaintext = "hf_sup3r-s3cret"
    spec = by_model(
        caching={"mode": "Dedicated"},
        env=[
            {"name": "HF_TOKEN", "value": pulumi.Output.secret(plaintext)},
            {"name": "FROM_SECRET", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
        ],
    )

    rec = run_chat(recording, spec)

    carriers = [r for r in rec.kubernetes() if _contains_secret_with(r.inputs, plaintext)]
    assert {r.type for r in carriers} == {SECRET}, "only Secrets hold the value"
    for resource in rec.resources:
        assert plaintext not in json.dumps(_secret_free(resource.inputs)), resource.name
        assert plaintext not in json.dumps(_secret_free(resource.outputs)), resource.name
    assert plaintext not in json.dumps(_secret_free(rec.outputs))
    assert all(plaintext not in record.message for record in rec.logs)
    (isvc,) = rec.of_type(ISVC)
    (job,) = rec.of_type(JOB)
    secrets = {r.manifest["metadata"]["name"]: r for r in rec.of_type(SECRET)}
    assert len(secrets) == 2
    job_container = job.manifest["spec"]["template"]["spec"]["containers"][0]
    for workload, env_list in ((isvc, container(rec)["env"]), (job, job_container["env"])):
        # No secret anywhere in the workload: it is reviewable as a whole.
        assert not _contains_secret_with(workload.inputs, plaintext)
        assert plaintext not in json.dumps(workload.manifest)
        env = {e["name"]: e for e in env_list}
        secret_name = f"{workload.manifest['metadata']['name']}-env"
        assert env["HF_TOKEN"] == {
            "name": "HF_TOKEN",
            "valueFrom": {"secretKeyRef": {"name": secret_name, "key": "HF_TOKEN"}},
        }
        assert env["FROM_SECRET"] == {  # a reference the user wrote passes through unchanged
            "name": "FROM_SECRET",
            "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}},
        }
        secret = secrets[secret_name]
        assert secret.manifest["stringData"] == {"HF_TOKEN": plaintext}
        assert rpc.is_rpc_secret(secret.inputs["stringData"])
        assert secret.manifest["metadata"]["namespace"] == workload.manifest["metadata"]["namespace"]
        assert secret.parent == workload.parent
        assert secret.urn in workload.dependencies  # created before the workload that reads it
        assert validate_manifest(secret.manifest) == []


def test_a_rotated_env_secret_value_rolls_the_predictor_through_a_digest_annotation(recording: Any) -> None:
    """Finding 4: a rotated value updated the env Secret and nothing else, so the model read the
    old value until its next restart. The InferenceService now carries a digest of the Secret's
    content, which KServe copies into the predictor's pod template."""

    def deployed(token: str) -> dict[str, Any]:
        spec = by_model(env=[{"name": "HF_TOKEN", "value": pulumi.Output.secret(token)}])
        rec = run_chat(recording, spec)
        (isvc,) = rec.of_type(ISVC)
        assert plaintext_free(isvc, token)
        return isvc_of(rec)

    first, again, rotated = deployed("hf_first"), deployed("hf_first"), deployed("hf_second")
    digest = first["metadata"]["annotations"][ENV_SECRET_DIGEST]
    assert digest == env_secret_digest({"HF_TOKEN": "hf_first"})
    assert again == first, "the same value changes nothing"
    assert rotated["metadata"]["annotations"][ENV_SECRET_DIGEST] != digest
    assert rotated["spec"] == first["spec"], "only the annotation changes"
    # Without a deploy-time value there is no Secret and no digest.
    plain = isvc_of(run_chat(recording, by_model(env=[{"name": "HF_TOKEN", "value": "public"}])))
    assert ENV_SECRET_DIGEST not in plain["metadata"]["annotations"]


def plaintext_free(resource: Any, text: str) -> bool:
    """Neither the value nor a Pulumi secret holding it in the resource's inputs (the digest is no secret)."""
    return text not in json.dumps(resource.manifest) and not _contains_secret_with(resource.inputs, text)


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        pytest.param(
            by_model(routing={**ROUTING, "pathTemplate": pulumi.Output.from_input("/Team/{.metadata.name}")}),
            "spec.routing.pathTemplate",
            id="path-template",
        ),
        pytest.param(
            {"profile": {"name": pulumi.Output.from_input(P1)}}, "spec.profile.name", id="profile-name"
        ),
        pytest.param(by_model(replicas=pulumi.Output.from_input(2)), "spec.replicas", id="replicas"),
    ],
)
def test_an_output_that_decides_structure_is_refused(
    recording: Any, spec: dict[str, Any], field: str
) -> None:
    with pytest.raises(AIMValidationError) as caught:
        run_chat(recording, spec)
    assert caught.value.reason == "OutputNotAllowed"
    assert caught.value.field == field


def test_an_output_label_flowing_verbatim_into_children_is_allowed(recording: Any) -> None:
    rec = run_chat(recording, by_model(), labels={"aim.eai.amd.com/team": pulumi.Output.from_input("search")})

    assert isvc_of(rec)["metadata"]["labels"]["aim.eai.amd.com/team"] == "search"


def test_an_output_option_is_refused(recording: Any) -> None:
    with pytest.raises(AIMValidationError, match="plain value"):
        run_chat(recording, by_model(), strict=pulumi.Output.from_input(True))


# --------------------------------------------------------------------------- explicit catalogs


def test_an_explicit_catalog_replaces_the_stack_catalog(recording: Any, failed_run: Any) -> None:
    from tests.versions import Catalog

    def program(use_private: bool) -> None:
        private = Catalog()
        AIMProfile("private-p", {"name": "private", "namespace": NS, "spec": profile_spec()}, catalog=private)
        AIMService(
            "chat",
            {"namespace": NS, "spec": {"profile": {"name": "private"}}},
            catalog=private if use_private else None,
        )

    rec = recording(lambda: program(True))
    error, _ = failed_run(lambda: program(False))

    assert service_status(rec, "chat")["resolvedProfile"]["name"] == "private"
    assert isinstance(error, AIMResolutionError) and error.reason == "ProfileNotFound"


def test_from_object_declares_a_typed_service(recording: Any) -> None:
    from tests.versions import parse

    def program() -> None:
        declare_catalog()
        obj = parse(
            {
                "apiVersion": "aim.eai.amd.com/v1alpha2",
                "kind": "AIMService",
                "metadata": {"name": "chat", "namespace": NS},
                "spec": {"profile": {"name": P2}},
            }
        )
        AIMService.from_object(obj)  # type: ignore[arg-type]

    rec = recording(program)

    assert service_status(rec, f"{NS}-chat")["resolvedProfile"]["name"] == P2
    assert {name for _, name in children_of(rec, f"{NS}-chat")} == {
        f"{NS}-chat-isvc",
        f"{NS}-chat-profile-config",
    }


# ----------------------------------------------------------------------------- await and ordering


@pytest.mark.parametrize(
    ("kw", "config", "wait_for", "timeout"),
    [
        pytest.param({}, None, "condition=Ready", "1800", id="defaults"),
        pytest.param(
            {"waitFor": "condition=Available"}, None, "condition=Available", "1800", id="wait-for-arg"
        ),
        pytest.param({"waitFor": ""}, None, None, None, id="empty-wait-for-removes-it"),
        pytest.param({}, {"aim:waitForReady": "false"}, None, None, id="stack-wait-for-ready-false"),
        pytest.param({}, {"aim:readyTimeoutSeconds": "600"}, "condition=Ready", "600", id="stack-timeout"),
        pytest.param(
            {"waitFor": "condition=Ready"},
            {"aim:waitForReady": "false"},
            "condition=Ready",
            "1800",
            id="argument-beats-stack-config",
        ),
    ],
)
def test_isvc_await_annotations(
    recording: Any,
    kw: dict[str, Any],
    config: dict[str, str] | None,
    wait_for: str | None,
    timeout: str | None,
) -> None:
    rec = run_chat(recording, by_model(), config=config, **kw)

    annotations = isvc_of(rec)["metadata"]["annotations"]
    assert annotations.get("pulumi.com/waitFor") == wait_for
    assert annotations.get("pulumi.com/timeoutSeconds") == timeout


def test_the_gateway_provider_can_come_from_stack_config(recording: Any) -> None:
    rec = run_chat(
        recording,
        by_model(minReplicas=0, maxReplicas=2, routing=ROUTING),
        config={"aim:gatewayProvider": "kgateway"},
    )

    triggers = rec.by_name("chat-scaledobject").manifest["spec"]["triggers"]
    assert "envoy_cluster_external_upstream_rq_completed" in triggers[0]["metadata"]["metricQuery"]


@pytest.mark.parametrize("mode", ["Shared", "Dedicated"])
def test_every_kubernetes_child_waits_for_what_the_service_depends_on(recording: Any, mode: str) -> None:
    import pulumi_kubernetes as k8s

    def program() -> None:
        declare_catalog()
        namespace = k8s.core.v1.Namespace("ns", metadata={"name": NS})
        declare_service(
            "chat", by_model(caching={"mode": mode}), opts=pulumi.ResourceOptions(depends_on=[namespace])
        )

    rec = recording(program)

    namespace_urn = rec.by_name("ns").urn
    # The ConfigMap that keeps the Namespace from taking a Shared cache with it waits for it too.
    children = [r for r in rec.kubernetes() if r.name != "ns"]
    assert len(children) == (5 if mode == "Shared" else 4)
    for child in children:
        assert namespace_urn in child.dependencies, child.name


def _service_under_provider(how: str) -> Callable[[], None]:
    import pulumi_kubernetes as k8s

    def program() -> None:
        declare_catalog()
        cluster = k8s.Provider("cluster-b", kubeconfig="cluster-b")
        if how == "provider":
            opts = pulumi.ResourceOptions(provider=cluster)
        elif how == "providers":
            opts = pulumi.ResourceOptions(providers=[cluster])
        else:
            team = pulumi.ComponentResource(
                "example:index:Team", "team", None, pulumi.ResourceOptions(providers=[cluster])
            )
            opts = pulumi.ResourceOptions(parent=team)
        declare_service("chat", by_model(caching={"mode": "Shared"}), opts=opts)

    return program


@pytest.mark.parametrize("how", ["provider", "providers", "inherited-from-parent"])
def test_every_kubernetes_child_uses_the_services_provider_including_shared_caches(
    recording: Any, how: str
) -> None:
    rec = recording(_service_under_provider(how))

    provider_urn = rec.by_name("cluster-b").urn
    children = rec.kubernetes()
    assert {r.type for r in children} == {ISVC, CONFIG_MAP, PVC, JOB}
    for child in children:
        assert child.provider.startswith(provider_urn + "::"), child.name


@pytest.mark.parametrize(
    "order", [["chat", "chat-b"], ["chat-b", "chat"]], ids=["chat-first", "chat-b-first"]
)
def test_a_shared_cache_carries_the_labels_of_every_service_using_it_in_name_order(
    recording: Any, order: list[str]
) -> None:
    labels: dict[str, dict[str, Any]] = {
        "chat": {"aim.eai.amd.com/team": "alpha"},
        "chat-b": {
            "aim.eai.amd.com/team": "beta",
            "aim.eai.amd.com/tier": "gold",
            "aim.eai.amd.com/cost-center": pulumi.Output.from_input("cc-7"),
        },
    }

    def program() -> None:
        declare_catalog()
        for name in order:
            declare_service(name, by_model(caching={"mode": "Shared"}), labels=labels[name])

    rec = recording(program)

    (shared,) = rec.of_type(SHARED_CACHE)
    pvc, job = rec.by_name(f"{shared.name}-pvc").manifest, rec.by_name(f"{shared.name}-download").manifest
    for carried in (
        pvc["metadata"]["labels"],
        job["metadata"]["labels"],
        job["spec"]["template"]["metadata"]["labels"],
    ):
        assert carried["aim.eai.amd.com/team"] == "alpha", "the first service in (namespace, name) order wins"
        assert carried["aim.eai.amd.com/tier"] == "gold", "a key only one service has is carried too"
        assert carried["aim.eai.amd.com/cost-center"] == "cc-7"
        assert "aim.eai.amd.com/service" not in carried
    assert invalid_manifests(rec.resources) == {}


@pytest.mark.parametrize("recorded", [False, True], ids=["no-binding-in-the-state", "binding-recorded"])
def test_only_a_service_whose_binding_is_new_asks_for_its_live_profile(
    recording: Any, monkeypatch: pytest.MonkeyPatch, recorded: bool
) -> None:
    """The live InferenceService is read only for a binding the state has no record of (a first
    deploy, or one lost by `pulumi state delete`); under the SDK's mocks no cluster is named."""
    from aim_pulumi.resources import program

    asked: list[tuple[list[Any], Any]] = []
    monkeypatch.setattr(
        program, "warn_lost_bindings", lambda new, access, timeout: asked.append((new, access))
    )
    previous = {"chat-binding": {"bound": f"AIMProfile/{NS}/{P1}"}} if recorded else None
    run_chat(recording, by_model(), previous=previous)
    if recorded:
        assert asked == []
        return
    [(new, access)] = asked
    [(judged, _catalog)] = new
    assert judged.ref == f"AIMService/{NS}/chat" and judged.plan.profile_name == P1
    assert type(access).__name__ == "NoCluster"
