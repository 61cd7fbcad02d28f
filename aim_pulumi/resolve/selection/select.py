"""Profile selection (behaviour §4): which profile an AIMService deploys, and why.

The operator's resolver, run at deploy time, in its order: the service's shape (`request`), the
model it anchors on, the recorded binding, the evaluation of the effective selector (`filters`,
`evaluation`), the sticky rule (`sticky`), the ranking (`ranking`) and the `ProfileNotFound` /
`BaseProfile` errors. Every decision is also returned as data (`explanation`) so that a user can be
told which candidate was dropped by which filter and which tier decided the ranking.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, NoReturn

from aim_pulumi.api import AIMClusterModel, AIMClusterProfile, AIMModel, AIMProfile, AIMServiceObject
from aim_pulumi.api.common import StatusRef
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.objects import FORCE_REBIND_ANNOTATION, SOURCE_MODEL_LABEL, Key
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.candidate import ProfileEntry
from aim_pulumi.resolve.selection.catalog_view import CatalogView
from aim_pulumi.resolve.selection.evaluation import Evaluation, evaluate
from aim_pulumi.resolve.selection.explanation import (
    CandidateExplanation,
    SelectionExplanation,
    explain_selection,
)
from aim_pulumi.resolve.selection.filters import FLOOR_ANY, EffectiveSelector, effective_selector
from aim_pulumi.resolve.selection.ranking import compare_candidates
from aim_pulumi.resolve.selection.request import Request, Shape, read_request
from aim_pulumi.resolve.selection.sticky import RebindReason, sticky_decision
from aim_pulumi.resolve.selection.suggest import name_hint
from aim_pulumi.resolve.types import Diagnostic, ObjectRef, Scope

AnyProfile = AIMProfile | AIMClusterProfile
AnyModel = AIMModel | AIMClusterModel


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
    # What the shape ignored of the service (a `spec.model` beside `spec.profile.name`).
    ignored: tuple[Diagnostic, ...] = ()

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
        out: list[Diagnostic] = list(self.ignored)
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
            # The bound profile is gone: the service moves to another one, possibly older (another
            # image, another cache), which nobody asked for; a rebind someone asked for is news only.
            out.append(
                Diagnostic(
                    "warn" if self.rebound_reason == "deleted" else "info",
                    "ProfileRebound",
                    f'rebound from "{self.rebound_from}" to "{name}" (reason: {self.rebound_reason})',
                )
            )
        return tuple(out)


class NoProfileSelected(AIMResolutionError):
    """A selection that found no profile, with every candidate it refused and the filter that refused it.

    The explanation is built on first access, from the evaluation the selection ran (`explain`
    prints it for a service whose plan failed).
    """

    def __init__(self, error: AIMResolutionError, explainer: Callable[[], SelectionExplanation]) -> None:
        super().__init__(error.field, error.reason, error.message, object_ref=error.object_ref or "")
        self._explainer = explainer

    @cached_property
    def explanation(self) -> SelectionExplanation:
        return self._explainer()


def _model_for_image(req: Request, catalog: CatalogView) -> AnyModel:
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


def _find_model(catalog: CatalogView, namespace: str, name: str, scope: str) -> AnyModel | None:
    if scope == "Namespace":
        found = catalog.get("AIMModel", namespace, name)
    elif scope == "Cluster":
        found = catalog.get("AIMClusterModel", None, name)
    else:
        return catalog.model(namespace, name)
    return found if isinstance(found, AIMModel | AIMClusterModel) else None


def _written_field(req: Request) -> str:
    """The field to blame for a selection that found nothing: the one the user wrote.

    A by-model service (`spec.model.name` alone) selects through an implicit selector; pointing at
    `spec.profile.selector`, which is not in the file, would send the reader looking for nothing.
    """
    if req.selector is None and req.model_name:
        return "spec.model.name"
    return "spec.profile.selector"


def _not_found(
    req: Request, catalog: CatalogView, evaluation: Evaluation, model: AnyModel | None
) -> NoReturn:
    sel = evaluation.selector
    field = _written_field(req)
    candidates_hint = (
        f"; `aim-pulumi explain PROGRAM --service {req.namespace}/{req.name}` lists every candidate "
        "and why it lost"
    )
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
                    err.field, err.reason, f"{kind} {where}: {err.message}", object_ref=f"{kind}/{where}"
                )
        elif not catalog.has_model_or_profiles(req.namespace, sel.model_name):
            from_spec = req.model_name == sel.model_name and not req.selector_model_name
            raise req.error(
                "ProfileNotFound",
                "spec.model.name" if from_spec else "spec.profile.selector.modelRef.name",
                f'model "{sel.model_name}" not found: no AIMModel in namespace "{req.namespace}", no '
                f"AIMClusterModel and no profile labelled {SOURCE_MODEL_LABEL}={sel.model_name}"
                + name_hint(catalog, "AIMModel", "AIMClusterModel", req.namespace, sel.model_name),
            )
    if evaluation.floor_excluded > 0 and sel.floor != FLOOR_ANY:
        hint = " (the implicit default)" if sel.floor_implicit else ""
        relax = ", and none of them has autoSelectionPolicy: any" if sel.floor_implicit else ""
        raise req.error(
            "ProfileNotFound",
            field,
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
            failed = catalog.discovery_error(model)
            hint = f"; {model.kind} {model.metadata.name} has no profiles: " + (
                f"its image {model.spec.image} could not be discovered ({failed.reason}: "
                f"{failed.message}); run `aim-pulumi discover` once the registry answers"
                if failed is not None
                else f"its image offers none the inventory supports, or declare them with the label "
                f"{SOURCE_MODEL_LABEL}={model.metadata.name}"
            )
    if not hint and evaluation.pool:
        hint = candidates_hint
    raise req.error(
        "ProfileNotFound",
        field,
        f'no profile matched the selector in either scope: no AIMProfile in namespace "{req.namespace}" '
        f"and no AIMClusterProfile{hint}",
    )


# --------------------------------------------------------------------------------------------------
# Entry points


def _select_by_name(req: Request, catalog: CatalogView) -> ProfileSelection:
    entry = catalog.profile_entry("AIMProfile", req.namespace, req.profile_name) or catalog.profile_entry(
        "AIMClusterProfile", None, req.profile_name
    )
    if entry is None:
        raise req.error(
            "ProfileNotFound",
            "spec.profile.name",
            f'profile "{req.profile_name}" not found: neither an AIMProfile in namespace '
            f'"{req.namespace}" nor an AIMClusterProfile has that name'
            + name_hint(catalog, "AIMProfile", "AIMClusterProfile", req.namespace, req.profile_name),
        )
    if entry.role == "base" or entry.deployable is False:
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
    return ProfileSelection(
        profile=entry.obj,
        scope=entry.scope,
        shape="Name",
        explainer=lambda: explanation,
        ignored=_model_not_served(req, entry, catalog),
    )


def _model_not_served(req: Request, entry: ProfileEntry, catalog: CatalogView) -> tuple[Diagnostic, ...]:
    """A `spec.model` the named profile does not serve: the Name shape deploys the profile alone.

    The profile serves model M when its `source-model` label is M, or, unlabelled, when M's
    `modelId` or `image` is the profile's. Otherwise the model is ignored, which the user is told.
    """
    field, wanted = (
        ("spec.model.name", req.model_name) if req.model_name else ("spec.model.image", req.model_image)
    )
    if not wanted:
        return ()
    spec = entry.obj.spec
    label = entry.source_model
    if req.model_name:
        if label == wanted:
            return ()
        model = catalog.model(req.namespace, wanted)
        if not label and model is not None:
            if model.spec.model_id and model.spec.model_id == spec.model_id:
                return ()
            if model.spec.image and model.spec.image == spec.image:
                return ()
        served = f'model "{label}" (its {SOURCE_MODEL_LABEL} label)' if label else "another model"
        if model is None:
            served += f'; no AIMModel in namespace "{req.namespace}" or AIMClusterModel is named "{wanted}"'
    else:
        if spec.image == wanted:
            return ()
        served = f'image "{spec.image}"'
    message = (
        f'{field} "{wanted}" is ignored: the service deploys {entry.kind} "{entry.name}" by name '
        f"(spec.profile.name), which serves {served}; drop {field}, name a profile of that model, or "
        f"select by {field} (with spec.profile.selector) instead of spec.profile.name"
    )
    return (Diagnostic("warn", "ModelIgnored", message),)


@dataclass(frozen=True)
class _Prepared:
    req: Request
    model: AnyModel | None
    evaluation: Evaluation
    previous_ref: StatusRef | None
    previous_entry: ProfileEntry | None
    previous_key: Key | None = None
    memo_key: _EvaluationKey | None = None


def _previous(req: Request, catalog: CatalogView) -> tuple[StatusRef | None, ProfileEntry | None, Key | None]:
    """The recorded binding, its catalog entry (None when gone) and the key it names.

    A reference without `kind` names an AIMClusterProfile when its scope is `Cluster`; a namespaced
    reference without `namespace` means the service's namespace.
    """
    ref = req.resolved_profile
    if ref is None or not text(ref.name):
        return None, None, None
    kind = text(ref.kind) or ("AIMClusterProfile" if text(ref.scope) == "Cluster" else "AIMProfile")
    namespace = (text(ref.namespace) or req.namespace) if kind == "AIMProfile" else None
    name = text(ref.name)
    entry = catalog.profile_entry(kind, namespace, name) or catalog.retained_profile_entry(
        kind, namespace, name
    )
    return ref, entry, (kind, namespace or "", name)


def _prepare(req: Request, catalog: CatalogView) -> _Prepared:
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
    memo_key = _evaluation_key(selector, req.namespace, extra)
    if memo_key is None:
        evaluation = evaluate(selector, catalog, req.namespace, extra)
    else:
        evaluation = catalog.memoised(memo_key, lambda: evaluate(selector, catalog, req.namespace, extra))
    return _Prepared(req, model, evaluation, previous_ref, previous_entry, previous_key, memo_key)


@dataclass(frozen=True)
class _EvaluationKey:
    """What an evaluation depends on besides the catalog (the selector's fields as JSON, in order)."""

    namespace: str
    fields: str
    extra: tuple[Key, ...]


# The results remembered per evaluation: one key type each, so two never share a key.
@dataclass(frozen=True)
class _RankedKey:
    evaluation: _EvaluationKey


@dataclass(frozen=True)
class _QualifyingKey:
    evaluation: _EvaluationKey


def _evaluation_key(
    selector: EffectiveSelector, namespace: str, extra: tuple[ProfileEntry, ...]
) -> _EvaluationKey | None:
    """What an evaluation depends on besides the catalog; None when the selector is not plain JSON.

    Every service of a namespace asking for the same model with the same selector shares one
    evaluation. Field order is kept in the key: the first failing filter is reported in it.
    """
    try:
        fields = json.dumps(selector.fields, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return _EvaluationKey(namespace, fields, tuple(entry.key for entry in extra))


def _ranked(evaluation: Evaluation) -> tuple[ProfileEntry, tuple[str, ...]] | None:
    """The ranking's winner and the names tied with it on tiers 1-4; None when nothing qualifies."""
    winner = evaluation.best()
    if winner is None:
        return None
    tied = tuple(
        sorted(
            e.name
            for e in evaluation.candidates
            if e is not winner and compare_candidates(winner, e)[0] == "name"
        )
    )
    return winner, tied


def select_profile(service: AIMServiceObject, catalog: CatalogView) -> ProfileSelection:
    """Resolve the profile `service` deploys (behaviour §4); raises `AIMResolutionError` on failure."""
    req = read_request(service)
    if req.shape == "Name":
        return _select_by_name(req, catalog)
    prepared = _prepare(req, catalog)
    evaluation, model = prepared.evaluation, prepared.model
    model_name = model.metadata.name if model is not None else (evaluation.selector.model_name or None)

    previous_name = text(prepared.previous_ref.name) if prepared.previous_ref else None
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
            explainer=lambda: explain_selection(
                req, evaluation, kept, model=model_name, previous=previous_name, sticky="kept"
            ),
        )

    ranked = (
        _ranked(evaluation)
        if prepared.memo_key is None
        else catalog.memoised(_RankedKey(prepared.memo_key), lambda: _ranked(evaluation))
    )
    if ranked is None:
        try:
            _not_found(req, catalog, evaluation, model)
        except AIMResolutionError as error:
            raise NoProfileSelected(
                error,
                lambda: explain_selection(
                    req, evaluation, None, model=model_name, previous=previous_name, sticky="none"
                ),
            ) from None
    winner, tied = ranked
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
        explainer=lambda: explain_selection(
            req, evaluation, winner, model=model_name, previous=previous_name, sticky=sticky
        ),
    )


def qualifying_profile_refs(service: AIMServiceObject, catalog: CatalogView) -> tuple[ObjectRef, ...]:
    """Every profile that would keep a sticky binding of `service` (both scopes), in key order.

    For the `Name` shape this is the named profile alone (when it exists).
    """
    req = read_request(service)
    if req.shape == "Name":
        return (_select_by_name(req, catalog).ref,)
    prepared = _prepare(req, catalog)
    evaluation = prepared.evaluation

    def qualifying() -> tuple[ObjectRef, ...]:
        refs = [e.ref for e in evaluation.pool if evaluation.qualifies(e)]
        return tuple(sorted(refs, key=lambda r: (r.kind, r.namespace, r.name)))

    # The plan's selection already evaluated this selector, so the set comes from the same memo.
    if prepared.memo_key is None:
        return qualifying()
    return catalog.memoised(_QualifyingKey(prepared.memo_key), qualifying)
