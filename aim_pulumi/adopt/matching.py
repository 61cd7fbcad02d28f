"""Matching a plan against the live objects: what `aim-pulumi import` adopts, creates and leaves.

The AIM YAML of a dump is planned as `aim-pulumi plan` plans it (the planner hands back a
`PlannedStack`: every resource it would register, in tree order, with its Pulumi type, name and
parent), and every Kubernetes child of the plan is looked up among the live objects by API group,
kind, namespace and name (the version may differ). A match is adopted: it goes into the
`pulumi import --file` document under the child's Pulumi type, name and parent, with id
`namespace/name`, and the fields the first `pulumi up` would change are listed
(`aim_pulumi.adopt.live_diff`). The file also lists each adopted child's ancestors (the AIMService
or Shared-cache component and the AIMStack) as `component: true` entries: `pulumi import` creates
those components in the state before the children it reads, so an imported child never points at
a parent the state lacks, and the program then finds every URN it registers already there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aim_pulumi.adopt.dump import AIM_GROUP, SERVICE_LABEL, Dump, group_of, object_key
from aim_pulumi.adopt.live_diff import Change, diff_manifest
from aim_pulumi.adopt.record import rename_caches
from aim_pulumi.adopt.redact import shown

__all__ = [
    "Adoption",
    "Child",
    "PlannedResource",
    "PlannedStack",
    "ServiceReport",
    "adopt",
    "import_document",
]

SHARED_CACHES = "shared caches"


@dataclass(frozen=True)
class PlannedResource:
    """One resource a plan registers, as `pulumi import` names it.

    `parent` is the parent's Pulumi name (None at the top); `manifest` the inputs, secrets in
    plaintext: for a Kubernetes child, the object it applies.
    """

    type: str
    name: str
    parent: str | None
    custom: bool
    manifest: Mapping[str, Any]
    # The paths Pulumi leaves on the live object (`ignoreChanges`): a difference there is no change.
    ignore_changes: tuple[str, ...] = ()

    @property
    def kubernetes(self) -> bool:
        return self.custom and self.type.startswith("kubernetes:")


@dataclass(frozen=True)
class PlannedStack:
    """What the planner made of the AIM YAML: every resource in tree order (every parent before its
    children) and, by `namespace/name`, the `status.resolvedProfile` the stack reports for each service."""

    resources: tuple[PlannedResource, ...]
    profiles: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def kubernetes_keys(self) -> set[tuple[str, str, str, str]]:
        """The identity of every Kubernetes child: what a live object must match to be adopted."""
        return {object_key(r.manifest) for r in self.resources if r.kubernetes}

    def renamed(self, names: Mapping[str, str]) -> PlannedStack:
        """The plan with cache names replaced (`aim_pulumi.adopt.record.rename_caches`)."""
        resources = tuple(
            dataclasses.replace(r, manifest=rename_caches(r.manifest, names)) for r in self.resources
        )
        return dataclasses.replace(self, resources=resources)


@dataclass
class Child:
    """A planned Kubernetes child and, when adopted, the live object and what the first `up` changes."""

    resource: PlannedResource
    live: Mapping[str, Any] | None = None
    changes: list[Change] = field(default_factory=list)
    # The differences the adoption record keeps at the live value (so the first `up` leaves them),
    # and the name the plan would give the object had the operator not named it.
    kept: list[Change] = field(default_factory=list)
    planned_name: str | None = None

    @property
    def manifest(self) -> Mapping[str, Any]:
        return self.resource.manifest

    @property
    def key(self) -> tuple[str, str, str, str]:
        return object_key(self.resource.manifest)

    @property
    def id(self) -> str:
        _, _, namespace, name = self.key
        return f"{namespace}/{name}" if namespace else name

    def effects(self) -> set[str]:
        return {c.effect for c in self.changes}

    def _shown(self, changes: list[Change]) -> list[Change]:
        kind = self.key[1]
        return [
            dataclasses.replace(c, live=shown(kind, c.path, c.live), planned=shown(kind, c.path, c.planned))
            for c in changes
        ]

    def shown_changes(self) -> list[Change]:
        """`changes` as a report shows them: no credential (`aim_pulumi.adopt.redact`)."""
        return self._shown(self.changes)

    def shown_kept(self) -> list[Change]:
        """`kept` as a report shows them: no credential (`aim_pulumi.adopt.redact`)."""
        return self._shown(self.kept)

    def to_json(self) -> dict[str, Any]:
        _, kind, namespace, name = self.key
        entry: dict[str, Any] = {
            "kind": kind,
            "namespace": namespace,
            "name": name,
            "type": self.resource.type,
            "pulumiName": self.resource.name,
            "parent": self.resource.parent,
        }
        if self.live is not None:
            entry["id"] = self.id
            entry["liveUid"] = (self.live.get("metadata") or {}).get("uid")
            entry["changes"] = [c.to_json() for c in self.shown_changes()]
            if self.kept:
                entry["kept"] = [c.to_json() for c in self.shown_kept()]
            if self.planned_name:
                entry["operatorName"] = {"planned": self.planned_name, "kept": name}
            entry["rollsPods"] = "rolls-pods" in self.effects()
            entry["replaced"] = "replaces" in self.effects()
            entry["refused"] = "refused" in self.effects()
        return entry


@dataclass
class ServiceReport:
    """One AIMService (or, for `key` "shared caches", the Shared caches): what import found for it."""

    key: str
    profile: Mapping[str, Any] | None = None
    operator_profile: Mapping[str, Any] | None = None
    adopted: list[Child] = field(default_factory=list)
    missing: list[Child] = field(default_factory=list)
    unmanaged: list[tuple[Mapping[str, Any], str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "service": self.key,
            # Keys sorted: the plan's outputs do not keep one order from run to run.
            "profile": dict(sorted(self.profile.items())) if self.profile else None,
            "operatorProfile": dict(sorted(self.operator_profile.items())) if self.operator_profile else None,
            "adopted": [c.to_json() for c in self.adopted],
            "toCreate": [c.to_json() for c in self.missing],
            "notManaged": [_unmanaged_json(o, why) for o, why in self.unmanaged],
        }


def _unmanaged_json(obj: Mapping[str, Any], why: str) -> dict[str, Any]:
    _, kind, namespace, name = object_key(obj)
    return {
        "apiVersion": obj.get("apiVersion"),
        "kind": kind,
        "namespace": namespace,
        "name": name,
        "why": why,
    }


@dataclass
class Adoption:
    """Everything `import` decided: per service, and the objects tied to no service."""

    services: list[ServiceReport]
    unmanaged: list[tuple[Mapping[str, Any], str]]
    children: list[Child]

    @property
    def adopted(self) -> list[Child]:
        return [c for c in self.children if c.live is not None]

    def blocking(self) -> list[Child]:
        """Adopted InferenceServices and PVCs the first `up` would replace (or the API server refuses)."""
        return [
            c
            for c in self.adopted
            if c.key[1] in ("InferenceService", "PersistentVolumeClaim")
            and c.effects() & {"replaces", "refused"}
        ]


def _service_key(resource: PlannedResource, by_name: Mapping[str, PlannedResource]) -> str:
    """`namespace/name` of the AIMService a child belongs to; "shared caches" for a Shared cache's."""
    metadata = resource.manifest.get("metadata") or {}
    service = (metadata.get("labels") or {}).get(SERVICE_LABEL)
    parent = by_name.get(resource.parent or "")
    if parent is not None and parent.type == "aim:index:AIMSharedCache":
        return SHARED_CACHES
    if service:
        return f"{metadata.get('namespace') or 'default'}/{service}"
    return "other"


