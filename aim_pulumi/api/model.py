"""AIMModel and AIMClusterModel: an image-backed, ID-backed or derived model that profiles belong to."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from aim_pulumi.api.admission import Problems, is_set, path_segment_problems, problem
from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, Scope
from aim_pulumi.api.common import AcceleratorVendor, GenericStatus, LocalObjectReference, Quantity
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import INT32_MAX
from aim_pulumi.api.profile_set import (
    DerivationOverrides,
    DerivationSelector,
    DerivationSourceRef,
    VersionPolicy,
    overrides_rules,
)


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


class ModelDerivedFrom(AIMBase):
    selector: DerivationSelector = Field(default_factory=DerivationSelector)
    """Which profiles the model's profiles are derived from."""
    source_ref: DerivationSourceRef | None = None
    """Read source profiles from a discovery cache instead of selecting catalog profiles."""


class ModelProfileOverrides(DerivationOverrides):
    features: list[str] | None = None
    """Runtime capabilities added to the derived profiles (not modelled: refused when set)."""


class ModelProfiles(AIMBase):
    """A derived model: its profiles are derived from others by the child AIMProfileSet it creates."""

    derived_from: ModelDerivedFrom | None = None
    """The source profiles (required)."""
    version_policy: VersionPolicy | None = None
    """`pinned` (default, with `version`), `latest` (the highest source version), or `all`."""
    version: str | None = None
    """The source version a `pinned` policy copies."""
    overrides: ModelProfileOverrides | None = None
    """What the derived profiles change (new weights, identity, image, hardware, env, arguments)."""


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
    profiles: ModelProfiles | None = None
    """Derive the model's profiles from other profiles (a custom or fine-tuned model)."""
    # v1alpha1 fields the v1alpha2 CRD refuses on a new object (its ratchet, run by the CRD check):
    # read only so that the refusal names the field and says what replaces it.
    derived_from: Any = None
    """Deprecated spelling of `profiles.derivedFrom`: refused on a new object."""
    profile_copy: Any = None
    """Deprecated (v1alpha1): refused on a new object; use `profiles`."""
    custom: Any = None
    """Deprecated (v1alpha1): refused on a new object; use `profiles`."""
    custom_templates: Any = None
    """Deprecated (v1alpha1): refused on a new object; use `profiles`."""
    model_sources: Any = None
    """Deprecated (v1alpha1): refused on a new object; use `profiles.overrides.modelSources`."""


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


# (attribute, field, message, whether an empty list counts as unset): the CRD's ratchet rules.
_LEGACY_FIELDS = (
    (
        "derived_from",
        "spec.derivedFrom",
        "spec.derivedFrom is deprecated on v1alpha2; use spec.profiles",
        False,
    ),
    (
        "profile_copy",
        "spec.profileCopy",
        "spec.profileCopy is forbidden on v1alpha2; use spec.profiles",
        False,
    ),
    ("custom", "spec.custom", "spec.custom is forbidden on v1alpha2; use spec.profiles", False),
    (
        "custom_templates",
        "spec.customTemplates",
        "spec.customTemplates is forbidden on v1alpha2; use spec.profiles",
        True,
    ),
    (
        "model_sources",
        "spec.modelSources",
        "spec.modelSources is forbidden on v1alpha2; use spec.profiles.overrides.modelSources",
        True,
    ),
)


def model_rules(model: ModelKind) -> Problems:
    """M1 (one onboarding path), the v1alpha2 ratchet on legacy fields, the derivation's overrides."""
    spec = model.spec
    out: Problems = [
        *path_segment_problems("spec.aimId", spec.aim_id),
        *path_segment_problems("spec.modelId", spec.model_id),
    ]
    legacy = model.api_version.endswith("/v1alpha1")
    for attribute, field, message, empty_is_unset in _LEGACY_FIELDS:
        value = getattr(spec, attribute)
        if value is None or (empty_is_unset and value == []):
            continue
        if legacy:
            # v1alpha1's own schema takes them, but no v1alpha1 model pipeline is served here.
            out.append(
                problem(
                    field,
                    f"{field} of a v1alpha1 AIMModel is not served; declare a v1alpha2 AIMModel with "
                    "spec.profiles (a custom or fine-tuned model)",
                    "Unsupported",
                )
            )
        else:
            # Every declared object is new to the API server; one served with the field already
            # stored could keep it, which is not something a program declares.
            out.append(problem(field, message))
    paths = [
        name
        for name, present in (
            ("spec.image", is_set(spec.image)),
            ("spec.modelId", is_set(spec.model_id)),
            ("spec.profiles", spec.profiles is not None),
        )
        if present
    ]
    if len(paths) > 1:
        out.append(
            problem(
                paths[1],
                f"set exactly one of spec.image, spec.modelId and spec.profiles, not {' and '.join(paths)}",
            )
        )
    elif not paths and spec.derived_from is None and spec.profile_copy is None:
        out.append(
            problem(
                "spec.image",
                "set exactly one of spec.image (image-backed), spec.modelId (ID-backed) and "
                "spec.profiles (derived from other profiles)",
            )
        )
    if spec.profiles is not None:
        out.extend(_profiles_rules(spec.profiles))
    return out


def _profiles_rules(profiles: ModelProfiles) -> Problems:
    out = overrides_rules(profiles.overrides, "spec.profiles.overrides")
    if profiles.overrides is not None and profiles.overrides.features:
        out.append(
            problem(
                "spec.profiles.overrides.features",
                "profile features are not modelled by aim-pulumi's profiles; remove overrides.features",
                "Unsupported",
            )
        )
    return out
