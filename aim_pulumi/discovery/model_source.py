"""AIMClusterModelSource's rules, as the operator applies them to a registry listing.

Written after the operator's `internal/aimclustermodelsource/{filtering,registry,reconcile}.go`:

- A filter's `image` is a repository pattern (`*` matches any run of characters), optionally with
  a registry (`ghcr.io/org/aim-*`: only that registry) and a tag (`org/aim-x:1.0.0`: exactly that
  tag, `versions` ignored). `images[]` entries are filters with no exclusions.
- `exclude` names repositories (registry not compared) to skip.
- `versions` (the filter's, else the spec's) are semantic version constraints that every tag
  must meet; a tag that is not strict semver (after dropping a leading `v`) never matches then.
  The constraint language is Go's `blang/semver` ranges, which the operator uses: `<`, `<=`, `>`,
  `>=`, `=`, `!=`, AND by spaces, OR by `||`, `x` wildcards; `>=0.9` is read as `>=0.9.0`. A
  constraint blang cannot parse (`~1.2`, `^1.0`, which other tools accept) is skipped, as the
  operator skips it, rather than failing: hand-written here because Python's semver libraries
  read those differently, and users rely on what the operator does.
- Tags come from the tags-list API of each matching repository; a wildcard lists repositories
  from the registry's `/v2/_catalog` (Docker Hub's own repository API for `docker.io`).
- Images are counted in filter order, tags sorted; `maxModels` (default 100) bounds how many are
  materialised, counting the images an earlier listing materialised first; a model is never
  dropped because the registry no longer lists its image (the operator never deletes one).
- `models[]` declares ID-backed cluster models; each counts towards `maxModels` too.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import semver

from aim_pulumi.discovery.records import SourceImage, SourceRecord
from aim_pulumi.discovery.reference import DOCKER_HUB

__all__ = [
    "DEFAULT_MAX_MODELS",
    "ParsedFilter",
    "effective_filters",
    "matches_filter",
    "matches_versions",
    "parse_filter",
    "select_images",
    "source_spec_hash",
]

DEFAULT_MAX_MODELS = 100
_KNOWN_REGISTRY = re.compile(r"^[^/]*[.:][^/]*$|^localhost$")


@dataclass(frozen=True)
class ParsedFilter:
    """A filter's image pattern, split: `registry` ("" = the spec's), `repository`, `tag` ("" = none)."""

    registry: str
    repository: str
    tag: str
    wildcard: bool
    exclude: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()


def parse_filter(image: str, exclude: Sequence[str] = (), versions: Sequence[str] = ()) -> ParsedFilter:
    wildcard = "*" in image
    registry = ""
    rest = image
    first, slash, remainder = image.partition("/")
    if slash and _KNOWN_REGISTRY.match(first):
        registry, rest = first, remainder
    tag = ""
    if not wildcard:
        last_slash = rest.rfind("/")
        colon = rest.rfind(":")
        if colon > last_slash:
            rest, tag = rest[:colon], rest[colon + 1 :]
    if registry in ("docker.io", "index.docker.io"):
        registry = ""
    if not registry and not wildcard and "/" not in rest:
        rest = f"library/{rest}"
    return ParsedFilter(registry, rest, tag, wildcard, tuple(exclude), tuple(versions))


def effective_filters(spec: Mapping[str, Any]) -> list[ParsedFilter]:
    """The spec's filters, or its `images[]` as filters (the two are exclusive)."""
    out = [
        parse_filter(str(f.get("image") or ""), f.get("exclude") or (), f.get("versions") or ())
        for f in spec.get("filters") or []
    ]
    out.extend(parse_filter(str(image)) for image in spec.get("images") or [])
    return out


def matches_wildcard(pattern: str, text: str) -> bool:
    parts = pattern.split("*")
    if len(parts) == 1:
        return pattern == text
    if not text.startswith(parts[0]):
        return False
    text = text[len(parts[0]) :]
    if not text.endswith(parts[-1]):
        return False
    text = text[: len(text) - len(parts[-1])]
    for middle in parts[1:-1]:
        found = text.find(middle)
        if found < 0:
            return False
        text = text[found + len(middle) :]
    return True


def matches_filter(image: SourceImage, parsed: ParsedFilter, global_versions: Sequence[str]) -> bool:
    if parsed.registry and parsed.registry != image.registry:
        return False
    if not matches_wildcard(parsed.repository, image.repository):
        return False
    if image.repository in parsed.exclude:
        return False
    if parsed.tag:
        return image.tag == parsed.tag
    constraints = parsed.versions or tuple(global_versions)
    return matches_versions(image.tag, constraints) if constraints else True


# ---------------------------------------------------------------------------------------------
# blang/semver ranges

