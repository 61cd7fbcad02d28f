"""Rules the API server and KServe's admission webhook enforce in Go code, not in any schema.

The pod-level rules (env names, quantities, references, volumes) live in `pod_rules.py`.

Each message is tagged with who enforces it: `[apiserver]` for Kubernetes' own validation
(k8s pkg/apis/core/validation, pkg/apis/batch/validation), `[kserve-webhook]` for KServe v0.20.0
`pkg/apis/serving/v1beta1/inference_service_validation.go`. Every rule reads the object defensively:
a value of the wrong type was already reported by the schema and is simply skipped here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aim_pulumi.schemas.metadata import APISERVER_TAG, annotation_errors, dns1123_label_errors, label_errors
from aim_pulumi.schemas.pod_rules import data_key_errors, isvc_predictor_pod, job_pod, pvc_storage_class
from aim_pulumi.schemas.quantity import quantity_value

BuiltinRule = Callable[[Mapping[str, Any]], list[str]]

APISERVER = APISERVER_TAG
KSERVE_WEBHOOK = "[kserve-webhook]"

PVC_ACCESS_MODES = ("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod")
PVC_VOLUME_MODES = ("Block", "Filesystem")
JOB_RESTART_POLICIES = ("OnFailure", "Never")
JOB_NAME_MAX_LENGTH = 63
KSERVE_CONTAINER_NAME = "kserve-container"
ISVC_NAME = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
PREDICTOR_IMPLEMENTATIONS = (
    "sklearn", "xgboost", "tensorflow", "pytorch", "triton", "onnx", "huggingface", "pmml", "lightgbm",
    "paddle", "model",
)  # fmt: skip


def _mapping(value: object) -> Mapping[str, Any]:
    return value if type(value) is dict or isinstance(value, Mapping) else {}


def _sequence(value: object) -> Sequence[Any]:
    return value if isinstance(value, list) else []


def _quoted(value: object) -> str:
    return f'"{value}"'


def _supported(values: Sequence[str]) -> str:
    return ", ".join(_quoted(value) for value in values)


def _spec(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    return _mapping(obj.get("spec"))


def _name(obj: Mapping[str, Any]) -> object:
    return _mapping(obj.get("metadata")).get("name")


# --------------------------------------------------------------------------- PersistentVolumeClaim


def pvc_access_modes(obj: Mapping[str, Any]) -> list[str]:
    """At least one known access mode; ReadWriteOncePod cannot be combined with another."""
    modes = _sequence(_spec(obj).get("accessModes"))
    if not modes:
        return [f"spec.accessModes: Required value: at least 1 access mode is required {APISERVER}"]
    errors = [
        f"spec.accessModes: Unsupported value: {_quoted(mode)}: supported values: "
        f"{_supported(PVC_ACCESS_MODES)} {APISERVER}"
        for mode in modes
        if mode not in PVC_ACCESS_MODES
    ]
    if "ReadWriteOncePod" in modes and len(modes) > 1:
        errors.append(
            f"spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes {APISERVER}"
        )
    return errors


def pvc_volume_mode(obj: Mapping[str, Any]) -> list[str]:
    """volumeMode, when set, is Block or Filesystem (the swagger schema carries no enums)."""
    mode = _spec(obj).get("volumeMode")
    if mode is None or mode in PVC_VOLUME_MODES:
        return []
    return [
        f"spec.volumeMode: Unsupported value: {_quoted(mode)}: supported values: "
        f"{_supported(PVC_VOLUME_MODES)} {APISERVER}"
    ]


def pvc_storage_request(obj: Mapping[str, Any]) -> list[str]:
    """A claim must request storage, and a positive amount of it."""
    storage = _mapping(_mapping(_spec(obj).get("resources")).get("requests")).get("storage")
    if storage is None:
        return [f"spec.resources[storage]: Required value {APISERVER}"]
    amount = quantity_value(storage)
    if amount is not None and amount <= 0:
        return [
            f"spec.resources[storage]: Invalid value: {_quoted(storage)}: must be greater than zero "
            f"{APISERVER}"
        ]
    return []


# --------------------------------------------------------------------------- Job


def _pod_template(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    return _mapping(_spec(obj).get("template"))


def job_name_length(obj: Mapping[str, Any]) -> list[str]:
    """A Job's name becomes the `batch.kubernetes.io/job-name` label value of its pods: 63 chars at most."""
    name = _name(obj)
    if not isinstance(name, str) or len(name) <= JOB_NAME_MAX_LENGTH:
        return []
    return [
        f"metadata.name: Invalid value: {_quoted(name)}: must be no more than {JOB_NAME_MAX_LENGTH} "
        f"characters (it is copied into the pod label batch.kubernetes.io/job-name) {APISERVER}"
    ]


def job_restart_policy(obj: Mapping[str, Any]) -> list[str]:
    """Job pods restart OnFailure or Never; unset means the pod default Always, which is refused."""
    policy = _mapping(_pod_template(obj).get("spec")).get("restartPolicy")
    path = "spec.template.spec.restartPolicy"
    if policy in (None, ""):
        return [
            f'{path}: Unsupported value: "Always" (the default when unset): supported values: '
            f"{_supported(JOB_RESTART_POLICIES)} {APISERVER}"
        ]
    if policy not in JOB_RESTART_POLICIES:
        return [
            f"{path}: Unsupported value: {_quoted(policy)}: supported values: "
            f"{_supported(JOB_RESTART_POLICIES)} {APISERVER}"
        ]
    if _spec(obj).get("podFailurePolicy") is not None and policy != "Never":
        return [
            f'{path}: Invalid value: {_quoted(policy)}: only "Never" is supported when podFailurePolicy '
            f"is specified {APISERVER}"
        ]
    return []


