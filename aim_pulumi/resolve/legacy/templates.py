"""The legacy template pipeline's decisions: which model, which template, and the profile it becomes.

A v1alpha1 service resolves a model, then a template of that model (behaviour §7.2); of the
templates that pass the filters, namespace ones shut out cluster ones, as namespace profiles shut
out cluster profiles in the profile pipeline (seed 002: the same algorithm). Once chosen,
the template is converted into its v1alpha2 profile with the very conversion `aim-pulumi migrate`
writes (`template_profile.template_profile_manifest`), and that profile goes through the ordinary profile
path. So a legacy service and its migrated form plan the same children, and migrating replaces
nothing; only the status differs (`resolvedModel`, `resolvedTemplate`, the template conditions).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from aim_pulumi.api import (
    KINDS,
    AIMClusterModel,
    AIMClusterProfile,
    AIMModel,
    AIMProfile,
    AIMServiceObject,
    to_manifest,
)
from aim_pulumi.api.io import parse
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.legacy.custom_model import compatibility_model, custom_template, matching_model
from aim_pulumi.resolve.legacy.dispatch import RECONCILER_PIPELINE_ANNOTATION
from aim_pulumi.resolve.legacy.index import template_index
from aim_pulumi.resolve.legacy.kinds import V1ALPHA1_KINDS, AIMClusterServiceTemplate, AIMServiceTemplate
from aim_pulumi.resolve.legacy.migration import migrate_objects, profile_overrides_from_legacy
from aim_pulumi.resolve.legacy.template_profile import (
    MODEL_WITHOUT_IMAGE,
    NotConvertible,
    template_profile_manifest,
)
from aim_pulumi.resolve.objects import object_ref
from aim_pulumi.resolve.runtime_config.merge import merge_env
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.candidate import TYPE_RANK, UNSET_TYPE_RANK
from aim_pulumi.resolve.selection.overlays import build_overlay
from aim_pulumi.resolve.selection.versions import VersionKey, compare_versions, profile_version
from aim_pulumi.resolve.types import ObjectRef, Scope

AnyModel = AIMModel | AIMClusterModel
AnyTemplate = AIMServiceTemplate | AIMClusterServiceTemplate
AnyProfile = AIMProfile | AIMClusterProfile
TemplateShape = Literal["Name", "SelectionCriteria", "Model"]

# What a template made here is read as: the core's kinds and v1alpha1's over them.
V1ALPHA1_READS = KINDS.serving(*V1ALPHA1_KINDS)

MODEL_NOT_FOUND = "ModelNotFound"
MULTIPLE_MODELS_FOUND = "MultipleModelsFound"
TEMPLATE_NOT_FOUND = "TemplateNotFound"
TEMPLATE_NOT_READY = "TemplateNotReady"
TEMPLATE_NOT_READY_MESSAGE = (
    "the template has no static spec.modelSources and no discovered status.modelSources; discovery "
    "needs a cluster, so declare the sources on the template"
)


def template_readiness_problem(manifest: Mapping[str, Any]) -> str | None:
    """Why a template manifest can never be deployed here (`TemplateNotReady`), or None.

    The same condition `template_profile` refuses at plan time, read from the manifest alone so
    that `validate` says it before `plan` does: the converted profile takes its sources from the
    template's spec, else from what discovery recorded in its status.
    """
    for part in ("spec", "status"):
        holder = manifest.get(part)
        if isinstance(holder, Mapping) and holder.get("modelSources"):
            return None
    return TEMPLATE_NOT_READY_MESSAGE


TEMPLATE_SELECTION_AMBIGUOUS = "TemplateSelectionAmbiguous"
INVALID_IMAGE_REFERENCE = "InvalidImageReference"

# How many names an error message lists before it says "and N more".
_LISTED = 5


def _service_ref(service: AIMServiceObject) -> str:
    return f"AIMService/{service.metadata.namespace or 'default'}/{service.metadata.name}"


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:_LISTED])
    return shown if len(names) <= _LISTED else f"{shown} and {len(names) - _LISTED} more"


def _model_label(model: AnyModel) -> str:
    if isinstance(model, AIMModel):
        return f"{model.metadata.namespace}/{model.metadata.name} (namespace)"
    return f"{model.metadata.name} (cluster)"


def _service_spec(service: AIMServiceObject) -> Mapping[str, Any]:
    spec = to_manifest(service).get("spec")
    return spec if isinstance(spec, Mapping) else {}


# --------------------------------------------------------------------------------------------------
# Model


def resolve_model(service: AIMServiceObject, catalog: Catalog) -> AnyModel:
    """The model of a template-path service (`status.resolvedModel`); no model is ever auto-created."""
    namespace = service.metadata.namespace or "default"
    model_spec = _service_spec(service).get("model")
    model_spec = model_spec if isinstance(model_spec, Mapping) else {}
    ref = _service_ref(service)
    name, image = text(model_spec.get("name")), text(model_spec.get("image"))
    if name:
        found = catalog.model(namespace, name)
        if found is None:
            raise AIMResolutionError(
                "spec.model.name",
                MODEL_NOT_FOUND,
                f"neither an AIMModel {name!r} in namespace {namespace!r} nor an AIMClusterModel {name!r} "
                "is declared",
                object_ref=ref,
            )
        return found
    if image:
        local, cluster = catalog.models_with_image(namespace, image)
        matches = local or cluster
        if not matches:
            raise AIMResolutionError(
                "spec.model.image",
                MODEL_NOT_FOUND,
                f"no AIMModel in namespace {namespace!r} and no AIMClusterModel declares image {image!r}; "
                "declare one with its templates (no model is auto-created) or use spec.model.name",
                object_ref=ref,
            )
        if len(matches) > 1:
            raise AIMResolutionError(
                "spec.model.image",
                MULTIPLE_MODELS_FOUND,
                f"image {image!r} is declared by {', '.join(_model_label(m) for m in matches)}; "
                "pick one with spec.model.name",
                object_ref=ref,
            )
        return matches[0]
    custom = model_spec.get("custom")
    if isinstance(custom, Mapping):
        return custom_model_of(service, custom, catalog)
    raise AIMResolutionError(
        "spec.model",
        MODEL_NOT_FOUND,
        "the template pipeline needs spec.model.name or spec.model.image",
        object_ref=ref,
    )


# --------------------------------------------------------------------------------------------------
# Template


@dataclass(frozen=True)
class TemplateSelection:
    """The chosen template (`status.resolvedTemplate`) and the model its profile is built from.

    `model` is the model the template names, seen from the template's scope; it is the service's
    model unless a template pinned by name belongs to another one. `ranked` lists the candidate
    names of the ranked scope that survived the filters, best first (empty for a template pinned
    by name).
    """

    template: AnyTemplate
    model: AnyModel
    scope: Scope
    shape: TemplateShape
    ranked: tuple[str, ...] = ()

    @property
    def ref(self) -> ObjectRef:
        return object_ref(self.template)


@dataclass(frozen=True)
class _Candidate:
    template: AnyTemplate
    spec: Mapping[str, Any]
    status: Mapping[str, Any]
    scope: Scope

    @classmethod
    def of(cls, template: AnyTemplate) -> _Candidate:
        manifest = to_manifest(template)
        spec, status = manifest.get("spec"), manifest.get("status")
        return cls(
            template=template,
            spec=spec if isinstance(spec, Mapping) else {},
            status=status if isinstance(status, Mapping) else {},
            scope="Namespace" if isinstance(template, AIMServiceTemplate) else "Cluster",
        )

    @property
    def name(self) -> str:
        return self.template.metadata.name

    @property
    def gpu(self) -> Mapping[str, Any]:
        hardware = self.spec.get("hardware")
        gpu = hardware.get("gpu") if isinstance(hardware, Mapping) else None
        return gpu if isinstance(gpu, Mapping) else {}

    @property
    def discovered(self) -> Mapping[str, Any]:
        """`status.profile.metadata`, where discovery records primary, type and engine."""
        profile = self.status.get("profile")
        metadata = profile.get("metadata") if isinstance(profile, Mapping) else None
        return metadata if isinstance(metadata, Mapping) else {}


def _template_model(template: AnyTemplate, catalog: Catalog, fallback: AnyModel) -> AnyModel:
    name = template.spec.model_name
    if isinstance(template, AIMServiceTemplate):
        found = catalog.model(template.metadata.namespace or "default", name)
    else:
        cluster = catalog.get("AIMClusterModel", None, name)
        found = cluster if isinstance(cluster, AIMClusterModel) else None
    return found if found is not None else fallback


def _gpu_offered(candidate: _Candidate, catalog: Catalog) -> bool:
    """Whether some inventory pool offers the template's GPU; without an inventory every GPU exists."""
    if catalog.inventory is None or not candidate.gpu:
        return True
    requests = candidate.gpu.get("requests")
    return catalog.inventory.has(
        None, "gpu", text(candidate.gpu.get("model")) or None, None, int(requests) if requests else None
    )


