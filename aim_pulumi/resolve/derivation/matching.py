"""Which sources a set derives from: the candidate list, the selector, and the version policy.

Candidates (upstream `loadNamespaceCandidates` / `loadClusterCandidates`): only copyable profiles;
the role, model and origin of the selector are read from the provenance labels and `aimId` from the
spec. A namespaced set takes its namespace's candidates and falls back to the cluster's only when
its namespace has none (`modelRef.scope: Namespace` never falls back, `Cluster` reads only the
cluster); a cluster set reads cluster profiles. Note that the fallback looks at the candidates
before the rest of the selector: a namespace with a copyable profile of the right role and aimId
hides the cluster's even when that profile fails another filter, as on the operator.

The selector (upstream `MatchesProfileCopySelector`) compares as written, with no case folding; an
unset field matches anything; `minimumType` unset admits every tier; `acceleratorPartitioningMode`
is the partial order selection uses too; `engineArgs` matches when every top-level key it gives
is in the source with an equal JSON value.

The version policy (upstream `FilterProfileCopyCandidates`): `pinned` keeps the sources whose
version is `version`, `all` keeps every match, `latest` keeps the matches of the highest version:
SemVer by `semver` read tolerantly as Go's `ParseTolerant` (a leading `v`, spaces and short forms
such as `0.2` accepted), and when no version parses, the largest by upstream's token order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import semver

from aim_pulumi.resolve.derivation.sources import SourceProfile
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.filters import partitioning_matches

# Upstream's tier rank: lower is better; unset ranks as unoptimized, anything else just below it.
_TYPE_RANK = {"optimized": 0, "general": 1, "preview": 2, "unoptimized": 3, "": 3}
_UNKNOWN_TYPE_RANK = 4
_EXACT = ("aimId", "modelId", "profileId", "engine", "metric", "precision", "type", "acceleratorModel")
_EXACT_AFTER_FLOOR = ("acceleratorVendor",)


def meets_minimum_type(candidate_type: str, minimum: str) -> bool:
    """Upstream's `MeetsMinimumType`: an unset or `any` floor admits every tier."""
    if minimum in ("", "any"):
        return True
    floor = _TYPE_RANK.get(minimum, _UNKNOWN_TYPE_RANK)
    return _TYPE_RANK.get(candidate_type, _UNKNOWN_TYPE_RANK) <= floor


