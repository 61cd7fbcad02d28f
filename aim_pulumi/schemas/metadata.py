"""ObjectMeta checks: the ObjectMeta schema plus the apimachinery syntax rules the API server applies.

None of these rules are in an OpenAPI schema (a CRD's root `metadata` is only `type: object`), yet
every create is rejected when they fail: names must be DNS-1123 subdomains, namespaces DNS-1123
labels, label and annotation keys qualified names, label values short and plain, annotations small.
Messages follow k8s.io/apimachinery/pkg/util/validation.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from aim_pulumi.schemas.paths import MapKey, child
from aim_pulumi.schemas.registry import OBJECT_META
from aim_pulumi.schemas.structural import validate_structure

DNS1123_LABEL_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
QUALIFIED_NAME_MAX_LENGTH = 63
LABEL_VALUE_MAX_LENGTH = 63
TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024
APISERVER_TAG = "[apiserver]"

_DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = rf"{_DNS1123_LABEL}(\.{_DNS1123_LABEL})*"
_QUALIFIED_NAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE = f"({_QUALIFIED_NAME})?"

# The checks below are pure functions of one string, and the objects of a program repeat the same
# names, label keys and values many times: each answer is remembered (a bounded number of them).
_REMEMBERED = 8192

# Matched whole (`fullmatch`): Python's `$` also matches before a final newline, which Go's does not,
# so `^...$` took "a\n" for a valid name the API server refuses.
_QUALIFIED_NAME_RE = re.compile(_QUALIFIED_NAME)
_DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL)
_DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_SUBDOMAIN)


def is_dns1123_label(value: str) -> bool:
    """The one DNS-1123 label rule (namespaces, container names): at most 63, `[a-z0-9-]`, alnum ends."""
    return len(value) <= DNS1123_LABEL_MAX_LENGTH and _DNS1123_LABEL_RE.fullmatch(value) is not None


def is_dns1123_subdomain(value: str) -> bool:
    """The one DNS-1123 subdomain rule (object names): at most 253, dot-separated labels."""
    return len(value) <= DNS1123_SUBDOMAIN_MAX_LENGTH and _DNS1123_SUBDOMAIN_RE.fullmatch(value) is not None


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _syntax_errors(value: str, max_length: int, regex: str, rule: str) -> tuple[str, ...]:
    """The API server's two checks of a name-like string: its length, then its pattern."""
    errors: list[str] = []
    if len(value) > max_length:
        errors.append(f"must be no more than {max_length} characters")
    if re.fullmatch(regex, value) is None:
        errors.append(f"{rule} (regex '{regex}')")
    return tuple(errors)


def dns1123_label_errors(value: str) -> list[str]:
    """Why `value` is not a DNS-1123 label (namespaces, container names); [] when it is."""
    return list(_dns1123_label_errors(value))


@functools.lru_cache(maxsize=_REMEMBERED)
def _dns1123_label_errors(value: str) -> tuple[str, ...]:
    return _syntax_errors(
        value,
        DNS1123_LABEL_MAX_LENGTH,
        _DNS1123_LABEL,
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
        "and must start and end with an alphanumeric character",
    )


def dns1123_subdomain_errors(value: str) -> list[str]:
    """Why `value` is not a DNS-1123 subdomain (object names); [] when it is."""
    return list(_dns1123_subdomain_errors(value))


@functools.lru_cache(maxsize=_REMEMBERED)
def _dns1123_subdomain_errors(value: str) -> tuple[str, ...]:
    return _syntax_errors(
        value,
        DNS1123_SUBDOMAIN_MAX_LENGTH,
        _DNS1123_SUBDOMAIN,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
        "or '.', and must start and end with an alphanumeric character",
    )


def generate_name_errors(prefix: str) -> list[str]:
    """A generateName is a name prefix: a trailing '-' is allowed since a suffix follows."""
    masked = prefix[:-1] + "a" if len(prefix) > 1 and prefix.endswith("-") else prefix
    return dns1123_subdomain_errors(masked)


def qualified_name_errors(key: str) -> list[str]:
    """Why `key` is not a qualified name (`[prefix/]name`, the label and annotation key syntax)."""
    return list(_qualified_name_errors(key))