def _matches(candidate: _Candidate, criteria: Mapping[str, Any]) -> bool:
    for key in ("precision", "metric"):
        wanted = text(criteria.get(key))
        if wanted and text(candidate.spec.get(key)) != wanted:
            return False
    accelerator = text(criteria.get("acceleratorModel"))
    if accelerator and text(candidate.gpu.get("model")).lower() != accelerator.lower():
        return False
    count = criteria.get("acceleratorCount")
    if count and candidate.gpu.get("requests") != count:
        return False
    engine = text(criteria.get("engine"))
    return not (engine and text(candidate.discovered.get("engine")) != engine)


def _in_scope(candidates: list[_Candidate]) -> list[_Candidate]:
    """The namespace templates when any survived the filters, else the cluster ones.

    The profile pipeline's namespace-over-cluster precedence (behaviour §4), which seed 002 says
    the template pipeline shares: a team's own template is never outranked by a platform one, and
    a legacy service picks what its migrated form picks.
    """
    local = [c for c in candidates if c.scope == "Namespace"]
    return local or [c for c in candidates if c.scope == "Cluster"]


def _rank(candidates: list[_Candidate], image: str | None) -> list[_Candidate]:
    """Best first: primary, type, version (newer first), then name (candidates share one scope)."""

    def version(c: _Candidate) -> VersionKey:
        return VersionKey.of(profile_version(c.status.get("version"), image))

    def compare(a: _Candidate, b: _Candidate) -> int:
        primary = (b.discovered.get("primary") is True) - (a.discovered.get("primary") is True)
        if primary:
            return primary
        rank_a = TYPE_RANK.get(text(a.discovered.get("type")), UNSET_TYPE_RANK)
        rank_b = TYPE_RANK.get(text(b.discovered.get("type")), UNSET_TYPE_RANK)
        if rank_a != rank_b:
            return rank_a - rank_b
        newer = compare_versions(version(b), version(a))
        if newer:
            return newer
        return -1 if a.name < b.name else (1 if a.name > b.name else 0)

    return sorted(candidates, key=functools.cmp_to_key(compare))


