"""What a change between two offline plans would create, update and delete (`aim-pulumi plan --diff`).

The offline counterpart of `pulumi preview --diff` for change review: both plans are the
documents `plan --json` writes, resources are matched by Pulumi type and name (what a URN is
made of within one stack), and an update lists every changed input as a dotted path with its old
and new value, never cut short. Lists of named objects (containers, env, volumes) are matched by
name, so adding one variable shows one added entry instead of a shifted list. A change that
makes Pulumi replace the resource (`replacements.is_replacement`) is listed as a replacement; a
change under a resource's `ignoreChanges` paths is no change, as Pulumi leaves it on the live object.
Plans of another project or stack are compared all the same, with a note saying so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aim_pulumi.offline.documents import SECRET, as_mapping
from aim_pulumi.offline.replacements import is_replacement

__all__ = [
    "ABSENT",
    "FieldChange",
    "PlanDiff",
    "ResourceChange",
    "diff_plans",
    "field_changes",
    "flatten",
    "identity_note",
]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class _Absent:
    """A path that one side does not have (distinct from an explicit null)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class FieldChange:
    path: str
    old: Any
    new: Any


@dataclass(frozen=True)
class ResourceChange:
    """One created, updated or deleted resource; `fields` only for updates."""

    action: str  # "create" | "update" | "replace" | "delete"
    type: str
    name: str
    parent: str | None
    label: str
    fields: tuple[FieldChange, ...] = ()
    replacing: tuple[str, ...] = ()
    """For a replacement: the changed paths that force it."""


@dataclass
class PlanDiff:
    created: list[ResourceChange] = field(default_factory=list)
    updated: list[ResourceChange] = field(default_factory=list)
    replaced: list[ResourceChange] = field(default_factory=list)
    deleted: list[ResourceChange] = field(default_factory=list)
    unchanged: int = 0
    outputs: list[tuple[str, FieldChange]] = field(default_factory=list)
    old_identity: tuple[str, str] = ("", "")
    new_identity: tuple[str, str] = ("", "")

    @property
    def changes(self) -> list[ResourceChange]:
        return [*self.created, *self.updated, *self.replaced, *self.deleted]

    def summary(self) -> str:
        return (
            f"{len(self.created)} to create, {len(self.updated)} to update, {len(self.replaced)} to replace, "
            f"{len(self.deleted)} to delete, {self.unchanged} unchanged"
        )


# --------------------------------------------------------------------------------------------------
# Field-level comparison


def _key_segment(key: str) -> str:
    return f".{key}" if _IDENTIFIER.match(key) else f"[{key}]"


