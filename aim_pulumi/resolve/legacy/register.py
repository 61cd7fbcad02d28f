"""v1alpha1 plugged into the core: importing this module fills the core's registries with it.

The seam (`aim_pulumi.api.extensions.load`) imports this module, and nothing else outside this
folder does; each line below is one registry of the core learning one piece of v1alpha1. Deleting
the folder empties them and leaves v1alpha2 whole: every service takes the profile pipeline, and
the template kinds are unknown kinds.
"""

from __future__ import annotations

from aim_pulumi.api.extensions import (
    register_declared_version,
    register_kinds,
    register_manifest_note,
    register_migration,
    register_pipeline_reason,
)
from aim_pulumi.api.io import KINDS
from aim_pulumi.resolve.catalog.indexes import register_index
from aim_pulumi.resolve.catalog.pipelines import (
    register_chooser,
    register_container_defaults,
    register_pipeline,
)
from aim_pulumi.resolve.legacy.dispatch import choose_pipeline
from aim_pulumi.resolve.legacy.index import TemplateIndex
from aim_pulumi.resolve.legacy.kinds import AIMClusterServiceTemplate, AIMServiceTemplate
from aim_pulumi.resolve.legacy.overlays import V1ALPHA1_OVERLAYS
from aim_pulumi.resolve.legacy.pipeline import template_container_defaults, template_pipeline
from aim_pulumi.resolve.legacy.service import AIMService
from aim_pulumi.resolve.legacy.surface import (
    KIND_EXTENSIONS,
    MIGRATION,
    deployability_note,
    legacy_service_version,
    template_pipeline_reason,
)
from aim_pulumi.resolve.objects import NAMESPACED_KINDS
from aim_pulumi.schemas.seed_overlays import register_overlays

KINDS.register(AIMService, AIMServiceTemplate, AIMClusterServiceTemplate)
NAMESPACED_KINDS.add(AIMServiceTemplate.KIND)
register_overlays(*V1ALPHA1_OVERLAYS)
register_index(TemplateIndex)
register_pipeline("template", template_pipeline)
register_chooser(choose_pipeline)
register_container_defaults(template_container_defaults)
# Above resolve: AIMStack's declaration order and the CLI's import, validate, explain and migrate.
register_kinds(*KIND_EXTENSIONS)
register_manifest_note(deployability_note)
register_declared_version(legacy_service_version)
register_pipeline_reason("template", template_pipeline_reason)
register_migration(MIGRATION)
