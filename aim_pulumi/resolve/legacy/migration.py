"""v1alpha1 AIMService and service templates rewritten as their v1alpha2 equivalents (behaviour §7.3).

The conversion edits a copy of each manifest in place instead of building a new one, so that the
mappings a round-trip YAML loader returns keep their key order and comments. Anything without a
v1alpha2 equivalent is reported with its field and reason and the document is left as it was:
a converter that guesses would move a running service onto a profile nobody chose.

`template_profile_manifest` is also what the template pipeline deploys from (`templates.template_profile`),
so a legacy service and its migrated form describe the same profile. A service the template pipeline
would serve by selection (no template name) migrates to a selector with `minimumType: any`: the
template pipeline has no tier floor, and the implicit `optimized` floor of the profile pipeline would
reject converted templates whose discovery recorded no type (see `_migrate_service`).

A converted template keeps the two status fields both pipelines select on, as the profile's own
status (no operator runs here to recompute them, and the profile pipeline reads a declared status
as availability): `status.version` as it is, and `status.status` as `NotAvailable` when present and
not `Ready`. A `Ready` template gets no declared status, so the inventory decides its availability
as it decides whether the template pipeline keeps it; a declared `Ready` would outrank the inventory.
Every other status field describes one cluster's state and is dropped (see `_carried_status`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from aim_pulumi.api import AIMService, AIMValidationError, parse, to_manifest
from aim_pulumi.resolve.children.container import PROFILE_ID_ENV
from aim_pulumi.resolve.children.names import sanitize_label_value
from aim_pulumi.resolve.legacy.dispatch import choose_pipeline

GROUP = "aim.eai.amd.com"
V1ALPHA1 = f"{GROUP}/v1alpha1"
V1ALPHA2 = f"{GROUP}/v1alpha2"
RECONCILER_PIPELINE_ANNOTATION = f"{GROUP}/reconciler-pipeline"
SOURCE_MODEL_LABEL = f"{GROUP}/source-model"
PROFILE_ROLE_LABEL = f"{GROUP}/profile-role"
PROFILE_ORIGIN_LABEL = f"{GROUP}/profile-origin"
# The template a converted profile came from; the InferenceService carries it as the operator's
# template services do (`plan`), so a migrated service keeps the label.
TEMPLATE_LABEL = f"{GROUP}/template"

TEMPLATE_TO_PROFILE_KIND: Mapping[str, str] = {
    "AIMServiceTemplate": "AIMProfile",
    "AIMClusterServiceTemplate": "AIMClusterProfile",
}
CLUSTER_KINDS = frozenset({"AIMClusterServiceTemplate", "AIMClusterModel", "AIMClusterProfile"})

# Profile types a converted template may carry (admission rule P3).
PROFILE_TYPES = frozenset({"optimized", "general", "preview", "unoptimized"})
# The floor of a migrated selecting service: the template pipeline ranks every tier.
NO_TIER_FLOOR = "any"

# Template statuses as profile availability.
READY = "Ready"
NOT_AVAILABLE = "NotAvailable"

# Legacy cache modes (admission rule A14).
CACHE_MODES: Mapping[str, str] = {"Auto": "Shared", "Always": "Shared", "Never": "Dedicated"}

# Reasons of what cannot be converted.
UNSUPPORTED = "Unsupported"
OVERRIDES_WITHOUT_TEMPLATE_NAME = "OverridesWithoutTemplateName"
UNMAPPED_FIELD = "UnmappedField"
CONFLICTING_FIELDS = "ConflictingFields"
MODEL_NOT_FOUND = "ModelNotFound"
MODEL_WITHOUT_IMAGE = "ModelWithoutImage"
NOT_A_MAPPING = "InvalidManifest"


_Models = dict[tuple[str, str, str], Mapping[str, Any]]


class NotConvertible(Exception):
    """A field with no v1alpha2 equivalent; carries the dotted field path and a reason."""

    def __init__(self, field: str, reason: str, message: str) -> None:
        self.field = field
        self.reason = reason
        self.message = message
        super().__init__(f"{field}: {reason}: {message}")


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
class MigrationResult:
    """Converted manifests in input order (unconvertible ones unchanged) and the problems found."""

    objects: tuple[Any, ...]
    problems: tuple[MigrationProblem, ...]
    converted: tuple[bool, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


# --------------------------------------------------------------------------------------------------
# Order- and comment-preserving edits of a mapping (plain dicts and ruamel's CommentedMap alike)


def _text(value: Any) -> str:
    return "" if value is None else str(getattr(value, "value", value))


def _sub(mapping: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """`mapping[key]` when it is a mapping, else an empty one."""
    value = mapping.get(key)
    return value if isinstance(value, Mapping) else {}


def _comments(mapping: MutableMapping[str, Any]) -> Any:
    ca = getattr(mapping, "ca", None)
    return getattr(ca, "items", None)


def _like(mapping: Mapping[str, Any], **items: Any) -> MutableMapping[str, Any]:
    """A new mapping of the same type as `mapping` (so round-trip YAML keeps its node style)."""
    fresh: MutableMapping[str, Any] = type(mapping)()  # type: ignore[assignment]
    fresh.update(items)
    return fresh


def _insert(mapping: MutableMapping[str, Any], position: int, key: str, value: Any) -> None:
    insert = getattr(mapping, "insert", None)
    if callable(insert):
        insert(position, key, value)
        return
    items = list(mapping.items())
    items.insert(position, (key, value))
    mapping.clear()
    mapping.update(items)


def _split_comment(mapping: MutableMapping[str, Any], key: str) -> tuple[Any, Any]:
    """Detach the comment a round-trip loader attached after `key`: (end-of-line part, following lines).

    The loader stores the comment at the end of a key's line together with the full-line comments
    below it (which a reader sees as introducing the next key), so the two parts are moved apart.
    """
    comments = _comments(mapping)
    entry = comments.pop(key, None) if comments is not None else None
    token = entry[2] if isinstance(entry, list) and len(entry) > 2 else None
    value = getattr(token, "value", None)
    if not isinstance(value, str):
        return None, None
    first, _, rest = value.partition("\n")
    if not first.strip():
        return None, token
    eol: Any = copy.copy(token)
    eol.value = first + "\n"
    following: Any = None
    if rest.strip():
        following = copy.copy(token)
        following.value = "\n" + rest
    return eol, following


def _attach(mapping: MutableMapping[str, Any], key: str | None, token: Any) -> None:
    """Attach a comment after the line of `key`; after a nested block it would land inside, so not there."""
    comments = _comments(mapping)
    if token is None or comments is None or key is None or key not in mapping:
        return
    if isinstance(mapping[key], Mapping | list):
        return
    entry = comments.get(key)
    if isinstance(entry, list) and len(entry) > 2 and entry[2] is not None:
        merged = copy.copy(entry[2])
        merged.value = entry[2].value + token.value.lstrip("\n")
        entry[2] = merged
    else:
        comments[key] = [None, None, token, None]


def _previous_key(mapping: MutableMapping[str, Any], key: str) -> str | None:
    keys = list(mapping.keys())
    position = keys.index(key)
    return keys[position - 1] if position > 0 else None


def _replace(
    mapping: MutableMapping[str, Any],
    old: str,
    new_items: Sequence[tuple[str, Any]],
    *,
    eol_to: tuple[MutableMapping[str, Any], str] | None = None,
) -> None:
    """Put `new_items` where `old` was, keeping the comments around it.

    The end-of-line comment of `old` follows the first new key (or `eol_to`, where the meaning of
    the field went); the comment lines below it stay before the key that came next.
    """
    position = list(mapping.keys()).index(old)
    before = _previous_key(mapping, old)
    eol, following = _split_comment(mapping, old)
    del mapping[old]
    for offset, (key, value) in enumerate(new_items):
        _insert(mapping, position + offset, key, value)
    first = new_items[0][0] if new_items else None
    last = new_items[-1][0] if new_items else before
    if eol_to is not None:
        _attach(*eol_to, eol)
    elif first is not None:
        _attach(mapping, first, eol)
    _attach(mapping, last, following)


def _delete(mapping: MutableMapping[str, Any], key: str) -> None:
    """Remove `key`; comment lines below it stay before the key that came next."""
    if key in mapping:
        _replace(mapping, key, [])


def _carry(source: Any, key: str, target: MutableMapping[str, Any], target_key: str) -> None:
    """Move the comments of `source[key]` to `target[target_key]`, where its value went."""
    if isinstance(source, MutableMapping) and key in source:
        eol, following = _split_comment(source, key)
        _attach(target, target_key, eol)
        _attach(target, target_key, following)


def _last_line(block: Any) -> tuple[MutableMapping[str, Any], str] | None:
    """The mapping and key of a block's last scalar line, where a round-trip loader keeps the comment
    lines that follow the whole block; None when the block ends in a sequence or is empty."""
    if not isinstance(block, MutableMapping) or not block:
        return None
    key = list(block.keys())[-1]
    value = block[key]
    if isinstance(value, MutableMapping) and value:
        return _last_line(value)
    if isinstance(value, list):
        return None
    return block, key


def _move_following(
    line: tuple[MutableMapping[str, Any], str] | None, target: MutableMapping[str, Any], key: str
) -> None:
    """Move the comment lines below `line` (its end-of-line comment stays) to below `target[key]`."""
    if line is None:
        return
    holder, holder_key = line
    eol, following = _split_comment(holder, holder_key)
    _attach(holder, holder_key, eol)
    _attach(target, key, following)


def _rename(mapping: MutableMapping[str, Any], old: str, new: str) -> None:
    if old in mapping:
        _replace(mapping, old, [(new, mapping[old])])


def _child_map(parent: MutableMapping[str, Any], key: str, after: Sequence[str]) -> MutableMapping[str, Any]:
    """`parent[key]` as a mapping, created right after the last present key of `after` when missing."""
    existing: Any = parent.get(key)
    if isinstance(existing, MutableMapping):
        return existing
    fresh = _like(parent)
    if key in parent:
        parent[key] = fresh
        return fresh
    keys = list(parent.keys())
    position = max((keys.index(k) + 1 for k in after if k in parent), default=len(keys))
    _insert(parent, position, key, fresh)
    return fresh


def _mapping(value: Any, field: str) -> MutableMapping[str, Any]:
    if not isinstance(value, MutableMapping):
        raise NotConvertible(field, NOT_A_MAPPING, f"{field} is not a mapping")
    return value


# --------------------------------------------------------------------------------------------------
# Templates


def _converted_sources(sources: Any) -> Any:
    """`[{name, sourceURI, size}]` rewritten in place as `[{modelId, sourceUri, size}]`."""
    if not isinstance(sources, list):
        return sources
    for source in sources:
        if not isinstance(source, MutableMapping):
            continue
        if "name" in source:
            if "modelId" in source:
                if source["modelId"] != source["name"]:
                    raise NotConvertible(
                        "spec.modelSources", CONFLICTING_FIELDS, "a model source sets both name and modelId"
                    )
                _delete(source, "name")
            else:
                _rename(source, "name", "modelId")
        if "sourceURI" in source:
            if "sourceUri" in source:
                _delete(source, "sourceURI")
            else:
                _rename(source, "sourceURI", "sourceUri")
    return sources


def _status_aim_id(status: Mapping[str, Any]) -> str:
    """The AIM id a discovery run recorded on a template, when there is one."""
    profile = status.get("profile")
    if not isinstance(profile, Mapping):
        return ""
    metadata = profile.get("metadata")
    for holder in (profile, metadata if isinstance(metadata, Mapping) else {}):
        for key in ("aimId", "aim_id"):
            found = _text(holder.get(key))
            if found:
                return found
    return ""


def _discovered_fields(status: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """`engine`, `type` and `primary` as a discovery run recorded them in `status.profile.metadata`.

    The v1alpha1 ranking (primary, then type) and the `engine` criterion read them from there; on the
    profile the same fields drive the profile pipeline's ranking and `engine` filter, so a migrated
    selector picks what the template pipeline picked. Values a profile cannot hold (a type outside the
    enum, a primary that is not a boolean) are left out: both pipelines rank them like unset ones.
    """
    profile = status.get("profile")
    metadata = profile.get("metadata") if isinstance(profile, Mapping) else None
    if not isinstance(metadata, Mapping):
        return []
    fields: list[tuple[str, Any]] = []
    engine = _text(metadata.get("engine"))
    if engine:
        fields.append(("engine", engine))
    kind = _text(metadata.get("type"))
    if kind in PROFILE_TYPES:
        fields.append(("type", kind))
    if isinstance(metadata.get("primary"), bool):
        fields.append(("primary", metadata["primary"]))
    return fields


def _carried_status(status: Mapping[str, Any]) -> dict[str, str]:
    """The profile status a template's `status.status` and `status.version` become (empty: none).

    The template pipeline drops a template whose status is present and not `Ready`, then drops one
    whose GPU no inventory pool offers, and ranks by `status.version`. The profile pipeline reads a
    declared status before the inventory, so a status other than `Ready` is written `NotAvailable`
    (no operator runs here to recompute it) and `Ready` is written as no status at all: a declared
    `Ready` would make the profile available on hardware the inventory lacks, where the template
    pipeline drops the template. The version is carried as it is.
    """
    carried: dict[str, str] = {}
    state = _text(status.get("status"))
    if state and state != READY:
        carried["status"] = NOT_AVAILABLE
    version = _text(status.get("version"))
    if version:
        carried["version"] = version
    return carried


def _hardware_fields(hardware: Any) -> list[tuple[str, Any]]:
    """`hardware.gpu.requests/model` as accelerator fields; `hardware.cpu` as `acceleratorType: cpu`.

    Admission (T4) has already ruled out a template with both.
    """
    if not isinstance(hardware, Mapping):
        return []
    if hardware.get("cpu") is not None:
        return [("acceleratorType", "cpu")]
    gpu = hardware.get("gpu")
    if not isinstance(gpu, Mapping):
        return []
    fields: list[tuple[str, Any]] = [("acceleratorType", "gpu")]
    if gpu.get("model") is not None:
        fields.append(("acceleratorModel", gpu["model"]))
    if gpu.get("requests") is not None:
        fields.append(("acceleratorCount", gpu["requests"]))
    return fields


# The operator's container for a template service (behaviour §10.3, §7.2): metrics on below the runtime
# config's env, the template's profile id, metric and precision announced to the AIM runtime above it,
# and per-GPU resources when neither the template nor the service sets any.
TEMPLATE_METRICS_ENV = ("VLLM_ENABLE_METRICS", "true")
CPU_PER_GPU = 4
MEMORY_REQUEST_GI_PER_GPU = 32
MEMORY_LIMIT_GI_PER_GPU = 48


def template_base_env(labels: Mapping[str, str] | None) -> list[dict[str, str]]:
    """The env a profile converted from a template (labelled with it) lays below the runtime config's.

    The operator sets `VLLM_ENABLE_METRICS=true` under the runtime config's env (§10.3), which a
    profile's `containerEnv` (above it) cannot express; the template label carries it instead, so
    the legacy service and its migrated form get it at the same place.
    """
    if not (labels or {}).get(TEMPLATE_LABEL):
        return []
    name, value = TEMPLATE_METRICS_ENV
    return [{"name": name, "value": value}]


def template_default_resources(gpus: int) -> dict[str, Any]:
    """The operator's default resources of a template service: per GPU, 4 CPU, 32Gi (limit 48Gi)."""
    return {
        "requests": {"cpu": str(CPU_PER_GPU * gpus), "memory": f"{MEMORY_REQUEST_GI_PER_GPU * gpus}Gi"},
        "limits": {"memory": f"{MEMORY_LIMIT_GI_PER_GPU * gpus}Gi"},
    }


