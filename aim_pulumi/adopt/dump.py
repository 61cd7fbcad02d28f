"""What `aim-pulumi import` reads and writes back: a dump sorted out, and its AIM objects cleaned.

The input is what `kubectl get -o yaml` prints (a `List`, or YAML documents) holding the AIM
objects and their children. The AIM objects the project plans are written back as AIM YAML
with what the API server and the operator set removed, except two fields that carry identity
the plan must keep (`keep_for_identity`): an AIMService's `metadata.uid`, from which the default
route path (`/<namespace>/<uid>`) and Dedicated cache names derive, and its
`status.resolvedProfile`, from which the sticky binding starts, so an adopted service keeps the
profile the operator chose even when a better one has appeared since. The defaults the API server
wrote are taken off with the schema walk validation uses to fill them
(`aim_pulumi.schemas.defaulting.strip_defaults`).

A dump is input like any other, and may have been made or edited by anyone: before anything is
planned or written, every object must have an identity the API server could hold
(`identity_problems`: a namespace that is a DNS-1123 label, a name that is a path segment, and an AIM
object's name a DNS-1123 subdomain, since it becomes a file name under `aim/`), and no object may
be listed twice with different contents (`duplicate_problems`: which copy is the cluster's is not
something to guess). Two identical copies (two dump files that both list it) are one object.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import yaml

from aim_pulumi.adopt.record import ADOPTED_ANNOTATION
from aim_pulumi.api import AIM_GROUP
from aim_pulumi.api.documents import expand_documents
from aim_pulumi.api.errors import escape
from aim_pulumi.api.io import read_documents
from aim_pulumi.resolve.children.labels import SERVICE_LABEL
from aim_pulumi.resolve.derivation.model_sets import MODEL_NAME_ANNOTATION
from aim_pulumi.resolve.derivation.sources import PROFILE_SOURCE_ANNOTATION, PROFILE_SOURCE_COPY
from aim_pulumi.resolve.objects import PROFILE_ORIGIN_LABEL
from aim_pulumi.schemas.crds import crd_schema
from aim_pulumi.schemas.defaulting import strip_defaults
from aim_pulumi.schemas.metadata import is_dns1123_label, is_dns1123_subdomain
from aim_pulumi.versions import EXTENSION

__all__ = [
    "AIM_GROUP",
    "SERVICE_LABEL",
    "Dump",
    "aim_files",
    "aim_yaml",
    "clean_aim",
    "clean_documents",
    "describe",
    "duplicate_problems",
    "group_of",
    "identity_problems",
    "object_key",
    "read_dump",
    "read_dump_placed",
    "service_key",
    "split_dump",
]

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
        "AIMProfileSet",
        "AIMClusterProfileSet",
        "AIMRuntimeConfig",
        "AIMClusterRuntimeConfig",
    }
)
MODEL_ORIGIN_LABEL = f"{AIM_GROUP}/origin"
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
    templates, `Extension.kind_surfaces` of `aim_pulumi.versions.EXTENSION`), which the plan reads as
    catalog data."""
    surfaces = EXTENSION.kind_surfaces if EXTENSION is not None else ()
    return PLANNED_AIM_KINDS | {surface.kind for surface in surfaces}


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