def _named(items: Sequence[Any]) -> bool:
    names = [i.get("name") for i in items if isinstance(i, Mapping)]
    return (
        bool(items)
        and len(names) == len(items)
        and all(isinstance(n, str) and n for n in names)
        and len(set(names)) == len(names)
    )


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Leaves by dotted path: `spec.predictor.containers[kserve-container].env[HF_HOME].value`."""
    out: dict[str, Any] = {}
    if isinstance(value, Mapping) and value:
        for key in value:
            segment = _key_segment(str(key))
            out.update(flatten(value[key], (prefix + segment) if prefix else segment.lstrip(".")))
    elif isinstance(value, list) and value:
        if _named(value):
            for item in value:
                out.update(flatten(item, f"{prefix}[{item['name']}]"))
        else:
            for index, item in enumerate(value):
                out.update(flatten(item, f"{prefix}[{index}]"))
    elif prefix or not isinstance(value, Mapping | list):
        out[prefix] = value
    return out


def _filled(path: str, value: Any, other: Mapping[str, Any]) -> bool:
    """An empty map or list at `path` whose place the other side fills with leaves below it.

    `storage: {}` becoming `storage: {class: fast}` is one added field, not also a removed `storage`.
    """
    return value in ({}, []) and any(p.startswith((path + ".", path + "[")) for p in other)


def _under(path: str, prefixes: set[str]) -> bool:
    return any(path == p or path.startswith((p + ".", p + "[")) for p in prefixes)


# Paths of a Kubernetes Secret whose values are secret whatever either plan says about them.
_SECRET_PATHS = {"kubernetes:core/v1:Secret": frozenset({"data", "stringData"})}


def field_changes(
    old: Any, new: Any, revealed: Any = None, secret_paths: frozenset[str] = frozenset()
) -> list[FieldChange]:
    """Every leaf path whose value differs, in the new document's order, then removed paths.

    `revealed` is `new` with its secrets in plaintext, so a changed secret is found; a secret is
    never shown. Wherever either side holds a secret (a whole property may be one), the value
    there and everything below it is shown as `[secret]`: an old plan written with
    `--show-secrets` holds plaintext where the new plan holds `[secret]`. `secret_paths` are
    secret on both sides wherever they appear (a Secret's `data` and `stringData`).
    """
    before, after = flatten(old), flatten(new)
    plain = flatten(revealed) if revealed is not None else after
    new_secrets = {path for path, value in after.items() if value == SECRET}
    old_secrets = {path for path, value in before.items() if value == SECRET}
    old_secrets |= {path for path in before if _under(path, set(secret_paths))}
    new_secrets |= {path for path in after if _under(path, set(secret_paths))}
    changes: list[FieldChange] = []
    for path, value in after.items():
        if path in new_secrets:
            old_part = {k: v for k, v in before.items() if _under(k, {path})}
            new_part = {k: v for k, v in plain.items() if _under(k, {path})} or {path: SECRET}
            if old_part and set(old_part.values()) == {SECRET}:
                continue  # both sides redacted: nothing to compare
            if old_part != new_part:
                changes.append(FieldChange(path, SECRET if old_part else ABSENT, SECRET))
            continue
        if (path not in before or before[path] != value) and not _filled(path, value, before):
            shown = SECRET if _under(path, old_secrets) and path in before else before.get(path, ABSENT)
            changes.append(FieldChange(path, shown, value))
    secrets = new_secrets | old_secrets
    changes.extend(
        FieldChange(path, SECRET if _under(path, secrets) else value, ABSENT)
        for path, value in before.items()
        if path not in after and not _under(path, new_secrets) and not _filled(path, value, after)
    )
    return changes


# --------------------------------------------------------------------------------------------------
# Plans


def _label(entry: Mapping[str, Any]) -> str:
    inputs = as_mapping(entry.get("inputs"))
    metadata = as_mapping(inputs.get("metadata"))
    if str(entry.get("type", "")).startswith("kubernetes:") and metadata.get("name"):
        kind = inputs.get("kind") or str(entry["type"]).rsplit(":", 1)[-1]
        namespace = metadata.get("namespace")
        return f"{kind} {namespace}/{metadata['name']}" if namespace else f"{kind} {metadata['name']}"
    short = str(entry.get("type", "")).rsplit(":", 1)[-1].rsplit("/", 1)[-1]
    return f"{short} {entry.get('name')}"


def _index(plan: Mapping[str, Any]) -> dict[tuple[str, str], Mapping[str, Any]]:
    return {(str(r["type"]), str(r["name"])): r for r in plan.get("resources") or []}


def _change(
    action: str, entry: Mapping[str, Any], fields: Sequence[FieldChange] = (), replacing: Sequence[str] = ()
) -> ResourceChange:
    parent = entry.get("parent")
    return ResourceChange(
        action=action,
        type=str(entry["type"]),
        name=str(entry["name"]),
        parent=str(parent) if parent is not None else None,
        label=_label(entry),
        fields=tuple(fields),
        replacing=tuple(replacing),
    )


def _identity(plan: Mapping[str, Any]) -> tuple[str, str]:
    return (str(plan.get("project") or ""), str(plan.get("stack") or ""))


def identity_note(diff: PlanDiff) -> str | None:
    """A note when the two plans belong to different projects or stacks (else None)."""
    if diff.old_identity == diff.new_identity or not all(diff.old_identity):
        return None
    (old_project, old_stack), (new_project, new_stack) = diff.old_identity, diff.new_identity
    what = "project" if old_project != new_project else "stack"
    note = (
        f"note: the old plan is of another {what} ({old_project} stack {old_stack}, this is {new_project} "
        f"stack {new_stack}): resources are matched by type and name across them"
    )
    if not diff.updated and not diff.replaced and not diff.unchanged:
        note += "; no resource matches, so every resource shows as created or deleted"
    return note


def diff_plans(
    old: Mapping[str, Any], new: Mapping[str, Any], revealed: Mapping[str, Any] | None = None
) -> PlanDiff:
    """Created, updated (with field changes) and deleted resources, and changed component outputs.

    `revealed` is the new plan with secrets in plaintext (compared, never printed).
    """
    before, after = _index(old), _index(new)
    plain = _index(revealed) if revealed is not None else after
    result = PlanDiff(old_identity=_identity(old), new_identity=_identity(new))
    for key, entry in after.items():
        previous = before.get(key)
        if previous is None:
            result.created.append(_change("create", entry))
            continue
        fields = field_changes(
            previous.get("inputs") or {},
            entry.get("inputs") or {},
            plain.get(key, entry).get("inputs") or {},
            _SECRET_PATHS.get(str(entry.get("type")), frozenset()),
        )
        options = as_mapping(entry.get("options"))
        # What Pulumi leaves as it is on a resource that exists (a download Job's pod template).
        ignored = {str(p) for p in options.get("ignoreChanges") or []}
        fields = [f for f in fields if not _under(f.path, ignored)]
        extra = [str(p) for p in options.get("replaceOnChanges") or []]
        replacing = [f.path for f in fields if is_replacement(str(entry["type"]), f.path, extra)]
        if replacing:
            result.replaced.append(_change("replace", entry, fields, replacing))
        elif fields:
            result.updated.append(_change("update", entry, fields))
        else:
            result.unchanged += 1
    for key, entry in before.items():
        if key not in after:
            result.deleted.append(_change("delete", entry))
    # Stack outputs come back from the engine as protobuf Structs, whose key order follows the
    # process's string hashing: compared in key order (as `--json` writes them), the report is the
    # same in every run.
    old_outputs = _key_order(as_mapping(old.get("outputs")))
    new_outputs = _key_order(as_mapping(new.get("outputs")))
    plain_outputs = _key_order(as_mapping((revealed or new).get("outputs")))
    for name in sorted(set(old_outputs) | set(new_outputs)):
        pair = (old_outputs.get(name, {}), new_outputs.get(name, {}), plain_outputs.get(name, {}))
        for change in field_changes(*pair):
            result.outputs.append((name, change))
    return result


def _key_order(value: Any) -> Any:
    """`value` with every mapping's keys sorted, lists kept in their order."""
    if isinstance(value, Mapping):
        return {key: _key_order(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_key_order(item) for item in value]
    return value
