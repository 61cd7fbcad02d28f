"""One AIMService in, one `ServicePlan` out: every decision the operator makes, in the operator's order.

This module only sequences the rules that live in their own modules (runtime configs, selection,
overlays, templates, caching, container, routing, scaling, labels, names); it adds the status
rollup and the conditions, and turns degradations into hard errors under `strict`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aim_pulumi.api import AIMKind, AIMServiceObject, to_manifest
from aim_pulumi.resolve.catalog.embedded import embedded_default_runtime_config
from aim_pulumi.resolve.catalog.extension import choose_pipeline, container_defaults
from aim_pulumi.resolve.catalog.pipelines import PROFILE
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.annotations import isvc_extra_annotations
from aim_pulumi.resolve.children.caching import (
    CacheConsumer,
    CacheProfile,
    CacheSettings,
    SizeOf,
    cache_mode,
    caching_enabled,
    plan_caches,
    shrink_guard,
)
from aim_pulumi.resolve.children.container import (
    build_container_plan,
    build_profile_config_plan,
    plain_credentials,
    pull_secret_name_warnings,
    served_model_id,
)
from aim_pulumi.resolve.children.labels import (
    label_propagation_match,
    propagate_labels,
    standard_labels,
    with_stack_labels,
)
from aim_pulumi.resolve.children.names import http_route_name, inference_service_name, predictor_name
from aim_pulumi.resolve.children.routing import effective_routing, plan_route
from aim_pulumi.resolve.children.scaling import plan_scaling
from aim_pulumi.resolve.children.source_size import declares_size, source_size_bytes
from aim_pulumi.resolve.derivation.derive import derivation_facts
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.objects import object_key
from aim_pulumi.resolve.plan.context import PlanningContext
from aim_pulumi.resolve.plan.pipelines import EffectiveProfile, profile_pipeline
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.runtime_config.lookup import DEFAULT_NAME, runtime_config_condition
from aim_pulumi.resolve.runtime_config.merge import INLINE_RUNTIME_CONFIG, inline_runtime_config_layer
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resolve.types import (
    AwaitPlan,
    CachePlan,
    Condition,
    Diagnostic,
    ObjectRef,
    ResolvedRuntimeConfig,
    RoutePlan,
    RuntimeConfigScope,
    ScalingPlan,
    env_names,
)

PROFILE_LABEL = "aim.eai.amd.com/profile"
METRIC_LABEL = "aim.eai.amd.com/metric"
PRECISION_LABEL = "aim.eai.amd.com/precision"

#: Reasons that degrade a service instead of failing it (behaviour "Hard errors vs degraded").
DEGRADING_REASONS = frozenset({"GatewayNotConfigured", "PathTemplateInvalid", "ActivationMetricQueryInvalid"})


def service_document(service: AIMServiceObject, uid: str | None = None) -> dict[str, Any]:
    """The CRD-shaped service that path templates are evaluated against, with its effective uid
    (`uid`, when the caller has it already)."""
    document = to_manifest(service)
    metadata = dict(document.get("metadata") or {})
    metadata["namespace"] = service.metadata.namespace or "default"
    metadata["uid"] = service.effective_uid if uid is None else uid
    metadata.setdefault("labels", {})
    metadata.setdefault("annotations", {})
    document["metadata"] = metadata
    document.setdefault("spec", {})
    return document


def _object_ref(service: AIMServiceObject) -> str:
    return f"AIMService/{service.metadata.namespace or 'default'}/{service.metadata.name}"


def _with_object(error: AIMResolutionError, object_ref: str) -> AIMResolutionError:
    return error.located(object_ref=object_ref)


def plan_service(
    service: AIMServiceObject,
    catalog: Catalog,
    settings: Settings | None = None,
    *,
    previous_cache_sizes: Mapping[str, int] | None = None,
    size_of: SizeOf | None = None,
) -> ServicePlan:
    """Resolve one service against a catalog; raises before anything is planned on a hard error.

    `previous_cache_sizes` maps cache PVC names to the size (GiB) they had in the last deployment,
    so a smaller computed size never shrinks a PVC. `size_of` replaces the real source sizing
    (declared size, else an S3 listing) in tests and offline tools.
    """
    try:
        return _plan(service, catalog, settings or Settings(), previous_cache_sizes or {}, size_of)
    except AIMResolutionError as error:
        raise _with_object(error, _object_ref(service)) from None


@dataclass(frozen=True)
class _Planning:
    """The service being planned and what it is planned against, as the steps after selection read it."""

    service_spec: Mapping[str, Any]
    namespace: str
    name: str
    uid: str
    parent_labels: Mapping[str, str]
    catalog: Catalog
    settings: Settings
    previous_cache_sizes: Mapping[str, int]
    size_of: SizeOf | None


def _plan(
    service: AIMServiceObject,
    catalog: Catalog,
    settings: Settings,
    previous_cache_sizes: Mapping[str, int],
    size_of: SizeOf | None,
) -> ServicePlan:
    name = service.metadata.name
    namespace = service.metadata.namespace or "default"
    uid = service.effective_uid
    document = service_document(service, uid)
    service_spec: dict[str, Any] = document["spec"]
    diagnostics: list[Diagnostic] = []

    chosen_pipeline, dispatch_diagnostics = choose_pipeline(service, catalog.extension)
    diagnostics.extend(dispatch_diagnostics)

    context = PlanningContext.of(catalog)
    rc_name = service.spec.runtime_config_name or None
    runtime_config = context.own_copy(context.runtime_config(namespace, rc_name))
    rc_condition = runtime_config_condition(runtime_config)
    if runtime_config is None:
        diagnostics.append(Diagnostic("info", rc_condition.reason, rc_condition.message))
    inline = inline_runtime_config_layer(service_spec, label=INLINE_RUNTIME_CONFIG)
    rc_spec = context.service_runtime_config(namespace, rc_name, inline)
    scopes = _scopes(catalog, namespace, rc_name, runtime_config)
    # Without an inline block or its own routing, a service routes as its namespace's config says.
    shared_routing: Mapping[str, Any] | None = None
    if inline.spec is None and service.spec.routing is None:
        shared_routing = context.namespace_routing(
            namespace, rc_name, lambda: effective_routing(service_spec, rc_spec)
        )

    chosen = _run_pipeline(chosen_pipeline, service, catalog)
    diagnostics.extend(chosen.diagnostics)
    effective, declared = chosen.effective, chosen.declared
    facts = context.profile_facts(effective, shared=chosen.shared)
    profile_spec, profile_status, spec_hash, config_content = (
        facts.spec,
        facts.status,
        facts.spec_hash,
        facts.config_content,
    )
    profile_name = effective.metadata.name
    defaults = container_defaults(catalog.extension, declared.metadata.labels, profile_spec)

    isvc = inference_service_name(name, namespace)
    route_name = http_route_name(name, namespace)
    predictor = predictor_name(isvc)
    parent_labels, match = with_stack_labels(
        service.metadata.labels or {}, label_propagation_match(rc_spec), settings.cost_allocation_labels
    )

    def labels(component: str, extra: Mapping[str, str | None] | None = None) -> dict[str, str]:
        return propagate_labels(parent_labels, standard_labels(component, name, extra), match)

    isvc_labels = labels(
        "inference",
        {
            PROFILE_LABEL: profile_name,
            METRIC_LABEL: effective.spec.metric,
            PRECISION_LABEL: effective.spec.precision,
            **defaults.isvc_labels,
        },
    )

    planning = _Planning(
        service_spec=service_spec,
        namespace=namespace,
        name=name,
        uid=uid,
        parent_labels=parent_labels,
        catalog=catalog,
        settings=settings,
        previous_cache_sizes=previous_cache_sizes,
        size_of=size_of,
    )
    caches = _plan_caches(planning, chosen, profile_spec, rc_spec, match, diagnostics)

    container = build_container_plan(
        service_spec,
        profile_spec,
        rc_spec=rc_spec,
        profile_status=profile_status,
        cache_mount=_served_model_mount(profile_spec, caches),
        override_env=chosen.override_env,
        defaults=defaults,
        rc_scopes=[
            *((scope.label, scope.env_names) for scope in scopes),
            (inline.label, env_names(inline.spec)),
        ],
        env_labels={
            "profile": f"profile {profile_name} containerEnv",
            **({"override": chosen.override_env_label} if chosen.override_env_label else {}),
        },
    )
    diagnostics.extend(plain_credentials(container.env))
    diagnostics.extend(pull_secret_name_warnings(container.image_pull_secrets))
    profile_config = build_profile_config_plan(
        name, profile_spec, labels("inference"), content=config_content
    )

    route, route_conditions, route_diagnostics = plan_route(
        service=document, rc_spec=rc_spec, isvc_name=isvc, labels=labels("routing"), routing=shared_routing
    )
    diagnostics.extend(route_diagnostics)
    scaling, scaling_conditions, scaling_diagnostics = plan_scaling(
        service_spec=service_spec,
        namespace=namespace,
        service_name=name,
        isvc_name=isvc,
        rc_spec=rc_spec,
        container_resources=container.resources,
        settings=settings,
        labels=labels("autoscaling"),
        route_skipped=_route_skipped(route_conditions) if route is None else None,
    )
    diagnostics.extend(scaling_diagnostics)

    degradations = [d for d in diagnostics if d.reason in DEGRADING_REASONS]
    warnings = [d for d in diagnostics if d.level == "warn"]
    if warnings and settings.strict:
        # Degradations first: they are what strict mode was first made for.
        first = (degradations or warnings)[0]
        raise AIMResolutionError(
            "", first.reason, f"{first.message} (strict mode turns warnings and degradations into errors)"
        )

    wait = AwaitPlan(
        wait_for=None if settings.skip_await or scaling.min_replicas == 0 else settings.wait_for,
        timeout_seconds=None if settings.skip_await else settings.ready_timeout_seconds,
        skip_await=settings.skip_await,
    )
    conditions = _conditions(
        rc_condition=rc_condition,
        profile_conditions=list(chosen.conditions),
        scaling_conditions=scaling_conditions,
        route_conditions=route_conditions,
        caches=caches,
        pipeline=chosen_pipeline,
    )
    status = _status(
        chosen_pipeline,
        chosen,
        runtime_config,
        route,
        caches,
        scaling,
        conditions,
        degraded=bool(degradations),
    )
    return ServicePlan(
        name=name,
        namespace=namespace,
        uid=uid,
        pipeline=chosen_pipeline,
        isvc_name=isvc,
        route_name=route_name,
        predictor_name=predictor,
        profile_name=profile_name,
        profile_spec=profile_spec,
        profile_hash=spec_hash,
        container=container,
        scaling=scaling,
        isvc_labels=isvc_labels,
        deployment_mode=settings.deployment_mode,
        isvc_annotations=isvc_extra_annotations(
            service.metadata.annotations or {}, profile_spec, scaling, predictor
        ),
        wait=wait,
        profile_config=profile_config,
        route=route,
        caches=tuple(caches),
        resolved_profile=chosen.resolved_profile,
        profile_overlay=chosen.overlay_name,
        resolved_model=chosen.resolved_model,
        also_resolved=chosen.also_resolved,
        summary=chosen.summary,
        runtime_config=runtime_config,
        conditions=tuple(conditions),
        diagnostics=tuple(diagnostics),
        status=status,
        selection=chosen.selection,
        runtime_config_scopes=scopes,
        service_spec=service_spec,
        derivation=_derivation(catalog, chosen.resolved_profile),
    )


def _derivation(catalog: Catalog, resolved: ObjectRef | None) -> Mapping[str, Any] | None:
    """The derivation facts of the resolved profile, when a profile set derived it."""
    if resolved is None:
        return None
    found = catalog.derived_profile(resolved.kind, resolved.namespace or None, resolved.name)
    return derivation_facts(*found) if found is not None else None


def _scopes(
    catalog: Catalog, namespace: str, name: str | None, resolved: ResolvedRuntimeConfig | None
) -> tuple[RuntimeConfigScope, ...]:
    """The runtime config's scopes as `explain` names them: the embedded default says it is one."""
    if resolved is None:
        return ()
    cluster = catalog.runtime_config_objects(namespace, name or DEFAULT_NAME)[1]
    if cluster is None or cluster is not embedded_default_runtime_config():
        return resolved.scopes
    return tuple(
        dataclasses.replace(scope, label=f"{scope.label} (embedded default)")
        if scope.label.startswith(cluster.kind)
        else scope
        for scope in resolved.scopes
    )


