"""The template pipeline: a v1alpha1 service's model, the template selected for it, converted to a profile.

It returns the same `EffectiveProfile` as the profile pipeline, so the plan after it is the
operator's single sequence; v1alpha1's `Extension` (`extension.py`) hands it to the plan
(`aim_pulumi/resolve/catalog/pipelines.py`) with the chooser of `dispatch.py` and the defaults a
template-converted profile carries in its labels (`template_profile.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aim_pulumi.api import AIMServiceObject, to_manifest
from aim_pulumi.resolve.catalog.pipelines import EffectiveProfile, PipelineSummary
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.container import ContainerDefaults
from aim_pulumi.resolve.legacy.template_profile import (
    CUSTOM_PROFILE_LABEL,
    TEMPLATE_LABEL,
    template_base_env,
    template_default_resources_for,
    template_runtime_profile_id,
)
from aim_pulumi.resolve.legacy.templates import (
    TemplateSelection,
    effective_template_profile,
    resolve_model,
    select_template,
)
from aim_pulumi.resolve.objects import object_ref
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.types import Condition

__all__ = ["template_container_defaults", "template_pipeline"]


def template_pipeline(service: AIMServiceObject, catalog: Catalog) -> EffectiveProfile:
    """The v1alpha1 pipeline: the model, the template selected for it, converted to a profile.

    A legacy service's `spec.overrides` travel along: its `env` is the final env layer, as
    `profileOverrides.containerEnv` is once migrated (behaviour §10.3: overrides win over `spec.env`).
    """
    model = resolve_model(service, catalog)
    selection: TemplateSelection = select_template(service, model, catalog)
    converted = effective_template_profile(service, selection)
    template = selection.template
    overrides = (to_manifest(service).get("spec") or {}).get("overrides")
    chosen, model_ref = selection.ref, object_ref(selection.model)
    return EffectiveProfile(
        effective=converted.effective,
        seed=template,
        declared=converted.seed,
        shared=False,
        overlay_name=converted.overlay_name,
        conditions=(
            Condition("ModelReady", "True", "ModelResolved", f"resolved {model.kind} {model.metadata.name}"),
            Condition(
                "TemplateReady", "True", "Resolved", f"resolved {template.kind} {template.metadata.name}"
            ),
        ),
        resolved_model=model_ref,
        also_resolved=(("resolvedTemplate", chosen),),
        override_env=overrides.get("env") if isinstance(overrides, Mapping) else None,
        override_env_label="AIMService spec.overrides.env",
        summary=PipelineSummary(
            choice=f"template {chosen.kind} {chosen.name} of model {model_ref.name} (template pipeline)",
            why=f"template pipeline: template {chosen.name} of model {model_ref.name}",
        ),
    )


def template_container_defaults(
    labels: Mapping[str, str] | None, profile_spec: Mapping[str, Any]
) -> ContainerDefaults:
    """What a profile converted from a template (labelled with it) adds to its container.

    The operator labels template services with their template, sets the template metrics env under
    the runtime config's, a per-GPU default of resources, and the template's profile id (for a
    custom-profile template, its own file's, under the AIM id it announces); a migrated profile
    carries all of it in its labels, so it plans as its legacy service did.
    """
    return ContainerDefaults(
        # A profile converted from a template names it; the operator labels template services so.
        isvc_labels={TEMPLATE_LABEL: (labels or {}).get(TEMPLATE_LABEL)},
        base_env=template_base_env(labels),
        base_env_label="the template's operator defaults",
        default_resources=template_default_resources_for(labels, profile_spec.get("acceleratorCount")),
        runtime_profile_id=template_runtime_profile_id(labels, profile_spec),
        # A custom profile's file lives under its AIM id: the operator tells the runtime which.
        runtime_aim_id=text(profile_spec.get("aimId")) or None
        if (labels or {}).get(CUSTOM_PROFILE_LABEL)
        else None,
    )
