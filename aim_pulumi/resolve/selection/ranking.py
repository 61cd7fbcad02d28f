"""The ranking of contract decision 4: availability, primary, type, version, then name.

Every tier compares a precomputed fact of the candidate (`candidate.ProfileEntry`), and the first
tier on which two candidates differ is returned too, so an explanation can say which tier decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cmp_to_key
from typing import Literal

from aim_pulumi.resolve.selection.candidate import ProfileEntry
from aim_pulumi.resolve.selection.versions import compare_versions

Tier = Literal["availability", "primary", "type", "version", "name", "binding"]


# --------------------------------------------------------------------------------------------------
# Ranking


def compare_candidates(a: ProfileEntry, b: ProfileEntry) -> tuple[Tier | None, int]:
    """The first tier on which `a` and `b` differ and the sign (negative: `a` ranks first)."""
    if a.available != b.available:
        return "availability", -1 if a.available else 1
    if a.primary != b.primary:
        return "primary", -1 if a.primary else 1
    if a.type_rank != b.type_rank:
        return "type", -1 if a.type_rank < b.type_rank else 1
    newer = compare_versions(a.version, b.version)
    if newer:
        return "version", -newer
    if a.name != b.name:
        return "name", -1 if a.name < b.name else 1
    return None, 0


def rank_candidates(candidates: Sequence[ProfileEntry]) -> list[ProfileEntry]:
    """Best first. Input is put in name order first, so the result never depends on input order."""
    by_name = sorted(candidates, key=lambda e: (e.name, e.kind))
    return sorted(by_name, key=cmp_to_key(_order))


def _order(a: ProfileEntry, b: ProfileEntry) -> int:
    return compare_candidates(a, b)[1]
