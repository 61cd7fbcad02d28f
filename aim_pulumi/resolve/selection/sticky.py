"""The sticky-binding rule: whether a service keeps the profile it was bound to (contract decision 4).

A pure rule, written once: selection reads it (`select.py`), and so does the Pulumi binding resource's
`check` (`aim_pulumi/resources/binding.py:decide_binding`), whose provider is pickled into state by
reference and so runs this very function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RebindReason = Literal["deleted", "no-longer-matches", "force-rebind"]


# --------------------------------------------------------------------------------------------------
# Sticky binding: a pure rule shared with the Pulumi binding resource


@dataclass(frozen=True)
class StickyDecision:
    """Whether a previous binding is kept; when not, why (reported only if the winner changes)."""

    keep: bool
    reason: RebindReason | None = None


def sticky_decision(
    previous: str | None, *, candidate_ok: bool, force_rebind: bool, exists: bool = True
) -> StickyDecision:
    """Keep the previous binding while it exists and still qualifies, unless a rebind is forced.

    `candidate_ok`: the bound profile still passes the filters (pass 1, or the pass-2 relaxation
    when the floor is implicit). `exists`: it is still in the catalog. No previous binding → no keep.
    """
    if not previous:
        return StickyDecision(False)
    if force_rebind:
        return StickyDecision(False, "force-rebind")
    if not exists:
        return StickyDecision(False, "deleted")
    if not candidate_ok:
        return StickyDecision(False, "no-longer-matches")
    return StickyDecision(True)
