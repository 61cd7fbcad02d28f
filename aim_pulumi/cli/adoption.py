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

from aim_pulumi.api import extensions
from aim_pulumi.api.io import read_documents
from aim_pulumi.cli.live_diff import (
    REPLACING_FIELDS,
    Change,
    crd_schema,
    defaulted,
    diff_manifest,
    same,
    same_scalar,
    schema_at,
)

__all__ = [
    "Adoption",
    "Dump",
    "ServiceReport",
    "adopt",
    "adoption_records",
    "aim_yaml",
    "clean_aim",
    "clean_documents",
    "import_document",
    "owner_patch",
    "owner_patch_ops",
    "read_dump",
    "removal_steps",
    "split_dump",
]

AIM_GROUP = "aim.eai.amd.com"
# The core AIM kinds the project declares; with those a folder adds (`planned_aim_kinds`), any
# other kind of the group (an AIMArtifact, an AIMProfileCache, ...) is the operator's own
# bookkeeping, which nothing here replaces.
PLANNED_AIM_KINDS = frozenset(
    {
        "AIMService",
        "AIMProfile",
        "AIMClusterProfile",
        "AIMModel",
        "AIMClusterModel",
        "AIMRuntimeConfig",
        "AIMClusterRuntimeConfig",
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


def planned_aim_kinds() -> frozenset[str]:
    """The AIM kinds an import writes for the plan: the core's and those a folder registers (v1alpha1's
    templates, `aim_pulumi.api.extensions.register_kinds`), which the plan reads as catalog data."""
    return PLANNED_AIM_KINDS | {extension.kind for extension in extensions.kind_extensions()}


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
    if kind not in planned_aim_kinds():
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
    """The server-set fields of an AIM object the plan reads (see the module docstring).

    A kind a folder adds keeps the status fields it registered as read by the plan
    (`KindExtension.adopted_status`: for a v1alpha1 template, what the operator's discovery wrote).
    """
    extension = extensions.kind_extension(str(obj.get("kind") or ""))
    if extension is not None:
        status = obj.get("status") or {}
        found = {k: copy.deepcopy(status[k]) for k in extension.adopted_status if status.get(k)}
        return {"status": found} if found else {}
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


def declared_version(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The object in the version it was declared in, where the version read cannot hold it.

    A CRD that serves two versions with no conversion lists every object in the group's preferred
    version, as `kubectl get` and `--kubeconfig` read it; an object whose fields that version
    refuses is written back in the version its fields tell (`extensions.declared_version`).
    """
    out = dict(obj)
    version = extensions.declared_version(out)
    if version is not None:
        out["apiVersion"] = version
    return out


def clean_aim(obj: Mapping[str, Any]) -> dict[str, Any]:
    """An AIM object as a user would have declared it, plus `keep_for_identity`."""
    out = without_crd_defaults(declared_version(obj))
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
    if "status" in kept:
        out["status"] = kept["status"]
    return out


def with_record(obj: dict[str, Any], record: Mapping[str, Any] | None) -> dict[str, Any]:
    """A cleaned AIMService with its adoption record (`aim.eai.amd.com/adopted`), when it has one."""
    if not record:
        return obj
    from aim_pulumi.manifests.adopted import ADOPTED_ANNOTATION

    metadata = dict(obj.get("metadata") or {})
    annotations = dict(metadata.get("annotations") or {})
    annotations[ADOPTED_ANNOTATION] = json.dumps(record, sort_keys=True, separators=(",", ":"))
    metadata["annotations"] = annotations
    return {**obj, "metadata": metadata}


def service_key(obj: Mapping[str, Any]) -> str:
    """`namespace/name` of an AIM object, as the report and the adoption records name services."""
    _, _, namespace, name = object_key(obj)
    return f"{namespace or 'default'}/{name}"


def aim_yaml(
    objects: Sequence[Mapping[str, Any]], records: Mapping[str, Mapping[str, Any]] | None = None
) -> str:
    """Multi-document YAML of the cleaned AIM objects, catalog first and services last.

    `records` are the adoption records of the services, by `namespace/name` (`adoption_records`).
    """
    return yaml.safe_dump_all(clean_documents(objects, records), sort_keys=False, width=4096)


def clean_documents(
    objects: Sequence[Mapping[str, Any]], records: Mapping[str, Mapping[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The cleaned AIM objects with their services' adoption records, catalog first, services last."""
    order = {"AIMClusterRuntimeConfig": 0, "AIMRuntimeConfig": 1, "AIMService": 9}
    ordered = sorted(objects, key=lambda o: (order.get(str(o.get("kind")), 5), object_key(o)))
    return [
        with_record(
            clean_aim(o), (records or {}).get(service_key(o)) if o.get("kind") == "AIMService" else None
        )
        for o in ordered
    ]


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
    # The differences the adoption record keeps at the live value (so the first `up` leaves them),
    # and the name the plan would give the object had the operator not named it.
    kept: list[Change] = field(default_factory=list)
    planned_name: str | None = None

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
            if self.kept:
                entry["kept"] = [c.to_json() for c in self.kept]
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


def owner_patch_ops(obj: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The JSON patch that removes an object's ownerReferences to AIM objects, or None.

    Each removal is guarded by a `test` of the reference's uid, highest index first: a reference
    list that changed since the dump makes the patch fail rather than remove another.
    It also clears the object's field ownership (`managedFields` set to `[{}]`, which the API server
    reads as "strip them all"): the operator's field manager would otherwise keep owning what it
    set, and Pulumi's server-side apply of a child it does not force (a Shared cache, an adopted
    InferenceService that keeps the operator's values) would fail on the first field it changes
    with a conflict against a manager that no longer runs.
    """
    refs = (obj.get("metadata") or {}).get("ownerReferences") or []
    indexes = [i for i, r in enumerate(refs) if group_of(str(r.get("apiVersion") or "")) == AIM_GROUP]
    if not indexes:
        return None
    ops: list[dict[str, Any]] = []
    for i in reversed(indexes):
        ops.append({"op": "test", "path": f"/metadata/ownerReferences/{i}/uid", "value": refs[i].get("uid")})
        ops.append({"op": "remove", "path": f"/metadata/ownerReferences/{i}"})
    ops.append({"op": "replace", "path": "/metadata/managedFields", "value": [{}]})
    return ops


def owner_patch(obj: Mapping[str, Any]) -> str | None:
    """The `kubectl patch` of `owner_patch_ops`, or None when the object has no AIM owner."""
    ops = owner_patch_ops(obj)
    if ops is None:
        return None
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


# --------------------------------------------------------------------------------------------------
# What an adopted service keeps of the operator's objects (aim_pulumi.manifests.adopted)

# Annotation prefixes that steer nothing in KServe: the project's and Pulumi's bookkeeping.
_BOOKKEEPING_ANNOTATIONS = ("pulumi.com/", f"{AIM_GROUP}/")
_PREDICTOR_ANNOTATIONS = ".spec.predictor.annotations."


def _covers(live: Any, planned: Any) -> bool:
    """Whether `live` holds every field of `planned` with the same value (and maybe more)."""
    if isinstance(planned, Mapping):
        return isinstance(live, Mapping) and all(
            k in live and _covers(live[k], v) for k, v in planned.items()
        )
    if isinstance(planned, list):
        return (
            isinstance(live, list)
            and len(live) == len(planned)
            and all(_covers(q, p) for p, q in zip(planned, live, strict=True))
        )
    return same_scalar(planned, live)


def keepable(change: Change) -> bool:
    """A pod-rolling difference that only the project's bookkeeping or the server's defaults make.

    Keeping the live value leaves the model running as the operator deployed it: a label (labels
    steer no serving), a Pulumi or AIM annotation, the predictor's profile-hash annotation, or an
    atomic list of the predictor whose live value holds every planned field and more (defaults
    KServe or the API server filled in). Any other difference changes what runs.
    """
    path = "." + change.path
    if path.startswith(".metadata.labels."):
        return True
    if path.startswith(".metadata.annotations."):
        return path[len(".metadata.annotations.") :].startswith(_BOOKKEEPING_ANNOTATIONS)
    if path.startswith(_PREDICTOR_ANNOTATIONS):
        return path[len(_PREDICTOR_ANNOTATIONS) :].startswith(f"{AIM_GROUP}/")
    if path.startswith(".spec.predictor.") and isinstance(change.planned, list):
        schema = schema_at(crd_schema("serving.kserve.io/v1beta1", "InferenceService"), path)
        return _covers(change.live, defaulted(change.planned, schema))
    return False


def _claims(pod_spec: Mapping[str, Any], container: Mapping[str, Any] | None) -> dict[str, str]:
    """mountPath (or, with no container, the volume name) -> PVC claim name, of a pod spec."""
    claims = {
        str(v.get("name")): str((v.get("persistentVolumeClaim") or {}).get("claimName"))
        for v in pod_spec.get("volumes") or []
        if isinstance(v, Mapping) and isinstance(v.get("persistentVolumeClaim"), Mapping)
    }
    if container is None:
        return claims
    return {
        str(m.get("mountPath")): claims[str(m.get("name"))]
        for m in container.get("volumeMounts") or []
        if isinstance(m, Mapping) and str(m.get("name")) in claims
    }


def _predictor_claims(isvc: Mapping[str, Any]) -> dict[str, str]:
    predictor = (isvc.get("spec") or {}).get("predictor") or {}
    containers = predictor.get("containers") or []
    container = containers[0] if containers and isinstance(containers[0], Mapping) else {}
    return _claims(predictor, container)


def _job_claims(job: Mapping[str, Any]) -> set[str]:
    pod = ((job.get("spec") or {}).get("template") or {}).get("spec") or {}
    return set(_claims(pod, None).values())


def cache_names(plan: Mapping[str, Any], dump: Dump) -> dict[str, dict[str, str]]:
    """Per service (`namespace/name`): planned cache PVC and Job name -> the operator's name.

    The planned and the live InferenceService mount each cache at the same path (the model id's);
    where the live one mounts a PVC of another name that exists, that PVC is the cache, and the
    operator's Job that mounts it is its download Job.
    """
    live_by_key = {object_key(o): o for o in dump.live}
    resources = [r for r in plan.get("resources") or [] if r.get("custom")]
    planned_jobs: dict[str, str] = {}
    for r in resources:
        manifest = r.get("inputs") or {}
        if manifest.get("kind") == "Job":
            for claim in _job_claims(manifest):
                planned_jobs[claim] = str((manifest.get("metadata") or {}).get("name"))
    live_jobs: dict[tuple[str, str], str] = {}
    for obj in sorted(dump.live, key=object_key):
        if obj.get("kind") == "Job":
            for claim in _job_claims(obj):
                live_jobs.setdefault((object_key(obj)[2], claim), object_key(obj)[3])
    names: dict[str, dict[str, str]] = {}
    for r in resources:
        manifest = r.get("inputs") or {}
        if manifest.get("kind") != "InferenceService":
            continue
        namespace = object_key(manifest)[2]
        service = ((manifest.get("metadata") or {}).get("labels") or {}).get(SERVICE_LABEL)
        live = live_by_key.get(object_key(manifest))
        if live is None or not service:
            continue
        live_claims = _predictor_claims(live)
        mapping: dict[str, str] = {}
        for mount, planned in _predictor_claims(manifest).items():
            operator = live_claims.get(mount)
            if (
                not operator
                or operator == planned
                or ("", "PersistentVolumeClaim", namespace, operator) not in (live_by_key)
            ):
                continue
            mapping[planned] = operator
            job = live_jobs.get((namespace, operator))
            if planned in planned_jobs and job and job != planned_jobs[planned]:
                mapping[planned_jobs[planned]] = job
        if mapping:
            names[f"{namespace}/{service}"] = mapping
    return names


def _value_at(obj: Mapping[str, Any], path: str) -> Any:
    value: Any = obj
    for part in path.strip(".").split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _kept_cache_fields(
    plan: Mapping[str, Any],
    live_by_key: Mapping[tuple[str, str, str, str], Mapping[str, Any]],
    names: Mapping[str, str],
) -> list[tuple[str, str, dict[str, Any]]]:
    """(service, `Kind/name`, kept) for each adopted cache PVC and Job: the replacing fields to keep.

    A replacing field (`REPLACING_FIELDS`) the plan leaves out, or sets to a part of what the live
    object holds there (the API server's defaults around it), keeps the live value; one the plan
    sets otherwise is a replacement, reported as such. Each service that mounts the cache carries
    the entry (a Shared cache's: every one of them).
    """
    from aim_pulumi.manifests.adopted import fields_digest, rename_caches

    resources = [r for r in plan.get("resources") or [] if r.get("custom")]
    mounted_by: dict[tuple[str, str], set[str]] = {}
    for r in resources:
        manifest = rename_caches(r.get("inputs") or {}, names)
        service = ((manifest.get("metadata") or {}).get("labels") or {}).get(SERVICE_LABEL)
        if manifest.get("kind") == "InferenceService" and service:
            namespace = object_key(manifest)[2]
            for claim in _predictor_claims(manifest).values():
                mounted_by.setdefault((namespace, claim), set()).add(f"{namespace}/{service}")
    out: list[tuple[str, str, dict[str, Any]]] = []
    for r in resources:
        manifest = rename_caches(r.get("inputs") or {}, names)
        kind = str(manifest.get("kind") or "")
        if kind not in ("PersistentVolumeClaim", "Job"):
            continue
        live = live_by_key.get(object_key(manifest))
        if live is None:
            continue
        fields: dict[str, Any] = {}
        for path in REPLACING_FIELDS[kind]:
            planned, held = _value_at(manifest, path), _value_at(live, path)
            if held is None or (planned is not None and (same(planned, held) or not _covers(held, planned))):
                continue
            fields[path.strip(".")] = copy.deepcopy(held)
        if not fields:
            continue
        namespace, name = object_key(manifest)[2], object_key(manifest)[3]
        claims = [name] if kind == "PersistentVolumeClaim" else sorted(_job_claims(manifest))
        services = {s for claim in claims for s in mounted_by.get((namespace, claim), set())}
        kept = {"plan": fields_digest(manifest, fields), "fields": dict(sorted(fields.items()))}
        out.extend((service, f"{kind}/{name}", kept) for service in sorted(services))
    return out


def adoption_records(plan: Mapping[str, Any], dump: Dump) -> dict[str, dict[str, Any]]:
    """Per service (`namespace/name`): the `aim.eai.amd.com/adopted` record its AIM YAML carries.

    `plan` is the plan of the AIM YAML without records. A service gets `caches` when the operator
    named a cache differently, and `inferenceService` when every pod-rolling difference between
    its planned and its live InferenceService is `keepable`: then the first `up` changes nothing
    the pods see. A service whose predictor differs in anything else rolls its pods on the first
    `up` whatever is kept, so it keeps nothing and the report says so.
    """
    from aim_pulumi.manifests.adopted import material_digest, rename_caches

    records: dict[str, dict[str, Any]] = {}
    live_by_key = {object_key(o): o for o in dump.live}
    for service, mapping in cache_names(plan, dump).items():
        records.setdefault(service, {})["caches"] = dict(sorted(mapping.items()))
    renamed = {str(k): str(v) for r in records.values() for k, v in (r.get("caches") or {}).items()}
    for service, key, fields in _kept_cache_fields(plan, live_by_key, renamed):
        records.setdefault(service, {}).setdefault("objects", {})[key] = fields
    for r in plan.get("resources") or []:
        manifest = r.get("inputs") or {}
        if not r.get("custom") or manifest.get("kind") != "InferenceService":
            continue
        live = live_by_key.get(object_key(manifest))
        labels = (manifest.get("metadata") or {}).get("labels") or {}
        if live is None or not labels.get(SERVICE_LABEL):
            continue
        key = f"{object_key(manifest)[2]}/{labels[SERVICE_LABEL]}"
        planned = rename_caches(manifest, (records.get(key) or {}).get("caches") or {})
        rolling = [c for c in diff_manifest(planned, live) if c.effect == "rolls-pods"]
        if not rolling or not all(keepable(c) for c in rolling):
            continue
        live_meta = live.get("metadata") or {}
        kept: dict[str, Any] = {"plan": material_digest(planned)}
        for field_name in ("labels", "annotations"):
            prefix = f"metadata.{field_name}."
            values = {
                c.path[len(prefix) :]: (live_meta.get(field_name) or {}).get(c.path[len(prefix) :])
                for c in rolling
                if c.path.startswith(prefix)
            }
            if values:
                kept[field_name] = dict(sorted(values.items()))
        kept["predictor"] = {
            k: copy.deepcopy(v)
            for k, v in ((live.get("spec") or {}).get("predictor") or {}).items()
            if k not in ("minReplicas", "maxReplicas")  # always the plan's: they roll nothing
        }
        records.setdefault(key, {})["inferenceService"] = kept
    return dict(sorted(records.items()))
