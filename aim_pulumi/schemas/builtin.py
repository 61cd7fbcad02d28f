"""Rules the API server and KServe's admission webhook enforce in Go code, not in any schema.

The pod-level rules (env names, quantities, references, volumes) live in `pod_rules.py`.

Each message is tagged with who enforces it: `[apiserver]` for Kubernetes' own validation
(k8s pkg/apis/core/validation, pkg/apis/batch/validation), `[kserve-webhook]` for KServe v0.20.0
`pkg/apis/serving/v1beta1/inference_service_validation.go`. Every rule reads the object defensively:
a value of the wrong type was already reported by the schema and is simply skipped here.
"""

from __future__ import annotations

import base64
import json
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
ISVC_NAME = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?\Z")
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


# --------------------------------------------------------------------------- Secret and ConfigMap
# Values of a Secret are never echoed: a refusal names the key and the rule.

# `ValidateSecret`: the keys each built-in type requires (`stringData` counts, as it is merged in).
SECRET_TYPE_KEYS: Mapping[str, tuple[str, ...]] = {
    "kubernetes.io/tls": ("tls.crt", "tls.key"),
    "kubernetes.io/ssh-auth": ("ssh-privatekey",),
    "kubernetes.io/dockerconfigjson": (".dockerconfigjson",),
    "kubernetes.io/dockercfg": (".dockercfg",),
}
_JSON_KEYS = (".dockerconfigjson", ".dockercfg")
MAX_DATA_BYTES = (
    1024 * 1024
)  # `TotalSecretSize`, `MaxSecretSize`: a Secret's or ConfigMap's data at most 1 MiB
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")


def _decoded(value: object) -> bytes | None:
    """A `[]byte` field as Go's encoding/json reads it: standard base64, padded, line breaks skipped."""
    if not isinstance(value, str):
        return None
    text = value.replace("\r", "").replace("\n", "")
    if not _BASE64.match(text):
        return None
    return base64.b64decode(text)


def _bytes_errors(obj: Mapping[str, Any], field: str) -> list[str]:
    """Every value of a `[]byte` map is base64 (the API server cannot decode it otherwise: 400)."""
    return [
        f'{field}[{key}]: Invalid value: "<not shown>": not base64 (the standard alphabet, padded): '
        f"the API server cannot decode it {APISERVER}"
        for key, value in _mapping(obj.get(field)).items()
        if isinstance(value, str) and _decoded(value) is None
    ]


def _secret_value(obj: Mapping[str, Any], key: str) -> bytes | None:
    string_data = _mapping(obj.get("stringData"))
    if isinstance(string_data.get(key), str):
        return str(string_data[key]).encode()
    return _decoded(_mapping(obj.get("data")).get(key))


def secret_rules(obj: Mapping[str, Any]) -> list[str]:
    """`ValidateSecret`: base64 data, the keys of its type (with JSON where the type is a docker
    config), a service account token's annotation, and at most 1 MiB of data."""
    errors = _bytes_errors(obj, "data")
    keys = set(_mapping(obj.get("data"))) | set(_mapping(obj.get("stringData")))
    secret_type = obj.get("type")
    for key in SECRET_TYPE_KEYS.get(str(secret_type), ()):
        if key not in keys:
            errors.append(f"data[{key}]: Required value {APISERVER}")
        elif key in _JSON_KEYS:
            value = _secret_value(obj, key)
            try:
                json.loads(value or b"")
            except ValueError:
                errors.append(
                    f'data[{key}]: Invalid value: "<secret contents redacted>": not JSON {APISERVER}'
                )
    if secret_type == "kubernetes.io/basic-auth" and not keys & {"username", "password"}:
        errors += [
            f"data[username]: Required value {APISERVER}",
            f"data[password]: Required value {APISERVER}",
        ]
    annotations = _mapping(_mapping(obj.get("metadata")).get("annotations"))
    if secret_type == "kubernetes.io/service-account-token" and not annotations.get(
        "kubernetes.io/service-account.name"
    ):
        errors.append(f"metadata.annotations[kubernetes.io/service-account.name]: Required value {APISERVER}")
    size = sum(len(_secret_value(obj, str(key)) or b"") for key in keys)
    if size > MAX_DATA_BYTES:
        errors.append(f"data: Too long: must have at most {MAX_DATA_BYTES} bytes {APISERVER}")
    return errors