def _owner_service(
    obj: Mapping[str, Any], services_by_uid: Mapping[str, str], owners_by_uid: Mapping[str, str]
) -> str | None:
    for ref in (obj.get("metadata") or {}).get("ownerReferences") or []:
        uid = str(ref.get("uid") or "")
        if uid in services_by_uid:
            return services_by_uid[uid]
        if uid in owners_by_uid:
            return owners_by_uid[uid]
    return None


def _unmanaged_reason(obj: Mapping[str, Any], owner_kind: str | None) -> str:
    labels = (obj.get("metadata") or {}).get("labels") or {}
    if group_of(str(obj.get("apiVersion") or "")) == AIM_GROUP:
        return "the operator's own AIM object; nothing replaces it once the operator is gone"
    if owner_kind == "InferenceService":
        return "made by KServe for its InferenceService; it stays with it"
    if labels.get("app.kubernetes.io/managed-by") == "aim-engine":
        return (
            "made by the operator and not in the plan (a cache the plan names differently, "
            "or a child it no longer needs)"
        )
    return "not in the plan"


def adopt(dump: Dump, plan: PlannedStack) -> Adoption:
    """Match a plan with the dump's live objects."""
    by_name = {r.name: r for r in plan.resources}
    live_by_key = {object_key(o): o for o in dump.live}
    services_by_uid: dict[str, str] = {}
    operator_profiles: dict[str, Mapping[str, Any]] = {}
    for svc in dump.services:
        metadata = svc.get("metadata") or {}
        key = f"{metadata.get('namespace') or 'default'}/{metadata.get('name')}"
        if metadata.get("uid"):
            services_by_uid[str(metadata["uid"])] = key
        resolved = (svc.get("status") or {}).get("resolvedProfile")
        if isinstance(resolved, Mapping):
            operator_profiles[key] = resolved
    planned_profiles = plan.profiles

    reports: dict[str, ServiceReport] = {}

    def report(key: str) -> ServiceReport:
        if key not in reports:
            reports[key] = ServiceReport(key, planned_profiles.get(key), operator_profiles.get(key))
        return reports[key]

    for key in sorted({*services_by_uid.values(), *planned_profiles}):
        report(key)
    children: list[Child] = []
    matched: set[tuple[str, str, str, str]] = set()
    owners_by_uid: dict[str, str] = {}
    for resource in plan.resources:
        if not resource.kubernetes:
            continue
        identity = object_key(resource.manifest)
        live = live_by_key.get(identity)
        child = Child(resource, live)
        children.append(child)
        service = _service_key(resource, by_name)
        if live is None:
            report(service).missing.append(child)
            continue
        matched.add(identity)
        child.changes = _first_up_changes(resource, diff_manifest(child.manifest, live))
        report(service).adopted.append(child)
        uid = (live.get("metadata") or {}).get("uid")
        if uid and service not in (SHARED_CACHES, "other"):
            owners_by_uid[str(uid)] = service
    kinds_by_uid = {
        str((o.get("metadata") or {}).get("uid")): str(o.get("kind")) for o in dump.live if o.get("metadata")
    }
    unmanaged: list[tuple[Mapping[str, Any], str]] = []
    # In identity order, not the input's: a dump and a cluster list the same objects in other orders.
    leftovers = sorted(
        [o for o in dump.live if object_key(o) not in matched] + [o for o, _ in dump.aim_left], key=object_key
    )
    for obj in leftovers:
        refs = (obj.get("metadata") or {}).get("ownerReferences") or []
        owner_kind = next((kinds_by_uid.get(str(r.get("uid"))) for r in refs if r.get("uid")), None)
        why = _unmanaged_reason(obj, owner_kind)
        owner = _owner_service(obj, services_by_uid, owners_by_uid)
        if owner is not None:
            report(owner).unmanaged.append((obj, why))
        else:
            unmanaged.append((obj, why))
    order = sorted(reports.values(), key=lambda r: (r.key in (SHARED_CACHES, "other"), r.key))
    return Adoption(order, unmanaged, children)


