"""AIMService as v1alpha2 serves it: the profile shape.

Older spellings the CRD still carries (`spec.model.ref`, `spec.runtimeConfigRef.name`, caching
modes `Auto`/`Always`/`Never`, `spec.cacheModel`) are read and stored canonically. The v1alpha1
template shape is the v1alpha1 folder's (`aim_pulumi/resolve/legacy/service.py`), which serves
both versions by extending this class at the two rule points it leaves (`version_rules`,
`pipeline_rules`).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api.admission import Problems, is_set, path_segment_problems, problem
from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, AIMStatusBase, Scope, rename_alias
from aim_pulumi.api.common import (
    EnvVar,
    JsonObject,
    LocalObjectReference,
    ModelSource,
    Quantity,
    ResourceRequirements,
    Routing,
    RuntimeConfigBlock,
    ScaleFromZero,
    StatusCondition,
    StatusRef,
    Storage,
)
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import INT32_MAX

# The AIM CRDs declare these int32, and they reach int32 fields of the InferenceService and
# ScaledObject: a larger number would be rejected by the API server after admission.
NonNegativeInt = Annotated[int, Field(ge=0, le=INT32_MAX)]


class ServiceModel(AIMBase):
    """The model anchor: exactly one of `name`, `image`, `custom` (A9)."""

    name: str | None = None
    """An AIMModel in the service's namespace, else an AIMClusterModel, by name (resolution by model)."""
    image: str | None = None
    """A container image; the service resolves against the profiles of the model that image backs."""
    # Read only by the version that serves it (v1alpha1, A10); the core refuses it as Unsupported.
    custom: Any = None
    """An inline custom model (v1alpha1, bridge window): a base image, one model source, hardware."""

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        return rename_alias(data, "ref", "name")


class ModelRef(AIMBase):
    name: str | None = None
    """The model whose profiles the selector considers."""
    scope: Literal["Auto", "Namespace", "Cluster"] = "Auto"
    """Where the model is looked up: `Auto` tries the namespace, then the cluster."""


class ProfileSelector(AIMBase):
    aim_id: str | None = None
    """Matches `spec.aimId` of a profile."""
    model_id: str | None = None
    """Matches `spec.modelId` of a profile."""
    profile_id: str | None = None
    """Matches `spec.profileId` of a profile."""
    model_ref: ModelRef | None = None
    """Limits the candidates to the profiles of one model."""
    origin: str | None = None
    """Matches the `aim.eai.amd.com/profile-origin` label."""
    role: str | None = None
    """Matches the `aim.eai.amd.com/profile-role` label."""
    engine: str | None = None
    """Matches `spec.engine` (e.g. `vllm`)."""
    metric: str | None = None
    """Matches `spec.metric` (`latency` or `throughput`)."""
    precision: str | None = None
    """Matches `spec.precision` (e.g. `fp8`)."""
    type: str | None = None
    """Matches `spec.type` exactly."""
    minimum_type: Literal["optimized", "general", "preview", "unoptimized", "any"] | None = None
    """
    The lowest optimization tier admitted; when unset, `optimized`, with a second pass for
    `autoSelectionPolicy: any` profiles.
    """
    accelerator_model: str | None = None
    """Matches `spec.acceleratorModel` (e.g. `MI300X`)."""
    accelerator_vendor: str | None = None
    """Matches `spec.acceleratorVendor`."""
    accelerator_type: str | None = None
    """Matches `spec.acceleratorType`."""
    accelerator_count: NonNegativeInt | None = None
    """Matches `spec.acceleratorCount`."""
    accelerator_partitioning_mode: str | None = None
    """Matches `spec.acceleratorPartitioningMode`."""
    engine_args: JsonObject = Field(default_factory=dict)
    """Every key given must equal the profile's engine argument of that key."""


