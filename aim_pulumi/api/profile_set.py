"""AIMProfileSet and AIMClusterProfileSet (v1alpha2): derive profiles from other profiles.

A profile set selects source profiles (a selector over identity, engine, hardware, provenance and
version) and writes one derived profile per source with its overrides applied: new weights, another
identity, image, accelerator shape, env or engine arguments. It is how AIM v1alpha2 serves a custom
or fine-tuned model (a `role: base` derivation of a base image's profiles plus your weights) and a
remix of a published profile. `AIMModel.spec.profiles` creates one as the model's child; the types
of its selector and overrides live here, since both kinds read them.

The CRD's rules (a selector field or a `sourceRef`, `pinned` needs `version`, the `role: base`
rules, a partitioning override needs a count) are the vendored CRD's CEL, run by
`aim_pulumi.api.crd` before the rules below.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api.admission import Problems, path_segment_problems
from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, AIMStatusBase, Scope
from aim_pulumi.api.common import (
    AcceleratorType,
    AcceleratorVendor,
    EnvVar,
    JsonObject,
    LocalObjectReference,
    Metric,
    ModelSource,
    NonEmptyStr,
    StatusCondition,
)
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import INT32_MAX

VersionPolicy = Literal["pinned", "latest", "all"]
DerivationRole = Literal["base", "deployable"]
ProfileOrigin = Literal["discovered", "derived", "generated", "user-authored"]
SelectorPrecision = Literal["auto", "fp4", "fp8", "fp16", "fp32", "fp64", "bf16", "int4", "int8"]
SelectorProfileType = Literal["optimized", "general", "preview", "unoptimized"]
MinimumType = Literal["optimized", "general", "preview", "unoptimized", "any"]
ModelRefScope = Literal["Auto", "Namespace", "Cluster"]
Int32 = Annotated[int, Field(ge=-(INT32_MAX + 1), le=INT32_MAX)]


class DerivationModelRef(AIMBase):
    name: NonEmptyStr
    """The AIMModel or AIMClusterModel whose profiles are sources (the `source-model` label)."""
    scope: ModelRefScope | None = None
    """`Auto` (default): the set's namespace first, then the cluster; or only one of them."""


class DerivationSelector(AIMBase):
    """Which profiles are sources: every field set must match (an unset field matches anything)."""

    aim_id: str | None = None
    """Matches the source's `spec.aimId`."""
    model_id: str | None = None
    """Matches the source's `spec.modelId`."""
    profile_id: str | None = None
    """Matches the source's `spec.profileId`."""
    engine: str | None = None
    """Matches the source's `spec.engine`."""
    metric: Metric | None = None
    """Matches the source's `spec.metric`."""
    precision: SelectorPrecision | None = None
    """Matches the source's `spec.precision`."""
    type: SelectorProfileType | None = None
    """Matches the source's `spec.type` exactly."""
    minimum_type: MinimumType | None = None
    """The lowest optimization tier a source may have; unset or `any` admits every tier."""
    accelerator_model: str | None = None
    """Matches the source's `spec.acceleratorModel` (exactly)."""
    accelerator_vendor: AcceleratorVendor | None = None
    """Matches the source's `spec.acceleratorVendor` (namespaced sets only)."""
    accelerator_partitioning_mode: str | None = None
    """`unpartitioned`, `partitioned`, a scheme prefix (`CPX`) or an exact mode (`CPX-NPS1`)."""
    accelerator_type: AcceleratorType | None = None
    """Matches the source's `spec.acceleratorType`."""
    accelerator_count: Int32 | None = None
    """Matches the source's `spec.acceleratorCount`."""
    engine_args: JsonObject | None = None
    """Every top-level key given must exist in the source's engine arguments with an equal value."""
    model_ref: DerivationModelRef | None = None
    """Only the profiles of this model (by its `aim.eai.amd.com/source-model` label)."""
    role: DerivationRole | None = None
    """`deployable` (default) or `base`: a base image's profiles, which derivation makes deployable."""
    origin: ProfileOrigin | None = None
    """Only profiles of this origin (the `aim.eai.amd.com/profile-origin` label)."""


class DerivationSourceRef(AIMBase):
    name: str
    """A discovery cache (ConfigMap) to read source profiles from instead of the catalog."""