def _run_pipeline(pipeline: str, service: AIMServiceObject, catalog: Catalog) -> EffectiveProfile:
    """The profile: the core's profile pipeline's selection, or the pipeline of the catalog's extension
    (v1alpha1's converted template) for a service it sent there."""
    extension = catalog.extension
    if pipeline == PROFILE:
        return profile_pipeline(service, catalog)
    if extension is not None and pipeline == extension.pipeline_name:
        return extension.pipeline(service, catalog)
    raise AssertionError(f"no pipeline {pipeline!r}: the catalog's extension chose one it does not run")


def _route_skipped(route_conditions: list[Condition]) -> str | None:
    """The degradation that kept an enabled route from being created, if any."""
    for condition in route_conditions:
        if condition.reason in DEGRADING_REASONS:
            return condition.reason
    return None


def _served_model_mount(profile_spec: Mapping[str, Any], caches: list[CachePlan]) -> str | None:
    """Where the served model's weights are mounted: the cache of the source with the served model id,
    else the first cache (a source without a `modelId` has no id to match)."""
    served = served_model_id(profile_spec)
    for cache in caches:
        if str(cache.source.get("modelId") or "") == served:
            return cache.mount_path
    return caches[0].mount_path if caches else None


def _where(obj: AIMKind) -> str:
    """`Kind/namespace/name`, or `Kind/name` for a cluster object, as errors name objects."""
    kind, namespace, name = object_key(obj)
    return f"{kind}/{namespace}/{name}" if obj.SCOPE == "Namespace" else f"{kind}/{name}"