def read_dump_placed(source: str | Path | IO[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Every object of a dump file, a directory of them, or a stream, in order, and where each was
    read (`file, document N`, `, item M` for an item of a `List`).

    `List`s (what `kubectl get -o yaml` prints for several objects, `kind: List` or `<Kind>List`)
    and JSON arrays are expanded as kubectl expands them (`aim_pulumi.api.documents.expand_documents`);
    a document that is no object (no apiVersion or kind) is not one of the dump's objects.
    """
    objects: list[dict[str, Any]] = []
    places: list[str] = []
    for doc in read_documents(source):
        where = f"{doc.file}, document {doc.document}"
        items = list(expand_documents([doc.data]))
        listed = len(items) != 1 or items[0] is not doc.data
        for index, item in enumerate(items, 1):
            if isinstance(item, Mapping) and item.get("apiVersion") and item.get("kind"):
                objects.append(copy.deepcopy(dict(item)))
                places.append(f"{where}, item {index}" if listed else where)
    return objects, places


def read_dump(source: str | Path | IO[str]) -> list[dict[str, Any]]:
    """Every object of a dump file, a directory of them, or a stream, `List`s expanded, in order."""
    return read_dump_placed(source)[0]


def _shown(value: object) -> str:
    text = escape(value)
    return json.dumps(text if len(text) <= 80 else text[:77] + "...")


def identity_problems(objects: Sequence[Mapping[str, Any]], places: Sequence[str]) -> list[str]:
    """Why objects' identities are ones no API server holds (one line each; [] when all are fine).

    The identity becomes file names (`aim/<namespace>/<kind>-<name>.yaml`, in the output directory
    and in the scratch copy the plan reads) and arguments of the printed commands, so a name such
    as `../../x` or `$(...)` must never get that far.
    """
    problems: list[str] = []
    for obj, where in zip(objects, places, strict=True):
        metadata = obj.get("metadata")
        metadata = metadata if isinstance(metadata, Mapping) else {}
        kind, namespace, name = obj.get("kind"), metadata.get("namespace"), metadata.get("name")
        label = f"{escape(describe(obj))} ({escape(where)})"
        if not isinstance(kind, str) or not kind.isascii() or not kind.isalnum():
            problems.append(f"{label}: kind {_shown(kind)} is not a Kubernetes kind")
        if namespace is not None and (not isinstance(namespace, str) or not is_dns1123_label(namespace)):
            problems.append(
                f"{label}: metadata.namespace {_shown(namespace)} is not a namespace the API server "
                "accepts (a DNS-1123 label: at most 63 of a-z, 0-9 and '-')"
            )
        aim = group_of(str(obj.get("apiVersion") or "")) == AIM_GROUP
        if not isinstance(name, str) or not name:
            problems.append(f"{label}: metadata.name is missing")
        elif aim and not is_dns1123_subdomain(name):
            problems.append(
                f"{label}: metadata.name {_shown(name)} is not a name the API server gives an AIM object "
                "(a DNS-1123 subdomain: at most 253 of a-z, 0-9, '-' and '.')"
            )
        elif name in (".", "..") or any(c in name for c in "/%") or escape(name) != name:
            problems.append(
                f"{label}: metadata.name {_shown(name)} is not a name the API server gives an object "
                "(no '/', '%' or control character, not '.' or '..')"
            )
    return problems


def duplicate_problems(
    objects: Sequence[Mapping[str, Any]], places: Sequence[str]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The objects with identical copies dropped, and a line for each object listed twice differently.

    Two different copies of one object (group, kind, namespace, name) are two states of it, or
    two objects a hand-edited dump gave one name: either way the one to adopt is not knowable,
    and taking the last one read would adopt whichever file sorts last.
    """
    first: dict[tuple[str, str, str, str], int] = {}
    kept: list[dict[str, Any]] = []
    problems: list[str] = []
    for index, obj in enumerate(objects):
        key = object_key(obj)
        seen = first.setdefault(key, index)
        if seen == index:
            kept.append(dict(obj))
        elif objects[seen] != obj:
            problems.append(
                f"{escape(describe(obj))} is listed twice with different contents ({escape(places[seen])}; "
                f"{escape(places[index])}): dump one state of the cluster, each object once"
            )
    return kept, problems


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
    metadata = obj.get("metadata") or {}
    labels = metadata.get("labels") or {}
    annotations = metadata.get("annotations") or {}
    if kind not in planned_aim_kinds():
        return "the operator's own object; the plan has no counterpart"
    if kind in ("AIMProfile", "AIMClusterProfile") and labels.get(PROFILE_ORIGIN_LABEL) in (
        "generated",
        "derived",
    ):
        return f"a {labels[PROFILE_ORIGIN_LABEL]} profile; the plan derives it again"
    if (
        kind in ("AIMProfile", "AIMClusterProfile")
        and annotations.get(PROFILE_SOURCE_ANNOTATION) == PROFILE_SOURCE_COPY
    ):
        return "a derived profile; the plan derives it again"
    if kind in ("AIMProfileSet", "AIMClusterProfileSet") and annotations.get(MODEL_NAME_ANNOTATION):
        return f"the profile set of model {annotations[MODEL_NAME_ANNOTATION]}; the model makes it again"
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

    A kind of the extension this installation serves keeps the status fields it names as read by the
    plan (`KindSurface.adopted_status` of `aim_pulumi.versions.EXTENSION`: for a v1alpha1 template,
    what the operator's discovery wrote).
    """
    extension = EXTENSION.kind_surface(str(obj.get("kind") or "")) if EXTENSION is not None else None
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
        strip_defaults(out["spec"], spec_schema)
    return out


def declared_version(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The object in the version it was declared in, where the version read cannot hold it.

    A CRD that serves two versions with no conversion lists every object in the group's preferred
    version, as `kubectl get` and `--kubeconfig` read it; an object whose fields that version
    refuses is written back in the version its fields tell (`Extension.declared_version`).
    """
    out = dict(obj)
    version = EXTENSION.declared_version(out) if EXTENSION is not None else None
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


def aim_files(dump: Dump, records: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, str]:
    """One file per AIM object, `aim/<namespace or cluster>/<kind>-<name>.yaml`, relative to DIR."""
    files: dict[str, str] = {}
    for obj in dump.aim:
        _, kind, namespace, name = object_key(obj)
        files[f"aim/{namespace or 'cluster'}/{kind.lower()}-{name}.yaml"] = aim_yaml([obj], records)
    return files