_OPERATORS = ("<=", ">=", "!=", "==", "<", ">", "=", "!")


def _normalize(constraint: str) -> str:
    """`>=0.9` -> `>=0.9.0`: the operator adds a missing patch number before parsing."""
    for index, char in enumerate(constraint):
        if char.isdigit():
            version = constraint[index:].strip()
            if version.count(".") == 1:
                version += ".0"
            return constraint[:index] + version
    return constraint


def _version(text: str) -> semver.Version | None:
    try:
        return semver.Version.parse(text)
    except (ValueError, TypeError):
        return None


Check = Callable[[semver.Version], bool]


def _wildcard(op: str, text: str) -> list[Check] | None:
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() or p in ("x", "X", "*") for p in parts):
        return None
    wild = next(i for i, p in enumerate(parts) if p in ("x", "X", "*"))
    if any(p.isdigit() for p in parts[wild:]):
        return None
    numbers = [int(p) if p.isdigit() else 0 for p in parts]
    low = semver.Version(*numbers)
    if wild == 0:
        high = None
    elif wild == 1:
        high = semver.Version(numbers[0] + 1, 0, 0)
    else:
        high = semver.Version(numbers[0], numbers[1] + 1, 0)
    if op in (">=",):
        return [lambda v: v >= low]
    if op == ">":
        return [lambda v: high is None or v >= high]
    if op == "<":
        return [lambda v: v < low]
    if op == "<=":
        return [lambda v: high is None or v < high]
    if op in ("!=", "!"):
        return [lambda v: v < low or (high is not None and v >= high)]
    return [lambda v: v >= low and (high is None or v < high)]


def _part(op: str, text: str) -> list[Check] | None:
    if any(c in text for c in "xX*"):
        return _wildcard(op, text)
    bound = _version(text)
    if bound is None:
        return None
    checks: dict[str, Check] = {
        "<": lambda v: v < bound,
        "<=": lambda v: v <= bound,
        ">": lambda v: v > bound,
        ">=": lambda v: v >= bound,
        "=": lambda v: v == bound,
        "==": lambda v: v == bound,
        "": lambda v: v == bound,
        "!=": lambda v: v != bound,
        "!": lambda v: v != bound,
    }
    return [checks[op]]


def _range(constraint: str) -> Check | None:
    """A blang range, or None where blang's ParseRange fails."""
    alternatives: list[list[Check]] = []
    for alternative in constraint.split("||"):
        tokens = alternative.split()
        merged: list[str] = []
        for token in tokens:
            if merged and merged[-1] in _OPERATORS:
                merged[-1] += token
            else:
                merged.append(token)
        if not merged:
            return None
        checks: list[Check] = []
        for token in merged:
            op = next((o for o in _OPERATORS if token.startswith(o)), "")
            part = _part(op, token[len(op) :])
            if part is None:
                return None
            checks.extend(part)
        alternatives.append(checks)
    return lambda v: any(all(check(v) for check in checks) for checks in alternatives)


def matches_versions(tag: str, constraints: Iterable[str]) -> bool:
    version = _version(tag[1:] if tag.startswith("v") else tag)
    if version is None:
        return False
    for constraint in constraints:
        check = _range(_normalize(constraint))
        if check is not None and not check(version):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# what a listing materialises


def source_spec_hash(spec: Mapping[str, Any]) -> str:
    """The spec fields that decide a listing, hashed: a changed filter makes the lock's entry stale."""
    keys = ("registry", "filters", "images", "versions", "maxModels")
    relevant = {key: spec.get(key) for key in keys if spec.get(key) not in (None, [], "")}
    text = json.dumps(relevant, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def max_models(spec: Mapping[str, Any]) -> int:
    value = spec.get("maxModels")
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else DEFAULT_MAX_MODELS


def select_images(
    name: str,
    spec: Mapping[str, Any],
    listed: Sequence[SourceImage],
    previous: SourceRecord | None,
    declared_models: int = 0,
) -> SourceRecord:
    """The images a listing materialises: earlier ones kept, then new ones up to `maxModels`.

    `declared_models` is the number of `models[]` declarations, which count towards the limit
    after the images, as the operator counts them.
    """
    limit = max_models(spec)
    kept: list[SourceImage] = list(previous.images) if previous is not None else []
    seen = set(kept)
    for image in listed:
        if image in seen:
            continue
        if len(kept) >= limit:
            break
        kept.append(image)
        seen.add(image)
    unique_listed = tuple(dict.fromkeys(listed))
    return SourceRecord(name, source_spec_hash(spec), tuple(kept), unique_listed)


def default_registry(spec: Mapping[str, Any]) -> str:
    registry = str(spec.get("registry") or DOCKER_HUB)
    return DOCKER_HUB if registry in ("docker.io", "index.docker.io") else registry
