"""v1alpha1 as one value: `V1ALPHA1`, the `Extension` the entry points compose into the core.

Nothing here registers anything: one module imports this one, with a plain guarded import
(`aim_pulumi/versions.py`), and the entry points hand the value down (a program run's catalog
carries it; the CLI's commands pass it on). Deleting the folder makes that import fail and leaves
v1alpha2 whole: every service takes the profile pipeline, and the template kinds are unknown kinds.
"""

from __future__ import annotations

from aim_pulumi.resolve.catalog.extension import Extension
from aim_pulumi.resolve.legacy.dispatch import choose_pipeline
from aim_pulumi.resolve.legacy.index import TemplateIndex
from aim_pulumi.resolve.legacy.kinds import V1ALPHA1_KINDS
from aim_pulumi.resolve.legacy.pipeline import template_container_defaults, template_pipeline
from aim_pulumi.resolve.legacy.prewarm import template_prewarm_profile
from aim_pulumi.resolve.legacy.surface import (
    KIND_SURFACES,
    MIGRATION,
    deployability_note,
    legacy_service_version,
    template_pipeline_reason,
)

__all__ = ["V1ALPHA1"]

V1ALPHA1 = Extension(
    version="v1alpha1",
    kinds=V1ALPHA1_KINDS,
    index=TemplateIndex,
    pipeline_name="template",
    choose_pipeline=choose_pipeline,
    pipeline=template_pipeline,
    container_defaults=template_container_defaults,
    migration=MIGRATION,
    # Above resolve: AIMStack's declaration order and the CLI's import, validate, explain and migrate.
    kind_surfaces=KIND_SURFACES,
    manifest_note=deployability_note,
    declared_version=legacy_service_version,
    pipeline_reason=template_pipeline_reason,
    prewarmed_profile=template_prewarm_profile,
)
