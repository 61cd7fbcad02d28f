"""AIMProfile and AIMClusterProfile (v1alpha2): a self-contained runtime a service can bind to."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api import admission
from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, AIMStatusBase, Scope
from aim_pulumi.api.common import (
    AcceleratorType,
    AcceleratorVendor,
    AutoSelectionPolicy,
    EnvVar,
    JsonObject,
    LocalObjectReference,
    Metric,
    ModelSource,
    NonEmptyStr,
    Precision,
    ProfileType,
    ResourceRequirements,
)
from aim_pulumi.api.errors import AIMValidationError

# P2: used in node labels, so it must be a valid label value.
AcceleratorModel = Annotated[str, Field(max_length=63, pattern=r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")]


class ProfileCaching(AIMBase):
    enabled: bool | None = None
    env: list[EnvVar] = Field(default_factory=list)


class ProfileSpec(AIMBase):
    aim_id: NonEmptyStr
    image: NonEmptyStr
    model_id: str | None = None
    profile_id: str | None = None
    engine: str | None = None
    metric: Metric | None = None
    precision: Precision | None = None
    type: ProfileType | None = None
    primary: bool | None = None
    auto_selection_policy: AutoSelectionPolicy | None = None
    engine_args: JsonObject = Field(default_factory=dict)
    engine_env: dict[str, str] = Field(default_factory=dict)
    accelerator_model: AcceleratorModel | None = None
    accelerator_vendor: AcceleratorVendor | None = None
    accelerator_type: AcceleratorType | None = None
    accelerator_count: Annotated[int, Field(ge=0)] | None = None
    accelerator_partitioning_mode: str | None = None
    resources: ResourceRequirements | None = None
    model_sources: list[ModelSource] = Field(default_factory=list)
    container_env: list[EnvVar] = Field(default_factory=list)
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    service_account_name: str | None = None
    runtime_config_name: str | None = None
    storage_class_name: str | None = None
    caching: ProfileCaching | None = None


class ProfileStatus(AIMStatusBase):
    status: str | None = None
    version: str | None = None
    deployable: bool | None = None
    resources: ResourceRequirements | None = None


class ProfileKind(AIMKind):
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha2",)

    spec: ProfileSpec
    status: ProfileStatus | None = None

    def admission_problems(self) -> list[AIMValidationError]:
        return [*super().admission_problems(), *admission.profile_rules(self)]


class AIMProfile(ProfileKind):
    KIND: ClassVar[str] = "AIMProfile"
    SCOPE: ClassVar[Scope] = "Namespace"

    api_version: str = f"{AIM_GROUP}/v1alpha2"
    kind: Literal["AIMProfile"] = "AIMProfile"


class AIMClusterProfile(ProfileKind):
    KIND: ClassVar[str] = "AIMClusterProfile"
    SCOPE: ClassVar[Scope] = "Cluster"

    api_version: str = f"{AIM_GROUP}/v1alpha2"
    kind: Literal["AIMClusterProfile"] = "AIMClusterProfile"
