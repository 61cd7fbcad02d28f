"""The pipeline seam: what a pipeline returns, and the pipelines, chooser and defaults a folder adds.

A service finds what it deploys through a pipeline, each returning one `EffectiveProfile`; the plan
(`aim_pulumi/resolve/plan/service.py`) reads only that, so its sequence is the operator's whichever
pipeline ran. The core registers the profile pipeline (`aim_pulumi/resolve/plan/pipelines.py`); the
v1alpha1 folder (`aim_pulumi/resolve/legacy/`) registers the template pipeline, the choice between
the two (the bridge window's annotation) and the container defaults a template-converted profile
carries in its labels, when the seam (`aim_pulumi.api.extensions`) loads it. Without the folder
every service takes the profile pipeline and no profile has template defaults.

It sits in the catalog room, the lowest one both the plan and the v1alpha1 folder reach and the one
a pipeline reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aim_pulumi.api import AIMKind, AIMService, extensions
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.container import ContainerDefaults
from aim_pulumi.resolve.objects import AnyProfile
from aim_pulumi.resolve.selection.select import ProfileSelection
from aim_pulumi.resolve.types import Condition, Diagnostic, ObjectRef

__all__ = [
    "PROFILE",
    "ContainerDefaults",
    "EffectiveProfile",
    "PipelineSummary",
    "choose_pipeline",
    "container_defaults",
    "pipeline",
    "register_chooser",
    "register_container_defaults",
    "register_pipeline",
]

#: The core's pipeline, which every service takes unless a registered chooser says otherwise.
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


Pipeline = Callable[[AIMService, Catalog], EffectiveProfile]
Chooser = Callable[[AIMService], tuple[str, tuple[Diagnostic, ...]]]
Defaults = Callable[[Mapping[str, str] | None, Mapping[str, Any]], ContainerDefaults]

_PIPELINES: dict[str, Pipeline] = {}
_CHOOSERS: list[Chooser] = []
_DEFAULTS: list[Defaults] = []


def register_pipeline(name: str, run: Pipeline) -> None:
    _PIPELINES[name] = run


def register_chooser(choose: Chooser) -> None:
    """Let `choose` decide every service's pipeline (the last registered decides)."""
    _CHOOSERS.append(choose)


def register_container_defaults(defaults: Defaults) -> None:
    _DEFAULTS.append(defaults)


def choose_pipeline(service: AIMService) -> tuple[str, tuple[Diagnostic, ...]]:
    """The pipeline a service takes, and the warnings of choosing it."""
    extensions.load()
    return _CHOOSERS[-1](service) if _CHOOSERS else (PROFILE, ())


def pipeline(name: str) -> Pipeline:
    extensions.load()
    return _PIPELINES[name]


def container_defaults(
    labels: Mapping[str, str] | None, profile_spec: Mapping[str, Any]
) -> ContainerDefaults:
    """The defaults a declared profile's labels carry (none without a registered reader)."""
    extensions.load()
    return _DEFAULTS[-1](labels, profile_spec) if _DEFAULTS else ContainerDefaults()
