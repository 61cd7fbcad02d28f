"""What the layers above resolve (AIMStack and the CLI) must know of v1alpha1, as fields of its `Extension`.

Those layers cannot import this folder by name (deleting it would break them), so `extension.py`
hands them these entries in the value they are given: where a stack declares the template kinds,
what `import` keeps of a live template and where its Python program puts templates, the note
`validate` writes for a template no service can plan from, why `explain` says a service takes the
template pipeline, and the conversion `migrate` runs with the words its command uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aim_pulumi.api import AIM_GROUP, AIMServiceObject
from aim_pulumi.resolve.catalog.extension import KindSurface, Migration
from aim_pulumi.resolve.legacy.dispatch import RECONCILER_PIPELINE_ANNOTATION
from aim_pulumi.resolve.legacy.kinds import TEMPLATE_KINDS, AIMClusterServiceTemplate, AIMServiceTemplate
from aim_pulumi.resolve.legacy.migration import CUSTOM_MODEL_FORMS, migrate_objects
from aim_pulumi.resolve.legacy.templates import TEMPLATE_NOT_READY, template_readiness_problem

# What the operator's discovery recorded on a template: the sources (when the template declares
# none, a legacy service cannot plan without them, and no deploy-time run can discover them) and
# the engine, type and primary the v1alpha1 ranking reads.
TEMPLATE_DISCOVERY = ("modelSources", "profile")
# Templates have no component: a program `import --format python` writes declares them with an
# AIMStack over this file, which adds them to the program's catalog as an AIMStack does any template.
TEMPLATES_FILE = "templates.yaml"
LEGACY_SERVICE_VERSION = f"{AIM_GROUP}/v1alpha1"
_TEMPLATES_COMMENT = "# Legacy templates have no component: an AIMStack adds them to the program's catalog.\n"

#: The template kinds as a stack and `import` treat them: after the models they name, before the
#: profiles (the cluster kind first, as the core orders its cluster and namespace pairs).
KIND_SURFACES = tuple(
    KindSurface(
        kind=cls.KIND,
        declared_before="AIMClusterProfile",
        adopted_status=TEMPLATE_DISCOVERY,
        program_file=TEMPLATES_FILE,
        program_comment=_TEMPLATES_COMMENT,
    )
    for cls in (AIMClusterServiceTemplate, AIMServiceTemplate)
)

MIGRATION = Migration(
    help="convert v1alpha1 AIMService and service templates to v1alpha2",
    description="Convert v1alpha1 AIMService, AIMServiceTemplate and AIMClusterServiceTemplate manifests "
    "to v1alpha2 (AIMService with spec.profile, AIMProfile, AIMClusterProfile). Other documents are "
    "copied unchanged. Exit 0 converted, 1 something was not convertible, 2 usage error.",
    convert=migrate_objects,
    custom_model_forms=CUSTOM_MODEL_FORMS,
    custom_model_help="the v1alpha2 form of an inline custom model (spec.model.custom): keep-names (default) "
    "keeps the model, profile and every child under the names they have; derivation writes the idiomatic "
    "base derivation (AIMModel spec.profiles, role: base), whose derived profile has another name, so the "
    "InferenceService rolls out and the weights download again (said on stderr per service)",
)


def deployability_note(manifest: Mapping[str, Any]) -> str | None:
    """What the operator admits but `plan` refuses for any service using it: a template with no sources.

    A note, not a problem: the object is valid AIM (the operator's discovery would fill its
    sources), and a template no service uses plans fine; but a service on it will not.
    """
    if manifest.get("kind") in TEMPLATE_KINDS:
        why = template_readiness_problem(manifest)
        if why is not None:
            return f"spec.modelSources: {TEMPLATE_NOT_READY}: {why}; a service using it will not plan"
    return None


def legacy_service_version(manifest: Mapping[str, Any]) -> str | None:
    """v1alpha1 for a live AIMService pinned to a template, whichever version it was listed in.

    The AIMService CRD serves v1alpha1 and v1alpha2 with no conversion, so a legacy service reads
    as v1alpha2 in the group's preferred version; v1alpha2 does not accept `spec.template`, so such
    a service is written back as the v1alpha1 object it is.
    """
    spec = manifest.get("spec")
    if (
        manifest.get("kind") == "AIMService"
        and manifest.get("apiVersion") != LEGACY_SERVICE_VERSION
        and isinstance(spec, Mapping)
        and spec.get("template")
    ):
        return LEGACY_SERVICE_VERSION
    return None


def template_pipeline_reason(service: AIMServiceObject) -> str:
    """Why a service takes the legacy pipeline, and how to leave it (behaviour §7.1)."""
    if service.metadata.annotations.get(RECONCILER_PIPELINE_ANNOTATION) == "template":
        return f"annotation {RECONCILER_PIPELINE_ANNOTATION}: template"
    return (
        f"the service has no spec.profile (annotate {RECONCILER_PIPELINE_ANNOTATION}: profile "
        "to resolve a profile by model instead)"
    )
