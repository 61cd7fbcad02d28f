"""AIMService in both served versions (v1alpha2 profile shape and v1alpha1 template shape) in one class.

Legacy spellings (`spec.model.ref`, `spec.templateName`, `spec.runtimeConfigRef.name`, caching
modes `Auto`/`Always`/`Never`, v1alpha1 `spec.cacheModel`) are read and stored canonically.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api import admission
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

NonNegativeInt = Annotated[int, Field(ge=0)]


class ServiceModel(AIMBase):
    """The model anchor: exactly one of `name`, `image`, `custom` (A9)."""

    name: str | None = None
    image: str | None = None
    # Accepted only to be rejected with reason Unsupported (A10): custom models need discovery.
    custom: Any = None

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        return rename_alias(data, "ref", "name")


class ModelRef(AIMBase):
    name: str | None = None
    scope: Literal["Auto", "Namespace", "Cluster"] = "Auto"


class ProfileSelector(AIMBase):
    aim_id: str | None = None
    model_id: str | None = None
    profile_id: str | None = None
    model_ref: ModelRef | None = None
    origin: str | None = None
    role: str | None = None
    engine: str | None = None
    metric: str | None = None
    precision: str | None = None
    type: str | None = None
    minimum_type: Literal["optimized", "general", "preview", "unoptimized", "any"] | None = None
    accelerator_model: str | None = None
    accelerator_vendor: str | None = None
    accelerator_type: str | None = None
    accelerator_count: NonNegativeInt | None = None
    accelerator_partitioning_mode: str | None = None
    engine_args: JsonObject = Field(default_factory=dict)


class ServiceProfile(AIMBase):
    name: str | None = None
    selector: ProfileSelector | None = None


class ProfileOverrides(AIMBase):
    model_sources: list[ModelSource] = Field(default_factory=list)
    accelerator_model: str | None = None
    accelerator_partitioning_mode: str | None = None
    accelerator_count: NonNegativeInt | None = None
    container_env: list[EnvVar] = Field(default_factory=list)
    engine_env: dict[str, str] = Field(default_factory=dict)
    engine_args: JsonObject = Field(default_factory=dict)


class SelectionCriteria(AIMBase):
    precision: str | None = None
    metric: str | None = None
    accelerator_model: str | None = None
    accelerator_count: NonNegativeInt | None = None
    engine: str | None = None


class ServiceTemplateRef(AIMBase):
    name: str | None = None
    selection_criteria: SelectionCriteria | None = None


class GpuSelector(AIMBase):
    model: str | None = None
    count: NonNegativeInt | None = None


class ServiceOverrides(AIMBase):
    metric: str | None = None
    precision: str | None = None
    engine_args: JsonObject = Field(default_factory=dict)
    env: list[EnvVar] = Field(default_factory=list)
    gpu_selector: GpuSelector | None = None


class PodMetricSource(AIMBase):
    backend: str | None = None
    metric_names: list[str] = Field(default_factory=list)
    query: str | None = None
    operation_over_time: str | None = None
    server_address: str | None = None


class MetricTarget(AIMBase):
    type: Literal["Value", "AverageValue", "Utilization"] | None = None
    value: Quantity | None = None
    average_value: Quantity | None = None
    average_utilization: int | None = None


class PodMetric(AIMBase):
    metric: PodMetricSource | None = None
    target: MetricTarget | None = None


class AutoScalingMetric(AIMBase):
    type: Literal["PodMetric"]
    podmetric: PodMetric | None = None


class AutoScaling(AIMBase):
    metrics: list[AutoScalingMetric] = Field(default_factory=list)
    polling_interval: NonNegativeInt | None = None
    cooldown_period: NonNegativeInt | None = None


_LEGACY_CACHE_MODES = {"Auto": "Shared", "Always": "Shared", "Never": "Dedicated"}


class ServiceCaching(AIMBase):
    """Cache mode (A14); legacy `Auto`/`Always` read as `Shared`, `Never` as `Dedicated`."""

    mode: Literal["Shared", "Dedicated"] = "Shared"
    env: list[EnvVar] = Field(default_factory=list)

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        mode = data.get("mode")
        if isinstance(mode, str) and mode in _LEGACY_CACHE_MODES:
            return {**data, "mode": _LEGACY_CACHE_MODES[mode]}
        return data


class ServiceSpec(AIMBase):
    model: ServiceModel | None = None
    profile: ServiceProfile | None = None
    profile_overrides: ProfileOverrides | None = None
    template: ServiceTemplateRef | None = None
    overrides: ServiceOverrides | None = None
    runtime_config_name: str | None = None
    runtime_config: RuntimeConfigBlock | None = None
    storage: Storage | None = None
    routing: Routing | None = None
    scale_from_zero: ScaleFromZero | None = None
    env: list[EnvVar] = Field(default_factory=list)
    replicas: NonNegativeInt | None = None
    min_replicas: NonNegativeInt | None = None
    max_replicas: Annotated[int, Field(ge=1)] | None = None
    auto_scaling: AutoScaling | None = None
    resources: ResourceRequirements | None = None
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    service_account_name: str | None = None
    priority_class_name: str | None = None
    caching: ServiceCaching | None = None
    # Accepted only to be rejected with reason Unsupported (A21): LoRA adapters are out of scope.
    adapters: Any = None

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        data = dict(data)
        if "templateName" in data:
            name = data.pop("templateName")
            template = data.get("template")
            if template is None:
                data["template"] = {"name": name}
            elif isinstance(template, dict) and template.get("name", name) == name:
                data["template"] = {**template, "name": name}
            else:
                raise AIMValidationError(
                    "templateName",
                    "InvalidSpec",
                    "`templateName` is an alias of `template.name`; set only one",
                )
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
    resolved_template: StatusRef | None = None
    resolved_model: StatusRef | None = None
    profile_overlay: ProfileOverlayStatus | None = None
    reconciler_pipeline: str | None = None
    routing: RoutingStatus | None = None
    conditions: list[StatusCondition] = Field(default_factory=list)
    status: str | None = None


class AIMService(AIMKind):
    KIND: ClassVar[str] = "AIMService"
    SCOPE: ClassVar[Scope] = "Namespace"
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1", "v1alpha2")

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

    @property
    def is_legacy(self) -> bool:
        return self.api_version.endswith("/v1alpha1")

    def admission_problems(self) -> list[AIMValidationError]:
        return [*super().admission_problems(), *admission.service_rules(self)]