def _template_profile_id(spec: Mapping[str, Any], status: Mapping[str, Any]) -> str:
    """The template's profile id: `spec.profileId`, else the one discovery recorded in `status.profile`."""
    declared = _text(spec.get("profileId"))
    if declared:
        return declared
    profile = status.get("profile")
    if not isinstance(profile, Mapping):
        return ""
    metadata = profile.get("metadata")
    for holder in (profile, metadata if isinstance(metadata, Mapping) else {}):
        for key in ("profileId", "profile_id"):
            found = _text(holder.get(key))
            if found:
                return found
    return ""


def template_default_resources_for(labels: Mapping[str, str] | None, gpus: Any) -> dict[str, Any] | None:
    """The per-GPU default a profile converted from a template (labelled with it) deploys with.

    The operator applies it only when neither the template nor the service sets `resources`, which
    no explicit profile field can express (a service's resources merge into the profile's per key),
    so the template label carries it and the container builder applies it under that condition.
    """
    if not (labels or {}).get(TEMPLATE_LABEL):
        return None
    if not isinstance(gpus, int) or isinstance(gpus, bool) or gpus <= 0:
        return None
    return template_default_resources(gpus)


def _template_container_defaults(
    spec: MutableMapping[str, Any], metric: str, precision: str, profile_id: str
) -> None:
    """Write the operator's template env above the runtime config's as explicit profile fields.

    Explicit, so that the profile `aim-pulumi migrate` writes plans the container the operator runs
    for the template, and migrating changes no child. The template's own env wins per name. The
    template's profile id is written as `AIM_PROFILE_ID`, which the container builder lets stand
    over its computed `custom/...` path (`container.framework_env`): the runtime then serves the
    image's own profile, as under the operator.
    """
    framework: list[tuple[str, str]] = []
    if profile_id:
        framework.append((PROFILE_ID_ENV, profile_id))
    if metric:
        framework.append(("AIM_METRIC", metric))
    if precision:
        framework.append(("AIM_PRECISION", precision))
    own = spec.get("containerEnv")
    own_list = list(own) if isinstance(own, list) else []
    named = {_text(item.get("name")) for item in own_list if isinstance(item, Mapping)}
    env = [
        *({"name": name, "value": value} for name, value in framework if name not in named),
        *own_list,
    ]
    if env or "containerEnv" in spec:
        spec["containerEnv"] = env