class ServiceProfile(AIMBase):
    name: str | None = None
    """Bind this AIMProfile (namespace) or AIMClusterProfile by name, skipping selection."""
    selector: ProfileSelector | None = None
    """Select among the candidate profiles by these fields; the best-ranked match wins."""


class ProfileOverrides(AIMBase):
    model_sources: list[ModelSource] = Field(default_factory=list)
    """Replace the profile's model sources (custom weights); they key the cache too."""
    accelerator_model: str | None = None
    """Override the profile's accelerator model."""
    accelerator_partitioning_mode: str | None = None
    """Override the profile's accelerator partitioning mode."""
    accelerator_count: NonNegativeInt | None = None
    """Override the profile's accelerator count."""
    container_env: list[EnvVar] = Field(default_factory=list)
    """Environment variables added to the inference container."""
    engine_env: dict[str, str] = Field(default_factory=dict)
    """Engine environment variables merged over the profile's."""
    engine_args: JsonObject = Field(default_factory=dict)
    """Engine arguments merged over the profile's."""


class PodMetricSource(AIMBase):
    backend: str | None = None
    """Where KEDA reads the metric (e.g. `opentelemetry`)."""
    metric_names: list[str] = Field(default_factory=list)
    """The metrics the query reads (vLLM OpenTelemetry names)."""
    query: str | None = None
    """The metric query, when the backend takes one."""
    operation_over_time: str | None = None
    """How samples are aggregated over time (e.g. `last_one`, `avg`)."""
    server_address: str | None = None
    """Address of the metrics server, when not the default."""


class MetricTarget(AIMBase):
    type: Literal["Value", "AverageValue", "Utilization"] | None = None
    """How the metric is compared with the target."""
    value: Quantity | None = None
    """Target of `Value`."""
    average_value: Quantity | None = None
    """Target per pod, of `AverageValue`."""
    average_utilization: NonNegativeInt | None = None
    """Target percentage, of `Utilization`."""


class PodMetric(AIMBase):
    metric: PodMetricSource | None = None
    """Which metric is read, and from where."""
    target: MetricTarget | None = None
    """The value KEDA keeps the metric at."""


class AutoScalingMetric(AIMBase):
    type: Literal["PodMetric"]
    """The kind of metric; only `PodMetric`."""
    podmetric: PodMetric | None = None
    """The pod metric and its target."""


class AutoScaling(AIMBase):
    metrics: list[AutoScalingMetric] = Field(default_factory=list)
    """The metrics KEDA scales on."""
    polling_interval: NonNegativeInt | None = None
    """Seconds between KEDA metric polls."""
    cooldown_period: NonNegativeInt | None = None
    """Seconds after the last active trigger before scaling to zero."""


_LEGACY_CACHE_MODES = {"Auto": "Shared", "Always": "Shared", "Never": "Dedicated"}


class ServiceCaching(AIMBase):
    """Cache mode (A14); legacy `Auto`/`Always` read as `Shared`, `Never` as `Dedicated`."""

    mode: Literal["Shared", "Dedicated"] = "Shared"
    """
    `Shared`: one cache PVC per (namespace, profile, source), kept beyond any service; `Dedicated`: one per
    service, deleted with it.
    """
    env: list[EnvVar] = Field(default_factory=list)
    """Environment variables for the download Job."""

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        mode = data.get("mode")
        if isinstance(mode, str) and mode in _LEGACY_CACHE_MODES:
            return {**data, "mode": _LEGACY_CACHE_MODES[mode]}
        return data


