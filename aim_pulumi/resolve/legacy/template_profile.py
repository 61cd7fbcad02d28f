"""A service template rewritten as the AIMProfile / AIMClusterProfile it becomes (behaviour §7.3).

The conversion `aim-pulumi migrate` writes is also what the template pipeline deploys from
(`templates.template_profile`), so a legacy service and its migrated form describe the same profile.
The operator's container defaults for a template service (the metrics env, the template's profile id,
per-GPU resources) are carried by the profile, explicitly or through the template label.

A converted template keeps the two status fields both pipelines select on, as the profile's own
status (no operator runs here to recompute them, and the profile pipeline reads a declared status
as availability): `status.version` as it is, and `status.status` as `NotAvailable` when present and
not `Ready`. A `Ready` template gets no declared status, so the inventory decides its availability
as it decides whether the template pipeline keeps it; a declared `Ready` would outrank the inventory.
Every other status field describes one cluster's state and is dropped (see `_carried_status`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, MutableMapping
from typing import Any

from aim_pulumi.api import AIM_GROUP
from aim_pulumi.resolve.children.container import PROFILE_ID_ENV
from aim_pulumi.resolve.children.names import sanitize_label_value
from aim_pulumi.resolve.legacy import yaml_edits as edits
from aim_pulumi.resolve.objects import PROFILE_ORIGIN_LABEL, PROFILE_ROLE_LABEL, SOURCE_MODEL_LABEL
from aim_pulumi.resolve.scalars import text

V1ALPHA2 = f"{AIM_GROUP}/v1alpha2"
# The template a converted profile came from; the InferenceService carries it as the operator's
# template services do (`plan`), so a migrated service keeps the label.
TEMPLATE_LABEL = f"{AIM_GROUP}/template"
# A profile converted from a template with a `customProfile` (the value: its AIM id, as a label can
# hold it): its container is told the AIM id the profile file lives under (`AIM_ID`), as the
# operator's custom-profile template path tells it.
CUSTOM_PROFILE_LABEL = f"{AIM_GROUP}/custom-profile"
# The type the operator writes into a custom profile's file when the template names none.
CUSTOM_PROFILE_TYPE = "unoptimized"

TEMPLATE_TO_PROFILE_KIND: Mapping[str, str] = {
    "AIMServiceTemplate": "AIMProfile",
    "AIMClusterServiceTemplate": "AIMClusterProfile",
}

# Profile types a converted template may carry (admission rule P3).
PROFILE_TYPES = frozenset({"optimized", "general", "preview", "unoptimized"})

# Template statuses as profile availability.
READY = "Ready"
NOT_AVAILABLE = "NotAvailable"

# Reasons of what cannot be converted.
CONFLICTING_FIELDS = "ConflictingFields"
MODEL_NOT_FOUND = "ModelNotFound"
MODEL_WITHOUT_IMAGE = "ModelWithoutImage"
NOT_A_MAPPING = "InvalidManifest"


class NotConvertible(Exception):
    """A field with no v1alpha2 equivalent; carries the dotted field path and a reason."""

    def __init__(self, field: str, reason: str, message: str) -> None:
        self.field = field
        self.reason = reason
        self.message = message
        super().__init__(f"{field}: {reason}: {message}")


def require_mapping(value: Any, field: str) -> MutableMapping[str, Any]:
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
                edits.delete(source, "name")
            else:
                edits.rename(source, "name", "modelId")
        if "sourceURI" in source:
            if "sourceUri" in source:
                edits.delete(source, "sourceURI")
            else:
                edits.rename(source, "sourceURI", "sourceUri")
    return sources


def _status_aim_id(status: Mapping[str, Any]) -> str:
    """The AIM id a discovery run recorded on a template, when there is one."""
    profile = status.get("profile")
    if not isinstance(profile, Mapping):
        return ""
    metadata = profile.get("metadata")
    for holder in (profile, metadata if isinstance(metadata, Mapping) else {}):
        for key in ("aimId", "aim_id"):
            found = text(holder.get(key))
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
    engine = text(metadata.get("engine"))
    if engine:
        fields.append(("engine", engine))
    kind = text(metadata.get("type"))
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
    state = text(status.get("status"))
    if state and state != READY:
        carried["status"] = NOT_AVAILABLE
    version = text(status.get("version"))
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
    declared = text(spec.get("profileId"))
    if declared:
        return declared
    profile = status.get("profile")
    if not isinstance(profile, Mapping):
        return ""
    metadata = profile.get("metadata")
    for holder in (profile, metadata if isinstance(metadata, Mapping) else {}):
        for key in ("profileId", "profile_id"):
            found = text(holder.get(key))
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


def template_runtime_profile_id(
    labels: Mapping[str, str] | None, profile_spec: Mapping[str, Any]
) -> str | None:
    """The profile id the runtime of a profile converted from a template (labelled with it) serves.

    The operator's template container sets `AIM_PROFILE_ID` to the template's profile id, under
    the template's own env (§10.3), so the image serves its own profile. `AIM_PROFILE_ID` is
    framework-owned for every other profile (its `containerEnv` cannot replace it); the template
    label and the profile's `spec.profileId` carry the template's choice instead, and a template
    env entry naming it still wins, as under the operator.
    """
    if not (labels or {}).get(TEMPLATE_LABEL):
        return None
    if (labels or {}).get(CUSTOM_PROFILE_LABEL):
        return None  # its own file, `custom/<aimId>/<file>`, as any profile's: the framework's id
    env = profile_spec.get("containerEnv")
    for item in env if isinstance(env, list) else ():
        if (
            isinstance(item, Mapping)
            and item.get("name") == PROFILE_ID_ENV
            and isinstance(item.get("value"), str)
        ):
            return str(item["value"])
    return text(profile_spec.get("profileId")) or None


def _template_container_defaults(
    spec: MutableMapping[str, Any], metric: str, precision: str, profile_id: str
) -> None:
    """Write the operator's template env above the runtime config's as explicit profile fields.

    Explicit, so that the profile `aim-pulumi migrate` writes plans the container the operator runs
    for the template, and migrating changes no child. The template's own env wins per name. The
    template's profile id (declared, or the one discovery recorded) is kept as `spec.profileId`,
    which `template_runtime_profile_id` hands to the framework layer.
    """
    if profile_id and not text(spec.get("profileId")):
        keys = list(spec)
        edits.insert(spec, keys.index("image") + 1 if "image" in keys else 0, "profileId", profile_id)
    framework: list[tuple[str, str]] = []
    if metric:
        framework.append(("AIM_METRIC", metric))
    if precision:
        framework.append(("AIM_PRECISION", precision))
    own = spec.get("containerEnv")
    own_list = list(own) if isinstance(own, list) else []
    named = {text(item.get("name")) for item in own_list if isinstance(item, Mapping)}
    env = [
        *({"name": name, "value": value} for name, value in framework if name not in named),
        *own_list,
    ]
    if env or "containerEnv" in spec:
        spec["containerEnv"] = env


def _custom_profile(spec: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The template's `customProfile`, when it has one (an empty one included)."""
    custom = spec.get("customProfile")
    return custom if isinstance(custom, Mapping) else None