def import_document(plan: PlannedStack, adoption: Adoption) -> dict[str, Any]:
    """The `pulumi import --file` document: every adopted child and the components above it.

    Each entry's `name` is the resource's Pulumi name (unique in the stack here: the project
    prefixes every child with its component's name) and `parent` is another entry's `name`, which
    is how the import file names a parent that the state does not hold yet. No `version` is set,
    so `pulumi import` uses the Kubernetes provider the project's program uses.
    """
    by_name = {r.name: r for r in plan.resources}
    wanted: dict[str, PlannedResource] = {}
    for child in adoption.adopted:
        resource: PlannedResource | None = child.resource
        while resource is not None:
            wanted.setdefault(resource.name, resource)
            resource = by_name.get(resource.parent) if resource.parent else None
    entries = []
    adopted_ids = {c.resource.name: c.id for c in adoption.adopted}
    for resource in plan.resources:  # tree order: every parent before its children
        name = resource.name
        if name not in wanted:
            continue
        entry: dict[str, Any] = {"type": resource.type, "name": name}
        if name in adopted_ids:
            entry["id"] = adopted_ids[name]
        else:
            entry["component"] = True
        if resource.parent:
            entry["parent"] = resource.parent
        entries.append(entry)
    return {"nameTable": {}, "resources": entries}


KEPT_AT_CREATION_REASON = (
    "Kubernetes fixes it when the claim is created: the first `up` keeps the live value and warns "
    "CacheKeptAtCreation with the commands that recreate the cache"
)


def _first_up_changes(resource: PlannedResource, changes: list[Change]) -> list[Change]:
    """What the first `up` does to an adopted object: no change under its `ignoreChanges` paths.

    A cache PVC's access modes and StorageClass are among them (`PVC_FIXED_AT_CREATION`): a live
    PVC made under another class than the plan names is kept as it is, not replaced, and the
    report says so (`kept-at-creation`) rather than leave the difference out, since every `up`
    then warns about it. Any other ignored difference (a download Job's spec) is no change.
    """
    first_up = []
    for change in changes:
        if not _ignored(change.path, resource.ignore_changes):
            first_up.append(change)
        elif resource.manifest.get("kind") == "PersistentVolumeClaim" and change.effect == "replaces":
            first_up.append(
                dataclasses.replace(change, effect="kept-at-creation", reason=KEPT_AT_CREATION_REASON)
            )
    return first_up


def _ignored(path: str, ignored: tuple[str, ...]) -> bool:
    """Whether `path` is under one of the resource's `ignoreChanges` paths (a download Job's spec,
    labels and annotations: fixed at its creation), which the first `up` leaves as they are."""
    return any(path == p or path.startswith(p + ".") or path.startswith(p + "[") for p in ignored)