def _profile_hint(service: AIMServiceObject, model: AnyModel, catalog: Catalog) -> str:
    pool = catalog.profile_pool(service.metadata.namespace or "default", model=model.metadata.name)
    names = sorted({entry.name for entry in pool if not entry.overlay})
    if not names:
        return ""
    return (
        f"; profiles labelled with model {model.metadata.name!r} exist ({_names(names)}): annotate the "
        f"service with {RECONCILER_PIPELINE_ANNOTATION}: profile to deploy one of them"
    )


def _custom(spec: Mapping[str, Any]) -> Mapping[str, Any] | None:
    model = spec.get("model")
    custom = model.get("custom") if isinstance(model, Mapping) else None
    return custom if isinstance(custom, Mapping) else None


def custom_model_of(service: AIMServiceObject, custom: Mapping[str, Any], catalog: Catalog) -> AnyModel:
    """The model of an inline custom model: a namespace AIMModel with the same image and sources,
    else the compatibility model the operator would make (`aim_pulumi/resolve/legacy/custom_model.py`)."""
    namespace = service.metadata.namespace or "default"
    local, _ = catalog.models_with_image(namespace, text(custom.get("baseImage")))
    found = matching_model(local, custom)
    if found is not None:
        return found
    made = parse(compatibility_model(to_manifest(service), custom))
    assert isinstance(made, AIMModel)
    return made


def _template_field(spec: Mapping[str, Any]) -> str:
    if spec.get("template") is not None:
        return "spec.template"
    model = spec.get("model")
    model = model if isinstance(model, Mapping) else {}
    if model.get("custom") is not None:
        return "spec.model.custom"
    return "spec.model.image" if model.get("image") is not None else "spec.model.name"