class ServiceSpec(AIMBase):
    model: ServiceModel | None = None
    """The model to serve: by name (an AIMModel / AIMClusterModel) or by image."""
    profile: ServiceProfile | None = None
    """The profile to bind: by name, or chosen by a selector."""
    profile_overrides: ProfileOverrides | None = None
    """A service-owned overlay of `profile.name` (needs `profile.name`, not a selector)."""
    runtime_config_name: str | None = None
    """The runtime config to resolve (namespace merged over cluster); default `default`."""
    runtime_config: RuntimeConfigBlock | None = None
    """Runtime-config fields set inline on this service; they win over the named config."""
    storage: Storage | None = None
    """Storage settings for this service's caches, over the runtime config's."""
    routing: Routing | None = None
    """Expose the service through a Gateway API HTTPRoute."""
    scale_from_zero: ScaleFromZero | None = None
    """The activation query that wakes a service scaled to zero."""
    env: list[EnvVar] = Field(default_factory=list)
    """Environment variables for the inference container, over the runtime config's."""
    replicas: NonNegativeInt | None = None
    """Fixed replica count (default 1) when no autoscaling bounds are set."""
    min_replicas: NonNegativeInt | None = None
    """Lower autoscaling bound; 0 scales to zero (needs routing)."""
    max_replicas: Annotated[int, Field(ge=1, le=INT32_MAX)] | None = None
    """Upper autoscaling bound; setting it enables KEDA autoscaling."""
    auto_scaling: AutoScaling | None = None
    """Custom KEDA metrics (typically vLLM OpenTelemetry metrics)."""
    resources: ResourceRequirements | None = None
    """Container resources, merged over the resolved profile's."""
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    """Pull secrets, merged with the profile's."""
    service_account_name: str | None = None
    """Service account of the inference pods."""
    priority_class_name: str | None = None
    """Priority class of the inference pods."""
    caching: ServiceCaching | None = None
    """Pre-download the model sources onto a PVC before the InferenceService starts."""
    # Accepted only to be rejected with reason Unsupported (A21): LoRA adapters are out of scope.
    adapters: Any = None
    """LoRA adapters: rejected with reason Unsupported."""

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        data = dict(data)
        if "runtimeConfigRef" in data:
            ref = data.pop("runtimeConfigRef")
            if not isinstance(ref, dict) or set(ref) - {"name"} or not isinstance(ref.get("name"), str):
                raise AIMValidationError(
                    "runtimeConfigRef",
                    "InvalidSpec",
                    "`runtimeConfigRef` must be a mapping with a `name` string",
                )
            data = rename_alias(
                {**data, "runtimeConfigRef": ref["name"]}, "runtimeConfigRef", "runtimeConfigName"
            )
        if "cacheModel" in data:
            flag = data.pop("cacheModel")
            if not isinstance(flag, bool):
                raise AIMValidationError("cacheModel", "InvalidSpec", "`cacheModel` must be true or false")
            mode = "Shared" if flag else "Dedicated"
            caching = data.get("caching")
            if caching is None:
                data["caching"] = {"mode": mode}
            elif isinstance(caching, dict) and "mode" not in caching:
                data["caching"] = {**caching, "mode": mode}
        return data


class ProfileOverlayStatus(AIMStatusBase):
    name: str | None = None


class RoutingStatus(AIMStatusBase):
    path: str | None = None


class ServiceStatus(AIMStatusBase):
    resolved_profile: StatusRef | None = None
    resolved_runtime_config: StatusRef | None = None
    resolved_model: StatusRef | None = None
    profile_overlay: ProfileOverlayStatus | None = None
    reconciler_pipeline: str | None = None
    routing: RoutingStatus | None = None
    conditions: list[StatusCondition] = Field(default_factory=list)
    status: str | None = None


