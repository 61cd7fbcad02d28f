"""AIMServiceTemplate and AIMClusterServiceTemplate (v1alpha1): the legacy runtime description.

The models live with v1alpha1 rather than in `aim_pulumi.api`; v1alpha1's `Extension` serves them
(`aim_pulumi/resolve/legacy/extension.py`), so deleting v1alpha1 deletes them too.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from aim_pulumi.api.admission import Problems, problem
from aim_pulumi.api.base import AIM_GROUP, AIMBase, AIMKind, AIMStatusBase, Scope, rename_alias
from aim_pulumi.api.common import (
    EnvVar,
    JsonObject,
    LocalObjectReference,
    Metric,
    NonEmptyStr,
    ProfileType,
    Quantity,
    ResourceRequirements,
)
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import INT32_MAX
from aim_pulumi.api.profile import ProfileCaching
from aim_pulumi.resolve.legacy.overlays import V1ALPHA1_OVERLAYS
from aim_pulumi.resolve.legacy.service import AIMServiceV1Alpha1
from aim_pulumi.schemas.seed_overlays import Relaxations

#: The template kinds, which the catalog's template index is fed (`index.py`).
TEMPLATE_KINDS = frozenset({"AIMServiceTemplate", "AIMClusterServiceTemplate"})

TemplatePrecision = Literal["auto", "fp4", "fp8", "fp16", "fp32", "bf16", "int4", "int8"]


class TemplateModelSource(AIMBase):
    """A template's static model source, written as the documentation writes it (`name`, `sourceURI`);
    the CRD's spelling (`modelId`, `sourceUri`), which the operator itself writes, is read too."""

    name: str | None = None
    source_uri: str | None = Field(default=None, alias="sourceURI")
    size: Quantity | None = None
    env: list[EnvVar] = Field(default_factory=list)
    """Env of this source's download (e.g. `AWS_ENDPOINT_URL` of an S3 endpoint)."""

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        return rename_alias(rename_alias(data, "sourceUri", "sourceURI"), "modelId", "name")


class StatusModelSource(TemplateModelSource):
    model_config = ConfigDict(extra="allow")


class GpuHardware(AIMBase):
    requests: Annotated[int, Field(ge=0, le=INT32_MAX)] | None = None
    model: str | None = None


class Hardware(AIMBase):
    gpu: GpuHardware | None = None
    # The CPU requirement shape is not fixed by the template documents; it is carried as given.
    cpu: dict[str, Any] | None = None


class CustomProfile(AIMBase):
    """The AIM profile a template describes itself instead of one its image ships (upstream's
    custom-profile template path): the engine arguments and env of the profile file a service of
    the template mounts (`template_profile.py` converts it into the profile's `engineArgs` and
    `engineEnv`, which the profile file carries)."""

    engine_args: JsonObject = Field(default_factory=dict)
    env_vars: dict[str, str] = Field(default_factory=dict)


class TemplateSpec(AIMBase):
    model_name: NonEmptyStr
    type: ProfileType | None = None
    """The template's optimization tier (an inline custom model's is `unoptimized`, and a custom
    profile's by default)."""
    runtime_config_name: str | None = None
    metric: Metric | None = None
    precision: TemplatePrecision | None = None
    profile_id: str | None = None
    # The custom-profile template path (`customProfile`, with the AIM and model id its file names).
    aim_id: str | None = None
    model_id: str | None = None
    custom_profile: CustomProfile | None = None
    hardware: Hardware | None = None
    image_pull_secrets: list[LocalObjectReference] = Field(default_factory=list)
    service_account_name: str | None = None
    resources: ResourceRequirements | None = None
    env: list[EnvVar] = Field(default_factory=list)
    caching: ProfileCaching | None = None
    model_sources: list[TemplateModelSource] = Field(default_factory=list)


class TemplateStatus(AIMStatusBase):
    status: str | None = None
    version: str | None = None
    profile: dict[str, Any] | None = None
    model_sources: list[StatusModelSource] = Field(default_factory=list)


class TemplateKind(AIMKind):
    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1",)
    SCHEMA_RELAXATIONS: ClassVar[Relaxations] = V1ALPHA1_OVERLAYS

    spec: TemplateSpec
    status: TemplateStatus | None = None

    def own_rules(self) -> list[AIMValidationError]:
        return [*super().own_rules(), *template_rules(self)]


class AIMServiceTemplate(TemplateKind):
    KIND: ClassVar[str] = "AIMServiceTemplate"
    SCOPE: ClassVar[Scope] = "Namespace"

    api_version: str = f"{AIM_GROUP}/v1alpha1"
    kind: Literal["AIMServiceTemplate"] = "AIMServiceTemplate"


class AIMClusterServiceTemplate(TemplateKind):
    KIND: ClassVar[str] = "AIMClusterServiceTemplate"
    SCOPE: ClassVar[Scope] = "Cluster"

    api_version: str = f"{AIM_GROUP}/v1alpha1"
    kind: Literal["AIMClusterServiceTemplate"] = "AIMClusterServiceTemplate"


# --- admission rules of this kind (behaviour §2) -------------------------------------------------


def template_rules(template: TemplateKind) -> Problems:
    """T1 (blank model name), T3 (namespace-only fields), T4 (one hardware class), and the CRD's
    rule of a custom profile (what names and fills its file)."""
    out: Problems = []
    spec = template.spec
    if not spec.model_name.strip():
        out.append(problem("spec.modelName", "spec.modelName must not be blank"))
    if template.SCOPE == "Cluster":
        if "env" in spec.model_fields_set:
            out.append(
                problem("spec.env", "env is namespace-only; AIMClusterServiceTemplate cannot set spec.env")
            )
        if spec.caching is not None:
            out.append(
                problem(
                    "spec.caching",
                    "caching is namespace-only; AIMClusterServiceTemplate cannot set spec.caching",
                )
            )
    if spec.hardware is not None and spec.hardware.gpu is not None and spec.hardware.cpu is not None:
        out.append(problem("spec.hardware", "set hardware.gpu or hardware.cpu, not both"))
    if spec.custom_profile is not None:
        # The CRD's rule: the profile file is named and filled from these.
        missing = [
            field
            for field, value in (
                ("aimId", spec.aim_id),
                ("modelId", spec.model_id),
                ("hardware", spec.hardware),
                ("metric", spec.metric),
                ("precision", spec.precision),
            )
            if not value
        ]
        if missing:
            out.append(
                problem(
                    "spec.customProfile",
                    "when customProfile is set, aimId, modelId, hardware, metric, and precision are "
                    f"required (missing: {', '.join(missing)})",
                )
            )
    return out


#: Every class v1alpha1 serves: AIMService at both versions (over the core's), and the templates.
V1ALPHA1_KINDS: tuple[type[AIMKind], ...] = (
    AIMServiceV1Alpha1,
    AIMServiceTemplate,
    AIMClusterServiceTemplate,
)
