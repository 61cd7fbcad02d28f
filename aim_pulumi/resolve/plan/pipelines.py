"""The two ways a service finds what it deploys, behind one seam: each returns one effective profile.

The profile pipeline selects an AIMProfile (or AIMClusterProfile) and lays the service's overrides
over it; the template pipeline (v1alpha1 services and the bridge window) resolves a model, selects a
template and converts it. Everything after this point reads only the `EffectiveProfile`, so the
sequence in `service.py` is the operator's, whichever pipeline ran, and removing v1alpha1 is
removing `template_pipeline` with `resolve/legacy/`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aim_pulumi.api import AIMKind, AIMService, to_manifest
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.legacy.dispatch import Pipeline
from aim_pulumi.resolve.legacy.templates import (
    TemplateSelection,
    effective_template_profile,
    resolve_model,
    select_template,
)
from aim_pulumi.resolve.objects import AnyProfile, object_ref
from aim_pulumi.resolve.selection.overlays import build_overlay
from aim_pulumi.resolve.selection.select import ProfileSelection, select_profile
from aim_pulumi.resolve.types import Condition, Diagnostic, ObjectRef

__all__ = ["PIPELINES", "EffectiveProfile", "profile_pipeline", "template_pipeline"]


@dataclass(frozen=True)
class EffectiveProfile:
    """What a service deploys, and which declared objects it came from.

    `effective` is the profile the children are built from (a catalog profile, the service's own
    overlay of it, or a converted template); `seed` the declared object whose fields configure it
    (the profile or the template, named by errors about its caches); `declared` the object whose
    labels carry a template's defaults; `shared` whether `effective` is a catalog object every
    service on it shares (rendered once per catalog state).
    """

    effective: AnyProfile
    seed: AIMKind
    declared: AnyProfile
    shared: bool
    overlay_name: str | None
    conditions: tuple[Condition, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    selection: ProfileSelection | None = None
    resolved_profile: ObjectRef | None = None
    resolved_model: ObjectRef | None = None
    resolved_template: ObjectRef | None = None
    legacy_overrides: Mapping[str, Any] = field(default_factory=dict)


def profile_pipeline(service: AIMService, catalog: Catalog) -> EffectiveProfile:
    """The v1alpha2 pipeline: the selected profile, under the service's overrides when it has any."""
    selection = select_profile(service, catalog)
    overlay = build_overlay(selection.profile, service)
    effective = overlay if overlay is not None else selection.profile
    resolved = f"resolved {selection.profile.kind} {selection.profile.metadata.name} ({selection.shape})"
    return EffectiveProfile(
        effective=effective,
        seed=selection.profile,
        declared=selection.profile,
        shared=effective is selection.profile,
        overlay_name=overlay.metadata.name if overlay is not None else None,
        conditions=(Condition("ProfileReady", "True", "ProfileResolved", resolved),),
        diagnostics=tuple(selection.diagnostics()),
        selection=selection,
        resolved_profile=selection.ref,
    )


def template_pipeline(service: AIMService, catalog: Catalog) -> EffectiveProfile:
    """The v1alpha1 pipeline: the model, the template selected for it, converted to a profile.

    A legacy service's `spec.overrides` travel along: its `env` is the final env layer, as
    `profileOverrides.containerEnv` is once migrated (behaviour §10.3: overrides win over `spec.env`).
    """
    model = resolve_model(service, catalog)
    selection: TemplateSelection = select_template(service, model, catalog)
    converted = effective_template_profile(service, selection)
    template = selection.template
    overrides = (to_manifest(service).get("spec") or {}).get("overrides")
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
        resolved_model=object_ref(selection.model),
        resolved_template=selection.ref,
        legacy_overrides=overrides if isinstance(overrides, Mapping) else {},
    )


PIPELINES: Mapping[Pipeline, Callable[[AIMService, Catalog], EffectiveProfile]] = {
    "profile": profile_pipeline,
    "template": template_pipeline,
}
