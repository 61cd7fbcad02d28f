"""What every pipeline returns: one `EffectiveProfile`, whichever way a service found what it deploys.

The plan (`aim_pulumi/resolve/plan/service.py`) reads only that, so its sequence is the operator's
whichever pipeline ran: the core's profile pipeline (`aim_pulumi/resolve/plan/pipelines.py`), which
it calls directly, or the pipeline of a version's folder, which it is handed with the folder's
`Extension` (`aim_pulumi/resolve/catalog/extension.py`; v1alpha1's template pipeline).

It sits in the catalog room, the lowest one both the plan and the v1alpha1 folder reach and the one
a pipeline reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aim_pulumi.api import AIMKind
from aim_pulumi.resolve.children.container import ContainerDefaults
from aim_pulumi.resolve.objects import AnyProfile
from aim_pulumi.resolve.selection.select import ProfileSelection
from aim_pulumi.resolve.types import Condition, Diagnostic, ObjectRef

__all__ = ["PROFILE", "ContainerDefaults", "EffectiveProfile", "PipelineSummary"]

#: The core's pipeline, which every service takes unless a version's folder chooses its own.
PROFILE = "profile"


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
    #: Declared objects resolved beyond the profile and the model, under their status field.
    also_resolved: tuple[tuple[str, ObjectRef], ...] = ()
    #: An env that replaces `spec.profileOverrides.containerEnv` as the container's final env layer,
    #: and how `explain` names it.
    override_env: Sequence[Mapping[str, Any]] | None = None
    override_env_label: str | None = None
    #: How a summary words the choice, for a pipeline whose choice is not a profile selection.
    summary: PipelineSummary | None = None


@dataclass(frozen=True)
class PipelineSummary:
    """A folder pipeline's choice in the words of `plan`'s service lines and `explain`'s why line."""

    choice: str
    why: str
