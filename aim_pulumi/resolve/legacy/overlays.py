"""Where the v1alpha1 documentation (seeds 000, 002, 003) wins over the vendored v1alpha1 CRDs.

The relaxations of `aim_pulumi.schemas.seed_overlays` for the kinds and fields this folder owns,
kept with them: each v1alpha1 class checks its schema with them (`AIMKind.SCHEMA_RELAXATIONS`).
"""

from __future__ import annotations

from aim_pulumi.schemas.seed_overlays import ANY_VALUE, INLINE_RUNTIME_CONFIG, SeedOverlay

_V1 = "aim.eai.amd.com/v1alpha1"
_MODEL_ID = "^[a-zA-Z0-9_-]+/[a-zA-Z0-9._-]+$"
_SOURCE_URI = "^(hf|s3)://[^ \\t\\r\\n]+$"

V1ALPHA1_OVERLAYS = (
    SeedOverlay(
        kinds=((_V1, "AIMService"),),
        path=("spec",),
        add_properties={"runtimeConfig": ANY_VALUE},
        why=INLINE_RUNTIME_CONFIG,
    ),
    SeedOverlay(
        kinds=((_V1, "AIMService"),),
        path=("spec", "template"),
        add_properties={"selectionCriteria": ANY_VALUE},
        why="seed 002: v1alpha1 services select a template by spec.template.selectionCriteria",
    ),
    SeedOverlay(
        kinds=((_V1, "AIMService"),),
        path=("spec", "overrides"),
        add_properties={"env": ANY_VALUE, "engineArgs": ANY_VALUE, "gpuSelector": ANY_VALUE},
        why="seed 002: spec.overrides carries env, engineArgs and gpuSelector",
    ),
    SeedOverlay(
        kinds=((_V1, "AIMServiceTemplate"), (_V1, "AIMClusterServiceTemplate")),
        path=("spec", "modelSources", "[]"),
        add_properties={
            "name": {"type": "string", "pattern": _MODEL_ID},
            "sourceURI": {"type": "string", "pattern": _SOURCE_URI},
        },
        optional=("modelId", "sourceUri"),
        why=(
            "seed 003: template model sources are written {name, sourceURI, size}; the two spellings "
            "keep the patterns of the CRD's modelId and sourceUri"
        ),
    ),
)
