"""Profile selection (behaviour §4): which profile an AIMService deploys, and why.

The operator's resolver, run at deploy time: the five resolution shapes, the selector filters, the
`minimumType` floor with its `autoSelectionPolicy: any` second pass, namespace-over-cluster
precedence, the ranking of contract decision 4, sticky binding and the `ProfileNotFound` /
`BaseProfile` errors. Every decision is also returned as data (`SelectionExplanation`) so that a
user can be told which candidate was dropped by which filter and which tier decided the ranking.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, cmp_to_key
from typing import Any, Literal, NoReturn

from aim_pulumi.api import AIMClusterModel, AIMClusterProfile, AIMModel, AIMProfile, AIMService, to_manifest
from aim_pulumi.resolve.catalog.store import (
    FORCE_REBIND_ANNOTATION,
    SOURCE_MODEL_LABEL,
    TYPE_RANK,
    Catalog,
    Key,
    ProfileEntry,
    text,
)
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.selection.versions import compare_versions
from aim_pulumi.resolve.types import Diagnostic, ObjectRef, Scope

AnyProfile = AIMProfile | AIMClusterProfile
AnyModel = AIMModel | AIMClusterModel
Shape = Literal["Name", "ModelImage", "ModelAndSelector", "Selector", "Model"]
RebindReason = Literal["deleted", "no-longer-matches", "force-rebind"]
Tier = Literal["availability", "primary", "type", "version", "name", "binding"]

# The floor compares the same type ranks the ranking uses.
FLOOR_RANK: Mapping[str, int] = TYPE_RANK
FLOOR_ANY = "any"
IMPLICIT_FLOOR = "optimized"

_EXACT_FIELDS = ("aimId", "modelId", "profileId", "engine", "metric", "precision", "type")
_CASELESS_FIELDS = ("acceleratorModel", "acceleratorVendor", "acceleratorType")


# --------------------------------------------------------------------------------------------------
# Results


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


@dataclass(frozen=True)
class ProfileSelection:
    """The profile a service deploys and how it was reached.

    `tied` names the other candidates equal to the winner on tiers 1-4 (name order decided);
    `rebound_from` / `rebound_reason` are set only when a previous binding was replaced by a
    different profile. `model` is the model the shape anchored on, when one was found.
    """

    profile: AnyProfile
    scope: Scope
    shape: Shape
    rebound_from: str | None = None
    rebound_reason: RebindReason | None = None
    ambiguous: bool = False
    tied: tuple[str, ...] = ()
    model: AnyModel | None = None
    explainer: Callable[[], SelectionExplanation] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def explanation(self) -> SelectionExplanation | None:
        """Every candidate considered and why it lost; built on first access (most callers never ask)."""
        return self.explainer() if self.explainer is not None else None

    @property
    def ref(self) -> ObjectRef:
        """`status.resolvedProfile`."""
        kind = self.profile.kind
        namespace = (self.profile.metadata.namespace or "") if kind == "AIMProfile" else ""
        return ObjectRef(kind, self.profile.metadata.name, namespace, self.scope, self.profile.effective_uid)

    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The operator events of this selection: `ProfileSelectorAmbiguous`, `ProfileRebound`."""
        out: list[Diagnostic] = []
        name = self.profile.metadata.name
        if self.ambiguous:
            out.append(
                Diagnostic(
                    "warn",
                    "ProfileSelectorAmbiguous",
                    f'selected "{name}" by name order; equally ranked: {", ".join(self.tied)}',
                )
            )
        if self.rebound_from is not None:
            out.append(
                Diagnostic(
                    "info",
                    "ProfileRebound",
                    f'rebound from "{self.rebound_from}" to "{name}" (reason: {self.rebound_reason})',
                )
            )
        return tuple(out)


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


# --------------------------------------------------------------------------------------------------
# Effective selector and filters


@dataclass(frozen=True)
class EffectiveSelector:
    """The selector after §4.2: role forced to deployable, modelRef from `spec.model.name`, a floor."""

    fields: Mapping[str, Any]
    model_name: str
    model_scope: str
    floor: str
    floor_implicit: bool


