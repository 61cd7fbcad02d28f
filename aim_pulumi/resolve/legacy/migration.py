"""v1alpha1 AIMService and service templates rewritten as their v1alpha2 equivalents (behaviour §7.3).

The conversion edits a copy of each manifest in place instead of building a new one, so that the
mappings a round-trip YAML loader returns keep their key order and comments. Anything without a
v1alpha2 equivalent is reported with its field and reason and the document is left as it was:
a converter that guesses would move a running service onto a profile nobody chose.

A service the template pipeline would serve by selection (no template name) migrates to a selector
with `minimumType: any`: the template pipeline has no tier floor, and the implicit `optimized` floor of
the profile pipeline would reject converted templates whose discovery recorded no type (see
`_migrate_service`). Templates convert as `template_profile` describes.

An inline custom model (`spec.model.custom`) has two v1alpha2 forms, chosen by the caller
(`CUSTOM_MODEL_FORMS`, `keep-names` by default): the plain model and the profile its template
becomes, under the names the operator gave them, so no child changes; or the idiomatic base
derivation (`derivation`), whose derived profile has another name, so the InferenceService and the
caches change on the next deployment. The second form comes with a `MigrationNotice` per service
saying so.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from aim_pulumi.api import AIM_GROUP, KINDS, AIMModel, AIMServiceObject, AIMValidationError, to_manifest
from aim_pulumi.api.io import parse
from aim_pulumi.resolve.children.names import derived_name, model_profile_set_name
from aim_pulumi.resolve.legacy import yaml_edits as edits
from aim_pulumi.resolve.legacy.custom_model import (
    compatibility_model,
    custom_input,
    custom_model_name,
    custom_template,
    custom_template_name,
    matching_model,
)
from aim_pulumi.resolve.legacy.dispatch import RECONCILER_PIPELINE_ANNOTATION, choose_pipeline
from aim_pulumi.resolve.legacy.kinds import V1ALPHA1_KINDS
from aim_pulumi.resolve.legacy.template_profile import (
    TEMPLATE_TO_PROFILE_KIND,
    NotConvertible,
    require_mapping,
    template_profile_manifest,
)
from aim_pulumi.resolve.scalars import text

V1ALPHA1 = f"{AIM_GROUP}/v1alpha1"
V1ALPHA2 = f"{AIM_GROUP}/v1alpha2"
CLUSTER_KINDS = frozenset({"AIMClusterServiceTemplate", "AIMClusterModel", "AIMClusterProfile"})

# The floor of a migrated selecting service: the template pipeline ranks every tier.
NO_TIER_FLOOR = "any"

# Legacy cache modes (admission rule A14).
CACHE_MODES: Mapping[str, str] = {"Auto": "Shared", "Always": "Shared", "Never": "Dedicated"}

# Reasons of what cannot be converted.
UNSUPPORTED = "Unsupported"
OVERRIDES_WITHOUT_TEMPLATE_NAME = "OverridesWithoutTemplateName"
UNMAPPED_FIELD = "UnmappedField"

# The v1alpha2 forms of an inline custom model (the first is the default).
KEEP_NAMES = "keep-names"
DERIVATION = "derivation"
CUSTOM_MODEL_FORMS = (KEEP_NAMES, DERIVATION)
# The derived profile's own version policy: the base model pins one image, so `latest` derives the
# base profiles of that image, and follows a new base tag when the base model is moved to it.
DERIVATION_VERSION_POLICY = "latest"

_Models = dict[tuple[str, str, str], Mapping[str, Any]]


@dataclass(frozen=True)
class MigrationProblem:
    """One reason a document was written unchanged; `index` is its position in the input list."""

    index: int
    kind: str
    namespace: str
    name: str
    field: str
    reason: str
    message: str

    @property
    def object_ref(self) -> str:
        """`Kind/namespace/name`; cluster objects have an empty namespace part."""
        return f"{self.kind}/{self.namespace}/{self.name}"


@dataclass(frozen=True)
class MigrationNotice:
    """What a converted document changes on the next deployment; `index` is its input position."""

    index: int
    kind: str
    namespace: str
    name: str
    message: str

    @property
    def object_ref(self) -> str:
        return f"{self.kind}/{self.namespace}/{self.name}"


@dataclass(frozen=True)
class MigrationResult:
    """Converted manifests in input order (unconvertible ones unchanged) and the problems found.

    `added[i]` are the new documents the conversion of `objects[i]` needs after it: an inline
    custom model's compatibility model and the profile its template becomes, written once.
    """

    objects: tuple[Any, ...]
    problems: tuple[MigrationProblem, ...]
    converted: tuple[bool, ...]
    added: tuple[tuple[Any, ...], ...] = ()
    notices: tuple[MigrationNotice, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


# --------------------------------------------------------------------------------------------------
# Services


def profile_overrides_from_legacy(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """`spec.overrides` as `spec.profileOverrides`: env, engine args and the GPU model/count.

    A copy of the input mapping type (key order and comments kept). Metric and precision have no
    profile-override equivalent (they belong to the profile itself) and raise `NotConvertible`.
    """
    out: MutableMapping[str, Any] = copy.deepcopy(overrides)  # type: ignore[arg-type]
    for key in list(out.keys()):
        if key == "env":
            edits.rename(out, "env", "containerEnv")
        elif key == "engineArgs":
            continue
        elif key == "gpuSelector":
            selector = require_mapping(out["gpuSelector"], "spec.overrides.gpuSelector")
            fields = [
                (target, selector[source])
                for source, target in (("model", "acceleratorModel"), ("count", "acceleratorCount"))
                if selector.get(source) is not None
            ]
            edits.replace(out, "gpuSelector", fields)
            edits.carry(selector, "model", out, "acceleratorModel")
            edits.carry(selector, "count", out, "acceleratorCount")
        else:
            raise NotConvertible(
                f"spec.overrides.{key}",
                UNMAPPED_FIELD,
                f"spec.profileOverrides has no {key}; it belongs to the profile the template becomes",
            )
    return out  # type: ignore[return-value]


def _service_problems(spec: Mapping[str, Any]) -> list[NotConvertible]:
    problems: list[NotConvertible] = []
    template = spec.get("template")
    name = text(template.get("name")) if isinstance(template, Mapping) else ""
    name = name or text(spec.get("templateName"))
    overrides = spec.get("overrides")
    if overrides and not name:
        problems.append(
            NotConvertible(
                "spec.overrides",
                OVERRIDES_WITHOUT_TEMPLATE_NAME,
                "spec.profileOverrides needs spec.profile.name, and the template is chosen by selection; "
                "pin a template name first",
            )
        )
    elif overrides:
        try:
            profile_overrides_from_legacy(require_mapping(overrides, "spec.overrides"))
        except NotConvertible as err:
            problems.append(err)
    return problems


def _migrate_service(
    doc: MutableMapping[str, Any], *, template_pipeline: bool, custom_model: str | None = None
) -> None:
    """Rewrite a v1alpha1 service in place; `template_pipeline` says which pipeline serves it today.

    An inline custom model (`spec.model.custom`) becomes `spec.model.name: <custom_model>`, the
    model its compatibility model is declared as (`_custom_documents`).

    A service the template pipeline serves by selection (no template name) becomes a selector
    service with `spec.profile.selector.minimumType: any`: its selection criteria under that key, or
    `{minimumType: any}` alone next to `spec.model` (which anchors it, A7). The template pipeline
    has no tier floor, so without this the implicit `optimized` floor would reject every converted
    template whose discovery recorded no type. Without criteria the template pipeline insists on a
    single candidate (`TemplateSelectionAmbiguous` otherwise) where the selector ranks them: there
    the migrated form is the more permissive one. A v1alpha1 service already on the profile
    pipeline (annotated, no template) keeps its selection as it is, floor included.
    """
    spec = require_mapping(doc.get("spec"), "spec")
    model = spec.get("model")
    if custom_model is not None and isinstance(model, MutableMapping):
        edits.replace(model, "custom", [("name", custom_model)])
    if isinstance(model, MutableMapping) and "ref" in model:
        if "name" in model:
            edits.delete(model, "ref")
        else:
            edits.rename(model, "ref", "name")

    if "templateName" in spec:
        template_name = spec["templateName"]
        if spec.get("template") is None:
            edits.replace(spec, "templateName", [("template", edits.like(spec, name=template_name))])
        else:
            edits.delete(spec, "templateName")
            require_mapping(spec["template"], "spec.template").setdefault("name", template_name)
    template = spec.get("template")
    name = text(template.get("name")) if isinstance(template, Mapping) else ""
    criteria = template.get("selectionCriteria") if isinstance(template, Mapping) else None
    if isinstance(template, MutableMapping):
        # The template pipeline here has no tier floor, and a profile named or selected with
        # `minimumType: any` has none either: `allowUnoptimized` has nothing left to say.
        edits.delete(template, "allowUnoptimized")
    if name:
        edits.delete(require_mapping(template, "spec.template"), "selectionCriteria")
        edits.rename(spec, "template", "profile")
    elif template_pipeline:
        selector = criteria if isinstance(criteria, MutableMapping) else edits.like(spec)
        criteria_end = edits.last_line(selector)
        selector["minimumType"] = NO_TIER_FLOOR
        edits.move_following(criteria_end, selector, "minimumType")
        if "template" in spec:
            eol_to = None if criteria_end is not None else (selector, "minimumType")
            edits.replace(spec, "template", [("profile", edits.like(spec, selector=selector))], eol_to=eol_to)
        else:
            model_end = edits.last_line(spec.get("model"))
            edits.child_map(spec, "profile", ("model",))["selector"] = selector
            edits.move_following(model_end, selector, "minimumType")
    elif "template" in spec:
        edits.delete(spec, "template")

    if "overrides" in spec:
        overrides = spec["overrides"]
        if overrides:
            edits.replace(spec, "overrides", [("profileOverrides", profile_overrides_from_legacy(overrides))])
        else:
            edits.delete(spec, "overrides")

    if "runtimeConfigRef" in spec:
        ref_name = spec["runtimeConfigRef"].get("name")
        if spec.get("runtimeConfigName") is not None or not ref_name:
            edits.delete(spec, "runtimeConfigRef")
        else:
            ref = spec["runtimeConfigRef"]
            edits.replace(spec, "runtimeConfigRef", [("runtimeConfigName", ref_name)])
            edits.carry(ref, "name", spec, "runtimeConfigName")

    caching = spec.get("caching")
    if isinstance(caching, MutableMapping) and text(caching.get("mode")) in CACHE_MODES:
        caching["mode"] = CACHE_MODES[text(caching["mode"])]
    if "cacheModel" in spec:
        mode = "Shared" if spec["cacheModel"] is True else "Dedicated"
        if isinstance(caching, MutableMapping):
            caching.setdefault("mode", mode)
            edits.delete(spec, "cacheModel")
        else:
            fresh = edits.like(spec, mode=mode)
            edits.replace(spec, "cacheModel", [("caching", fresh)], eol_to=(fresh, "mode"))

    metadata = edits.child_map(doc, "metadata", ("kind",))
    annotations = metadata.get("annotations")
    if (
        isinstance(annotations, MutableMapping)
        and annotations.get(RECONCILER_PIPELINE_ANNOTATION) == "template"
    ):
        edits.delete(annotations, RECONCILER_PIPELINE_ANNOTATION)
        if not annotations:
            edits.delete(metadata, "annotations")
    if spec.get("profile") is None:
        edits.child_map(metadata, "annotations", ("name", "namespace", "labels"))[
            RECONCILER_PIPELINE_ANNOTATION
        ] = "profile"
    doc["apiVersion"] = V1ALPHA2
    edits.delete(doc, "status")


# --------------------------------------------------------------------------------------------------
# Documents


def _identity(doc: Mapping[str, Any]) -> tuple[str, str, str]:
    kind = text(doc.get("kind"))
    metadata = edits.sub(doc, "metadata")
    name = text(metadata.get("name"))
    namespace = "" if kind in CLUSTER_KINDS else (text(metadata.get("namespace")) or "default")
    return kind, namespace, name


def is_legacy(doc: Any) -> bool:
    """Whether migrate rewrites this document (a v1alpha1 AIMService or a service template)."""
    if not isinstance(doc, Mapping):
        return False
    kind = text(doc.get("kind"))
    if kind in TEMPLATE_TO_PROFILE_KIND:
        return True
    return kind == "AIMService" and text(doc.get("apiVersion")) == V1ALPHA1


def _as_manifest(obj: Any) -> Mapping[str, Any] | None:
    if isinstance(obj, Mapping):
        return obj
    if hasattr(obj, "kind") and hasattr(obj, "metadata"):
        return to_manifest(obj)
    return None


def _model_index(objects: Iterable[Any]) -> _Models:
    index: _Models = {}
    for obj in objects:
        manifest = _as_manifest(obj)
        if manifest is None or text(manifest.get("kind")) not in ("AIMModel", "AIMClusterModel"):
            continue
        index.setdefault(_identity(manifest), manifest)
    return index


def template_model(template: Mapping[str, Any], models: _Models) -> Mapping[str, Any] | None:
    """The model a template names, seen from the template's scope (namespace model first)."""
    kind, namespace, _ = _identity(template)
    spec = edits.sub(template, "spec")
    name = text(spec.get("modelName"))
    if kind == "AIMServiceTemplate":
        found = models.get(("AIMModel", namespace, name))
        if found is not None:
            return found
    return models.get(("AIMClusterModel", "", name))


