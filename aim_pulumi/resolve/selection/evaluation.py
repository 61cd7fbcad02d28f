"""One selector evaluated against the catalog: the pool, the two passes and namespace precedence.

The pool comes from the narrowest catalog index the selector's anchor allows; every candidate's first
failing filter and floor result are kept, because the explanation and the sticky rule read them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from aim_pulumi.resolve.objects import Key
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.candidate import ProfileEntry
from aim_pulumi.resolve.selection.catalog_view import CatalogView
from aim_pulumi.resolve.selection.filters import FLOOR_ANY, EffectiveSelector, SelectorFilter, passes_floor
from aim_pulumi.resolve.selection.ranking import compare_candidates, rank_candidates
from aim_pulumi.resolve.types import Scope


@dataclass
class Evaluation:
    selector: EffectiveSelector
    pool: list[ProfileEntry]
    failed: dict[Key, str]  # entry key -> first failing filter (floor excluded), "" when none
    floor_ok: dict[Key, bool]
    pass1: list[ProfileEntry]
    pass2: list[ProfileEntry]
    used: list[ProfileEntry]
    selection_pass: int | None
    ranked_scope: Scope | None
    candidates: list[ProfileEntry] = field(default_factory=list)
    floor_excluded: int = 0

    def best(self) -> ProfileEntry | None:
        """The winner of the ranking, found in one pass over the ranked scope's candidates."""
        winner: ProfileEntry | None = None
        for entry in self.candidates:
            if winner is None or compare_candidates(entry, winner)[1] < 0:
                winner = entry
        return winner

    def ranking(self, winner: ProfileEntry | None) -> list[ProfileEntry]:
        """The full order (for explanations), with `winner` first when it is a candidate."""
        if winner is None or all(e.key != winner.key for e in self.candidates):
            return rank_candidates(self.candidates)
        return [winner, *rank_candidates([e for e in self.candidates if e.key != winner.key])]

    def qualifies(self, entry: ProfileEntry) -> bool:
        """Sticky rule: passes pass 1, or the pass-2 relaxation when the floor is implicit."""
        k = entry.key
        if k not in self.failed:
            return False
        if self.failed[k]:
            return False
        return self.floor_ok[k] or (self.selector.floor_implicit and entry.policy == FLOOR_ANY)


def candidate_pool(selector: EffectiveSelector, catalog: CatalogView, namespace: str) -> list[ProfileEntry]:
    """The profiles a selector can reach, through the narrowest index its anchor allows."""
    if selector.model_name:
        return catalog.profile_pool(namespace, model=selector.model_name)
    aim_id = text(selector.fields.get("aimId"))
    if aim_id:
        return catalog.profile_pool(namespace, aim_id=aim_id)
    return catalog.profile_pool(namespace)


def evaluate(
    selector: EffectiveSelector,
    catalog: CatalogView,
    namespace: str,
    extra: Sequence[ProfileEntry] = (),
) -> Evaluation:
    pool = candidate_pool(selector, catalog, namespace)
    known = {e.key for e in pool}
    pool.extend(e for e in extra if e.key not in known)
    check = SelectorFilter(selector, namespace)
    failed: dict[Key, str] = {}
    floor_ok: dict[Key, bool] = {}
    pass1: list[ProfileEntry] = []
    pass2: list[ProfileEntry] = []
    floor_excluded = 0
    for entry in pool:
        k = entry.key
        reason = check.first_failing(entry) or ""
        ok_floor = passes_floor(entry, selector.floor)
        failed[k], floor_ok[k] = reason, ok_floor
        if reason:
            continue
        if ok_floor:
            pass1.append(entry)
        else:
            floor_excluded += 1
        if entry.policy == FLOOR_ANY:
            pass2.append(entry)
    used, selection_pass = pass1, 1 if pass1 else None
    if not pass1 and selector.floor_implicit and pass2:
        used, selection_pass = pass2, 2
    local = [e for e in used if e.scope == "Namespace"]
    cluster = [e for e in used if e.scope == "Cluster"]
    ranked_scope: Scope | None = "Namespace" if local else ("Cluster" if cluster else None)
    evaluation = Evaluation(
        selector=selector,
        pool=pool,
        failed=failed,
        floor_ok=floor_ok,
        pass1=pass1,
        pass2=pass2 if selection_pass == 2 else [],
        used=used,
        selection_pass=selection_pass,
        ranked_scope=ranked_scope,
        candidates=local or cluster,
        floor_excluded=floor_excluded,
    )
    return evaluation