def template_profile_manifest(template: Mapping[str, Any], model: Mapping[str, Any] | None) -> dict[str, Any]:
    """The AIMProfile / AIMClusterProfile manifest a template becomes, given the model it names.

    `template` and `model` are CRD-shaped manifests (a model may be None when not found, which is
    not convertible: the profile image comes from it). The input is not modified; the result is a
    copy of the same mapping type with the template's key order and comments. Of the template's
    status, the discovered sources (when the spec has none), aim id, engine, type and primary move
    into the spec, the availability and version stay in the status (`_carried_status`); the rest
    describes one cluster's state and is dropped.
    """
    doc: MutableMapping[str, Any] = copy.deepcopy(template)  # type: ignore[arg-type]
    kind = _text(doc.get("kind"))
    if kind not in TEMPLATE_TO_PROFILE_KIND:
        raise NotConvertible("kind", NOT_A_MAPPING, f"{kind or 'the document'} is not a service template")
    spec = _mapping(doc.get("spec"), "spec")
    status = _sub(doc, "status")
    model_name = _text(spec.get("modelName"))
    if model is None:
        raise NotConvertible(
            "spec.modelName",
            MODEL_NOT_FOUND,
            f"model {model_name!r} is not among the converted objects or the catalog; its image is the "
            "profile image",
        )
    model_spec = _sub(model, "spec")
    image = _text(model_spec.get("image"))
    if not image:
        raise NotConvertible(
            "spec.modelName",
            MODEL_WITHOUT_IMAGE,
            f"model {model_name!r} declares no spec.image for the profile",
        )

    if spec.get("modelSources") is None and isinstance(status.get("modelSources"), list):
        spec["modelSources"] = copy.deepcopy(status["modelSources"])
    _converted_sources(spec.get("modelSources"))
    sources = spec.get("modelSources") or []
    first_source_id = _text(sources[0].get("modelId")) if sources and isinstance(sources[0], Mapping) else ""
    aim_id = _text(model_spec.get("aimId")) or _status_aim_id(status) or first_source_id or model_name

    doc["apiVersion"] = V1ALPHA2
    doc["kind"] = TEMPLATE_TO_PROFILE_KIND[kind]
    metadata = _child_map(doc, "metadata", ("kind",))
    labels = _child_map(metadata, "labels", ("name", "namespace"))
    labels[SOURCE_MODEL_LABEL] = model_name
    labels[PROFILE_ROLE_LABEL] = "deployable"
    labels[PROFILE_ORIGIN_LABEL] = "user-authored"
    labels[TEMPLATE_LABEL] = sanitize_label_value(_text(metadata.get("name")))

    head = [("aimId", aim_id), ("image", image)]
    head += [(key, value) for key, value in _discovered_fields(status) if key not in spec]
    if "modelName" in spec:
        _replace(spec, "modelName", head, eol_to=(labels, SOURCE_MODEL_LABEL))
    else:
        for offset, (key, value) in enumerate(head):
            _insert(spec, offset, key, value)
    template_precision = _text(spec.get("precision"))
    if template_precision == "auto":
        _delete(spec, "precision")
    if "hardware" in spec:
        hardware = spec["hardware"]
        _replace(spec, "hardware", _hardware_fields(hardware))
        gpu = hardware.get("gpu") if isinstance(hardware, Mapping) else None
        _carry(gpu, "model", spec, "acceleratorModel")
        _carry(gpu, "requests", spec, "acceleratorCount")
    if "env" in spec:
        _rename(spec, "env", "containerEnv")
    _template_container_defaults(
        spec, _text(spec.get("metric")), template_precision, _template_profile_id(spec, status)
    )
    carried = _carried_status(status)
    if carried:
        _replace(doc, "status", [("status", _like(doc, **carried))])
    else:
        _delete(doc, "status")
    return doc  # type: ignore[return-value]


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
            _rename(out, "env", "containerEnv")
        elif key == "engineArgs":
            continue
        elif key == "gpuSelector":
            selector = _mapping(out["gpuSelector"], "spec.overrides.gpuSelector")
            fields = [
                (target, selector[source])
                for source, target in (("model", "acceleratorModel"), ("count", "acceleratorCount"))
                if selector.get(source) is not None
            ]
            _replace(out, "gpuSelector", fields)
            _carry(selector, "model", out, "acceleratorModel")
            _carry(selector, "count", out, "acceleratorCount")
        else:
            raise NotConvertible(
                f"spec.overrides.{key}",
                UNMAPPED_FIELD,
                f"spec.profileOverrides has no {key}; it belongs to the profile the template becomes",
            )
    return out  # type: ignore[return-value]