# What the documents to convert are read as: the core's kinds and v1alpha1's over them.
_READS = KINDS.serving(*V1ALPHA1_KINDS)


def _admitted(
    doc: Mapping[str, Any], what: str, reading: Callable[[Any], Any] | None = None
) -> tuple[Any, NotConvertible | None]:
    """The parsed document (its values as `reading` gives them), or why admission rejects it."""
    try:
        return parse(reading(doc) if reading is not None else doc, _READS), None
    except AIMValidationError as err:
        return None, NotConvertible(err.field or "", err.reason, f"{what}: {err.message}")


def _declared_models(models: _Models, namespace: str) -> list[AIMModel]:
    """The admitted AIMModels of a namespace, by name."""
    declared = []
    for (kind, model_namespace, _), manifest in sorted(models.items()):
        if kind == "AIMModel" and model_namespace == namespace:
            model, problem = _admitted(manifest, "a model")
            if problem is None and isinstance(model, AIMModel):
                declared.append(model)
    return declared


def _custom_documents(
    service: AIMServiceObject, custom: Mapping[str, Any], models: _Models, templates: set[tuple[str, str]]
) -> tuple[str, list[dict[str, Any]]]:
    """The model an inline custom model migrates to, and the documents its v1alpha2 form adds.

    The model is the one the template pipeline resolves (a namespace AIMModel with the same image
    and sources, else the compatibility model), declared as a plain v1alpha2 AIMModel of the same
    name; its auto-generated template becomes the profile of the same name, as every template
    converts, so the migrated service deploys the very children it deployed. A model with templates
    of its own keeps them (they convert on their own).
    """
    namespace = service.metadata.namespace or "default"
    declared = _declared_models(models, namespace)
    service_manifest = to_manifest(service)
    found = matching_model(declared, custom)
    added: list[dict[str, Any]] = []
    if found is None:
        made = compatibility_model(service_manifest, custom)
        metadata = made["metadata"]
        added.append(
            {
                "apiVersion": made["apiVersion"],
                "kind": "AIMModel",
                "metadata": {"name": metadata["name"], "namespace": metadata["namespace"]},
                "spec": made["spec"],
            }
        )
        parsed, _ = _admitted(made, "the compatibility model")
        assert isinstance(parsed, AIMModel)
        found = parsed
    name = found.metadata.name
    if (namespace, name) not in templates:
        template = custom_template(found, custom, service_manifest)
        added.append(template_profile_manifest(template, to_manifest(found)))
    return name, added


