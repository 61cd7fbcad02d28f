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

import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from aim_pulumi.schemas.metadata import (
    APISERVER_TAG,
    dns1123_label_errors,
    dns1123_subdomain_errors,
    label_errors,
    qualified_name_errors,
)
from aim_pulumi.schemas.quantity import canonical_quantity, quantity_value

__all__ = [
    "config_map_key_errors",
    "container_resource_name_errors",
    "data_key_errors",
    "env_name_errors",
    "isvc_predictor_pod",
    "job_pod",
    "pvc_storage_class",
    "quantity_value_errors",
    "value_from_errors",
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
    """`validateSecretKeySelector` / `validateConfigMapKeySelector`: the name defaults to "", which is
    no DNS-1123 subdomain, so a selector without one is refused too."""
    name = selector.get("name")
    if name is None or name == "":
        errors = [_invalid(f"{path}.name", "", m) for m in dns1123_subdomain_errors("")]
    else:
        errors = _named_reference(f"{path}.name", name)
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
        errors.extend(f"{where}.{p}: {m} {APISERVER_TAG}" for p, m in value_from_errors(var))
    return errors


# `validateEnvVarValueFrom`: the sources an env value may read, and what the pod's fields and a
# container's resources may be read as (`validEnvDownwardAPIFieldPathExpressions`,
# `validContainerResourceFieldPathExpressions`; `ConvertDownwardAPIFieldLabel` converts first).
_ENV_SOURCES = ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef")
_ENV_FIELD_PATHS = (
    "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
    "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
)  # fmt: skip
_CONVERTIBLE_FIELD_PATHS = frozenset(
    (*_ENV_FIELD_PATHS, "metadata.annotations", "metadata.labels", "spec.restartPolicy", "spec.schedulerName",
     "status.phase", "spec.host")
)  # fmt: skip
_ENV_RESOURCES = (
    "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage",
    "requests.memory",
)  # fmt: skip
_HUGEPAGES_FIELDS = ("requests.hugepages-", "limits.hugepages-")
_CPU_DIVISORS = ("1m", "1")
_BYTE_DIVISORS = ("1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei")


def _supported_list(values: Sequence[str]) -> str:
    return ", ".join(f'"{v}"' for v in sorted(values))


def value_from_errors(var: Mapping[str, Any]) -> list[tuple[str, str]]:
    """`validateEnvVarValueFrom`: (path under the env entry, message) for each refusal.

    Exactly one source (a `fileKeyRef` is not one: the API server drops it without its feature
    gate); no non-empty `value` beside it; a `fieldRef` the pod has, a `resourceFieldRef` of a
    container resource with a divisor the API server takes.
    """
    if var.get("valueFrom") is None:
        return []
    source = _mapping(var.get("valueFrom"))
    present = [kind for kind in _ENV_SOURCES if source.get(kind) is not None]
    out: list[tuple[str, str]] = []
    for kind in ("secretKeyRef", "configMapKeyRef"):
        if isinstance(source.get(kind), Mapping):
            for error in _key_reference(kind, source[kind]):
                path, _, message = error.partition(": ")
                out.append((f"valueFrom.{path}", message.removesuffix(f" {APISERVER_TAG}")))
    if isinstance(source.get("fieldRef"), Mapping):
        out += [(f"valueFrom.fieldRef{p}", m) for p, m in _field_selector_errors(source["fieldRef"])]
    if isinstance(source.get("resourceFieldRef"), Mapping):
        found = _resource_selector_errors(source["resourceFieldRef"])
        out += [(f"valueFrom.resourceFieldRef{p}", m) for p, m in found]
    value = var.get("value")
    if not present:
        kinds = "`fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"
        out.append(("valueFrom", f'Invalid value: "": must specify one of: {kinds}'))
    elif isinstance(value, str) and value:
        out.append(("valueFrom", 'Invalid value: "": may not be specified when `value` is not empty'))
    elif len(present) > 1:
        out.append(("valueFrom", 'Invalid value: "": may not have more than one field specified at a time'))
    return out


def _split_subscript(path: str) -> tuple[str, str] | None:
    """fieldpath `SplitMaybeSubscriptedPath`: `metadata.labels['k']` -> (`metadata.labels`, `k`)."""
    if not path.endswith("']"):
        return None
    head, separator, subscript = path[:-2].partition("['")
    return (head, subscript) if separator and head else None


def _field_selector_errors(selector: Mapping[str, Any]) -> list[tuple[str, str]]:
    """`validateObjectFieldSelector` against the env var field paths (apiVersion defaults to v1);
    `ConvertDownwardAPIFieldLabel` first refuses a version, a subscript or a field it does not know."""
    version = selector.get("apiVersion") or "v1"
    path = selector.get("fieldPath")
    if not isinstance(path, str) or not path:
        return [(".fieldPath", "Required value")]
    split = _split_subscript(path)
    converting = f'Invalid value: "{path}": error converting fieldPath'
    if version != "v1":
        return [(".fieldPath", f"{converting}: unsupported pod version: {version}")]
    if split is not None and split[0] not in ("metadata.annotations", "metadata.labels"):
        return [(".fieldPath", f"{converting}: field label does not support subscript: {path}")]
    if split is None and path not in _CONVERTIBLE_FIELD_PATHS:
        return [(".fieldPath", f"{converting}: field label not supported: {path}")]
    if split is not None:
        key = split[1].lower() if split[0] == "metadata.annotations" else split[1]
        return [("", f'Invalid value: "{key}": {m}') for m in qualified_name_errors(key)]
    if path not in (*_ENV_FIELD_PATHS, "spec.host"):
        supported = _supported_list(_ENV_FIELD_PATHS)
        return [(".fieldPath", f'Unsupported value: "{path}": supported values: {supported}')]
    return []


def _divisors(resource: str) -> tuple[tuple[str, ...], str] | None:
    """The divisors `validateContainerResourceDivisor` takes for a resource, and its message."""
    if resource in ("limits.cpu", "requests.cpu"):
        return _CPU_DIVISORS, "only divisor's values 1m and 1 are supported with the cpu resource"
    listed = f"only divisor's values {', '.join(_BYTE_DIVISORS)} are supported with the"
    if resource in ("limits.memory", "requests.memory"):
        return _BYTE_DIVISORS, f"{listed} memory resource"
    if resource in ("limits.ephemeral-storage", "requests.ephemeral-storage"):
        return _BYTE_DIVISORS, f"{listed} local ephemeral storage resource"
    if resource.startswith(_HUGEPAGES_FIELDS):
        return _BYTE_DIVISORS, f"{listed} hugepages resource"
    return None


def _resource_selector_errors(selector: Mapping[str, Any]) -> list[tuple[str, str]]:
    """`validateContainerResourceFieldSelector` and `validateContainerResourceDivisor` (env vars).

    The divisor is compared as Go writes it (`canonical_quantity`): `1000` is `1k`, `1024` is not `1Ki`.
    """
    resource = selector.get("resource")
    if not isinstance(resource, str) or not resource:
        return [(".resource", "Required value")]
    out: list[tuple[str, str]] = []
    if resource not in _ENV_RESOURCES and not resource.startswith(_HUGEPAGES_FIELDS):
        supported = _supported_list(_ENV_RESOURCES)
        out.append((".resource", f'Unsupported value: "{resource}": supported values: {supported}'))
    divisor = selector.get("divisor")
    rule = _divisors(resource)
    canonical = canonical_quantity(divisor) if divisor is not None else None
    if rule is not None and canonical not in (None, "0") and canonical not in rule[0]:
        out.append((".divisor", f'Invalid value: "{resource}": {rule[1]}'))
    return out


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


_STANDARD_CONTAINER_RESOURCES = ("cpu", "memory", "ephemeral-storage")
# helper `standardResources`: what a resource name without a domain may be (quota and node names).
_STANDARD_RESOURCES = frozenset(
    (*_STANDARD_CONTAINER_RESOURCES, "requests.cpu", "requests.memory", "requests.ephemeral-storage",
     "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services", "replicationcontrollers",
     "resourcequotas", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
     "services.nodeports", "services.loadbalancers")
)  # fmt: skip
_HUGEPAGES = "hugepages-"


def container_resource_name_errors(name: str) -> list[str]:
    """`validateContainerResourceName`: a qualified name; without a domain, a container resource
    (`cpu`, `memory`, `ephemeral-storage`, `hugepages-<size>`); with one, native or extended."""
    shown = f"Invalid value: {_json_text(name)}"
    errors = [f"{shown}: {m}" for m in qualified_name_errors(name)]
    hugepages = name.startswith(_HUGEPAGES)
    if not errors and "/" not in name and name not in _STANDARD_RESOURCES and not hugepages:
        errors.append(f"{shown}: must be a standard resource type or fully qualified")
    if "/" not in name:
        if name not in _STANDARD_CONTAINER_RESOURCES and not hugepages:
            errors.append(f"{shown}: must be a standard resource for containers")
    elif not _is_native(name) and (name.startswith("requests.") or qualified_name_errors(f"requests.{name}")):
        errors.append(f"{shown}: doesn't follow extended resource name standard")
    return errors


def _json_text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _hugepage_errors(name: str, raw: object) -> list[str]:
    """`validateResourceQuantityHugePageValue`: a positive whole number of pages."""
    if not name.startswith(_HUGEPAGES):
        return []
    page, amount = quantity_value(name[len(_HUGEPAGES) :]), quantity_value(raw)
    if amount is None:
        return []
    if page is None or page <= 0 or amount <= 0 or int(amount) % int(page) or amount != int(amount):
        shown = canonical_quantity(raw) or str(raw)
        return [f"{shown} is not positive integer multiple of {name}"]
    return []


def _resource_errors(resources: Mapping[str, Any], path: str) -> list[str]:
    """`validateResourceRequirements` with `ValidateResourceQuantityValue` for each quantity."""
    errors: list[str] = []
    amounts: dict[str, dict[str, Decimal]] = {"limits": {}, "requests": {}}
    hugepages = False
    for side in ("limits", "requests"):
        for name, raw in _mapping(resources.get(side)).items():
            where = f"{path}.{side}[{name}]"
            errors.extend(f"{where}: {m} {APISERVER_TAG}" for m in container_resource_name_errors(str(name)))
            amount = quantity_value(raw)
            if amount is None:
                continue
            hugepages = hugepages or str(name).startswith(_HUGEPAGES)
            errors.extend(_invalid(where, raw, message) for message in quantity_value_errors(str(name), raw))
            errors.extend(
                _invalid(where, canonical_quantity(raw), m) for m in _hugepage_errors(str(name), raw)
            )
            amounts[side][str(name)] = amount
    if hugepages and not any(r in amounts[side] for side in amounts for r in ("cpu", "memory")):
        errors.append(f"{path}: Forbidden: HugePages require cpu or memory {APISERVER_TAG}")
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
    # `ValidatePodSpec`: a priority class is named by a DNS-1123 subdomain.
    errors += _named_reference(f"{path}.priorityClassName", pod.get("priorityClassName") or None)
    # `ValidateLabels` of the node selector: keys and values as labels'.
    errors += [f"{e} {APISERVER_TAG}" for e in label_errors(pod.get("nodeSelector"), f"{path}.nodeSelector")]
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