def _service_problems(spec: Mapping[str, Any]) -> list[NotConvertible]:
    problems: list[NotConvertible] = []
    model = spec.get("model")
    if isinstance(model, Mapping) and model.get("custom") is not None:
        problems.append(
            NotConvertible(
                "spec.model.custom", UNSUPPORTED, "an inline custom model has no v1alpha2 equivalent here"
            )
        )
    template = spec.get("template")
    name = _text(template.get("name")) if isinstance(template, Mapping) else ""
    name = name or _text(spec.get("templateName"))
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
            profile_overrides_from_legacy(_mapping(overrides, "spec.overrides"))
        except NotConvertible as err:
            problems.append(err)
    return problems


def _migrate_service(doc: MutableMapping[str, Any], *, template_pipeline: bool) -> None:
    """Rewrite a v1alpha1 service in place; `template_pipeline` says which pipeline serves it today.

    A service the template pipeline serves by selection (no template name) becomes a selector
    service with `spec.profile.selector.minimumType: any`: its selection criteria under that key, or
    `{minimumType: any}` alone next to `spec.model` (which anchors it, A7). The template pipeline
    has no tier floor, so without this the implicit `optimized` floor would reject every converted
    template whose discovery recorded no type. Without criteria the template pipeline insists on a
    single candidate (`TemplateSelectionAmbiguous` otherwise) where the selector ranks them: there
    the migrated form is the more permissive one. A v1alpha1 service already on the profile
    pipeline (annotated, no template) keeps its selection as it is, floor included.
    """
    spec = _mapping(doc.get("spec"), "spec")
    model = spec.get("model")
    if isinstance(model, MutableMapping) and "ref" in model:
        if "name" in model:
            _delete(model, "ref")
        else:
            _rename(model, "ref", "name")

    if "templateName" in spec:
        template_name = spec["templateName"]
        if spec.get("template") is None:
            _replace(spec, "templateName", [("template", _like(spec, name=template_name))])
        else:
            _delete(spec, "templateName")
            _mapping(spec["template"], "spec.template").setdefault("name", template_name)
    template = spec.get("template")
    name = _text(template.get("name")) if isinstance(template, Mapping) else ""
    criteria = template.get("selectionCriteria") if isinstance(template, Mapping) else None
    if name:
        _delete(_mapping(template, "spec.template"), "selectionCriteria")
        _rename(spec, "template", "profile")
    elif template_pipeline:
        selector = criteria if isinstance(criteria, MutableMapping) else _like(spec)
        criteria_end = _last_line(selector)
        selector["minimumType"] = NO_TIER_FLOOR
        _move_following(criteria_end, selector, "minimumType")
        if "template" in spec:
            eol_to = None if criteria_end is not None else (selector, "minimumType")
            _replace(spec, "template", [("profile", _like(spec, selector=selector))], eol_to=eol_to)
        else:
            model_end = _last_line(spec.get("model"))
            _child_map(spec, "profile", ("model",))["selector"] = selector
            _move_following(model_end, selector, "minimumType")
    elif "template" in spec:
        _delete(spec, "template")

    if "overrides" in spec:
        overrides = spec["overrides"]
        if overrides:
            _replace(spec, "overrides", [("profileOverrides", profile_overrides_from_legacy(overrides))])
        else:
            _delete(spec, "overrides")

    if "runtimeConfigRef" in spec:
        ref_name = spec["runtimeConfigRef"].get("name")
        if spec.get("runtimeConfigName") is not None or not ref_name:
            _delete(spec, "runtimeConfigRef")
        else:
            ref = spec["runtimeConfigRef"]
            _replace(spec, "runtimeConfigRef", [("runtimeConfigName", ref_name)])
            _carry(ref, "name", spec, "runtimeConfigName")

    caching = spec.get("caching")
    if isinstance(caching, MutableMapping) and _text(caching.get("mode")) in CACHE_MODES:
        caching["mode"] = CACHE_MODES[_text(caching["mode"])]
    if "cacheModel" in spec:
        mode = "Shared" if spec["cacheModel"] is True else "Dedicated"
        if isinstance(caching, MutableMapping):
            caching.setdefault("mode", mode)
            _delete(spec, "cacheModel")
        else:
            fresh = _like(spec, mode=mode)
            _replace(spec, "cacheModel", [("caching", fresh)], eol_to=(fresh, "mode"))

    metadata = _child_map(doc, "metadata", ("kind",))
    annotations = metadata.get("annotations")
    if (
        isinstance(annotations, MutableMapping)
        and annotations.get(RECONCILER_PIPELINE_ANNOTATION) == "template"
    ):
        _delete(annotations, RECONCILER_PIPELINE_ANNOTATION)
        if not annotations:
            _delete(metadata, "annotations")
    if spec.get("profile") is None:
        _child_map(metadata, "annotations", ("name", "namespace", "labels"))[
            RECONCILER_PIPELINE_ANNOTATION
        ] = "profile"
    doc["apiVersion"] = V1ALPHA2
    _delete(doc, "status")