def base_model_name(base_image: str) -> str:
    """The AIMModel a base derivation reads the base image's profiles from: the image's repository
    name hashed with the whole reference, so every service on one base image shares it."""
    repository = base_image.rsplit("@", 1)[0]
    last = repository.rsplit("/", 1)[-1]
    if ":" in last:
        last = last.split(":", 1)[0]
    return derived_name([last or "base"], [base_image])


def _derivation_selector(custom: Mapping[str, Any]) -> dict[str, Any]:
    """The base profiles of the custom hardware: its GPU count (and model when named).

    The base image's `general/` profiles are one per GPU count, each with the engine arguments of
    that count (tensor parallelism), so the count is a selector field, not an override: overriding
    it would put N GPUs under another count's arguments. What a selector cannot say (a CPU-only
    model, a VRAM floor, another device resource, CPU requests next to the GPUs) has no derivation
    equivalent and keeps the names form.
    """
    hardware = custom.get("hardware")
    hardware = hardware if isinstance(hardware, Mapping) else {}
    gpu = hardware.get("gpu")
    gpu = gpu if isinstance(gpu, Mapping) else {}
    count = gpu.get("requests")
    if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
        raise NotConvertible(
            "spec.model.custom.hardware.gpu.requests",
            UNSUPPORTED,
            "a base derivation selects the base image's profiles by GPU count; a model without GPUs "
            f"migrates with --custom-models {KEEP_NAMES}",
        )
    for key, value in (("cpu", hardware.get("cpu")), ("gpu.minVram", gpu.get("minVram"))):
        if value is not None:
            raise NotConvertible(
                f"spec.model.custom.hardware.{key}",
                UNSUPPORTED,
                f"a base derivation has no {key}; this model migrates with --custom-models {KEEP_NAMES}",
            )
    resource = text(gpu.get("resourceName"))
    if resource and resource != "amd.com/gpu":
        raise NotConvertible(
            "spec.model.custom.hardware.gpu.resourceName",
            UNSUPPORTED,
            f"a base derivation runs on amd.com/gpu; this model migrates with --custom-models {KEEP_NAMES}",
        )
    selector: dict[str, Any] = {"role": "base"}
    if text(gpu.get("model")):
        selector["acceleratorModel"] = text(gpu["model"])
    selector["acceleratorCount"] = count
    return selector