class AIMServiceObject(AIMKind):
    """An AIMService as a typed AIM object (v1alpha2), what `parse` returns for one.

    Named apart from the component (`aim_pulumi.AIMService`, the only class named AIMService);
    `aim_pulumi.api.AIMService`, the stable name of the API, is this class under its kind's name
    (`aim_pulumi/api/__init__.py`).
    """

    KIND: ClassVar[str] = "AIMService"
    SCOPE: ClassVar[Scope] = "Namespace"
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha2",)

    api_version: str = f"{AIM_GROUP}/v1alpha2"
    kind: Literal["AIMService"] = "AIMService"
    spec: ServiceSpec
    status: ServiceStatus | None = None

    @property
    def effective_uid(self) -> str:
        """The adopted UID, else the stable `uuid5` of namespace and name (contract decision 2)."""
        if self.metadata.uid:
            return self.metadata.uid
        return str(
            uuid.uuid5(uuid.NAMESPACE_URL, f"{AIM_GROUP}/{self.metadata.namespace}/{self.metadata.name}")
        )

    def own_rules(self) -> list[AIMValidationError]:
        return [*super().own_rules(), *service_rules(self)]

    def version_rules(self) -> Problems:
        """What a version's own fields forbid in another version; the core serves one version."""
        return []

    def pipeline_rules(self) -> Problems:
        """What makes a spec name two pipelines; the core has one (the profile pipeline)."""
        return []

    def custom_model_rules(self) -> Problems:
        """A10: an inline custom model belongs to the template pipeline, which the core does not serve."""
        if self.spec.model is None or self.spec.model.custom is None:
            return []
        return [
            problem(
                "spec.model.custom",
                "inline custom models are served by the v1alpha1 template pipeline, which is not "
                "installed; declare an AIMModel with spec.profiles (a custom model) and use spec.model.name",
                "Unsupported",
            )
        ]


# --- admission rules of this kind (behaviour §2) -------------------------------------------------


def service_rules(svc: AIMServiceObject) -> Problems:
    """A1-A13, A20, A21 and the autoscaling-needs-metrics rule, in that order.

    A1, A2 and A4's template half are a version's rules (`version_rules`, `pipeline_rules`): the
    class that serves v1alpha1 adds them.
    """
    return [
        *svc.version_rules(),
        *_service_anchor_rules(svc),
        *svc.pipeline_rules(),
        *_service_profile_rules(svc),
        *_service_model_rules(svc),
        *_service_replica_rules(svc),
        *_service_override_rules(svc),
        *_service_autoscaling_rules(svc),
        *_service_unsupported_rules(svc),
    ]


def _service_anchor_rules(svc: AIMServiceObject) -> Problems:
    """A3 (something to resolve); A4 (one pipeline per service) follows in `pipeline_rules`."""
    out: Problems = []
    spec = svc.spec
    if spec.model is None and spec.profile is None:
        out.append(problem("spec", "one of spec.model or spec.profile must be specified"))
    elif (
        spec.model is None
        and spec.profile is not None
        and not is_set(spec.profile.name)
        and spec.profile.selector is None
    ):
        # An empty profile block names nothing: resolving it would rank every profile in reach, the
        # unanchored selection A7 forbids for an explicit selector.
        out.append(
            problem(
                "spec.profile",
                "spec.profile needs a name or a selector, or spec.model beside it; it names nothing",
            )
        )
    return out


def _service_profile_rules(svc: AIMServiceObject) -> Problems:
    """A5 (overrides need a named seed), A6 (never a base role), A7 (anchored selector), A8."""
    out: Problems = []
    spec = svc.spec
    profile_name = spec.profile.name if spec.profile is not None else None
    selector = spec.profile.selector if spec.profile is not None else None
    if spec.profile_overrides is not None and not is_set(profile_name):
        out.append(
            problem(
                "spec.profileOverrides", "spec.profileOverrides requires spec.profile.name (the seed profile)"
            )
        )
    if selector is not None:
        out.extend(path_segment_problems("spec.profile.selector.aimId", selector.aim_id))
        if selector.role is not None and selector.role != "deployable":
            out.append(
                problem(
                    "spec.profile.selector.role",
                    f"role {selector.role!r} is reserved: a service only binds deployable profiles; "
                    "omit role or set it to deployable",
                )
            )
        anchored = (
            is_set(selector.aim_id)
            or (selector.model_ref is not None and is_set(selector.model_ref.name))
            or spec.model is not None
        )
        if not anchored:
            out.append(
                problem(
                    "spec.profile.selector",
                    "a selector needs selector.aimId, selector.modelRef.name, or spec.model",
                )
            )
        if is_set(profile_name):
            out.append(
                problem(
                    "spec.profile.selector",
                    "spec.profile.name and spec.profile.selector are mutually exclusive",
                )
            )
    return out


