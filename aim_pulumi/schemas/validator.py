"""One manifest checked the way the API server would check it on create, without an API server.

Order follows the API server: structural defaulting on a copy, the schema (with unknown fields,
list-type uniqueness and quantities), ObjectMeta, CEL rules, then the Go-coded rules. Nothing here
is cluster-dependent: whether a StorageClass, ServingRuntime, Gateway or Service exists is not known.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from aim_pulumi.schemas.builtin import builtin_errors
from aim_pulumi.schemas.cel import RuleNode, build_rule_index, cel_errors
from aim_pulumi.schemas.defaulting import apply_defaults
from aim_pulumi.schemas.metadata import metadata_errors
from aim_pulumi.schemas.registry import known_kinds
from aim_pulumi.schemas.seed_overlays import Relaxations
from aim_pulumi.schemas.structural import schema_for, validate_structure


class ManifestValidationError(AssertionError, ValueError):
    """A manifest the API server would refuse; `errors` holds one `path: message` line per problem.

    It is an AssertionError so a failing check reads as a test failure, and a ValueError so
    callers can treat it as bad input.
    """

    def __init__(self, identity: str, errors: list[str]) -> None:
        self.identity = identity
        self.errors = list(errors)
        super().__init__(f"{identity} is invalid:\n  " + "\n  ".join(self.errors))


@functools.cache
def _rule_index(api_version: str, kind: str, relaxations: Relaxations = ()) -> RuleNode | None:
    schema = schema_for(api_version, kind, relaxations)
    return None if schema is None else build_rule_index(schema)


def _unknown_kind(api_version: str, kind: str) -> str:
    known = ", ".join(f"{api}/{name}" for api, name in known_kinds())
    return f"apiVersion/kind: no schema for apiVersion={api_version!r} kind={kind!r}; known: {known}"


def validate_manifest(obj: Mapping[str, Any], *, cel: bool = True) -> list[str]:
    """Every reason the API server would refuse to create `obj`; [] when it would accept it.

    Each message starts with the field path it is about. The object itself is never modified.
    `cel=False` leaves out the CRD CEL rules, whose interpreter costs tens of milliseconds per
    new value: the check every child gets before registration skips them (`--validate` and the
    tests run them).
    """
    if not isinstance(obj, Mapping):
        return [f".: Invalid value: the document is a {type(obj).__name__}, not an object"]
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    missing = [f"{name}: Required value" for name in ("apiVersion", "kind") if not obj.get(name)]
    if missing:
        return missing
    schema = schema_for(str(api_version), str(kind))
    if schema is None:
        return [_unknown_kind(str(api_version), str(kind))]
    defaulted = apply_defaults(obj, schema)
    errors = validate_structure(str(api_version), str(kind), defaulted)
    errors += metadata_errors(defaulted)
    if cel:
        errors += cel_errors(
            defaulted, _rule_index(str(api_version), str(kind)), report_evaluation_errors=not errors
        )
    errors += builtin_errors(defaulted)
    return errors


@functools.lru_cache(maxsize=4096)
def _custom_resource_errors(
    api_version: str, kind: str, body_json: str, relaxations: Relaxations
) -> tuple[str, ...]:
    defaulted = apply_defaults(json.loads(body_json), schema_for(api_version, kind, relaxations) or {})
    errors = validate_structure(api_version, kind, defaulted, relaxations=relaxations)
    errors += cel_errors(
        defaulted, _rule_index(api_version, kind, relaxations), report_evaluation_errors=not errors
    )
    return tuple(errors)


def custom_resource_errors(obj: Mapping[str, Any], *, relaxations: Relaxations = ()) -> list[str] | None:
    """The CRD schema and CEL errors of a custom resource's body, or None when no CRD is vendored.

    Unlike `validate_manifest`, ObjectMeta and the Go-coded rules are left to the caller, which has
    its own words for them (AIM admission names `NameTooLong`), and `status` is not checked: with the
    status subresource the API server ignores it on create. `relaxations` are those of the class
    that reads the object (`seed_overlays`). The result is cached by content, so the same object
    declared twice, or planned twice, is checked once.
    """
    api_version, kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
    if schema_for(api_version, kind) is None:
        return None
    body = {key: value for key, value in obj.items() if key not in ("metadata", "status")}
    body_json = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return list(_custom_resource_errors(api_version, kind, body_json, relaxations))


def manifest_identity(obj: object) -> str:
    """`Kind/namespace/name`, or `Kind/name` when no namespace is set, for messages and reports."""
    if not isinstance(obj, Mapping):
        return f"<{type(obj).__name__}>"
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    name = meta.get("name") or meta.get("generateName") or "<unnamed>"
    parts = [
        str(obj.get("kind") or "<no kind>"),
        str(meta["namespace"]) if meta.get("namespace") else "",
        str(name),
    ]
    return "/".join(part for part in parts if part)


def assert_valid(obj: Mapping[str, Any]) -> None:
    """Raise ManifestValidationError listing every problem unless the API server would accept `obj`."""
    errors = validate_manifest(obj)
    if errors:
        raise ManifestValidationError(manifest_identity(obj), errors)