def _derivation_documents(
    service: AIMServiceObject, custom: Mapping[str, Any], models: _Models
) -> tuple[str, list[dict[str, Any]]]:
    """The base derivation an inline custom model migrates to: the model the service names, and the
    documents it adds (the base model when the namespace declares none, and the derivation model).

    The base model is a plain AIMModel of the base image (reused when the namespace declares one
    with that image, not itself a custom model's): its discovered `general/` profiles are the
    base profiles. The derivation model (named as the compatibility model is, so two services of
    one inline model share it) derives from them (`role: base`, the base model by reference, the
    GPU count) with the weights as model sources and the first source's model id as `aimId` and
    `modelId`; a base source keeps its image, the base image, so the weights and the image line
    are the ones the template deployed.
    """
    namespace = service.metadata.namespace or "default"
    spec = to_manifest(service).get("spec") or {}
    base_image = text(custom.get("baseImage"))
    sources = [dict(s) for s in custom.get("modelSources") or () if isinstance(s, Mapping)]
    if not sources:
        raise NotConvertible(
            "spec.model.custom.modelSources", UNSUPPORTED, "a base derivation needs the weights"
        )
    selector = _derivation_selector(custom)
    added: list[dict[str, Any]] = []
    base = next(
        (
            m
            for m in _declared_models(models, namespace)
            if text(m.spec.image) == base_image and m.spec.profiles is None and custom_input(m) is None
        ),
        None,
    )
    if base is not None:
        base_name = base.metadata.name
    else:
        base_name = base_model_name(base_image)
        base_spec: dict[str, Any] = {"image": base_image}
        for key in ("imagePullSecrets", "serviceAccountName"):
            if spec.get(key):
                base_spec[key] = spec[key]
        added.append(
            {
                "apiVersion": V1ALPHA2,
                "kind": "AIMModel",
                "metadata": {"name": base_name, "namespace": namespace},
                "spec": base_spec,
            }
        )
    selector["modelRef"] = {"name": base_name, "scope": "Namespace"}
    model_id = text(sources[0].get("modelId"))
    name = custom_model_name(custom)
    derivation = {
        "apiVersion": V1ALPHA2,
        "kind": "AIMModel",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "profiles": {
                "derivedFrom": {"selector": dict(sorted(selector.items()))},
                "versionPolicy": DERIVATION_VERSION_POLICY,
                "overrides": {"aimId": model_id, "modelId": model_id, "modelSources": sources},
            }
        },
    }
    existing = models.get(("AIMModel", namespace, name))
    if existing is not None and edits.sub(existing, "spec") != derivation["spec"]:
        raise NotConvertible(
            "spec.model.custom",
            UNSUPPORTED,
            f"AIMModel {namespace}/{name} is declared already (the operator's compatibility model?) and is "
            f"not this derivation; remove it, or migrate with --custom-models {KEEP_NAMES}",
        )
    added.append(derivation)
    return name, added


