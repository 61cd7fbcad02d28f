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
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import yaml

from aim_pulumi.adopt.record import ADOPTED_ANNOTATION
from aim_pulumi.api import AIM_GROUP
from aim_pulumi.api.io import read_documents
from aim_pulumi.resolve.children.labels import SERVICE_LABEL
from aim_pulumi.resolve.derivation.model_sets import MODEL_NAME_ANNOTATION
from aim_pulumi.resolve.derivation.sources import PROFILE_SOURCE_ANNOTATION, PROFILE_SOURCE_COPY
from aim_pulumi.resolve.objects import PROFILE_ORIGIN_LABEL
from aim_pulumi.schemas.crds import crd_schema
from aim_pulumi.schemas.defaulting import strip_defaults
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
    "group_of",
    "object_key",
    "read_dump",
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
