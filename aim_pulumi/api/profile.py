"""AIMProfile and AIMClusterProfile (v1alpha2): a self-contained runtime a service can bind to."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api.admission import (
    MANAGED_VLLM_FLAGS,
    PROFILE_ROLE_LABEL,
    PROFILE_ROLES,
    Problems,
    normalise_flag,
    path_segment_problems,
    problem,
)
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
from aim_pulumi.api.limits import INT32_MAX

# P2: used in node labels, so it must be a valid label value.
AcceleratorModel = Annotated[str, Field(max_length=63, pattern=r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")]


class ProfileCaching(AIMBase):
    enabled: bool | None = None
    """Cache the model sources of services bound to this profile."""
    env: list[EnvVar] = Field(default_factory=list)
    """Environment variables for the download Job."""


class ProfileSpec(AIMBase):
    aim_id: str | None = None
    """The AIM id (e.g. `qwen/qwen3-32b`) selectors and models match; unset together with
    `modelSources` on a base (skeleton) profile, which the catalog keeps but no service can bind
    (behaviour §4.9, reason `BaseProfile`)."""
    image: NonEmptyStr
    """The serving image."""
    model_id: str | None = None
    """The model the profile serves."""
    profile_id: str | None = None
    """Publisher's profile id."""
    engine: str | None = None
    """Serving engine (e.g. `vllm`)."""
    metric: Metric | None = None
    """What the profile is tuned for."""
    precision: Precision | None = None
    """Precision of the weights."""
    type: ProfileType | None = None
    """Optimization tier; selection admits `optimized` unless told otherwise."""
    primary: bool | None = None
    """Ranks above non-primary profiles of the same tier."""
    auto_selection_policy: AutoSelectionPolicy | None = None
    """`any` admits a lower tier in the second selection pass."""
    engine_args: JsonObject = Field(default_factory=dict)
    """Engine arguments (written to the profile ConfigMap and vLLM flags)."""
    engine_env: dict[str, str] = Field(default_factory=dict)
    """Engine environment variables."""
    manual_selection_only: bool | None = None
    """Bound only by name (`spec.profile.name`), never chosen by a selector or by model."""
    variant: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$")] | None = None
    """The publisher's variant of the runtime (e.g. `eagle`)."""
    features: list[str] = Field(default_factory=list)
    """Runtime features the image supports (e.g. `adapters`)."""
    accelerator_model: AcceleratorModel | None = None
    """Accelerator model (a node label value)."""
    accelerator_vendor: AcceleratorVendor | None = None
    """Accelerator vendor."""
    accelerator_type: AcceleratorType | None = None
    """Accelerator type."""
    accelerator_count: Annotated[int, Field(ge=0, le=INT32_MAX)] | None = None
    """Devices per replica."""
    accelerator_partitioning_mode: str | None = None
    """Accelerator partitioning mode."""
    resources: ResourceRequirements | None = None
    """Container resources."""
    model_sources: list[ModelSource] = Field(default_factory=list)
    """The weights to serve; what caches download."""
    container_env: list[EnvVar] = Field(default_factory=list)
    """Environment variables of the inference container."""
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    """Pull secrets of the inference pods."""
    service_account_name: str | None = None
    """Service account of the inference pods."""
    runtime_config_name: str | None = None
    """The runtime config the profile's consumers resolve."""
    storage_class_name: str | None = None
    """Storage class of this profile's caches, over the runtime config's."""
    caching: ProfileCaching | None = None
    """Cache the model sources (namespace profiles only)."""


class ProfileStatus(AIMStatusBase):
    status: str | None = None
    version: str | None = None
    deployable: bool | None = None
    resources: ResourceRequirements | None = None


class ProfileKind(AIMKind):
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha2",)

    spec: ProfileSpec
    status: ProfileStatus | None = None

    def own_rules(self) -> list[AIMValidationError]:
        return [*super().own_rules(), *profile_rules(self)]


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


# --- admission rules of this kind (behaviour §2) -------------------------------------------------


def profile_rules(profile: ProfileKind) -> Problems:
    """P1 (non-empty anchors), P4 (engine args), P5 (cluster caching), P6 (role label)."""
    out: Problems = []
    spec = profile.spec
    if spec.aim_id is not None and not spec.aim_id.strip():
        out.append(problem("spec.aimId", "spec.aimId must not be blank; omit it only on a base profile"))
    elif spec.aim_id is None and spec.model_sources:
        out.append(
            problem(
                "spec.aimId",
                "spec.modelSources needs spec.aimId: a deployable profile names its model; a base "
                "profile sets neither",
            )
        )
    out.extend(path_segment_problems("spec.aimId", spec.aim_id))
    out.extend(path_segment_problems("spec.modelId", spec.model_id))
    if not spec.image.strip():
        out.append(problem("spec.image", "spec.image must not be blank"))
    if spec.accelerator_vendor == "nvidia" and (spec.engine or "").lower() == "vllm":
        seen: dict[str, str] = {}
        for key in spec.engine_args:
            flag = normalise_flag(key)
            if flag in MANAGED_VLLM_FLAGS:
                out.append(
                    problem(
                        "spec.engineArgs",
                        f"engine arg {key!r} is managed by the vLLM command line; remove it",
                    )
                )
            elif flag in seen:
                out.append(
                    problem(
                        "spec.engineArgs",
                        f"engine args {seen[flag]!r} and {key!r} name the same vLLM flag --{flag}",
                    )
                )
            seen.setdefault(flag, key)
    if profile.SCOPE == "Cluster" and spec.caching is not None:
        out.append(
            problem("spec.caching", "caching is namespace-only; AIMClusterProfile cannot set spec.caching")
        )
    role = profile.metadata.labels.get(PROFILE_ROLE_LABEL)
    if role is not None and role not in PROFILE_ROLES:
        out.append(
            problem(
                f"metadata.labels.{PROFILE_ROLE_LABEL}", f"profile role {role!r} must be deployable or base"
            )
        )
    return out


def deprecation_notes(spec: ProfileSpec) -> list[str]:
    """What a profile sets that its CRD keeps but marks deprecated: `field: Reason: message` each.

    Said as a warning by the plan (an error under `aim:strict`) and as a note by `validate`. The
    CRD describes `manualSelectionOnly` as superseded by `type` and a selector's `minimumType`, and
    upstream's resolver no longer reads it; the profiles discovery writes still rely on it here.
    """
    if spec.manual_selection_only is None:
        return []
    return [
        "spec.manualSelectionOnly: DeprecatedField: deprecated in the CRD, superseded by `type` and a "
        "selector's `minimumType` (the operator's resolver ignores it); this plan still keeps the profile "
        "out of selector and by-model choices: give it `type: unoptimized` instead, which a selector "
        "admits only with `minimumType: unoptimized`"
    ]