def _derivation_notice(
    service: AIMServiceObject,
    custom: Mapping[str, Any],
    models: _Models,
    templates: set[tuple[str, str]],
    migrated: Mapping[str, Any],
) -> str:
    """What moving a service from the names form to the derivation changes on the next deployment.

    The names form's profile is the custom template's; the derivation's is named after the model's
    child set, the base profile's id and the source's identity, known only once the base image is
    discovered, so it is named by its set here. The InferenceService carries the profile's name
    (labels, `AIM_PROFILE_ID`, the mounted profile ConfigMap) and, on the template pipeline, the
    template's default CPU and memory requests and env, which the profile pipeline does not add: it
    always rolls out. The caches follow
    `spec.caching` (`children/caching.py`): none without it; a Shared cache is named after the profile
    (a new PVC and download Job: the weights download again); a Dedicated one keeps its name and takes
    the new profile label.
    """
    kept, _ = _custom_documents(service, custom, models, templates)
    name = custom_model_name(custom)
    caching = edits.sub(migrated, "caching") if migrated.get("caching") is not None else None
    if caching is None:
        caches = "no cache changes (spec.caching is unset)"
    elif text(caching.get("mode")) == "Dedicated":
        caches = (
            "the Dedicated cache PVC keeps its name and it and the download Job take the new profile label"
        )
    else:
        caches = (
            "the Shared cache is named after the profile: a new PVC and download Job, "
            "the weights download again"
        )
    return (
        f"on the next up profile {custom_template_name(kept)} becomes the one AIMModel {name} derives from "
        f"the base image's general profiles (set {model_profile_set_name(name)}): the profile ConfigMap is "
        "rewritten and the InferenceService rolls out (its profile labels and AIM_PROFILE_ID change, and "
        f"the template's default CPU and memory requests and env no longer apply); {caches}"
    )


