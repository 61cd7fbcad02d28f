"""The Go validation the pods of the children meet, which no JSON schema can say.

The download Job's pod template and the InferenceService predictor (which KServe turns into a pod
template) are validated by the API server as pods are: `k8s.io/kubernetes/pkg/apis/core/validation`
(v1.34) with the name and key grammars of `k8s.io/apimachinery/pkg/util/validation`. Each rule below
cites its Go function; the messages are the Go messages, tagged `[apiserver]`. A few facts:

- Env names follow `IsRelaxedEnvVarName` (printable ASCII but `=`): relaxed validation is on by default
  since Kubernetes 1.32 (`RelaxedEnvironmentVariableValidation`), so what it accepts is accepted.
- An env value may hold any text, but a NUL byte cannot reach a process (`execve` takes C strings): the
  pod could never start, so it is refused here as well, tagged `[execve]`.
- Quantities: `ValidateResourceQuantityValue` (never negative; whole numbers for extended resources
  such as `amd.com/gpu`) and `validateResourceRequirements` (a request at most its limit; for
  resources that cannot be overcommitted, extended ones and hugepages, a request needs a limit equal
  to it).
- ConfigMap and Secret data keys and the keys of `secretKeyRef`/`configMapKeyRef` follow
  `IsConfigMapKey`; the names those refer to, a service account's and a PVC's StorageClass follow
  `IsDNS1123Subdomain` (`ValidateSecretName`, `ValidateServiceAccountName`, `ValidateClassName`).
- Volume names are DNS-1123 labels, unique in the pod (`ValidateVolumes`); a mount names one of them
  and its path is set and unique in the container (`ValidateVolumeMounts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from aim_pulumi.schemas.metadata import APISERVER_TAG, dns1123_label_errors, dns1123_subdomain_errors
from aim_pulumi.schemas.quantity import quantity_value

__all__ = [
    "config_map_key_errors",
    "data_key_errors",
    "env_name_errors",
    "isvc_predictor_pod",
    "job_pod",
    "pvc_storage_class",
    "quantity_value_errors",
]

EXECVE_TAG = "[execve]"
_CONFIG_KEY_MAX = 253
_CONFIG_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._")


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: object) -> Sequence[Any]:
    return value if isinstance(value, list) else []


def _invalid(path: str, value: object, message: str, tag: str = APISERVER_TAG) -> str:
    shown = f'"{value}"' if isinstance(value, str) else str(value)
    return f"{path}: Invalid value: {shown}: {message} {tag}"


def _chdir_prefix_errors(value: str) -> list[str]:
    """apimachinery `hasChDirPrefix`: a key is a file name when mounted."""
    if value == ".":
        return ["must not be '.'"]
    if value == "..":
        return ["must not be '..'"]
    if value.startswith(".."):
        return ["must not start with '..'"]
    return []


def config_map_key_errors(value: str) -> list[str]:
    """apimachinery `IsConfigMapKey`: `[-._a-zA-Z0-9]+`, at most 253 characters, no `..` prefix."""
    errors = []
    if len(value) > _CONFIG_KEY_MAX:
        errors.append(f"must be no more than {_CONFIG_KEY_MAX} characters")
    if not value or not set(value) <= _CONFIG_KEY_CHARS:
        errors.append(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name', "
            "or 'KEY_NAME', or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
        )
    return errors + _chdir_prefix_errors(value)


def env_name_errors(value: str) -> list[str]:
    """apimachinery `IsRelaxedEnvVarName`: not empty, printable ASCII only, no `=`."""
    if not value:
        return ["environment variable name must be non-empty"]
    if any(ord(c) > 126 or ord(c) < 32 or c == "=" for c in value):
        return [
            "a valid environment variable name must consist only of printable ASCII characters other than '='"
        ]
    return []


def _named_reference(path: str, name: object) -> list[str]:
    """`ValidateSecretName` / `ValidateConfigMapName` / `ValidateServiceAccountName`: DNS-1123 subdomains."""
    if not isinstance(name, str):
        return []
    if not name:
        return [f"{path}: Required value {APISERVER_TAG}"]
    return [_invalid(path, name, message) for message in dns1123_subdomain_errors(name)]


def _key_reference(path: str, selector: Mapping[str, Any]) -> list[str]:
    """`validateSecretKeySelector` / `validateConfigMapKeySelector`."""
    errors = _named_reference(f"{path}.name", selector.get("name"))
    key = selector.get("key")
    if isinstance(key, str):
        if not key:
            errors.append(f"{path}.key: Required value {APISERVER_TAG}")
        errors.extend(_invalid(f"{path}.key", key, m) for m in config_map_key_errors(key) if key)
    return errors


def _env_errors(env: Sequence[Any], path: str) -> list[str]:
    """`ValidateEnv` (relaxed names) and `validateEnvVarValueFrom`'s key selectors."""
    errors: list[str] = []
    for index, entry in enumerate(env):
        var = _mapping(entry)
        where = f"{path}[{index}]"
        name = var.get("name")
        if isinstance(name, str):
            errors.extend(_invalid(f"{where}.name", name, m) for m in env_name_errors(name))
        value = var.get("value")
        if isinstance(value, str) and "\x00" in value:
            errors.append(
                f"{where}.value: Invalid value: a NUL byte: an environment value cannot hold one "
                f"(execve takes C strings) {EXECVE_TAG}"
            )
        source = _mapping(var.get("valueFrom"))
        for kind in ("secretKeyRef", "configMapKeyRef"):
            if isinstance(source.get(kind), Mapping):
                errors.extend(_key_reference(f"{where}.valueFrom.{kind}", source[kind]))
    return errors


