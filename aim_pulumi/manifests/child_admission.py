"""The last check before a child is registered: would the API server accept it?

Admission refuses the values it knows reach a child; this catches whatever a rule missed, before
anything is registered, so a bad value never reaches `pulumi up` half-way through a deployment.

The error names the AIM field the refused value came from, since that is what the user has to
change: the children are built from the service, its profile, model and runtime configs, and the
value is looked up in those objects. A field holding that value, under the child field's own name
(`cpu` for `resources.limits[cpu]`, a key of `annotations` for a bad annotation key), is the
origin; a string found in exactly one field is too. A value found nowhere (derived, or combined
from several fields) or in several places has no single origin: the error then names the child
field and says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.api.limits import UNRESOLVED_VALUE
from aim_pulumi.schemas.registry import schema_document
from aim_pulumi.schemas.validator import manifest_identity, validate_manifest

__all__ = ["Source", "check_children", "object_problems", "shown_detail", "value_origin"]

Source = tuple[str, Mapping[str, Any]]
"""An AIM object a child is built from: its `Kind/namespace/name` and its manifest."""

_TOKEN = re.compile(r"\[([^\]]*)\]|\.?([^.\[\]]+)")
_ECHOED = re.compile(r'Invalid value: ("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false)')
# Child fields whose value may be a credential: the refusal is reported without echoing it.
_CREDENTIAL_FIELD = re.compile(r"(^|\.)(env\[[^\]]*\]\.value|stringData|data)\b")
_NO_ORIGIN = "it has no single AIM field of origin"


def _tokens(path: str) -> list[str]:
    """`spec.containers[0].resources.limits[cpu]` -> spec, containers, 0, resources, limits, cpu."""
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(path)]


def _at(document: Any, tokens: Sequence[str]) -> Any:
    node = document
    for token in tokens:
        if isinstance(node, Mapping):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def _refused_value(manifest: Mapping[str, Any], field: str, detail: str) -> Any:
    """The value the schema refused: as the message echoes it, else the scalar at the field."""
    echoed = _ECHOED.match(detail)
    if echoed:
        try:
            return json.loads(echoed.group(1))
        except ValueError:
            pass
    value = _at(manifest, _tokens(field))
    return value if isinstance(value, str | int | float | bool) else None


def _aim_path(parts: Sequence[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + part
    return out


def _holders(node: Any, target: Any, parts: list[str | int]) -> Iterator[tuple[list[str | int], str]]:
    """(path, name) of every field holding `target` as its value, or as a map key."""
    if isinstance(node, Mapping):
        for key, item in node.items():
            here = [*parts, str(key)]
            if key == target and isinstance(target, str):
                yield here, str(parts[-1]) if parts else ""
            yield from _holders(item, target, here)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _holders(item, target, [*parts, index])
    elif type(node) is type(target) and node == target:
        names = [p for p in parts if isinstance(p, str)]
        yield parts, names[-1] if names else ""


def value_origin(
    manifest: Mapping[str, Any], field: str, detail: str, sources: Iterable[Source]
) -> tuple[str, str] | None:
    """(object, AIM field path) the refused value at the child's `field` came from, if just one."""
    target = _refused_value(manifest, field, detail)
    if target is None:
        return None
    names = [t for t in _tokens(field) if not t.isdigit()]
    child_name = names[-1] if names else ""
    found = [
        (ref, path, name)
        for ref, document in sources
        for section in ("metadata", "spec")
        for path, name in _holders(document.get(section), target, [section])
    ]
    same_name = [(ref, path) for ref, path, name in found if name == child_name]
    if len(same_name) == 1:
        ref, path = same_name[0]
        return ref, _aim_path(path)
    if not same_name and len(found) == 1 and isinstance(target, str):
        ref, path, _ = found[0]
        return ref, _aim_path(path)
    return None


def _shown(field: str, detail: str) -> str:
    return shown_detail(field, detail)


def shown_detail(field: str, detail: str) -> str:
    """A validation message as it may be printed: without the refused value where the field may
    hold a credential (env values, a Secret's `data` and `stringData`, whatever JSON the value is)."""
    if not _CREDENTIAL_FIELD.search(field):
        return detail
    head, found, rest = detail.partition("Invalid value: ")
    if not found:
        return detail
    try:
        _, end = json.JSONDecoder().raw_decode(rest)
    except ValueError:
        return f"{head}Invalid value (not shown)"
    return f"{head}Invalid value{rest[end:]}"


def object_problems(manifest: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, message) of each refusal of a plain object's kind: its schema and the API server's
    Go rules; a credential field's value is never in the message. Empty for a kind with no schema."""
    if schema_document(str(manifest.get("apiVersion")), str(manifest.get("kind"))) is None:
        return []
    out = []
    for error in validate_manifest(manifest, cel=False):
        if UNRESOLVED_VALUE.search(error):
            continue
        field, _, detail = error.partition(": ")
        out.append((field, shown_detail(field, detail) if detail else error))
    return out


def check_children(
    manifests: Iterable[Mapping[str, Any]],
    owner: str,
    sources: Callable[[], Sequence[Source]] | None = None,
) -> None:
    """Raise `InvalidSpec` for the first child of `owner` the vendored schemas refuse.

    `sources` gives the AIM objects the children were built from (called only on a refusal), so
    the error can name the field the value came from.
    """
    for manifest in manifests:
        # A value known only at deploy time cannot be judged now; the API server will judge it.
        errors = [e for e in validate_manifest(manifest, cel=False) if not UNRESOLVED_VALUE.search(e)]
        if not errors:
            continue
        field, _, detail = errors[0].partition(": ")
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        child = manifest_identity(manifest)
        shown = _shown(field, detail)
        origin = value_origin(manifest, field, detail, sources()) if sources is not None else None
        if origin is None:
            raise AIMValidationError(
                field,
                "InvalidSpec",
                f"the {child} built from this object would be refused at {field} ({_NO_ORIGIN}): "
                f"{shown}{more}",
                object_ref=owner,
            )
        ref, path = origin
        of_owner = "" if ref == owner else f" of {owner}"
        raise AIMValidationError(
            path,
            "InvalidSpec",
            f"the {child}{of_owner} built from this value would be refused at {field}: {shown}{more}",
            object_ref=ref,
        )