@functools.lru_cache(maxsize=_REMEMBERED)
def _qualified_name_errors(key: str) -> tuple[str, ...]:
    parts = key.split("/")
    if len(parts) > 2:
        return (
            "a qualified name must be an optional DNS subdomain prefix and '/' followed by a name "
            f"of at most {QUALIFIED_NAME_MAX_LENGTH} characters (e.g. 'example.com/MyName')",
        )
    errors: list[str] = []
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            errors.extend(f"prefix part {message}" for message in dns1123_subdomain_errors(prefix))
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > QUALIFIED_NAME_MAX_LENGTH:
        errors.append(f"name part must be no more than {QUALIFIED_NAME_MAX_LENGTH} characters")
    if name and not _QUALIFIED_NAME_RE.fullmatch(name):
        errors.append(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
            f"end with an alphanumeric character (regex '{_QUALIFIED_NAME}')"
        )
    return tuple(errors)


def label_value_errors(value: str) -> list[str]:
    """Why `value` cannot be a label value; [] when it can (the empty string can)."""
    return list(_label_value_errors(value))


@functools.lru_cache(maxsize=_REMEMBERED)
def _label_value_errors(value: str) -> tuple[str, ...]:
    return _syntax_errors(
        value,
        LABEL_VALUE_MAX_LENGTH,
        _LABEL_VALUE,
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
        "or '.', and must start and end with an alphanumeric character",
    )


def label_errors(labels: object, path: str) -> list[str]:
    """Key and value syntax of a label map found at `path`."""
    if not isinstance(labels, Mapping):
        return []
    errors: list[str] = []
    for key in sorted(labels, key=str):
        value = labels[key]
        for message in _qualified_name_errors(str(key)):
            errors.append(f"{path}: Invalid value: {_quoted(str(key))}: {message}")
        if isinstance(value, str):
            for message in _label_value_errors(value):
                errors.append(f"{child(path, MapKey(str(key)))}: Invalid value: {_quoted(value)}: {message}")
    return errors


def annotation_errors(annotations: object, path: str) -> list[str]:
    """Key syntax (case-insensitive, as the API server checks it) and total size of annotations."""
    if not isinstance(annotations, Mapping):
        return []
    errors: list[str] = []
    total_size = 0
    for key in sorted(annotations, key=str):
        for message in _qualified_name_errors(str(key).lower()):
            errors.append(f"{path}: Invalid value: {_quoted(str(key))}: {message}")
        value = annotations[key]
        total_size += len(str(key).encode()) + (len(value.encode()) if isinstance(value, str) else 0)
    if total_size > TOTAL_ANNOTATION_SIZE_LIMIT:
        errors.append(
            f"{path}: Too long: may not be more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes "
            f"(keys and values add up to {total_size})"
        )
    return errors


# Kinds whose names are DNS-1123 labels, not subdomains (core validation `ValidateNamespaceName`,
# `ValidateServiceName`): their names become DNS labels themselves.
_LABEL_NAMED_KINDS = frozenset({"Namespace", "Service"})


def _name_errors(meta: Mapping[str, Any], kind: object = None) -> list[str]:
    name, generate_name = meta.get("name"), meta.get("generateName")
    if not name and not generate_name:
        return ["metadata.name: Required value: name or generateName is required"]
    errors: list[str] = []
    if isinstance(name, str) and name:
        rule = dns1123_label_errors if kind in _LABEL_NAMED_KINDS else dns1123_subdomain_errors
        errors.extend(f"metadata.name: Invalid value: {_quoted(name)}: {message}" for message in rule(name))
    if isinstance(generate_name, str) and generate_name:
        errors.extend(
            f"metadata.generateName: Invalid value: {_quoted(generate_name)}: {message}"
            for message in generate_name_errors(generate_name)
        )
    return errors


def _namespace_errors(meta: Mapping[str, Any]) -> list[str]:
    namespace = meta.get("namespace")
    if not isinstance(namespace, str) or not namespace:
        return []
    return [
        f"metadata.namespace: Invalid value: {_quoted(namespace)}: {message}"
        for message in dns1123_label_errors(namespace)
    ]


def metadata_errors(obj: Mapping[str, Any]) -> list[str]:
    """Everything wrong with the root `metadata` of an object; [] when the API server would accept it.

    A non-mapping `metadata` is left to the root schema, which reports its type.
    """
    meta = obj.get("metadata")
    if meta is None:
        return ["metadata: Required value"]
    if not isinstance(meta, Mapping):
        return []
    syntax_errors = _name_errors(meta, obj.get("kind")) + _namespace_errors(meta)
    syntax_errors += label_errors(meta.get("labels"), "metadata.labels")
    syntax_errors += annotation_errors(meta.get("annotations"), "metadata.annotations")
    schema_errors = validate_structure(*OBJECT_META, meta, prefix="metadata")
    return schema_errors + [f"{error} {APISERVER_TAG}" for error in syntax_errors]
