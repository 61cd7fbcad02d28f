"""A sticky binding missing from the state while its service runs: what the next `up` would change.

The binding (`aim_pulumi/resources/binding.py`) is the only memory of the profile a service was
bound to. When its record is gone (`pulumi state delete` of `<service>-binding`, a state lost or
imported without it), the binding's `check` sees no old state and binds the fresh winner, exactly
as for a new service: if another profile wins now, the next `up` rolls the predictor to it (another
image, maybe another cache to download), and nothing in the preview says why. The program then
reads the live InferenceService once (`aim_pulumi/resources/live_services.py`) and this rule says
whether to warn: only when the live InferenceService carries a profile label that differs from the
one the plan gives it. No live object (a first deploy) or the same profile (nothing changes) is
silent; a live object with no profile label says nothing it could be compared with.

Pure: plain values in, the warning's text (or None) out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aim_pulumi.resolve.children.caching import PROFILE_LABEL

__all__ = [
    "LOST_BINDING_REASON",
    "PROFILE_LABEL",
    "Chosen",
    "Live",
    "live_of",
    "lost_binding_warning",
]

LOST_BINDING_REASON = "ProfileBindingLost"


@dataclass(frozen=True)
class Chosen:
    """What this run deploys for a service whose binding is new: its plan's facts the warning names."""

    service: str
    isvc_name: str
    profile_name: str
    profile_label: str
    image: str
    caches: tuple[str, ...] = ()


@dataclass(frozen=True)
class Live:
    """What the live InferenceService runs: its profile label, image and mounted claims."""

    profile_label: str | None
    image: str | None = None
    claims: tuple[str, ...] = ()


def live_of(isvc: Mapping[str, Any]) -> Live:
    """The facts of a live InferenceService as the API server returned it."""
    metadata = isvc.get("metadata") or {}
    labels = metadata.get("labels") or {}
    predictor = (isvc.get("spec") or {}).get("predictor") or {}
    containers: Sequence[Any] = predictor.get("containers") or ()
    image = containers[0].get("image") if containers and isinstance(containers[0], Mapping) else None
    claims = sorted(
        str(volume["persistentVolumeClaim"]["claimName"])
        for volume in predictor.get("volumes") or ()
        if isinstance(volume, Mapping)
        and isinstance(volume.get("persistentVolumeClaim"), Mapping)
        and volume["persistentVolumeClaim"].get("claimName")
    )
    label = labels.get(PROFILE_LABEL)
    return Live(
        profile_label=str(label) if label else None,
        image=str(image) if image else None,
        claims=tuple(claims),
    )


def lost_binding_warning(chosen: Chosen, live: Live | None, *, live_declared: bool) -> str | None:
    """The warning for a service whose binding is new although its InferenceService runs; else None.

    `live_declared`: whether the live profile is still a profile the program declares for the
    service (then pinning it keeps it; otherwise it cannot be kept).
    """
    if live is None or not live.profile_label or live.profile_label == chosen.profile_label:
        return None
    old, new = live.profile_label, chosen.profile_name
    changes = []
    if live.image and live.image != chosen.image:
        changes.append(f"image {live.image} -> {chosen.image}")
    new_caches = [c for c in chosen.caches if c not in live.claims]
    if new_caches:
        changes.append(f"a new cache to download: {', '.join(new_caches)}")
    rolled = f" ({'; '.join(changes)})" if changes else ""
    if live_declared:
        keep = (
            f'to keep "{old}", pin it in the service before the next up: spec.profile.name: {old} '
            "in place of the selector"
        )
    else:
        keep = f'"{old}" is not a profile the program declares any more, so it cannot be kept'
    return (
        f"{LOST_BINDING_REASON}: the state holds no binding for AIMService {chosen.service} (pulumi "
        f"state delete, or a lost or partial state), but its InferenceService {chosen.isvc_name} runs "
        f'profile "{old}"; '
        f'this run binds "{new}" as for a new service, and the next up rolls the predictor to it{rolled}; '
        f"{keep}"
    )