def _go_json_value(value: Any) -> Any:
    """A JSON value as Go decodes it into `any`: every number a float64."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, Mapping):
        return {str(key): _go_json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_go_json_value(item) for item in value]
    return value


def _json_equal(a: Any, b: Any) -> bool:
    """`reflect.DeepEqual` of two decoded JSON values (a bool is never a number)."""
    left, right = _go_json_value(a), _go_json_value(b)
    return type(left) is type(right) and bool(left == right) and _same_kinds(left, right)


def _same_kinds(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return all(_same_kinds(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return all(_same_kinds(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b)


def engine_args_match(source: Mapping[str, Any] | None, selector: Mapping[str, Any]) -> bool:
    have = source or {}
    return all(key in have and _json_equal(have[key], value) for key, value in selector.items())


def selector_failure(spec: Mapping[str, Any], selector: Mapping[str, Any]) -> str | None:
    """The first selector field `spec` fails (upstream's order), or None when it matches."""
    for key in _EXACT:
        wanted = text(selector.get(key))
        if wanted and text(spec.get(key)) != wanted:
            return key
    if not meets_minimum_type(text(spec.get("type")), text(selector.get("minimumType"))):
        return "minimumType"
    for key in _EXACT_AFTER_FLOOR:
        wanted = text(selector.get(key))
        if wanted and text(spec.get(key)) != wanted:
            return key
    mode = text(selector.get("acceleratorPartitioningMode"))
    if mode and not partitioning_matches(mode, text(spec.get("acceleratorPartitioningMode"))):
        return "acceleratorPartitioningMode"
    wanted_type = text(selector.get("acceleratorType"))
    if wanted_type and text(spec.get("acceleratorType")) != wanted_type:
        return "acceleratorType"
    count = selector.get("acceleratorCount")
    if count is not None and (spec.get("acceleratorCount") or 0) != count:
        return "acceleratorCount"
    args = selector.get("engineArgs")
    if args is not None and not engine_args_match(spec.get("engineArgs"), args):
        return "engineArgs"
    return None


# --------------------------------------------------------------------------------------------------
# Candidates


def provenance_failure(source: SourceProfile, selector: Mapping[str, Any]) -> str | None:
    """Upstream's label filter (role, modelRef, origin) and aimId index, before the selector."""
    if not source.copyable:
        return "copyable"
    role = text(selector.get("role")) or "deployable"
    if (role == "base") != (source.role == "base"):
        return "role"
    model_ref = selector.get("modelRef") or {}
    if text(model_ref.get("name")):
        if source.source_model != text(model_ref.get("name")):
            return "modelRef.name"
        scope = text(model_ref.get("scope"))
        if scope == "Namespace" and source.source_model_scope != "namespace":
            return "modelRef.scope"
        if scope == "Cluster" and source.source_model_scope != "cluster":
            return "modelRef.scope"
    origin = text(selector.get("origin"))
    if origin and source.origin != origin:
        return "origin"
    return None


def _listed(
    sources: Iterable[SourceProfile], selector: Mapping[str, Any], aim_id: str
) -> list[SourceProfile]:
    return [
        source
        for source in sources
        if provenance_failure(source, selector) is None
        and (not aim_id or text(source.spec.get("aimId")) == aim_id)
    ]


def candidates(
    selector: Mapping[str, Any],
    namespace_sources: Sequence[SourceProfile] | None,
    cluster_sources: Sequence[SourceProfile],
) -> list[SourceProfile]:
    """The candidate list of a namespaced set (`namespace_sources` given) or a cluster set (None)."""
    aim_id = text(selector.get("aimId"))
    if namespace_sources is None:
        if text(selector.get("role")) == "base":
            aim_id = ""
        return _listed(cluster_sources, selector, aim_id)
    model_ref = selector.get("modelRef") or {}
    scope = text(model_ref.get("scope")) if text(model_ref.get("name")) else ""
    if scope == "Cluster":
        return _listed(cluster_sources, selector, aim_id)
    local = _listed(namespace_sources, selector, aim_id)
    if scope == "Namespace" or local:
        return local
    return _listed(cluster_sources, selector, aim_id)


# --------------------------------------------------------------------------------------------------
# Versions


def _tolerant_semver(version: str) -> semver.Version | None:
    """Go `blang/semver` `ParseTolerant`: spaces and a leading `v` trimmed, leading zeros dropped
    from each of the three dot-separated parts, a short `1` or `1.2` filled with zeros (a short form
    with a pre-release or build is refused), then the strict SemVer parse."""
    trimmed = version.strip()
    if trimmed.startswith("v"):
        trimmed = trimmed[1:]
    parts = trimmed.split(".", 2)
    for index, part in enumerate(parts):
        if len(part) > 1:
            stripped = part.lstrip("0")
            parts[index] = (
                stripped if stripped and stripped[0].isdigit() and stripped[0].isascii() else "0" + stripped
            )
    if len(parts) < 3:
        if any(mark in parts[-1] for mark in "+-"):
            return None
        parts += ["0"] * (3 - len(parts))
    try:
        return semver.Version.parse(".".join(parts))
    except ValueError:
        return None


def _tokens(value: str) -> list[str]:
    """Runs of digits and of non-digits, in order (upstream's `tokenizeVersionString`)."""
    return re.findall(r"[0-9]+|[^0-9]+", value)


def compare_version_strings(left: str, right: str) -> int:
    """Upstream's fallback order for versions that are no SemVer."""
    if left == right:
        return 0
    if not left:
        return -1
    if not right:
        return 1
    a, b = _tokens(left), _tokens(right)
    for x, y in zip(a, b, strict=False):
        if x == y:
            continue
        if x.isdigit() and y.isdigit():
            return 1 if int(x) > int(y) else -1
        return 1 if x > y else -1
    if len(a) != len(b):
        return 1 if len(a) > len(b) else -1
    return 1 if left > right else -1


def latest_version(sources: Sequence[SourceProfile]) -> str:
    """The highest version among `sources` (upstream `latestProfileCopyVersion`), "" when none has one."""
    best = ""
    best_semver: semver.Version | None = None
    for source in sources:
        version = source.version
        if not version:
            continue
        parsed = _tolerant_semver(version)
        if parsed is None:
            if best_semver is None and compare_version_strings(version, best) > 0:
                best = version
            continue
        if best_semver is None or parsed > best_semver:
            best_semver, best = parsed, version
    return best


def apply_version_policy(matched: Sequence[SourceProfile], policy: str, version: str) -> list[SourceProfile]:
    if policy == "all":
        return list(matched)
    if policy == "latest":
        wanted = latest_version(matched)
        return [source for source in matched if wanted and source.version == wanted]
    if not version:
        return list(matched)
    return [source for source in matched if source.version == version]
