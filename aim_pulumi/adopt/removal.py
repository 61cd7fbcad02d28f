"""Taking the operator out: the steps, in order, as the `kubectl` commands `aim-pulumi import` prints.

`aim_pulumi.adopt.cluster.apply_removal` makes the same steps as API calls (`--apply`), with the
same request bodies (`owner_patch_ops`).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from typing import Any

from aim_pulumi.adopt.dump import AIM_GROUP, Dump, group_of, object_key

__all__ = ["owner_patch", "owner_patch_ops", "removal_steps"]


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