def effective_selector(selector: Mapping[str, Any] | None, model_name: str | None) -> EffectiveSelector:
    fields = dict(selector or {})
    fields["role"] = "deployable"
    model_ref = dict(fields.get("modelRef") or {})
    if not text(model_ref.get("name")) and model_name:
        model_ref = {"name": model_name, "scope": "Auto"}
    if model_ref:
        fields["modelRef"] = model_ref
    floor = text(fields.get("minimumType"))
    return EffectiveSelector(
        fields=fields,
        model_name=text(model_ref.get("name")),
        model_scope=text(model_ref.get("scope")) or "Auto",
        floor=floor or IMPLICIT_FLOOR,
        floor_implicit=not floor,
    )


def json_equal(a: Any, b: Any) -> bool:
    """JSON value equality: `true` is not `1`, `1` equals `1.0`, objects and arrays compare deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def partitioning_matches(wanted: str, have: str) -> bool:
    """`acceleratorPartitioningMode` selector semantics of §4.3 (case-insensitive)."""
    want, got = wanted.strip().lower(), have.strip().lower()
    if want == "unpartitioned":
        return got in ("", "unpartitioned")
    if want == "partitioned":
        return got not in ("", "unpartitioned")
    if "-" in want:
        return got == want
    return got == want or got.startswith(want + "-")


class SelectorFilter:
    """The §4.3 filters (floor excluded) of one effective selector, prepared for many profiles.

    Only the selector fields that are set are kept, so that testing a profile costs a comparison per
    field the user actually constrained.
    """

    def __init__(self, selector: EffectiveSelector, namespace: str) -> None:
        fields = selector.fields
        self.namespace = namespace
        self.model_scope = selector.model_scope
        self.model_name = selector.model_name
        self.origin = text(fields.get("origin"))
        self.exact = [(k, text(fields.get(k))) for k in _EXACT_FIELDS if text(fields.get(k))]
        self.caseless = [(k, text(fields.get(k)).lower()) for k in _CASELESS_FIELDS if text(fields.get(k))]
        count = fields.get("acceleratorCount")
        self.count = count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None
        self.mode = text(fields.get("acceleratorPartitioningMode"))
        args = fields.get("engineArgs")
        self.engine_args: Mapping[str, Any] = args if isinstance(args, Mapping) else {}

    def first_failing(self, entry: ProfileEntry) -> str | None:
        if entry.scope == "Namespace" and entry.namespace != self.namespace:
            return "scope"
        if self.model_scope == "Namespace" and (
            entry.scope != "Namespace" or entry.source_model_scope != "namespace"
        ):
            return "scope"
        if self.model_scope == "Cluster" and (
            entry.scope != "Cluster" or entry.source_model_scope != "cluster"
        ):
            return "scope"
        if entry.role == "base":
            return "role"
        if entry.overlay:
            return "overlay"
        if self.model_name and entry.source_model != self.model_name:
            return "modelRef.name"
        if self.origin and entry.origin != self.origin:
            return "origin"
        texts = entry.texts
        for key, wanted in self.exact:
            if texts[key] != wanted:
                return key
        for key, wanted in self.caseless:
            if texts[key].lower() != wanted:
                return key
        if self.count is not None and entry.spec.get("acceleratorCount") != self.count:
            return "acceleratorCount"
        if self.mode and not partitioning_matches(self.mode, texts["acceleratorPartitioningMode"]):
            return "acceleratorPartitioningMode"
        if self.engine_args:
            have_args = entry.spec.get("engineArgs")
            have: Mapping[str, Any] = have_args if isinstance(have_args, Mapping) else {}
            for key, value in self.engine_args.items():
                if key not in have or not json_equal(have[key], value):
                    return "engineArgs"
        return None


def first_failing_filter(entry: ProfileEntry, selector: EffectiveSelector, namespace: str) -> str | None:
    """The first §4.3 filter (floor excluded) that `entry` fails for a service in `namespace`."""
    return SelectorFilter(selector, namespace).first_failing(entry)


def passes_floor(entry: ProfileEntry, floor: str) -> bool:
    return floor == FLOOR_ANY or entry.type_rank <= FLOOR_RANK.get(floor, FLOOR_RANK[IMPLICIT_FLOOR])


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


# --------------------------------------------------------------------------------------------------
# The service's request


@dataclass(frozen=True)
class _Request:
    service: AIMService
    namespace: str
    name: str
    spec: Mapping[str, Any]
    status: Mapping[str, Any]
    profile_name: str
    selector: Mapping[str, Any] | None
    model_name: str
    model_image: str
    shape: Shape

    @property
    def object_ref(self) -> str:
        return f"AIMService/{self.namespace}/{self.name}"

    def error(self, reason: str, field_path: str, message: str) -> AIMResolutionError:
        return AIMResolutionError(reason, message, field=field_path, object_ref=self.object_ref)


def _request(service: AIMService) -> _Request:
    manifest = to_manifest(service)
    spec: Mapping[str, Any] = manifest.get("spec") or {}
    profile: Mapping[str, Any] = spec.get("profile") or {}
    model: Mapping[str, Any] = spec.get("model") or {}
    selector = profile.get("selector")
    profile_name = text(profile.get("name"))
    model_name, model_image = text(model.get("name")), text(model.get("image"))
    shape: Shape
    if profile_name:
        shape = "Name"
    elif model_image:
        shape = "ModelImage"
    elif selector is not None and model_name:
        shape = "ModelAndSelector"
    elif selector is not None:
        shape = "Selector"
    else:
        shape = "Model"
    return _Request(
        service=service,
        namespace=service.metadata.namespace or "default",
        name=service.metadata.name,
        spec=spec,
        status=manifest.get("status") or {},
        profile_name=profile_name,
        selector=selector if isinstance(selector, Mapping) else None,
        model_name=model_name,
        model_image=model_image,
        shape=shape,
    )


def _model_for_image(req: _Request, catalog: Catalog) -> AnyModel:
    local, cluster = catalog.models_with_image(req.namespace, req.model_image)
    matches: list[AnyModel] = local or cluster
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise req.error(
            "ProfileNotFound",
            "spec.model.image",
            f'no AIMModel in namespace "{req.namespace}" and no AIMClusterModel declares image '
            f'"{req.model_image}"; no model is auto-created: declare an AIMModel (or AIMClusterModel) '
            "with that image and its profiles, or use spec.model.name",
        )
    listed = ", ".join(
        f"{m.metadata.namespace}/{m.metadata.name} (namespace)"
        if isinstance(m, AIMModel)
        else f"{m.metadata.name} (cluster)"
        for m in matches
    )
    raise req.error(
        "ProfileNotFound",
        "spec.model.image",
        f'image "{req.model_image}" is declared by several models: {listed}; pick one via spec.model.name',
    )


def _find_model(catalog: Catalog, namespace: str, name: str, scope: str) -> AnyModel | None:
    if scope == "Namespace":
        found = catalog.get("AIMModel", namespace, name)
    elif scope == "Cluster":
        found = catalog.get("AIMClusterModel", None, name)
    else:
        return catalog.model(namespace, name)
    return found if isinstance(found, AIMModel | AIMClusterModel) else None


# --------------------------------------------------------------------------------------------------
# Evaluation of a selector against the catalog


@dataclass
class _Evaluation:
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


def candidate_pool(selector: EffectiveSelector, catalog: Catalog, namespace: str) -> list[ProfileEntry]:
    """The profiles a selector can reach, through the narrowest index its anchor allows."""
    if selector.model_name:
        return catalog.profile_pool(namespace, model=selector.model_name)
    aim_id = text(selector.fields.get("aimId"))
    if aim_id:
        return catalog.profile_pool(namespace, aim_id=aim_id)
    return catalog.profile_pool(namespace)


def _evaluate(
    selector: EffectiveSelector,
    catalog: Catalog,
    namespace: str,
    extra: Sequence[ProfileEntry] = (),
) -> _Evaluation:
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
    evaluation = _Evaluation(
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


def _explain(
    req: _Request,
    evaluation: _Evaluation,
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


def _not_found(req: _Request, catalog: Catalog, evaluation: _Evaluation, model: AnyModel | None) -> NoReturn:
    sel = evaluation.selector
    if sel.model_name:
        if model is not None:
            err = catalog.generation_error(model)
            if err is not None:
                kind = model.kind
                where = (
                    f"{model.metadata.namespace}/{model.metadata.name}"
                    if kind == "AIMModel"
                    else model.metadata.name
                )
                raise AIMResolutionError(
                    err.reason,
                    f"{kind} {where}: {err.message}",
                    field=err.field,
                    object_ref=f"{kind}/{where}",
                )
        elif not catalog.has_model_or_profiles(req.namespace, sel.model_name):
            from_spec = req.model_name == sel.model_name and not text(
                ((req.selector or {}).get("modelRef") or {}).get("name")
            )
            raise req.error(
                "ProfileNotFound",
                "spec.model.name" if from_spec else "spec.profile.selector.modelRef.name",
                f'model "{sel.model_name}" not found: no AIMModel in namespace "{req.namespace}", no '
                f"AIMClusterModel and no profile labelled {SOURCE_MODEL_LABEL}={sel.model_name}",
            )
    if evaluation.floor_excluded > 0 and sel.floor != FLOOR_ANY:
        hint = " (the implicit default)" if sel.floor_implicit else ""
        relax = ", and none of them has autoSelectionPolicy: any" if sel.floor_implicit else ""
        raise req.error(
            "ProfileNotFound",
            "spec.profile.selector",
            f'no profile passes the minimumType floor "{sel.floor}"{hint}: '
            f"{evaluation.floor_excluded} candidate(s) match every other filter{relax}; "
            'spec.profile.selector.minimumType "unoptimized" or "any" admits them',
        )
    hint = ""
    if model is not None and not evaluation.pool:
        if text(model.spec.model_id):
            hardware = " on hardware of the declared inventory" if catalog.inventory is not None else ""
            hint = (
                f"; {model.kind} {model.metadata.name} is declared by modelId and no "
                f"profile-generation fallback of its runtime config matches its accelerator{hardware}"
            )
            if (
                text(model.spec.runtime_config_name) in ("", "default")
                and catalog.replaces_embedded_default()
            ):
                hint += (
                    "; that runtime config is the program's own AIMClusterRuntimeConfig default, which "
                    "replaced the embedded default and its fallbacks: add a fallback for this accelerator "
                    "to it, or keep the embedded ones with aim_pulumi.embedded_fallbacks()"
                )
        else:
            hint = (
                f"; {model.kind} {model.metadata.name} has no profiles: declare them with the label "
                f"{SOURCE_MODEL_LABEL}={model.metadata.name} (no discovery runs here)"
            )
    raise req.error(
        "ProfileNotFound",
        "spec.profile.selector",
        f'no profile matched the selector in either scope: no AIMProfile in namespace "{req.namespace}" '
        f"and no AIMClusterProfile{hint}",
    )


# --------------------------------------------------------------------------------------------------
# Entry points


def _select_by_name(req: _Request, catalog: Catalog) -> ProfileSelection:
    entry = catalog.profile_entry("AIMProfile", req.namespace, req.profile_name) or catalog.profile_entry(
        "AIMClusterProfile", None, req.profile_name
    )
    if entry is None:
        raise req.error(
            "ProfileNotFound",
            "spec.profile.name",
            f'profile "{req.profile_name}" not found: neither an AIMProfile in namespace '
            f'"{req.namespace}" nor an AIMClusterProfile has that name',
        )
    if entry.role == "base" or entry.status.get("deployable") is False:
        raise req.error(
            "BaseProfile",
            "spec.profile.name",
            f'{entry.kind} "{entry.name}" is a base profile (not deployable); reference a deployable '
            "profile or derive one",
        )
    row = CandidateExplanation(
        kind=entry.kind,
        name=entry.name,
        namespace=entry.namespace,
        scope=entry.scope,
        dropped_by=None,
        selection_pass=None,
        rank=1,
        decided_by=None,
        available=entry.available,
        primary=entry.primary,
        type=entry.field("type"),
        version=entry.version.text,
    )
    explanation = SelectionExplanation(
        service=f"{req.namespace}/{req.name}",
        shape="Name",
        selector={},
        floor=None,
        floor_implicit=False,
        selection_pass=None,
        ranked_scope=entry.scope,
        candidates=(row,),
        winner=entry.name,
    )
    return ProfileSelection(profile=entry.obj, scope=entry.scope, shape="Name", explainer=lambda: explanation)


@dataclass(frozen=True)
class _Prepared:
    req: _Request
    model: AnyModel | None
    evaluation: _Evaluation
    previous_ref: Mapping[str, Any] | None
    previous_entry: ProfileEntry | None
    previous_key: Key | None = None


def _previous(
    req: _Request, catalog: Catalog
) -> tuple[Mapping[str, Any] | None, ProfileEntry | None, Key | None]:
    """The recorded binding, its catalog entry (None when gone) and the key it names.

    A reference without `kind` names an AIMClusterProfile when its scope is `Cluster`; a namespaced
    reference without `namespace` means the service's namespace.
    """
    ref = req.status.get("resolvedProfile")
    if not isinstance(ref, Mapping) or not text(ref.get("name")):
        return None, None, None
    kind = text(ref.get("kind")) or (
        "AIMClusterProfile" if text(ref.get("scope")) == "Cluster" else "AIMProfile"
    )
    namespace = (text(ref.get("namespace")) or req.namespace) if kind == "AIMProfile" else None
    name = text(ref.get("name"))
    entry = catalog.profile_entry(kind, namespace, name) or catalog.retained_profile_entry(
        kind, namespace, name
    )
    return ref, entry, (kind, namespace or "", name)


def _prepare(req: _Request, catalog: Catalog) -> _Prepared:
    model: AnyModel | None = None
    model_name = req.model_name
    if req.shape == "ModelImage":
        model = _model_for_image(req, catalog)
        model_name = model.metadata.name
    selector = effective_selector(req.selector, model_name or None)
    if model is None and selector.model_name:
        model = _find_model(catalog, req.namespace, selector.model_name, selector.model_scope)
    previous_ref, previous_entry, previous_key = _previous(req, catalog)
    extra = (previous_entry,) if previous_entry is not None and previous_entry.generated else ()
    evaluation = _evaluate(selector, catalog, req.namespace, extra)
    return _Prepared(req, model, evaluation, previous_ref, previous_entry, previous_key)


def select_profile(service: AIMService, catalog: Catalog) -> ProfileSelection:
    """Resolve the profile `service` deploys (behaviour §4); raises `AIMResolutionError` on failure."""
    req = _request(service)
    if req.shape == "Name":
        return _select_by_name(req, catalog)
    prepared = _prepare(req, catalog)
    evaluation, model = prepared.evaluation, prepared.model
    model_name = model.metadata.name if model is not None else (evaluation.selector.model_name or None)

    previous_name = text(prepared.previous_ref.get("name")) if prepared.previous_ref else None
    force = bool(text((service.metadata.annotations or {}).get(FORCE_REBIND_ANNOTATION)))
    previous_entry = prepared.previous_entry
    decision = sticky_decision(
        previous_name,
        candidate_ok=previous_entry is not None and evaluation.qualifies(previous_entry),
        force_rebind=force,
        exists=previous_entry is not None,
    )
    if decision.keep and previous_entry is not None:
        kept = previous_entry
        return ProfileSelection(
            profile=kept.obj,
            scope=kept.scope,
            shape=req.shape,
            model=model,
            explainer=lambda: _explain(
                req, evaluation, kept, model=model_name, previous=previous_name, sticky="kept"
            ),
        )

    best = evaluation.best()
    if best is None:
        _not_found(req, catalog, evaluation, model)
    winner = best
    tied = tuple(
        sorted(
            e.name
            for e in evaluation.candidates
            if e is not winner and compare_candidates(winner, e)[0] == "name"
        )
    )
    rebound_from: str | None = None
    reason: RebindReason | None = None
    sticky: Literal["none", "kept", "rebound", "unchanged"] = "none"
    if previous_name and prepared.previous_key is not None:
        if prepared.previous_key != winner.key:
            rebound_from, reason, sticky = previous_name, decision.reason, "rebound"
        else:
            sticky = "unchanged"
    return ProfileSelection(
        profile=winner.obj,
        scope=winner.scope,
        shape=req.shape,
        rebound_from=rebound_from,
        rebound_reason=reason,
        ambiguous=bool(tied),
        tied=tied,
        model=model,
        explainer=lambda: _explain(
            req, evaluation, winner, model=model_name, previous=previous_name, sticky=sticky
        ),
    )


def qualifying_profile_refs(service: AIMService, catalog: Catalog) -> tuple[ObjectRef, ...]:
    """Every profile that would keep a sticky binding of `service` (both scopes), in key order.

    For the `Name` shape this is the named profile alone (when it exists).
    """
    req = _request(service)
    if req.shape == "Name":
        return (_select_by_name(req, catalog).ref,)
    evaluation = _prepare(req, catalog).evaluation
    refs = [e.ref for e in evaluation.pool if evaluation.qualifies(e)]
    return tuple(sorted(refs, key=lambda r: (r.kind, r.namespace, r.name)))