def _service_model_rules(svc: AIMServiceObject) -> Problems:
    """A9 (exactly one model anchor)."""
    model = svc.spec.model
    if model is None:
        return []
    anchors = [n for n, v in (("name", model.name), ("image", model.image)) if is_set(v)]
    if model.custom is not None:
        anchors.append("custom")
    if len(anchors) != 1:
        found = ", ".join(anchors) if anchors else "none"
        return [
            problem("spec.model", f"spec.model needs exactly one of name, image, custom (found: {found})")
        ]
    return []


def _service_replica_rules(svc: AIMServiceObject) -> Problems:
    """A11: bounds in order (the single-field bounds are on the fields)."""
    spec = svc.spec
    if (
        spec.min_replicas is not None
        and spec.max_replicas is not None
        and spec.min_replicas > spec.max_replicas
    ):
        return [
            problem(
                "spec.minReplicas",
                f"minReplicas ({spec.min_replicas}) must not exceed maxReplicas ({spec.max_replicas})",
            )
        ]
    return []


def _service_override_rules(svc: AIMServiceObject) -> Problems:
    """A13: partitioning changes the device count, so the count must be given with it."""
    overrides = svc.spec.profile_overrides
    if (
        overrides is not None
        and is_set(overrides.accelerator_partitioning_mode)
        and overrides.accelerator_count is None
    ):
        return [
            problem(
                "spec.profileOverrides.acceleratorPartitioningMode",
                "spec.profileOverrides.acceleratorPartitioningMode requires "
                "spec.profileOverrides.acceleratorCount",
            )
        ]
    return []


def _service_autoscaling_rules(svc: AIMServiceObject) -> Problems:
    """A20 (buildable triggers) and AutoscalingRequiresMetrics (bounds with nothing to scale on)."""
    out: Problems = []
    spec = svc.spec
    metrics = spec.auto_scaling.metrics if spec.auto_scaling is not None else []
    for i, metric in enumerate(metrics):
        base = f"spec.autoScaling.metrics[{i}]"
        pod = metric.podmetric
        if pod is None:
            out.append(problem(f"{base}.podmetric", "a PodMetric trigger needs podmetric"))
            continue
        source = pod.metric
        if source is None or (not source.metric_names and not is_set(source.query)):
            out.append(problem(f"{base}.podmetric.metric", "podmetric.metric needs metricNames or query"))
        if pod.target is None or pod.target.type is None:
            out.append(
                problem(
                    f"{base}.podmetric.target.type",
                    "podmetric.target.type is required (Value, AverageValue or Utilization)",
                )
            )
    autoscaling = (
        spec.auto_scaling is not None or spec.min_replicas is not None or spec.max_replicas is not None
    )
    minimum = spec.min_replicas if spec.min_replicas is not None else 1
    if autoscaling and minimum > 0 and not metrics:
        out.append(
            problem(
                "spec.autoScaling.metrics",
                f"autoscaling with minReplicas {minimum} needs at least one spec.autoScaling.metrics entry "
                "(or minReplicas: 0 for scale-from-zero)",
                "AutoscalingRequiresMetrics",
            )
        )
    return out


def _service_unsupported_rules(svc: AIMServiceObject) -> Problems:
    """A10, A21: accepted by the operator's schema but not implementable without a cluster."""
    out: Problems = svc.custom_model_rules()
    if svc.spec.adapters is not None:
        out.append(problem("spec.adapters", "LoRA adapters are not supported", "Unsupported"))
    return out
