"""Moving a live AIM operator deployment under Pulumi: what `aim-pulumi import` reads, matches and writes.

The input is what `kubectl get -o yaml` prints (a `List`, or YAML documents) holding the AIM
objects and their children. The AIM objects the project plans are written back as AIM YAML
with what the API server and the operator set removed, except two fields that carry identity
the plan must keep (`keep_for_identity`): an AIMService's `metadata.uid`, from which the default
route path (`/<namespace>/<uid>`) and Dedicated cache names derive, and its
`status.resolvedProfile`, from which the sticky binding starts, so an adopted service keeps the
profile the operator chose even when a better one has appeared since.

The AIM YAML is then planned as `aim-pulumi plan` plans it, and every Kubernetes child of the plan
is looked up among the live objects by API group, kind, namespace and name (the version may
differ). A match is adopted: it goes into the `pulumi import --file` document under the child's
Pulumi type, name and parent, with id `namespace/name`, and the fields the first `pulumi up` would
change are listed (`aim_pulumi.cli.live_diff`). The file also lists each adopted child's
ancestors (the AIMService or Shared-cache component and the AIMStack) as `component: true`
entries: `pulumi import` creates those components in the state before the children it reads, so
an imported child never points at a parent the state lacks, and the program then finds every
URN it registers already there.
"""

from __future__ import annotations

import copy
import json
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import yaml

from aim_pulumi.api.io import read_documents
from aim_pulumi.cli.live_diff import Change, crd_schema, diff_manifest

__all__ = [
    "Adoption",
    "Dump",
    "ServiceReport",
    "adopt",
    "aim_yaml",
    "clean_aim",
    "import_document",
    "read_dump",
    "removal_steps",
    "split_dump",
]

AIM_GROUP = "aim.eai.amd.com"
# The AIM kinds the project declares; any other kind of the group (an AIMArtifact, an
# AIMProfileCache, ...) is the operator's own bookkeeping, which nothing here replaces.
PLANNED_AIM_KINDS = frozenset(
    {
        "AIMService",
        "AIMProfile",
        "AIMClusterProfile",
        "AIMModel",
        "AIMClusterModel",
        "AIMRuntimeConfig",
        "AIMClusterRuntimeConfig",
        "AIMServiceTemplate",
        "AIMClusterServiceTemplate",
    }
)
PROFILE_ORIGIN_LABEL = f"{AIM_GROUP}/profile-origin"
MODEL_ORIGIN_LABEL = f"{AIM_GROUP}/origin"
SERVICE_LABEL = f"{AIM_GROUP}/service"
# Metadata the API server or a controller sets; never part of what a user declares.
SERVER_METADATA = (
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "managedFields",
    "ownerReferences",
    "selfLink",
    "finalizers",
)
SERVER_ANNOTATIONS = ("kubectl.kubernetes.io/last-applied-configuration",)


def group_of(api_version: str) -> str:
    """`serving.kserve.io/v1beta1` -> `serving.kserve.io`; the core `v1` -> ``."""
    return api_version.rsplit("/", 1)[0] if "/" in api_version else ""