# --------------------------------------------------------------------------------------------------
# Documents


def _identity(doc: Mapping[str, Any]) -> tuple[str, str, str]:
    kind = _text(doc.get("kind"))
    metadata = _sub(doc, "metadata")
    name = _text(metadata.get("name"))
    namespace = "" if kind in CLUSTER_KINDS else (_text(metadata.get("namespace")) or "default")
    return kind, namespace, name


def is_legacy(doc: Any) -> bool:
    """Whether migrate rewrites this document (a v1alpha1 AIMService or a service template)."""
    if not isinstance(doc, Mapping):
        return False
    kind = _text(doc.get("kind"))
    if kind in TEMPLATE_TO_PROFILE_KIND:
        return True
    return kind == "AIMService" and _text(doc.get("apiVersion")) == V1ALPHA1


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
        if manifest is None or _text(manifest.get("kind")) not in ("AIMModel", "AIMClusterModel"):
            continue
        index.setdefault(_identity(manifest), manifest)
    return index


def template_model(template: Mapping[str, Any], models: _Models) -> Mapping[str, Any] | None:
    """The model a template names, seen from the template's scope (namespace model first)."""
    kind, namespace, _ = _identity(template)
    spec = _sub(template, "spec")
    name = _text(spec.get("modelName"))
    if kind == "AIMServiceTemplate":
        found = models.get(("AIMModel", namespace, name))
        if found is not None:
            return found
    return models.get(("AIMClusterModel", "", name))