def _plan_caches(
    planning: _Planning,
    chosen: EffectiveProfile,
    profile_spec: Mapping[str, Any],
    rc_spec: Mapping[str, Any],
    match: list[str] | None,
    diagnostics: list[Diagnostic],
) -> list[CachePlan]:
    """The caches of the effective profile; a Shared cache is configured by the profile's own RC.

    `profile_spec` is the plan's own copy of the effective profile's spec as a manifest (what the
    caches are built from); the profile itself is read typed. A profile the catalog holds as it is
    (`chosen.shared`; not an overlay or a converted template) has Shared caches that can be planned
    once for all its services.
    """
    service_spec, namespace, name, uid = (
        planning.service_spec,
        planning.namespace,
        planning.name,
        planning.uid,
    )
    catalog, settings, size_of = planning.catalog, planning.settings, planning.size_of
    profile = chosen.effective
    shared_profile = profile if chosen.shared else None
    declared_profile = _where(chosen.seed)
    profile_kind, profile_name = profile.kind, profile.metadata.name
    profile_rc = profile.spec.runtime_config_name or None
    if not caching_enabled(profile_kind, profile_spec, service_spec):
        return []
    mode = cache_mode(service_spec)
    context = PlanningContext.of(catalog)
    if mode == "Shared":
        try:
            cache_rc = context.runtime_config(namespace, profile_rc)
        except AIMResolutionError as error:
            # The reference is the profile's (an overlay inherits it), so name the object to fix.
            raise AIMResolutionError(
                error.field,
                error.reason,
                f"{error.message} (the Shared cache of AIMService/{namespace}/{name} is configured by "
                "its profile's runtime config)",
                object_ref=declared_profile,
            ) from None
        cache_rc_spec: Mapping[str, Any] = cache_rc.spec if cache_rc is not None else {}
        _, cache_match = with_stack_labels(
            {}, label_propagation_match(cache_rc_spec), settings.cost_allocation_labels
        )
        # A Shared cache ignores the service's storage, so what it reads depends on the catalog alone.
        effective_rc = context.cache_runtime_config(namespace, profile_rc, cache_rc_spec)
    else:
        cache_rc_spec, cache_match, effective_rc = rc_spec, match, None
    cache_settings = CacheSettings.from_settings(settings)
    cache_profile = CacheProfile(namespace, profile_name, profile_spec, profile_kind)
    shared_plans: list[CachePlan] | None = None
    sources = profile_spec.get("modelSources")
    if (
        mode == "Shared"
        and shared_profile is not None
        and size_of is None
        and isinstance(sources, list)
        and all(isinstance(s, Mapping) and declares_size(s) for s in sources)
    ):
        # Sized from the sources alone, a catalog profile's Shared caches are the same for every
        # service on it until the catalog changes; each service gets its own copy with its labels.
        shared_plans = context.shared_cache_plans(
            shared_profile,
            cache_profile,
            rc_spec=cache_rc_spec,
            settings=cache_settings,
            effective_rc=effective_rc,
        )
    plans, cache_diagnostics = plan_caches(
        mode,
        cache_profile,
        CacheConsumer(
            name=name,
            uid=uid,
            storage=service_spec.get("storage"),
            env=service_spec.get("env"),
            caching=service_spec.get("caching"),
            labels=(planning.parent_labels,),
            label_match=cache_match,
        ),
        rc_spec=cache_rc_spec,
        settings=cache_settings,
        size_of=size_of or source_size_bytes,
        effective_rc=effective_rc,
        shared_plans=shared_plans,
    )
    diagnostics.extend(cache_diagnostics)
    guarded: list[CachePlan] = []
    for plan in plans:
        size, shrink_diagnostics = shrink_guard(
            planning.previous_cache_sizes.get(plan.pvc_name), plan.size_gi, pvc_name=plan.pvc_name
        )
        diagnostics.extend(shrink_diagnostics)
        guarded.append(dataclasses.replace(plan, size_gi=size) if size != plan.size_gi else plan)
    return guarded


