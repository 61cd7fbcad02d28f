"""AIM objects checked against the AIM CRDs themselves, before the project's own rules.

The vendored CRD schemas (structural schema and CEL rules, with the relaxations in
`aim_pulumi.schemas.seed_overlays` where a seed documents more) are the operator's admission: a
manifest they refuse would never reach the operator, so it must not reach a plan either. The check
runs on the normalised manifest of the typed object (legacy spellings already mapped), so a seed's
alias is judged by the field it stands for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.schemas.seed_overlays import Relaxations
from aim_pulumi.schemas.validator import custom_resource_errors

CRD_TAG = "(AIM CRD)"


def _problem(line: str) -> AIMValidationError:
    path, _, message = line.partition(": ")
    field = "(root)" if path in ("", ".") else path
    reason = "UnknownField" if message.startswith("Unknown field") else "InvalidSpec"
    return AIMValidationError(field, reason, f"{message} {CRD_TAG}")


def _area(field: str) -> str | None:
    """The part of an object a problem is about: `spec.<field>`, or None for object-level rules."""
    parts = field.replace("[", ".").split(".")
    if field in ("(root)", "spec") or len(parts) < 2:
        return None
    return ".".join(parts[:2])


def merge_problems(crd: list[AIMValidationError], own: list[AIMValidationError]) -> list[AIMValidationError]:
    """CRD problems first, except where a project rule flags the same part of the object.

    Where both reject, they agree and the project's problem is kept in the CRD's place: it names the
    AIM reason (`Unsupported`, `AutoscalingRequiresMetrics`) and the exact field. Where only the CRD
    rejects, the CRD wins. An object-level CRD rule (`(root)`, `spec`) defers to any project problem.
    """
    if not own:
        return crd
    areas = {_area(problem.field) for problem in own}
    placed: list[AIMValidationError] = []
    for problem in crd:
        area = _area(problem.field)
        if area is None or area in areas:
            continue
        placed.append(problem)
    return [*placed, *own]


def crd_problems(manifest: Mapping[str, Any], relaxations: Relaxations = ()) -> list[AIMValidationError]:
    """Every CRD violation of an object's manifest (`to_manifest`); [] when admitted or no CRD is vendored.

    `relaxations` are the reading class's own (`AIMKind.SCHEMA_RELAXATIONS`), beyond the core's.
    """
    errors = custom_resource_errors(dict(manifest), relaxations=relaxations)
    return [_problem(line) for line in errors or []]