def _admitted(doc: Mapping[str, Any], what: str) -> tuple[Any, NotConvertible | None]:
    """The parsed document, or why admission rejects it."""
    try:
        return parse(doc), None
    except AIMValidationError as err:
        return None, NotConvertible(err.field or "", err.reason, f"{what}: {err.message}")


def _convert(doc: Mapping[str, Any], models: _Models) -> tuple[Any, list[NotConvertible]]:
    """One legacy document converted, or every problem that keeps it unchanged."""
    parsed, problem = _admitted(doc, "the input is not admitted")
    if problem is not None:
        return None, [problem]
    try:
        if isinstance(parsed, AIMService):
            problems = _service_problems(_mapping(doc.get("spec"), "spec"))
            if problems:
                return None, problems
            out: Any = copy.deepcopy(doc)
            _migrate_service(out, template_pipeline=choose_pipeline(parsed)[0] == "template")
        else:
            out = template_profile_manifest(doc, template_model(doc, models))
    except NotConvertible as err:
        return None, [err]
    _, problem = _admitted(out, "the converted manifest is not admitted")
    if problem is not None:
        return None, [problem]
    return out, []


def migrate_objects(objects: Sequence[Any], catalog_objects: Iterable[Any] = ()) -> MigrationResult:
    """Convert every v1alpha1 AIMService and service template of `objects`; leave the rest as is.

    `catalog_objects` (manifests or typed objects) supply models the templates name when those are
    not among `objects`. Inputs are never modified; converted documents are copies.
    """
    models = _model_index([*objects, *catalog_objects])
    out: list[Any] = []
    problems: list[MigrationProblem] = []
    converted: list[bool] = []
    for index, doc in enumerate(objects):
        if not is_legacy(doc):
            out.append(doc)
            converted.append(False)
            continue
        result, found = _convert(doc, models)
        if found:
            kind, namespace, name = _identity(doc)
            problems.extend(
                MigrationProblem(index, kind, namespace, name, p.field, p.reason, p.message) for p in found
            )
            out.append(doc)
            converted.append(False)
            continue
        out.append(result)
        converted.append(True)
    return MigrationResult(tuple(out), tuple(problems), tuple(converted))