def object_key(obj: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """(group, kind, namespace, name): the identity a live object and a planned child share."""
    metadata = obj.get("metadata") or {}
    return (
        group_of(str(obj.get("apiVersion") or "")),
        str(obj.get("kind") or ""),
        str(metadata.get("namespace") or ""),
        str(metadata.get("name") or ""),
    )


def describe(obj: Mapping[str, Any]) -> str:
    _, kind, namespace, name = object_key(obj)
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


# --------------------------------------------------------------------------------------------------
# Reading the dump


def _expand(data: Any) -> Iterable[Mapping[str, Any]]:
    """A document, or the items of a `List` (what `kubectl get -o yaml` prints for several objects)."""
    if not isinstance(data, Mapping):
        return
    if str(data.get("kind") or "").endswith("List") and isinstance(data.get("items"), list):
        for item in data["items"]:
            yield from _expand(item)
        return
    if data.get("apiVersion") and data.get("kind"):
        yield data


def read_dump(source: str | Path | IO[str]) -> list[dict[str, Any]]:
    """Every object of a dump file, a directory of them, or a stream, `List`s expanded, in order."""
    objects: list[dict[str, Any]] = []
    for doc in read_documents(source):
        objects.extend(copy.deepcopy(dict(o)) for o in _expand(doc.data))
    return objects


@dataclass
class Dump:
    """A dump sorted out: the AIM objects to plan, the AIM objects left behind (and why), the rest."""

    aim: list[dict[str, Any]] = field(default_factory=list)
    aim_left: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    live: list[dict[str, Any]] = field(default_factory=list)

    @property
    def services(self) -> list[dict[str, Any]]:
        return [o for o in self.aim if o.get("kind") == "AIMService"]


def _left_reason(obj: Mapping[str, Any]) -> str | None:
    """Why an AIM object is not written for the plan, or None when it is."""
    kind = str(obj.get("kind") or "")
    labels = (obj.get("metadata") or {}).get("labels") or {}
    if kind not in PLANNED_AIM_KINDS:
        return "the operator's own object; the plan has no counterpart"
    if kind in ("AIMProfile", "AIMClusterProfile") and labels.get(PROFILE_ORIGIN_LABEL) in (
        "generated",
        "derived",
    ):
        return f"a {labels[PROFILE_ORIGIN_LABEL]} profile; the plan derives it again"
    if kind == "AIMModel" and labels.get(MODEL_ORIGIN_LABEL) == "auto-generated":
        return "a model the operator made for an image; the plan makes it again"
    return None


def split_dump(objects: Sequence[Mapping[str, Any]]) -> Dump:
    dump = Dump()
    for obj in objects:
        if group_of(str(obj.get("apiVersion") or "")) != AIM_GROUP:
            dump.live.append(dict(obj))
            continue
        reason = _left_reason(obj)
        if reason is None:
            dump.aim.append(dict(obj))
        else:
            dump.aim_left.append((dict(obj), reason))
    return dump


def keep_for_identity(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The server-set fields of an AIM object the plan reads as identity (see the module docstring)."""
    if obj.get("kind") != "AIMService":
        return {}
    kept: dict[str, Any] = {}
    uid = (obj.get("metadata") or {}).get("uid")
    if uid:
        kept["uid"] = uid
    resolved = (obj.get("status") or {}).get("resolvedProfile")
    if isinstance(resolved, Mapping) and resolved.get("name"):
        kept["resolvedProfile"] = dict(resolved)
    return kept


def _drop_defaults(value: Any, schema: Mapping[str, Any]) -> None:
    """Remove, in place, every field whose value is the default its CRD schema gives it."""
    if isinstance(value, dict):
        properties: Mapping[str, Any] = schema.get("properties") or {}
        for key in list(value):
            field_schema = properties.get(key)
            if not isinstance(field_schema, Mapping):
                continue
            if "default" in field_schema and value[key] == field_schema["default"]:
                del value[key]
            else:
                _drop_defaults(value[key], field_schema)
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for item in value:
            _drop_defaults(item, schema["items"])


def without_crd_defaults(obj: Mapping[str, Any]) -> dict[str, Any]:
    """An AIM object's `spec` without the values the API server's CRD defaulting wrote.

    The API server fills every defaulted field of a CRD on write (an AIMProfile's
    `manualSelectionOnly: false`, `primary: false`, an AIMService's `replicas: 1`), so a dump of
    any live object carries them though nobody declared them; the plan applies the same defaults,
    and some of these fields are ones the project does not declare at all. A value that differs
    from the default stays, declared or not.
    """
    out = copy.deepcopy(dict(obj))
    schema = crd_schema(str(out.get("apiVersion") or ""), str(out.get("kind") or ""))
    spec_schema = ((schema or {}).get("properties") or {}).get("spec")
    if isinstance(out.get("spec"), dict) and isinstance(spec_schema, Mapping):
        _drop_defaults(out["spec"], spec_schema)
    return out


def clean_aim(obj: Mapping[str, Any]) -> dict[str, Any]:
    """An AIM object as a user would have declared it, plus `keep_for_identity`."""
    out = without_crd_defaults(obj)
    kept = keep_for_identity(obj)
    metadata = dict(out.get("metadata") or {})
    for key in SERVER_METADATA:
        metadata.pop(key, None)
    annotations = {
        k: v for k, v in (metadata.get("annotations") or {}).items() if k not in SERVER_ANNOTATIONS
    }
    if annotations:
        metadata["annotations"] = annotations
    else:
        metadata.pop("annotations", None)
    if "uid" in kept:
        metadata["uid"] = kept["uid"]
    out["metadata"] = metadata
    out.pop("status", None)
    if "resolvedProfile" in kept:
        out["status"] = {"resolvedProfile": kept["resolvedProfile"]}
    return out


def aim_yaml(objects: Sequence[Mapping[str, Any]]) -> str:
    """Multi-document YAML of the cleaned AIM objects, catalog first and services last."""
    order = {"AIMClusterRuntimeConfig": 0, "AIMRuntimeConfig": 1, "AIMService": 9}
    ordered = sorted(objects, key=lambda o: (order.get(str(o.get("kind")), 5), object_key(o)))
    return yaml.safe_dump_all([clean_aim(o) for o in ordered], sort_keys=False, width=4096)


# --------------------------------------------------------------------------------------------------
# Matching the plan against the live objects


def planned_key(resource: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """The identity of a planned Kubernetes child, from its manifest (`inputs` of the plan document)."""
    return object_key(resource.get("inputs") or {})


@dataclass
class Child:
    """A planned Kubernetes child and, when adopted, the live object and what the first `up` changes."""

    resource: Mapping[str, Any]
    live: Mapping[str, Any] | None = None
    changes: list[Change] = field(default_factory=list)

    @property
    def manifest(self) -> Mapping[str, Any]:
        inputs: Mapping[str, Any] = self.resource.get("inputs") or {}
        return inputs

    @property
    def id(self) -> str:
        _, _, namespace, name = planned_key(self.resource)
        return f"{namespace}/{name}" if namespace else name

    def effects(self) -> set[str]:
        return {c.effect for c in self.changes}

    def to_json(self) -> dict[str, Any]:
        _, kind, namespace, name = planned_key(self.resource)
        entry: dict[str, Any] = {
            "kind": kind,
            "namespace": namespace,
            "name": name,
            "type": self.resource.get("type"),
            "pulumiName": self.resource.get("name"),
            "parent": self.resource.get("parent"),
        }
        if self.live is not None:
            entry["id"] = self.id
            entry["liveUid"] = (self.live.get("metadata") or {}).get("uid")
            secret = kind == "Secret"
            entry["changes"] = [
                {**c.to_json(), **({"live": "[secret]", "planned": "[secret]"} if secret else {})}
                for c in self.changes
            ]
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
            if planned_key(c.resource)[1] in ("InferenceService", "PersistentVolumeClaim")
            and c.effects() & {"replaces", "refused"}
        ]


def _service_key(resource: Mapping[str, Any], by_name: Mapping[str, Mapping[str, Any]]) -> str:
    """`namespace/name` of the AIMService a child belongs to; "shared caches" for a Shared cache's."""
    manifest = resource.get("inputs") or {}
    metadata = manifest.get("metadata") or {}
    service = (metadata.get("labels") or {}).get(SERVICE_LABEL)
    parent = by_name.get(str(resource.get("parent") or ""))
    if parent is not None and parent.get("type") == "aim:index:AIMSharedCache":
        return "shared caches"
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


def adopt(dump: Dump, plan: Mapping[str, Any]) -> Adoption:
    """Match a plan document (`plan --json`, secrets revealed) with the dump's live objects."""
    resources: list[Mapping[str, Any]] = plan.get("resources") or []
    by_name = {str(r.get("name")): r for r in resources}
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
    planned_profiles: dict[str, Mapping[str, Any]] = {}
    for r in resources:
        if r.get("type") == "aim:index:AIMStack":
            for key, status in ((r.get("outputs") or {}).get("services") or {}).items():
                if isinstance(status, Mapping) and isinstance(status.get("resolvedProfile"), Mapping):
                    planned_profiles[str(key)] = status["resolvedProfile"]

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
    for resource in resources:
        if not resource.get("custom") or not str(resource.get("type") or "").startswith("kubernetes:"):
            continue
        identity = planned_key(resource)
        live = live_by_key.get(identity)
        child = Child(resource, live)
        children.append(child)
        service = _service_key(resource, by_name)
        if live is None:
            report(service).missing.append(child)
            continue
        matched.add(identity)
        child.changes = diff_manifest(child.manifest, live)
        report(service).adopted.append(child)
        uid = (live.get("metadata") or {}).get("uid")
        if uid and service not in ("shared caches", "other"):
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
    order = sorted(reports.values(), key=lambda r: (r.key in ("shared caches", "other"), r.key))
    return Adoption(order, unmanaged, children)


# --------------------------------------------------------------------------------------------------
# The pulumi import file


def import_document(plan: Mapping[str, Any], adoption: Adoption) -> dict[str, Any]:
    """The `pulumi import --file` document: every adopted child and the components above it.

    Each entry's `name` is the resource's Pulumi name (unique in the stack here: the project
    prefixes every child with its component's name) and `parent` is another entry's `name`, which
    is how the import file names a parent that the state does not hold yet. No `version` is set,
    so `pulumi import` uses the Kubernetes provider the project's program uses.
    """
    by_name = {str(r.get("name")): r for r in plan.get("resources") or []}
    wanted: dict[str, Mapping[str, Any]] = {}
    for child in adoption.adopted:
        resource: Mapping[str, Any] | None = child.resource
        while resource is not None:
            wanted.setdefault(str(resource.get("name")), resource)
            parent = resource.get("parent")
            resource = by_name.get(str(parent)) if parent else None
    entries = []
    adopted_ids = {str(c.resource.get("name")): c.id for c in adoption.adopted}
    for resource in plan.get("resources") or []:  # tree order: every parent before its children
        name = str(resource.get("name"))
        if name not in wanted:
            continue
        entry: dict[str, Any] = {"type": resource.get("type"), "name": name}
        if name in adopted_ids:
            entry["id"] = adopted_ids[name]
        else:
            entry["component"] = True
        if resource.get("parent"):
            entry["parent"] = resource["parent"]
        entries.append(entry)
    return {"nameTable": {}, "resources": entries}


# --------------------------------------------------------------------------------------------------
# Taking the operator out


def _resource_arg(obj: Mapping[str, Any]) -> str:
    """`kind.group/name` for kubectl (the group keeps `service` from meaning a Knative Service)."""
    group, kind, _, name = object_key(obj)
    return f"{kind.lower()}.{group}/{name}" if group else f"{kind.lower()}/{name}"


def _namespace_flag(obj: Mapping[str, Any]) -> str:
    namespace = object_key(obj)[2]
    return f"-n {shlex.quote(namespace)} " if namespace else ""


def owner_patch(obj: Mapping[str, Any]) -> str | None:
    """The `kubectl patch` that removes an object's ownerReferences to AIM objects, or None.

    A JSON patch, each removal guarded by a `test` of the reference's uid, highest index first: a
    reference list that changed since the dump makes the patch fail rather than remove another.
    """
    refs = (obj.get("metadata") or {}).get("ownerReferences") or []
    indexes = [i for i, r in enumerate(refs) if group_of(str(r.get("apiVersion") or "")) == AIM_GROUP]
    if not indexes:
        return None
    ops: list[dict[str, Any]] = []
    for i in reversed(indexes):
        ops.append({"op": "test", "path": f"/metadata/ownerReferences/{i}/uid", "value": refs[i].get("uid")})
        ops.append({"op": "remove", "path": f"/metadata/ownerReferences/{i}"})
    patch = json.dumps(ops, separators=(",", ":"))
    return f"kubectl {_namespace_flag(obj)}patch {_resource_arg(obj)} --type=json -p {shlex.quote(patch)}"


def removal_steps(
    dump: Dump, *, operator_namespace: str, operator_deployment: str
) -> list[tuple[str, list[str]]]:
    """The operator's removal, in order, as (what, commands): nothing it owns stops on the way.

    1. The operator is scaled to zero first, so nothing puts back what the next steps change.
    2. Every child's ownerReferences to AIM objects go, so deleting an AIM object deletes nothing else.
    3. The AIM objects are deleted with `--cascade=orphan` (services first); those carrying a
       finalizer are first cleared of it, since the stopped operator would never remove it.
    """
    scale = [
        f"kubectl -n {shlex.quote(operator_namespace)} scale deployment/{shlex.quote(operator_deployment)} "
        "--replicas=0"
    ]
    patches = [p for p in (owner_patch(o) for o in sorted(dump.live, key=object_key)) if p is not None]
    aim_objects = [*dump.aim, *(o for o, _ in dump.aim_left)]
    aim_objects.sort(key=lambda o: (o.get("kind") != "AIMService", object_key(o)))
    deletes: list[str] = []
    for obj in aim_objects:
        if (obj.get("metadata") or {}).get("finalizers"):
            deletes.append(
                f"kubectl {_namespace_flag(obj)}patch {_resource_arg(obj)} --type=merge "
                + shlex.quote('{"metadata":{"finalizers":null}}')
            )
        deletes.append(f"kubectl {_namespace_flag(obj)}delete {_resource_arg(obj)} --cascade=orphan")
    return [
        ("scale the operator to zero", scale),
        ("remove the children's ownerReferences to AIM objects", patches),
        ("delete the AIM custom resources, orphaning their children", deletes),
    ]