def _custom_profile_fields(spec: MutableMapping[str, Any], custom: Mapping[str, Any]) -> None:
    """A template's `customProfile` as the profile fields its file is written from.

    The operator writes a custom-profile template's file from `customProfile.engineArgs` and
    `envVars`, the template's `modelId` and its type (`unoptimized` when it names none), and points
    the runtime at it (`custom/<aimId>/<file>`); a profile's `engineArgs`, `engineEnv`, `modelId`
    and `type` are what this project writes that file from, so the converted profile plans the
    same file, mount and `AIM_PROFILE_ID`.
    """
    if "type" not in spec:
        edits.insert(spec, len(spec), "type", CUSTOM_PROFILE_TYPE)
    engine_args = custom.get("engineArgs")
    env_vars = custom.get("envVars")
    fields: list[tuple[str, Any]] = []
    # Copied as written (a quoted "1" stays the string it is in the YAML `migrate` writes).
    if isinstance(engine_args, Mapping) and engine_args:
        fields.append(("engineArgs", copy.deepcopy(engine_args)))
    if isinstance(env_vars, Mapping) and env_vars:
        fields.append(("engineEnv", copy.deepcopy(env_vars)))
    edits.replace(spec, "customProfile", fields)


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
    kind = text(doc.get("kind"))
    if kind not in TEMPLATE_TO_PROFILE_KIND:
        raise NotConvertible("kind", NOT_A_MAPPING, f"{kind or 'the document'} is not a service template")
    spec = require_mapping(doc.get("spec"), "spec")
    status = edits.sub(doc, "status")
    model_name = text(spec.get("modelName"))
    if model is None:
        raise NotConvertible(
            "spec.modelName",
            MODEL_NOT_FOUND,
            f"model {model_name!r} is not among the converted objects or the catalog; its image is the "
            "profile image",
        )
    model_spec = edits.sub(model, "spec")
    image = text(model_spec.get("image"))
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
    first_source_id = text(sources[0].get("modelId")) if sources and isinstance(sources[0], Mapping) else ""
    # The template's own aimId (a custom profile's) comes first: its profile file lives under it.
    aim_id = (
        text(spec.get("aimId"))
        or text(model_spec.get("aimId"))
        or _status_aim_id(status)
        or first_source_id
        or model_name
    )
    custom = _custom_profile(spec)

    doc["apiVersion"] = V1ALPHA2
    doc["kind"] = TEMPLATE_TO_PROFILE_KIND[kind]
    metadata = edits.child_map(doc, "metadata", ("kind",))
    labels = edits.child_map(metadata, "labels", ("name", "namespace"))
    labels[SOURCE_MODEL_LABEL] = model_name
    labels[PROFILE_ROLE_LABEL] = "deployable"
    labels[PROFILE_ORIGIN_LABEL] = "user-authored"
    labels[TEMPLATE_LABEL] = sanitize_label_value(text(metadata.get("name")))
    if custom is not None:
        labels[CUSTOM_PROFILE_LABEL] = sanitize_label_value(aim_id)
    if "aimId" in spec:
        edits.delete(spec, "aimId")

    head = [("aimId", aim_id), ("image", image)]
    head += [(key, value) for key, value in _discovered_fields(status) if key not in spec]
    if "modelName" in spec:
        edits.replace(spec, "modelName", head, eol_to=(labels, SOURCE_MODEL_LABEL))
    else:
        for offset, (key, value) in enumerate(head):
            edits.insert(spec, offset, key, value)
    template_precision = text(spec.get("precision"))
    if template_precision == "auto":
        edits.delete(spec, "precision")
    if "hardware" in spec:
        hardware = spec["hardware"]
        edits.replace(spec, "hardware", _hardware_fields(hardware))
        gpu = hardware.get("gpu") if isinstance(hardware, Mapping) else None
        edits.carry(gpu, "model", spec, "acceleratorModel")
        edits.carry(gpu, "requests", spec, "acceleratorCount")
    if "env" in spec:
        edits.rename(spec, "env", "containerEnv")
    if custom is not None:
        _custom_profile_fields(spec, custom)
    _template_container_defaults(
        spec, text(spec.get("metric")), template_precision, _template_profile_id(spec, status)
    )
    carried = _carried_status(status)
    if carried:
        edits.replace(doc, "status", [("status", edits.like(doc, **carried))])
    else:
        edits.delete(doc, "status")
    return doc  # type: ignore[return-value]
