"""Every selection decision as data: which candidate was dropped by which filter, which tier ranked it.

`aim-pulumi explain` prints these; they are built only when asked for (`ProfileSelection.explanation`),
since most plans never read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aim_pulumi.resolve.selection.candidate import ProfileEntry
from aim_pulumi.resolve.selection.evaluation import Evaluation
from aim_pulumi.resolve.selection.ranking import Tier, compare_candidates, rank_candidates
from aim_pulumi.resolve.selection.request import Request, Shape
from aim_pulumi.resolve.types import Scope


@dataclass(frozen=True)
class CandidateExplanation:
    """One profile the selection looked at.

    `dropped_by` names the first filter it failed (`scope`, `role`, `overlay`, `modelRef.name`,
    `origin`, a spec field, `acceleratorCount`, `acceleratorPartitioningMode`, `engineArgs`, `floor`,
    `autoSelectionPolicy`), or `namespace-precedence` when it passed but namespace candidates existed.
    `rank` is its 1-based position among the ranked candidates; `decided_by` the first ranking tier
    on which it differs from the winner (None for the winner itself). When a sticky binding was
    kept, the kept profile is rank 1 and never dropped, the other candidates follow in the order a
    fresh rank would give them and `decided_by` is `binding`: ranking was not consulted.
    """

    kind: str
    name: str
    namespace: str
    scope: Scope
    dropped_by: str | None
    selection_pass: int | None
    rank: int | None
    decided_by: Tier | None
    available: bool
    primary: bool
    type: str
    version: str | None


@dataclass(frozen=True)
class SelectionExplanation:
    """Everything `aim-pulumi explain` prints about one service's selection."""

    service: str
    shape: Shape
    selector: Mapping[str, Any]
    floor: str | None
    floor_implicit: bool
    selection_pass: int | None
    ranked_scope: Scope | None
    candidates: tuple[CandidateExplanation, ...]
    winner: str | None
    model: str | None = None
    previous: str | None = None
    sticky: Literal["none", "kept", "rebound", "unchanged"] = "none"


def explain_selection(
    req: Request,
    evaluation: Evaluation,
    winner: ProfileEntry | None,
    *,
    model: str | None,
    previous: str | None,
    sticky: Literal["none", "kept", "rebound", "unchanged"],
) -> SelectionExplanation:
    kept = False
    if sticky == "kept" and winner is not None:
        # The kept binding may sit outside the ranked scope or pass; it is still the selection.
        kept = True
        order = [winner, *rank_candidates([e for e in evaluation.candidates if e.key != winner.key])]
    else:
        order = evaluation.ranking(winner)
    ranked_keys = {e.key: i + 1 for i, e in enumerate(order)}
    used_keys = {e.key for e in evaluation.used}
    rows: list[CandidateExplanation] = []
    for entry in sorted(evaluation.pool, key=lambda e: (e.scope != "Namespace", e.name)):
        k = entry.key
        is_winner = winner is not None and winner.key == k
        dropped: str | None = None if is_winner else (evaluation.failed[k] or None)
        if dropped is None and not is_winner and k not in used_keys:
            dropped = "autoSelectionPolicy" if evaluation.selection_pass == 2 else "floor"
        if dropped is None and k not in ranked_keys:
            dropped = "namespace-precedence"
        decided: Tier | None = None
        if winner is not None and k in ranked_keys and not is_winner:
            decided = "binding" if kept else compare_candidates(winner, entry)[0]
        rows.append(
            CandidateExplanation(
                kind=entry.kind,
                name=entry.name,
                namespace=entry.namespace,
                scope=entry.scope,
                dropped_by=dropped,
                selection_pass=evaluation.selection_pass if k in used_keys else None,
                rank=ranked_keys.get(k),
                decided_by=decided,
                available=entry.available,
                primary=entry.primary,
                type=entry.field("type"),
                version=entry.version.text,
            )
        )
    sel = evaluation.selector
    return SelectionExplanation(
        service=f"{req.namespace}/{req.name}",
        shape=req.shape,
        selector=sel.fields,
        floor=sel.floor,
        floor_implicit=sel.floor_implicit,
        selection_pass=evaluation.selection_pass,
        ranked_scope=evaluation.ranked_scope,
        candidates=tuple(rows),
        winner=winner.name if winner is not None else None,
        model=model,
        previous=previous,
        sticky=sticky,
    )
