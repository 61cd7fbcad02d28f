"""AIMModel and AIMClusterModel: an image-backed or ID-backed model that profiles belong to."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api.admission import Problems, is_set, path_segment_problems, problem
from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, Scope
from aim_pulumi.api.common import AcceleratorVendor, GenericStatus, LocalObjectReference, Quantity
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import INT32_MAX


class ModelAccelerator(AIMBase):
    """The model's hardware shape; `count` drives the device request and tensor parallelism (M3)."""

    count: Annotated[int, Field(ge=1, le=INT32_MAX)] = 1
    """Devices per replica: the device request and the engine's tensor-parallel size."""
    vendor: AcceleratorVendor | None = None
    """Narrows which fallbacks apply."""
    model: str | None = None
    """Narrows further, and is stamped on the generated profile."""
    partitioning_mode: str | None = None
    """Accelerator partitioning mode (e.g. `unpartitioned`)."""


class ModelSourceSpec(AIMBase):
    uri: str | None = None
    """Where the weights come from (`hf://...`, `s3://...`); default from `modelId`."""
    size: Quantity | None = None
    """Size of the weights; sizes the cache PVC."""
    precision: str | None = None
    """Precision of the weights."""


class ModelSpec(AIMBase):
    image: str | None = None
    """An AIM image; its profiles must be declared (no discovery Job runs)."""
    model_id: str | None = None
    """A model id (e.g. `Qwen/Qwen3-8B`); profiles are generated from the runtime config's fallbacks."""
    aim_id: str | None = None
    """The AIM id profiles of this model carry."""
    accelerator: ModelAccelerator | None = None
    """The model's hardware shape."""
    source: ModelSourceSpec | None = None
    """The model's weights."""
    runtime_config_name: str | None = None
    """The runtime config whose fallbacks generate profiles; default `default`."""
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    """Pull secrets of the generated profiles."""
    service_account_name: str | None = None
    """Service account of the generated profiles."""
    # Accepted only to be rejected with reason Unsupported (M2): profile derivation is not implemented.
    profiles: Any = None
    """Profile derivation: rejected with reason Unsupported."""


class ModelKind(AIMKind):
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1", "v1alpha2")

    spec: ModelSpec
    status: GenericStatus | None = None

    def own_rules(self) -> list[AIMValidationError]:
        return [*super().own_rules(), *model_rules(self)]


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


# --- admission rules of this kind (behaviour §2) -------------------------------------------------


def model_rules(model: ModelKind) -> Problems:
    """M1 (one onboarding path), M2 (derivation unsupported)."""
    spec = model.spec
    out: Problems = [
        *path_segment_problems("spec.aimId", spec.aim_id),
        *path_segment_problems("spec.modelId", spec.model_id),
    ]
    if is_set(spec.image) and is_set(spec.model_id):
        out.append(problem("spec.modelId", "set exactly one of spec.image and spec.modelId, not both"))
    elif not is_set(spec.image) and not is_set(spec.model_id):
        out.append(
            problem("spec.image", "set exactly one of spec.image (image-backed) and spec.modelId (ID-backed)")
        )
    if spec.profiles is not None:
        out.append(
            problem(
                "spec.profiles",
                "profile derivation (spec.profiles) is not supported; declare profiles",
                "Unsupported",
            )
        )
    return out
