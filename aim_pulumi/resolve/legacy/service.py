"""AIMService's v1alpha1 surface: `spec.template`, `spec.templateName`, `spec.overrides` and
`status.resolvedTemplate`.

The core model (`aim_pulumi.api.service.AIMService`) serves v1alpha2. v1alpha1's `Extension`
(`extension.py`) replaces it among the kinds a program serves with the class below
(`AIMServiceV1Alpha1`, named apart from the core's and the component's), which serves both versions,
reads the v1alpha1 fields and adds their admission rules at the points the core leaves for them
(A1, A2: not on v1alpha2; A4: one pipeline per service). While the folder is there every AIMService
is read by this class, so both versions read as they always did; once it is gone, the core's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from aim_pulumi.api.admission import Problems, path_segment_problems, problem
from aim_pulumi.api.base import AIMBase, AIMKind
from aim_pulumi.api.common import EnvVar, JsonObject, StatusRef
from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.service import AIMServiceObject as CoreAIMService
from aim_pulumi.api.service import NonNegativeInt, ServiceSpec, ServiceStatus
from aim_pulumi.resolve.legacy.overlays import V1ALPHA1_OVERLAYS
from aim_pulumi.schemas.seed_overlays import Relaxations

__all__ = [
    "AIMServiceV1Alpha1",
    "GpuSelector",
    "LegacyServiceSpec",
    "LegacyServiceStatus",
    "SelectionCriteria",
    "ServiceOverrides",
    "ServiceTemplateRef",
]


#: The spec fields only v1alpha1 reads (`templateName` is an alias of `template.name`).
V1ALPHA1_SPEC_FIELDS = ("template", "templateName", "overrides")


class SelectionCriteria(AIMBase):
    precision: str | None = None
    """Only templates of this precision."""
    metric: str | None = None
    """Only templates optimized for this metric (`latency`, `throughput`)."""
    accelerator_model: str | None = None
    """Only templates for this GPU model."""
    accelerator_count: NonNegativeInt | None = None
    """Only templates for this GPU count."""
    engine: str | None = None
    """Only templates of this inference engine."""


class ServiceTemplateRef(AIMBase):
    name: str | None = None
    """The AIMServiceTemplate / AIMClusterServiceTemplate to use."""
    selection_criteria: SelectionCriteria | None = None
    """Choose a template of the model by these criteria instead."""
    allow_unoptimized: bool | None = None
    """Let the automatic choice take `unoptimized` templates (an inline custom model's, and a custom
    profile's by default), which it passes over otherwise, as the operator does; a template named by
    `name` is taken whatever its type."""


class GpuSelector(AIMBase):
    model: str | None = None
    """GPU model the service needs, over the template's."""
    count: NonNegativeInt | None = None
    """GPU count the service needs, over the template's."""


class ServiceOverrides(AIMBase):
    metric: str | None = None
    """Optimization metric, over the template's."""
    precision: str | None = None
    """Precision, over the template's."""
    engine_args: JsonObject = Field(default_factory=dict)
    """Engine arguments merged over the template's."""
    env: list[EnvVar] = Field(default_factory=list)
    """Environment variables over the template's."""
    gpu_selector: GpuSelector | None = None
    """The GPUs the service runs on, over the template's."""


class LegacyServiceSpec(ServiceSpec):
    template: ServiceTemplateRef | None = None
    """Legacy v1alpha1 template reference or selection criteria."""
    overrides: ServiceOverrides | None = None
    """Legacy v1alpha1 overrides of the template's runtime parameters."""

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        # `templateName` first: the core's aliases follow, as they did when one class read both.
        return super()._normalise_input(_template_name_alias(data))


def _template_name_alias(data: dict[Any, Any]) -> dict[Any, Any]:
    """`spec.templateName` read as `spec.template.name`; both set must agree."""
    if "templateName" not in data:
        return data
    data = dict(data)
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
    return data


class LegacyServiceStatus(ServiceStatus):
    resolved_template: StatusRef | None = None


class AIMServiceV1Alpha1(CoreAIMService):
    """An AIMService of either served version: v1alpha2's fields and v1alpha1's template fields."""

    SERVED_VERSIONS: ClassVar[tuple[str, ...]] = ("v1alpha1", "v1alpha2")
    SCHEMA_RELAXATIONS: ClassVar[Relaxations] = V1ALPHA1_OVERLAYS

    spec: LegacyServiceSpec
    status: LegacyServiceStatus | None = None

    @classmethod
    def reader_for(cls, manifest: Mapping[str, Any]) -> type[AIMKind]:
        """This class for a v1alpha1 manifest or one that uses a v1alpha1 field; the core's otherwise.

        So a v1alpha2 service is the same object whether the folder is there or not, and only the
        manifests that need this class (to read them, or to refuse their v1alpha1 fields with the
        AIM reason, A1 and A2) get it.
        """
        spec = manifest.get("spec")
        uses_v1alpha1 = str(manifest.get("apiVersion") or "").endswith("/v1alpha1") or (
            isinstance(spec, Mapping) and any(key in spec for key in V1ALPHA1_SPEC_FIELDS)
        )
        return cls if uses_v1alpha1 else CoreAIMService

    @property
    def is_legacy(self) -> bool:
        return self.api_version.endswith("/v1alpha1")

    def version_rules(self) -> Problems:
        """A1, A2: v1alpha1-isms rejected on v1alpha2."""
        if self.is_legacy:
            return []
        out: Problems = []
        if self.spec.template is not None:
            out.append(
                problem(
                    "spec.template",
                    "spec.template is not accepted on v1alpha2; use spec.profile or spec.model",
                )
            )
        if self.spec.overrides is not None:
            out.append(
                problem(
                    "spec.overrides", "spec.overrides is not accepted on v1alpha2; use spec.profileOverrides"
                )
            )
        return out

    def pipeline_rules(self) -> Problems:
        """A4: a profile and a template name two pipelines; a service takes one."""
        if self.spec.profile is not None and self.spec.template is not None:
            return [problem("spec.template", "spec.profile and spec.template are mutually exclusive")]
        return []

    def custom_model_rules(self) -> Problems:
        """A10 on v1alpha1: the bridge serves an inline custom model (its shape is the v1alpha1 CRD's,
        checked before); its model id becomes a container path, as a profile's does."""
        if not self.is_legacy:
            return super().custom_model_rules()
        custom = self.spec.model.custom if self.spec.model is not None else None
        if not isinstance(custom, Mapping):
            return []
        out: Problems = []
        for index, source in enumerate(custom.get("modelSources") or ()):
            if isinstance(source, Mapping) and isinstance(source.get("modelId"), str):
                out.extend(
                    path_segment_problems(
                        f"spec.model.custom.modelSources[{index}].modelId", source["modelId"]
                    )
                )
        return out
