"""Where the template documentation (seed 003) wins over the vendored template CRDs.

One relaxation of `aim_pulumi.schemas.seed_overlays`, kept with the kinds it relaxes and added to
the schemas by `register.py`.
"""

from __future__ import annotations

from aim_pulumi.schemas.seed_overlays import SeedOverlay

_V1 = "aim.eai.amd.com/v1alpha1"
_MODEL_ID = "^[a-zA-Z0-9_-]+/[a-zA-Z0-9._-]+$"
_SOURCE_URI = "^(hf|s3)://[^ \\t\\r\\n]+$"

TEMPLATE_OVERLAYS = (
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
