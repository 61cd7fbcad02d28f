"""Kubernetes names of every child, computed the way the AIM operator computes them.

Using the operator's scheme (sanitised parts plus an 8-hex SHA-256 suffix, longest part shortened
first) means an InferenceService or HTTPRoute the operator created is adopted under the same name,
so moving a service from the operator to Pulumi causes no replacement.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from aim_pulumi.resolve.errors import AIMResolutionError

MAX_NAME_LENGTH = 63
HASH_LENGTH = 8
# KServe names the predictor host `<isvc>-predictor-<namespace>`; the fixed part is "-predictor-".
PREDICTOR_HOST_OVERHEAD = len("-predictor-")
MIN_ISVC_NAME_BUDGET = 10
LABEL_VALUE_MAX_LENGTH = 63

CacheMode = Literal["Shared", "Dedicated"]

_NOT_NAME_CHAR = re.compile(r"[^a-z0-9-]")
_NOT_LABEL_CHARS = re.compile(r"[^a-z0-9._-]+")
_HASH_SUFFIX = re.compile(r"-([0-9a-f]{8})$")
_GO_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_GO_JSON_TRANSLATION = str.maketrans(_GO_JSON_ESCAPES)
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def sanitize_name_part(part: str) -> str:
    """One part of a derived name, reduced to the characters of an RFC 1123 label."""
    lowered = _NOT_NAME_CHAR.sub("-", part.lower())
    cleaned = lowered.strip("-")[:MAX_NAME_LENGTH].rstrip("-")
    return cleaned or "part"


def go_json_string(value: str) -> str:
    """`value` encoded exactly as Go's `json.Marshal` encodes a string.

    The operator hashes Go-marshalled strings; matching the encoding byte for byte is what makes
    the hash suffixes (and so the names) identical. Go writes invalid UTF-8 as U+FFFD, which is
    what a lone surrogate in a Python string stands for.
    """
    text = _SURROGATE.sub("\ufffd", value)
    return json.dumps(text, ensure_ascii=False).translate(_GO_JSON_TRANSLATION)


def name_hash(hash_inputs: Sequence[str | int]) -> str:
    """The 8-hex suffix over the Go-encoded inputs joined with `|` (an int is a JSON number, as the
    operator hashes a template's index)."""
    payload = "|".join(
        str(item) if isinstance(item, int) and not isinstance(item, bool) else go_json_string(str(item))
        for item in hash_inputs
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:HASH_LENGTH]


def derived_name(
    parts: Sequence[str],
    hash_inputs: Sequence[str | int],
    max_length: int = MAX_NAME_LENGTH,
    hash_length: int = HASH_LENGTH,
) -> str:
    """A stable child name: sanitised `parts`, shortened longest-first, plus a hash of `hash_inputs`.

    The hash keeps names unique after truncation; shortening the longest part first keeps every
    part recognisable in the result. `hash_length` is the operator's `WithHashLength` (model
    sources name their models with 6 characters).
    """
    return _derived_name(tuple(parts), tuple(hash_inputs), max_length, hash_length)


@functools.lru_cache(maxsize=8192)
def _derived_name(
    parts: tuple[str, ...],
    hash_inputs: tuple[str | int, ...],
    max_length: int,
    hash_length: int = HASH_LENGTH,
) -> str:
    """`derived_name`, remembered: a plan derives the same names again (each Shared cache's for
    every service on its profile, each service's when it is planned again)."""
    sanitized = [sanitize_name_part(part) for part in parts]
    suffix = name_hash(hash_inputs)[:hash_length] if hash_inputs else ""

    def total_length() -> int:
        length = sum(len(part) + 1 for part in sanitized) + len(suffix)
        return length if suffix else length - 1

    while total_length() > max_length and sanitized:
        longest = max(range(len(sanitized)), key=lambda index: (len(sanitized[index]), -index))
        if len(sanitized[longest]) <= 1:
            break
        sanitized[longest] = sanitized[longest][:-1].rstrip("-")
    joined = "-".join(sanitized)
    if not suffix:
        return joined
    return f"{joined}-{suffix}" if joined else suffix


def inference_service_name(service: str, namespace: str) -> str:
    """The InferenceService name, short enough for KServe's `<isvc>-predictor-<namespace>` host."""
    budget = MAX_NAME_LENGTH - PREDICTOR_HOST_OVERHEAD - len(namespace)
    if budget < MIN_ISVC_NAME_BUDGET:
        raise AIMResolutionError(
            "metadata.namespace",
            "NameTooLong",
            f"namespace {namespace!r} is {len(namespace)} characters long; KServe's predictor host "
            f"'<name>-predictor-<namespace>' must fit in {MAX_NAME_LENGTH} characters, which leaves "
            f"{budget} for the InferenceService name (at least {MIN_ISVC_NAME_BUDGET} needed); "
            f"use a namespace of at most {MAX_NAME_LENGTH - PREDICTOR_HOST_OVERHEAD - MIN_ISVC_NAME_BUDGET} "
            "characters",
        )
    return derived_name([service], [namespace, service], budget)


def http_route_name(service: str, namespace: str) -> str:
    """The HTTPRoute name; also the `${httpRouteName}` of activation queries, route or not."""
    return derived_name([service], [namespace])


def predictor_name(isvc: str) -> str:
    """The name KServe gives the predictor Service and Deployment (and so the ScaledObject)."""
    return f"{isvc}-predictor"


def profile_configmap_name(service: str) -> str:
    """The ConfigMap holding the profile file the AIM runtime reads."""
    return derived_name([service, "profile"], [service, "service-profile"])


def overlay_profile_name(seed_profile: str, service: str, service_uid: str) -> str:
    """The internal name of a service's overlay of its seed profile."""
    return derived_name([seed_profile, service, "overlay"], [service_uid])


def generated_profile_name(model: str, fallback: str, aim_id: str) -> str:
    """The name of the profile a runtime-config fallback generates for a model."""
    return derived_name([model, fallback], [model, fallback, aim_id])


def model_profile_set_name(model: str) -> str:
    """The AIMProfileSet (or AIMClusterProfileSet) an AIMModel with `spec.profiles` creates."""
    return derived_name([model, "profiles"], [model, "profiles"])


def derived_profile_name(profile_set: str, source_part: str, source_identity: str) -> str:
    """A profile a profile set derives: the source's profileId (else its name), hashed with the
    source's identity (`aim_pulumi/resolve/derivation/identity.py:candidate_identity`)."""
    return derived_name([profile_set, source_part], [profile_set, source_identity])


def _source_uri(source: Mapping[str, Any]) -> str:
    uri = source.get("sourceUri")
    if uri is None:
        uri = source.get("sourceURI")
    return str(uri or "")


def source_short_name(source: Mapping[str, Any]) -> str:
    """The readable part (`src`) of cache names: the source's modelId, else its URI without the scheme."""
    model_id = source.get("modelId")
    if model_id:
        return str(model_id)
    uri = _source_uri(source)
    _, separator, rest = uri.partition("://")
    return rest if separator else uri


def _cache_name(
    role: str,
    source: Mapping[str, Any],
    *,
    mode: CacheMode,
    namespace: str,
    profile: str | None,
    service: str | None,
    service_uid: str | None,
) -> str:
    src = source_short_name(source)
    uri = _source_uri(source)
    if mode == "Shared":
        if not profile:
            raise ValueError("a Shared cache name needs the profile name")
        return derived_name([src, role], ["shared", namespace, profile, uri])
    if mode == "Dedicated":
        if not service or not service_uid:
            raise ValueError("a Dedicated cache name needs the service name and UID")
        return derived_name([service, src, role], ["dedicated", namespace, service_uid, uri])
    raise ValueError(f"unknown cache mode {mode!r}")


def cache_pvc_name(
    source: Mapping[str, Any],
    *,
    mode: CacheMode,
    namespace: str,
    profile: str | None = None,
    service: str | None = None,
    service_uid: str | None = None,
) -> str:
    """The cache PVC of one model source.

    Shared caches are keyed by (namespace, profile, source URI) so services on the same profile
    share one; Dedicated caches by (namespace, service UID, source URI) so they die with the service.
    """
    return _cache_name(
        "cache",
        source,
        mode=mode,
        namespace=namespace,
        profile=profile,
        service=service,
        service_uid=service_uid,
    )


def cache_job_name(
    source: Mapping[str, Any],
    *,
    mode: CacheMode,
    namespace: str,
    profile: str | None = None,
    service: str | None = None,
    service_uid: str | None = None,
) -> str:
    """The download Job filling the cache PVC of the same source (same identity as the PVC)."""
    return _cache_name(
        "download",
        source,
        mode=mode,
        namespace=namespace,
        profile=profile,
        service=service,
        service_uid=service_uid,
    )


def hash_suffix(name: str) -> str:
    """The 8-hex hash suffix of a derived name, used to keep Pulumi resource names short and unique."""
    match = _HASH_SUFFIX.search(name)
    if match is None:
        raise ValueError(f"{name!r} does not end in a derived-name hash suffix")
    return match.group(1)


@functools.lru_cache(maxsize=4096)
def sanitize_label_value(value: str) -> str:
    """`value` made into a valid Kubernetes label value (possibly empty); remembered, as every child
    of every service labels itself with the same few values."""
    replaced = _NOT_LABEL_CHARS.sub("_", value.lower())
    trimmed = replaced.strip("_.-")[:LABEL_VALUE_MAX_LENGTH]
    return trimmed.strip("_.-")