def _is_native(name: str) -> bool:
    """core/helper `IsNativeResource`: no domain, or a kubernetes.io one."""
    return "/" not in name or "kubernetes.io/" in name


def _overcommit_allowed(name: str) -> bool:
    """core/helper `IsOvercommitAllowed`: native and not hugepages."""
    return _is_native(name) and not name.startswith("hugepages-")


def _integer_resource(name: str) -> bool:
    """core/helper `IsIntegerResourceName` (extended resources; the fixed integer ones are pod-level)."""
    return not _is_native(name) and not name.startswith("requests.")


def quantity_value_errors(name: str, raw: object) -> list[str]:
    """`ValidateResourceQuantityValue`: never negative; a whole number for an integer resource (Go
    compares the milli-value, rounded up, so `1e-400` is 1m: not whole)."""
    amount = quantity_value(raw)
    if amount is None:
        return []  # not a quantity: the schema check reports it
    if amount < 0:
        return ["must be greater than or equal to 0"]
    if _integer_resource(name) and (amount * 1000).to_integral_value(rounding="ROUND_CEILING") % 1000:
        return ["must be an integer"]
    return []


def _resource_errors(resources: Mapping[str, Any], path: str) -> list[str]:
    """`validateResourceRequirements` with `ValidateResourceQuantityValue` for each quantity."""
    errors: list[str] = []
    amounts: dict[str, dict[str, Decimal]] = {"limits": {}, "requests": {}}
    for side in ("limits", "requests"):
        for name, raw in _mapping(resources.get(side)).items():
            amount = quantity_value(raw)
            if amount is None:
                continue
            where = f"{path}.{side}[{name}]"
            errors.extend(_invalid(where, raw, message) for message in quantity_value_errors(str(name), raw))
            amounts[side][str(name)] = amount
    limits = _mapping(resources.get("limits"))
    for name, amount in amounts["requests"].items():
        request = _mapping(resources.get("requests")).get(name)
        limit = amounts["limits"].get(name)
        if limit is None:
            if not _overcommit_allowed(name):
                errors.append(
                    f"{path}.limits: Required value: Limit must be set for non overcommitable resources "
                    f"({name}) {APISERVER_TAG}"
                )
        elif amount != limit and not _overcommit_allowed(name):
            errors.append(
                _invalid(f"{path}.requests", request, f"must be equal to {name} limit of {limits[name]}")
            )
        elif amount > limit:
            errors.append(
                _invalid(
                    f"{path}.requests",
                    request,
                    f"must be less than or equal to {name} limit of {limits[name]}",
                )
            )
    return errors


def _pod_errors(pod: Mapping[str, Any], path: str) -> list[str]:
    """What `ValidatePodSpec` checks of the fields the project's pods carry."""
    errors = _named_reference(f"{path}.serviceAccountName", pod.get("serviceAccountName") or None)
    volumes: set[str] = set()
    for index, volume in enumerate(_sequence(pod.get("volumes"))):
        name = _mapping(volume).get("name")
        if not isinstance(name, str):
            continue
        where = f"{path}.volumes[{index}].name"
        errors.extend(_invalid(where, name, m) for m in dns1123_label_errors(name))
        if name in volumes:
            errors.append(f'{where}: Duplicate value: "{name}" {APISERVER_TAG}')
        volumes.add(name)
    for group in ("initContainers", "containers"):
        for index, entry in enumerate(_sequence(pod.get(group))):
            container = _mapping(entry)
            where = f"{path}.{group}[{index}]"
            errors += _env_errors(_sequence(container.get("env")), f"{where}.env")
            errors += _resource_errors(_mapping(container.get("resources")), f"{where}.resources")
            paths: set[str] = set()
            for mount_index, mount_entry in enumerate(_sequence(container.get("volumeMounts"))):
                mount = _mapping(mount_entry)
                at = f"{where}.volumeMounts[{mount_index}]"
                name, mount_path = mount.get("name"), mount.get("mountPath")
                if isinstance(name, str) and name not in volumes:
                    errors.append(f'{at}.name: Not found: "{name}" {APISERVER_TAG}')
                if isinstance(mount_path, str):
                    if not mount_path:
                        errors.append(f"{at}.mountPath: Required value {APISERVER_TAG}")
                    elif mount_path in paths:
                        errors.append(_invalid(f"{at}.mountPath", mount_path, "must be unique"))
                    paths.add(mount_path)
    return errors


def job_pod(obj: Mapping[str, Any]) -> list[str]:
    """The download Job's pod template, as a pod."""
    template = _mapping(_mapping(obj.get("spec")).get("template"))
    return _pod_errors(_mapping(template.get("spec")), "spec.template.spec")


def isvc_predictor_pod(obj: Mapping[str, Any]) -> list[str]:
    """The predictor: KServe copies its pod fields into the pod template the API server validates."""
    return _pod_errors(_mapping(_mapping(obj.get("spec")).get("predictor")), "spec.predictor")


def pvc_storage_class(obj: Mapping[str, Any]) -> list[str]:
    """`ValidatePersistentVolumeClaimSpec` -> `ValidateClassName`: a set class is a DNS-1123 subdomain."""
    name = _mapping(obj.get("spec")).get("storageClassName")
    if not isinstance(name, str) or not name:
        return []
    return [_invalid("spec.storageClassName", name, m) for m in dns1123_subdomain_errors(name)]


def data_key_errors(obj: Mapping[str, Any]) -> list[str]:
    """`ValidateConfigMap` / `ValidateSecret`: every data key is a config key."""
    errors: list[str] = []
    for field in ("data", "binaryData", "stringData"):
        for key in _mapping(obj.get(field)):
            errors.extend(_invalid(f"{field}[{key}]", key, m) for m in config_map_key_errors(str(key)))
    return errors
