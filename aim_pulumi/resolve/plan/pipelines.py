"""The profile pipeline, the core's way a service finds what it deploys: one effective profile.

The profile pipeline selects an AIMProfile (or AIMClusterProfile) and lays the service's overrides
over it. `plan_service` (`service.py`) calls it directly, or the pipeline of the catalog's extension
when that one chooses its own (v1alpha1's template pipeline, `aim_pulumi/resolve/legacy/pipeline.py`);
everything after this point reads only the `EffectiveProfile`, so the sequence in `service.py` is the
operator's whichever pipeline ran, and removing v1alpha1 is deleting its folder.
"""

from __future__ import annotations

from aim_pulumi.api import AIMServiceObject
from aim_pulumi.resolve.catalog.pipelines import EffectiveProfile
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.selection.overlays import build_overlay
from aim_pulumi.resolve.selection.select import select_profile
from aim_pulumi.resolve.types import Condition

__all__ = ["EffectiveProfile", "profile_pipeline"]


def profile_pipeline(service: AIMServiceObject, catalog: Catalog) -> EffectiveProfile:
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