class DerivationOverrides(AIMBase):
    """What every derived profile gets written over its source's spec."""

    aim_id: str | None = None
    """The derived profile's `spec.aimId` (required with `selector.role: base`)."""
    model_id: str | None = None
    """The derived profile's `spec.modelId` (default: the first model source's, when sources are given)."""
    profile_id: str | None = None
    """The derived profile's `spec.profileId`."""
    model_sources: list[ModelSource] | None = None
    """New weights: they replace the source's model sources and rebase the image (see `image`)."""
    image: str | None = None
    """The derived profile's image, over every other rule."""
    accelerator_model: str | None = None
    """Replaces the source's accelerator model."""
    accelerator_vendor: AcceleratorVendor | None = None
    """Replaces the source's accelerator vendor (namespaced sets only)."""
    accelerator_count: Int32 | None = None
    """Replaces the source's accelerator count."""
    accelerator_partitioning_mode: str | None = None
    """Replaces the source's partitioning mode; needs `acceleratorCount`."""
    container_env: list[EnvVar] | None = None
    """Merged by name over the source's container env."""
    engine_env: dict[str, str] | None = None
    """Merged by key over the source's engine env."""
    engine_args: JsonObject | None = None
    """Shallow-merged over the source's engine arguments (top-level keys replaced)."""


class ProfileSetSpec(AIMBase):
    source_ref: DerivationSourceRef | None = None
    """Read source profiles from a discovery cache instead of selecting catalog profiles."""
    selector: DerivationSelector = Field(default_factory=DerivationSelector)
    """Which profiles are sources."""
    version_policy: VersionPolicy | None = None
    """`pinned` (default, with `version`), `latest` (the highest source version), or `all`."""
    version: str | None = None
    """The source version a `pinned` policy copies (a source's `status.version`, else its image tag)."""
    image: str | None = None
    """The derived profiles' image (`overrides.image` wins over it)."""
    overrides: DerivationOverrides | None = None
    """What the derived profiles change."""
    image_pull_secrets: list[LocalObjectReference] | None = None
    """Pull secrets of the derived profiles (default: each source's)."""
    service_account_name: str | None = None
    """Service account of the derived profiles (default: each source's)."""


class ManagedProfileCounts(AIMStatusBase):
    total: int | None = None
    ready: int | None = None
    not_available: int | None = None
    deployable: int | None = None
    base: int | None = None


class ProfileSetStatus(AIMStatusBase):
    status: str | None = None
    managed_profiles: ManagedProfileCounts | None = None
    conditions: list[StatusCondition] = Field(default_factory=list)


class ProfileSetKind(AIMKind):
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha2",)

    spec: ProfileSetSpec
    status: ProfileSetStatus | None = None

    def own_rules(self) -> list[AIMValidationError]:
        return [*super().own_rules(), *profile_set_rules(self)]


class AIMProfileSet(ProfileSetKind):
    KIND: ClassVar[str] = "AIMProfileSet"
    SCOPE: ClassVar[Scope] = "Namespace"

    api_version: str = f"{AIM_GROUP}/v1alpha2"
    kind: Literal["AIMProfileSet"] = "AIMProfileSet"


class AIMClusterProfileSet(ProfileSetKind):
    KIND: ClassVar[str] = "AIMClusterProfileSet"
    SCOPE: ClassVar[Scope] = "Cluster"

    api_version: str = f"{AIM_GROUP}/v1alpha2"
    kind: Literal["AIMClusterProfileSet"] = "AIMClusterProfileSet"


# --- admission rules of this kind (behaviour §2) -------------------------------------------------


def overrides_rules(overrides: DerivationOverrides | None, prefix: str) -> Problems:
    """Identities a derived profile is written with become container paths, as a profile's own do."""
    if overrides is None:
        return []
    return [
        *path_segment_problems(f"{prefix}.aimId", overrides.aim_id),
        *path_segment_problems(f"{prefix}.modelId", overrides.model_id),
    ]


def profile_set_rules(profile_set: ProfileSetKind) -> Problems:
    """The set's overrides; the CRD's CEL (run before) holds the rest."""
    return overrides_rules(profile_set.spec.overrides, "spec.overrides")