def _conditions(
    *,
    rc_condition: Condition,
    profile_conditions: list[Condition],
    scaling_conditions: list[Condition],
    route_conditions: list[Condition],
    caches: list[CachePlan],
    pipeline: str,
) -> list[Condition]:
    """Conditions in the order of behaviour §15, as known before anything is applied."""
    config_invalid = [c for c in scaling_conditions if c.type == "ConfigValid"]
    hpa = [c for c in scaling_conditions if c.type == "HPAReady"]
    conditions = [rc_condition]
    conditions.append(
        config_invalid[0]
        if config_invalid
        else Condition("ConfigValid", "True", "ConfigurationValid", "the service configuration is valid")
    )
    conditions.extend(profile_conditions)
    if caches:
        cache_type = "ProfileCacheReady" if pipeline == "profile" else "CacheReady"
        conditions.append(
            Condition(cache_type, "False", "CacheCreating", f"{len(caches)} model cache(s) to download")
        )
    conditions.append(
        Condition(
            "InferenceServiceReady", "False", "CreatingRuntime", "the InferenceService is being created"
        )
    )
    conditions.extend(route_conditions)
    conditions.extend(hpa)
    conditions.append(Condition("Ready", "False", "Progressing", "components are being created"))
    return conditions


def _status(
    pipeline: str,
    chosen: EffectiveProfile,
    runtime_config: ResolvedRuntimeConfig | None,
    route: RoutePlan | None,
    caches: list[CachePlan],
    scaling: ScalingPlan,
    conditions: list[Condition],
    degraded: bool,
) -> dict[str, Any]:
    """The AIMService status as known at deploy time (behaviour §15)."""
    status: dict[str, Any] = {}
    if chosen.resolved_profile is not None:
        status["resolvedProfile"] = chosen.resolved_profile.as_dict()
    if chosen.overlay_name is not None:
        status["profileOverlay"] = {"name": chosen.overlay_name}
    if chosen.resolved_model is not None:
        status["resolvedModel"] = chosen.resolved_model.as_dict()
    for key, ref in chosen.also_resolved:
        status[key] = ref.as_dict()
    if runtime_config is not None:
        status["resolvedRuntimeConfig"] = runtime_config.ref.as_dict()
    status["reconcilerPipeline"] = pipeline
    if route is not None:
        status["routing"] = {"path": route.path}
    if caches:
        status["cache"] = {"mode": caches[0].mode, "persistentVolumeClaims": [c.pvc_name for c in caches]}
    if scaling.autoscaler_class == "external":
        status["runtime"] = {"minReplicas": scaling.min_replicas, "maxReplicas": scaling.max_replicas}
    status["conditions"] = [c.as_dict() for c in conditions]
    status["status"] = "Degraded" if degraded else "Starting"
    return status