def _convert(
    doc: Mapping[str, Any],
    models: _Models,
    templates: set[tuple[str, str]],
    reading: Callable[[Any], Any] | None = None,
    custom_models: str = KEEP_NAMES,
) -> tuple[Any, list[NotConvertible], list[dict[str, Any]], str]:
    """One legacy document converted with the documents it adds and what it changes on the next
    deployment ("" nothing), or every problem that keeps it unchanged."""
    parsed, problem = _admitted(doc, "the input is not admitted", reading)
    if problem is not None:
        return None, [problem], [], ""
    added: list[dict[str, Any]] = []
    notice = ""
    try:
        if isinstance(parsed, AIMServiceObject):
            spec = require_mapping(doc.get("spec"), "spec")
            problems = _service_problems(spec)
            if problems:
                return None, problems, [], ""
            custom = (to_manifest(parsed).get("spec") or {}).get("model", {}).get("custom")
            custom_model = None
            if isinstance(custom, Mapping) and custom_models == DERIVATION:
                custom_model, added = _derivation_documents(parsed, custom, models)
            elif isinstance(custom, Mapping):
                custom_model, added = _custom_documents(parsed, custom, models, templates)
            out: Any = copy.deepcopy(doc)
            _migrate_service(
                out, template_pipeline=choose_pipeline(parsed)[0] == "template", custom_model=custom_model
            )
            if isinstance(custom, Mapping) and custom_models == DERIVATION:
                notice = _derivation_notice(parsed, custom, models, templates, edits.sub(out, "spec"))
        else:
            out = template_profile_manifest(doc, template_model(doc, models))
    except NotConvertible as err:
        return None, [err], [], ""
    for document in (out, *added):
        _, problem = _admitted(document, "the converted manifest is not admitted", reading)
        if problem is not None:
            return None, [problem], [], ""
    return out, [], added, notice


