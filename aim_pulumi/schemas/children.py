"""The last check before a child is registered: would the API server accept it?

Admission refuses the values it knows reach a child; this catches whatever a rule missed, before
anything is registered, so a bad value never reaches `pulumi up` half-way through a deployment.
The error names the AIM object that produced the child, the child, and the offending field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import UNRESOLVED_VALUE
from aim_pulumi.schemas.validator import manifest_identity, validate_manifest


def check_children(manifests: Iterable[Mapping[str, Any]], owner: str) -> None:
    """Raise `InvalidSpec` for the first child of `owner` the vendored schemas refuse."""
    for manifest in manifests:
        # A value known only at deploy time cannot be judged now; the API server will judge it.
        errors = [e for e in validate_manifest(manifest, cel=False) if not UNRESOLVED_VALUE.search(e)]
        if errors:
            field, _, detail = errors[0].partition(": ")
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise AIMValidationError(
                field,
                "InvalidSpec",
                f"the {manifest_identity(manifest)} built from this object would be refused: {detail}{more}",
                object_ref=owner,
            )
