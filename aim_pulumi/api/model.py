"""AIMModel and AIMClusterModel: an image-backed or ID-backed model that profiles belong to."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api import admission
from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, Scope
from aim_pulumi.api.common import AcceleratorVendor, GenericStatus, LocalObjectReference, Quantity
from aim_pulumi.api.errors import AIMValidationError


class ModelAccelerator(AIMBase):
    """The model's hardware shape; `count` drives the device request and tensor parallelism (M3)."""

    count: Annotated[int, Field(ge=1)] = 1
    vendor: AcceleratorVendor | None = None
    model: str | None = None
    partitioning_mode: str | None = None


class ModelSourceSpec(AIMBase):
    uri: str | None = None
    size: Quantity | None = None
    precision: str | None = None


class ModelSpec(AIMBase):
    image: str | None = None
    model_id: str | None = None
    aim_id: str | None = None
    accelerator: ModelAccelerator | None = None
    source: ModelSourceSpec | None = None
    runtime_config_name: str | None = None
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    service_account_name: str | None = None
    # Accepted only to be rejected with reason Unsupported (M2): profile derivation is not implemented.
    profiles: Any = None


class ModelKind(AIMKind):
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1", "v1alpha2")

    spec: ModelSpec
    status: GenericStatus | None = None

    def admission_problems(self) -> list[AIMValidationError]:
        return [*super().admission_problems(), *admission.model_rules(self)]


class AIMModel(ModelKind):
    KIND: ClassVar[str] = "AIMModel"
    SCOPE: ClassVar[Scope] = "Namespace"

    api_version: str = f"{AIM_GROUP}/v1alpha2"
    kind: Literal["AIMModel"] = "AIMModel"


class AIMClusterModel(ModelKind):
    KIND: ClassVar[str] = "AIMClusterModel"
    SCOPE: ClassVar[Scope] = "Cluster"

    api_version: str = f"{AIM_GROUP}/v1alpha2"
    kind: Literal["AIMClusterModel"] = "AIMClusterModel"