def migrate_objects(
    objects: Sequence[Any],
    catalog_objects: Iterable[Any] = (),
    *,
    reading: Callable[[Any], Any] | None = None,
    custom_models: str = KEEP_NAMES,
) -> MigrationResult:
    """Convert every v1alpha1 AIMService and service template of `objects`; leave the rest as is.

    `custom_models` is the form of inline custom models (`CUSTOM_MODEL_FORMS`): `keep-names`
    changes no child; `derivation` writes base derivations and a notice per service it moves.

    `catalog_objects` (manifests or typed objects) supply models the templates name when those are
    not among `objects`. Inputs are never modified; converted documents are copies. `reading`
    gives a document's values as Kubernetes reads them, for admission, when the documents come
    from a reader that types scalars otherwise (a round-trip loader keeps `enabled: yes` text,
    which Kubernetes reads as true).
    """
    models = _model_index([*objects, *catalog_objects])
    templates = _templated_models([*objects, *catalog_objects])
    present = {_identity(m) for m in map(_as_manifest, [*objects, *catalog_objects]) if m is not None}
    out: list[Any] = []
    problems: list[MigrationProblem] = []
    converted: list[bool] = []
    added: list[tuple[Any, ...]] = []
    notices: list[MigrationNotice] = []
    if custom_models not in CUSTOM_MODEL_FORMS:
        known = ", ".join(CUSTOM_MODEL_FORMS)
        raise ValueError(f"custom_models must be one of {known}, not {custom_models!r}")
    for index, doc in enumerate(objects):
        if not is_legacy(doc):
            out.append(doc)
            converted.append(False)
            added.append(())
            continue
        result, found, extra, notice = _convert(doc, models, templates, reading, custom_models)
        if found:
            kind, namespace, name = _identity(doc)
            problems.extend(
                MigrationProblem(index, kind, namespace, name, p.field, p.reason, p.message) for p in found
            )
            out.append(doc)
            converted.append(False)
            added.append(())
            continue
        out.append(result)
        converted.append(True)
        new = [d for d in extra if _identity(d) not in present]
        present.update(_identity(d) for d in new)
        added.append(tuple(new))
        if notice:
            notices.append(MigrationNotice(index, *_identity(doc), notice))
    return MigrationResult(tuple(out), tuple(problems), tuple(converted), tuple(added), tuple(notices))


def _templated_models(objects: Iterable[Any]) -> set[tuple[str, str]]:
    """(namespace, model) of every namespace template's model: a model that has templates of its own."""
    out: set[tuple[str, str]] = set()
    for obj in objects:
        manifest = _as_manifest(obj)
        if manifest is not None and text(manifest.get("kind")) == "AIMServiceTemplate":
            namespace = _identity(manifest)[1]
            out.add((namespace, text(edits.sub(manifest, "spec").get("modelName"))))
    return out