def select_template(service: AIMServiceObject, model: AnyModel, catalog: Catalog) -> TemplateSelection:
    """Choose the template of a template-path service, with the v1alpha1 selection rules.

    A name is looked up in the namespace, then the cluster. Otherwise the model's templates are
    filtered (status present and not `Ready`, a GPU no inventory pool offers, the selection
    criteria), only the namespace ones are kept when any survive (else the cluster ones), and
    those are ranked primary > type > version > name; without criteria exactly one may remain.
    """
    namespace = service.metadata.namespace or "default"
    spec = _service_spec(service)
    template_ref = spec.get("template")
    template_ref = template_ref if isinstance(template_ref, Mapping) else {}
    ref = _service_ref(service)

    name = text(template_ref.get("name"))
    if name:
        found = template_index(catalog).template(namespace, name)
        if not isinstance(found, AIMServiceTemplate | AIMClusterServiceTemplate):
            raise AIMResolutionError(
                "spec.template.name",
                TEMPLATE_NOT_FOUND,
                f"neither an AIMServiceTemplate {name!r} in namespace {namespace!r} nor an "
                f"AIMClusterServiceTemplate {name!r} is declared" + _profile_hint(service, model, catalog),
                object_ref=ref,
            )
        scope: Scope = "Namespace" if isinstance(found, AIMServiceTemplate) else "Cluster"
        return TemplateSelection(found, _template_model(found, catalog, model), scope, "Name")

    declared = [
        t
        for t in template_index(catalog).templates_for_model(namespace, model.metadata.name)
        if isinstance(t, AIMServiceTemplate | AIMClusterServiceTemplate)
    ]
    custom = _custom(spec)
    if custom is not None and not declared:
        # The one template the model controller makes for a compatibility model, unless declared.
        made = parse(custom_template(model, custom, to_manifest(service)), V1ALPHA1_READS)
        assert isinstance(made, AIMServiceTemplate)
        declared = [made]
    candidates = [_Candidate.of(t) for t in declared]
    candidates = [c for c in candidates if text(c.status.get("status")) in ("", "Ready")]
    candidates = [c for c in candidates if _gpu_offered(c, catalog)]
    if not template_ref.get("allowUnoptimized"):
        kept = [c for c in candidates if text(c.spec.get("type")) != "unoptimized"]
        if candidates and not kept:
            raise AIMResolutionError(
                _template_field(spec),
                TEMPLATE_NOT_FOUND,
                f"No available templates match requirements for model {model.metadata.name!r}: "
                f"{len(candidates)} unoptimized template(s) filtered out. Set allowUnoptimized to use them.",
                object_ref=ref,
            )
        candidates = kept
    criteria = template_ref.get("selectionCriteria")
    model_name = model.metadata.name

    if isinstance(criteria, Mapping):
        candidates = _rank(
            _in_scope([c for c in candidates if _matches(c, criteria)]), text(model.spec.image) or None
        )
        if not candidates:
            raise AIMResolutionError(
                "spec.template.selectionCriteria",
                TEMPLATE_NOT_FOUND,
                f"no ready template of model {model_name!r} whose GPU the inventory offers matches "
                "spec.template.selectionCriteria" + _profile_hint(service, model, catalog),
                object_ref=ref,
            )
        best = candidates[0]
        return TemplateSelection(
            best.template,
            _template_model(best.template, catalog, model),
            best.scope,
            "SelectionCriteria",
            tuple(c.name for c in candidates),
        )

    field = _template_field(spec)
    candidates = _in_scope(candidates)
    if not candidates:
        raise AIMResolutionError(
            field,
            TEMPLATE_NOT_FOUND,
            f"no ready template of model {model_name!r} whose GPU the inventory offers is declared"
            + _profile_hint(service, model, catalog),
            object_ref=ref,
        )
    if len(candidates) > 1:
        raise AIMResolutionError(
            field,
            TEMPLATE_SELECTION_AMBIGUOUS,
            f"model {model_name!r} has {len(candidates)} candidate templates "
            f"({_names([c.name for c in candidates])}); name one with spec.template.name or narrow them "
            "with spec.template.selectionCriteria",
            object_ref=ref,
        )
    only = candidates[0]
    return TemplateSelection(
        only.template, _template_model(only.template, catalog, model), only.scope, "Model", (only.name,)
    )


# --------------------------------------------------------------------------------------------------
# Profile