def job_containers(obj: Mapping[str, Any]) -> list[str]:
    """At least one container; container names are DNS-1123 labels, unique across init containers too."""
    pod_spec = _pod_template(obj).get("spec")
    if not isinstance(pod_spec, Mapping):
        return []
    path = "spec.template.spec"
    errors: list[str] = []
    if not _sequence(pod_spec.get("containers")):
        errors.append(f"{path}.containers: Required value {APISERVER}")
    seen: set[str] = set()
    for group in ("initContainers", "containers"):
        for index, container in enumerate(_sequence(pod_spec.get(group))):
            name = _mapping(container).get("name")
            if not isinstance(name, str):
                continue
            where = f"{path}.{group}[{index}].name"
            errors.extend(
                f"{where}: Invalid value: {_quoted(name)}: {message} {APISERVER}"
                for message in dns1123_label_errors(name)
            )
            if name in seen:
                errors.append(f"{where}: Duplicate value: {_quoted(name)} {APISERVER}")
            seen.add(name)
    return errors


def job_template_metadata(obj: Mapping[str, Any]) -> list[str]:
    """The pod template's labels and annotations follow the same syntax as any object's."""
    meta = _mapping(_pod_template(obj).get("metadata"))
    path = "spec.template.metadata"
    errors = label_errors(meta.get("labels"), f"{path}.labels")
    errors += annotation_errors(meta.get("annotations"), f"{path}.annotations")
    return [f"{error} {APISERVER}" for error in errors]


# --------------------------------------------------------------------------- InferenceService


def isvc_name(obj: Mapping[str, Any]) -> list[str]:
    """KServe derives DNS names from the InferenceService name, so it must start with a letter."""
    name = _name(obj)
    if not isinstance(name, str) or not name:
        return []
    if not ISVC_NAME.match(name):
        return [
            f"metadata.name: Invalid value: {_quoted(name)}: an InferenceService name must consist of "
            "lower case alphanumeric characters or '-', and must start with an alphabetical character "
            f"(regex '[a-z]([-a-z0-9]*[a-z0-9])?') {KSERVE_WEBHOOK}"
        ]
    return []


def _predictor_implementations(predictor: Mapping[str, Any]) -> list[str]:
    """What KServe counts as implementations: framework fields, then a `kserve-container` (or any
    containers when there is nothing else) as the custom predictor."""
    found = [name for name in PREDICTOR_IMPLEMENTATIONS if predictor.get(name) is not None]
    containers = _sequence(predictor.get("containers"))
    names_kserve_container = any(_mapping(c).get("name") == KSERVE_CONTAINER_NAME for c in containers)
    if containers and (names_kserve_container or not found):
        found.append("containers")
    return found


def isvc_predictor_implementation(obj: Mapping[str, Any]) -> list[str]:
    """Exactly one predictor implementation, and framework implementations carry no `name`."""
    predictor = _spec(obj).get("predictor")
    if not isinstance(predictor, Mapping):
        return []
    found = _predictor_implementations(predictor)
    errors = [
        f"spec.predictor.{implementation}.name: Forbidden: the 'name' field is not allowed in a standard "
        f"predictor {KSERVE_WEBHOOK}"
        for implementation in found
        if implementation != "containers" and _mapping(predictor.get(implementation)).get("name")
    ]
    if len(found) != 1:
        allowed = ", ".join((*PREDICTOR_IMPLEMENTATIONS, f"containers (named {KSERVE_CONTAINER_NAME})"))
        shown = ", ".join(found) if found else "none"
        errors.append(
            f"spec.predictor: Invalid value: exactly one of [{allowed}] must be specified in "
            f"PredictorSpec; found {shown} {KSERVE_WEBHOOK}"
        )
    return errors


BUILTIN_RULES: Mapping[tuple[str, str], tuple[BuiltinRule, ...]] = {
    ("v1", "PersistentVolumeClaim"): (
        pvc_access_modes,
        pvc_volume_mode,
        pvc_storage_request,
        pvc_storage_class,
    ),
    ("batch/v1", "Job"): (
        job_name_length,
        job_restart_policy,
        job_containers,
        job_template_metadata,
        job_pod,
    ),
    ("serving.kserve.io/v1beta1", "InferenceService"): (
        isvc_name,
        isvc_predictor_implementation,
        isvc_predictor_pod,
    ),
    ("v1", "ConfigMap"): (data_key_errors,),
    ("v1", "Secret"): (data_key_errors,),
}


def builtin_errors(obj: Mapping[str, Any]) -> list[str]:
    """The Go-coded rules for the object's kind, in declaration order."""
    rules = BUILTIN_RULES.get((str(obj.get("apiVersion")), str(obj.get("kind"))), ())
    return [error for rule in rules for error in rule(obj)]