def config_map_rules(obj: Mapping[str, Any]) -> list[str]:
    """`ValidateConfigMap`: base64 binaryData, no key in both maps, at most 1 MiB of data."""
    errors = _bytes_errors(obj, "binaryData")
    data, binary = _mapping(obj.get("data")), _mapping(obj.get("binaryData"))
    errors += [
        f'data[{key}]: Invalid value: "{key}": duplicate of key present in binaryData {APISERVER}'
        for key in data
        if key in binary
    ]
    size = sum(len(str(v).encode()) for v in data.values()) + sum(
        len(_decoded(v) or b"") for v in binary.values()
    )
    if size > MAX_DATA_BYTES:
        errors.append(f"data: Too long: must have at most {MAX_DATA_BYTES} bytes {APISERVER}")
    return errors


# --------------------------------------------------------------------------- Service

SERVICE_TYPES = ("ClusterIP", "ExternalName", "LoadBalancer", "NodePort")
SERVICE_PROTOCOLS = ("SCTP", "TCP", "UDP")
_PORT_RANGE = "must be between 1 and 65535, inclusive"
_IANA_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?\Z")


def _port_number_errors(path: str, value: object) -> list[str]:
    if isinstance(value, int) and not isinstance(value, bool) and not 1 <= value <= 65535:
        return [f"{path}: Invalid value: {value}: {_PORT_RANGE} {APISERVER}"]
    return []


def _port_name_errors(path: str, value: str) -> list[str]:
    """validation `IsValidPortName` (an IANA service name): a named targetPort."""
    if len(value) > 15 or not _IANA_NAME.match(value) or "--" in value or not re.search("[a-z]", value):
        return [
            f'{path}: Invalid value: "{value}": must contain only alpha-numeric characters (a-z, 0-9), '
            f"and hyphens (-), at most 15 of them, at least one letter, no '--' {APISERVER}"
        ]
    return []


def service_rules(obj: Mapping[str, Any]) -> list[str]:
    """`ValidateService` for what a manifest decides alone: its type, its ports (required unless
    headless or ExternalName; numbers in range, a named target an IANA name, known protocols, names
    when there are several), and the external name of an ExternalName service."""
    spec = _spec(obj)
    service_type = spec.get("type") or "ClusterIP"
    errors: list[str] = []
    if service_type not in SERVICE_TYPES:
        errors.append(
            f"spec.type: Unsupported value: {_quoted(service_type)}: supported values: "
            f"{_supported(SERVICE_TYPES)} {APISERVER}"
        )
    ports = _sequence(spec.get("ports"))
    headless = spec.get("clusterIP") == "None"
    if service_type == "ExternalName" and not spec.get("externalName"):
        errors.append(f"spec.externalName: Required value {APISERVER}")
    if not ports and not headless and service_type != "ExternalName":
        errors.append(f"spec.ports: Required value {APISERVER}")
    names: set[str] = set()
    for index, entry in enumerate(ports):
        port = _mapping(entry)
        where = f"spec.ports[{index}]"
        errors += _port_number_errors(f"{where}.port", port.get("port"))
        target = port.get("targetPort", port.get("port"))
        if isinstance(target, str):
            errors += _port_name_errors(f"{where}.targetPort", target)
        else:
            errors += _port_number_errors(f"{where}.targetPort", target)
        protocol = port.get("protocol") or "TCP"
        if protocol not in SERVICE_PROTOCOLS:
            errors.append(
                f"{where}.protocol: Unsupported value: {_quoted(protocol)}: supported values: "
                f"{_supported(SERVICE_PROTOCOLS)} {APISERVER}"
            )
        name = port.get("name")
        if len(ports) > 1 and not name:
            errors.append(f"{where}.name: Required value {APISERVER}")
        elif isinstance(name, str) and name:
            errors += [
                f"{where}.name: Invalid value: {_quoted(name)}: {m} {APISERVER}"
                for m in dns1123_label_errors(name)
            ]
            if name in names:
                errors.append(f"{where}.name: Duplicate value: {_quoted(name)} {APISERVER}")
            names.add(name)
        if port.get("nodePort") and service_type == "ClusterIP":
            errors.append(
                f"{where}.nodePort: Forbidden: may not be used when `type` is 'ClusterIP' {APISERVER}"
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
    ("v1", "ConfigMap"): (data_key_errors, config_map_rules),
    ("v1", "Secret"): (data_key_errors, secret_rules),
    ("v1", "Service"): (service_rules,),
}


def builtin_errors(obj: Mapping[str, Any]) -> list[str]:
    """The Go-coded rules for the object's kind, in declaration order."""
    rules = BUILTIN_RULES.get((str(obj.get("apiVersion")), str(obj.get("kind"))), ())
    return [error for rule in rules for error in rule(obj)]