def _overrides_dict(overrides: Mapping[str, Any] | BaseModel | None) -> dict[str, Any]:
    if overrides is None:
        return {}
    if isinstance(overrides, BaseModel):
        return overrides.model_dump(by_alias=True, exclude_unset=True, exclude_none=True, mode="json")
    return dict(overrides)


def _apply_overrides(spec: dict[str, Any], overrides: Mapping[str, Any]) -> None:
    """Lay the service's legacy overrides over the profile, as a profile overlay would (behaviour §5)."""
    for key in ("metric", "precision"):
        if text(overrides.get(key)):
            spec[key] = overrides[key]
    mapped = profile_overrides_from_legacy(
        {k: v for k, v in overrides.items() if k not in ("metric", "precision")}
    )
    if text(mapped.get("acceleratorModel")):
        spec["acceleratorModel"] = mapped["acceleratorModel"]
    if mapped.get("acceleratorCount") is not None:
        spec["acceleratorCount"] = mapped["acceleratorCount"]
    if mapped.get("containerEnv"):
        spec["containerEnv"] = merge_env(spec.get("containerEnv") or [], mapped["containerEnv"])
    if mapped.get("engineArgs"):
        spec["engineArgs"] = {**dict(spec.get("engineArgs") or {}), **dict(mapped["engineArgs"])}


def template_profile(
    template: AnyTemplate, model: AnyModel, overrides: Mapping[str, Any] | BaseModel | None = None
) -> AnyProfile:
    """The profile a template becomes (the `migrate` conversion), with a service's `spec.overrides` on top.

    Without overrides the result is exactly the AIMProfile / AIMClusterProfile that `aim-pulumi
    migrate` writes for the template. A template with no static `spec.modelSources` and none in
    `status.modelSources` needs discovery, which no deploy-time run can do: `TemplateNotReady`.
    """
    template_ref = object_ref(template)
    where = f"{template_ref.kind}/{template_ref.namespace}/{template_ref.name}"
    try:
        manifest = template_profile_manifest(to_manifest(template), to_manifest(model))
    except NotConvertible as err:
        reason = {MODEL_NOT_FOUND: MODEL_NOT_FOUND, MODEL_WITHOUT_IMAGE: INVALID_IMAGE_REFERENCE}.get(
            err.reason, "InvalidSpec"
        )
        raise AIMResolutionError(err.field, reason, err.message, object_ref=where) from None
    spec: dict[str, Any] = manifest["spec"]
    if not spec.get("modelSources"):
        raise AIMResolutionError(
            "spec.modelSources", TEMPLATE_NOT_READY, TEMPLATE_NOT_READY_MESSAGE, object_ref=where
        )
    given = _overrides_dict(overrides)
    if given:
        try:
            _apply_overrides(spec, given)
        except NotConvertible as err:
            raise AIMResolutionError(err.field, "InvalidSpec", err.message) from None
    profile = parse(manifest)
    assert isinstance(profile, AIMProfile | AIMClusterProfile)
    return profile


@dataclass(frozen=True)
class TemplateProfile:
    """The profile a template-path service deploys: `seed` is the converted template, `effective` what
    the children are built from (the overlay of the migrated service when its overrides have one)."""

    seed: AnyProfile
    effective: AnyProfile
    overlay_name: str | None = None


def effective_template_profile(service: AIMServiceObject, selection: TemplateSelection) -> TemplateProfile:
    """The profile a template-path service deploys, named exactly as after `aim-pulumi migrate`.

    A pinned template with `spec.overrides` migrates to `spec.profile.name` + `spec.profileOverrides`,
    whose profile path deploys an overlay (behaviour §5) named after the service; building the same
    overlay here keeps the InferenceService labels and cache keys unchanged across the migration.
    Overrides that migrate cannot convert (chosen by selection, or metric/precision) have no
    migrated form to match and are laid over the converted template in place.
    """
    seed = template_profile(selection.template, selection.model)
    spec = _service_spec(service)
    overrides = spec.get("overrides")
    if not overrides:
        return TemplateProfile(seed, seed)
    result = migrate_objects([to_manifest(service)])
    if result.problems:
        return TemplateProfile(seed, template_profile(selection.template, selection.model, overrides))
    migrated = parse(result.objects[0])
    assert isinstance(migrated, AIMServiceObject)
    overlay = build_overlay(seed, migrated)
    if overlay is None:
        return TemplateProfile(seed, seed)
    return TemplateProfile(seed, overlay, overlay.metadata.name)
