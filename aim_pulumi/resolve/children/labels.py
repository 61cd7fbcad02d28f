"""Label propagation from AIM objects to their children, and the standard labels of every child.

Pattern matching follows Go's `path/filepath.Match` because that is what the operator uses: `*`
never crosses `/`, so `org.example/*` means "every key under that prefix" and `*` alone matches no
prefixed key. Python's `fnmatch` lets `*` cross `/` and would propagate labels the operator does not.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from aim_pulumi.resolve.children.names import sanitize_label_value

AIM_LABEL_PREFIX = "aim.eai.amd.com/"
MANAGED_BY_LABEL = "app.kubernetes.io/managed-by"
COMPONENT_LABEL = "app.kubernetes.io/component"
SERVICE_LABEL = "aim.eai.amd.com/service"
MANAGED_BY = "aim-pulumi"

_SEPARATOR = "/"


class _BadPattern(Exception):
    """A malformed pattern (Go's `filepath.ErrBadPattern`)."""


def _scan_chunk(pattern: str) -> tuple[bool, str, str]:
    """Split off a leading run of stars and the literal/class chunk that follows it."""
    star = False
    while pattern.startswith("*"):
        pattern = pattern[1:]
        star = True
    in_range = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 < len(pattern):
                i += 1
        elif ch == "[":
            in_range = True
        elif ch == "]":
            in_range = False
        elif ch == "*" and not in_range:
            break
        i += 1
    return star, pattern[:i], pattern[i:]


def _get_escaped(chunk: str) -> tuple[str, str]:
    """One (possibly escaped) character of a class range, and the rest of the chunk."""
    if not chunk or chunk[0] in "-]":
        raise _BadPattern
    if chunk[0] == "\\":
        chunk = chunk[1:]
        if not chunk:
            raise _BadPattern
    char, rest = chunk[0], chunk[1:]
    if not rest:
        raise _BadPattern
    return char, rest


def _match_chunk(chunk: str, s: str) -> tuple[str, bool]:
    """Match `chunk` at the start of `s`; return the unmatched rest and whether it matched.

    After a mismatch the chunk is still parsed to the end, so a malformed pattern is reported
    whatever the key is.
    """
    failed = False
    while chunk:
        if not failed and not s:
            failed = True
        head = chunk[0]
        if head == "[":
            char = ""
            if not failed:
                char, s = s[0], s[1:]
            chunk = chunk[1:]
            negated = False
            if chunk.startswith("^"):
                negated = True
                chunk = chunk[1:]
            matched = False
            ranges = 0
            while True:
                if chunk.startswith("]") and ranges > 0:
                    chunk = chunk[1:]
                    break
                low, chunk = _get_escaped(chunk)
                high = low
                if chunk[0] == "-":
                    high, chunk = _get_escaped(chunk[1:])
                if not failed and low <= char <= high:
                    matched = True
                ranges += 1
            if matched == negated:
                failed = True
        elif head == "?":
            if not failed:
                if s[0] == _SEPARATOR:
                    failed = True
                s = s[1:]
            chunk = chunk[1:]
        else:
            if head == "\\":
                chunk = chunk[1:]
                if not chunk:
                    raise _BadPattern
            if not failed:
                if chunk[0] != s[0]:
                    failed = True
                s = s[1:]
            chunk = chunk[1:]
    if failed:
        return "", False
    return s, True


def _filepath_match(pattern: str, name: str) -> bool:
    """Go's `filepath.Match` with `/` as separator; raises `_BadPattern` like Go returns ErrBadPattern."""
    while pattern:
        star, chunk, pattern = _scan_chunk(pattern)
        if star and not chunk:
            return _SEPARATOR not in name
        rest, ok = _match_chunk(chunk, name)
        if ok and (not rest or pattern):
            name = rest
            continue
        if star:
            advanced = False
            i = 0
            while i < len(name) and name[i] != _SEPARATOR:
                rest, ok = _match_chunk(chunk, name[i + 1 :])
                if ok:
                    if not pattern and rest:
                        i += 1
                        continue
                    name = rest
                    advanced = True
                    break
                i += 1
            if advanced:
                continue
        while pattern:
            _, chunk, pattern = _scan_chunk(pattern)
            _match_chunk(chunk, "")
        return False
    return not name


@functools.lru_cache(maxsize=4096)
def label_key_matches(pattern: str, key: str) -> bool:
    """Whether a label-propagation pattern matches a label key; a malformed pattern matches nothing.

    Remembered: every child of every service asks about the same few patterns and keys.
    """
    try:
        return _filepath_match(pattern, key)
    except _BadPattern:
        return False


def label_propagation_match(rc_spec: Mapping[str, Any] | None) -> list[str] | None:
    """The patterns to propagate with under a merged runtime config; None when propagation is off."""
    settings = (rc_spec or {}).get("labelPropagation") or {}
    if settings.get("enabled") is not True:
        return None
    return [str(pattern) for pattern in settings.get("match") or []]


def propagate_labels(
    parent: Mapping[str, str],
    child: Mapping[str, str] | None,
    match: Sequence[str] | None,
) -> dict[str, str]:
    """The child's labels plus the parent labels that propagate; the child's own values always win.

    `aim.eai.amd.com/` keys always propagate (they tie children to their AIM object); any other
    key only when propagation is enabled (`match` is not None) and one of the patterns matches it.
    """
    result = dict(child or {})
    patterns = list(match or ())
    for key in sorted(parent):
        if key in result:
            continue
        if key.startswith(AIM_LABEL_PREFIX) or any(label_key_matches(p, key) for p in patterns):
            result[key] = parent[key]
    return result


def standard_labels(
    component: str,
    service: str | None = None,
    extra: Mapping[str, str | None] | None = None,
) -> dict[str, str]:
    """The labels every child carries: manager, component, owning service, and caller-chosen extras.

    Values are sanitised into valid label values; an extra whose value is None or sanitises to
    nothing is left out, so "unset" fields (metric, precision) add no label.
    """
    labels = {MANAGED_BY_LABEL: MANAGED_BY, COMPONENT_LABEL: sanitize_label_value(component)}
    if service:
        labels[SERVICE_LABEL] = sanitize_label_value(service)
    for key, value in sorted((extra or {}).items()):
        if value is None:
            continue
        cleaned = sanitize_label_value(str(value))
        if cleaned:
            labels[key] = cleaned
    return labels


def with_stack_labels(
    parent: Mapping[str, str], match: Sequence[str] | None, stack_labels: Sequence[tuple[str, str]]
) -> tuple[dict[str, str], list[str] | None]:
    """A service's labels and propagation patterns with the stack's own labels joined to them.

    The stack's labels (`aim:costAllocationLabels`) reach every child through the same propagation as
    the service's: they join the parent labels (the service's own value of a key wins) and their keys
    join the patterns. A label key holds none of Go's pattern characters, so it matches only itself.
    """
    if not stack_labels:
        return dict(parent), None if match is None else list(match)
    merged = {**dict(stack_labels), **parent}
    return merged, [*(match or ()), *(key for key, _ in stack_labels)]
