"""Taking the operator out: the steps, in order, as the `kubectl` commands `aim-pulumi import` prints.

`aim_pulumi.adopt.cluster.apply_removal` makes the same steps as API calls (`--apply`), with the
same request bodies (`Release.ops`).

Every printed command is a shell command line a user pastes: each word that comes from the dump
or the command line (a namespace, a name, a kind, a group, a JSON body) is quoted for the shell
(`shlex.quote`), so no object name is ever run as shell syntax.

Field ownership. pulumi-kubernetes applies with server-side apply. A child it applies with force
(`pulumi.com/patchForce`, which every planned child carries, Shared caches included) takes its
fields from whoever owned them. A child it applies without force (an adopted InferenceService that
keeps the live value of Pulumi's annotations, which holds no `patchForce`) fails on the first field
it sets differently from the live object while another field manager owns it: the operator's
(`manager`), `kubectl-create`'s, anyone's. So every adopted child Pulumi applies
without force has its field ownership reset (`managedFields` set to `[{}]`, which the API server
reads as "strip them all"); an object with no field managers is one pulumi-kubernetes applies
with force on its first apply, after which its own manager owns what it set, as for an object it
created. The reset is not made, and the report says why, where it would take fields from another
Pulumi stack that applies the same object (its `pulumi-kubernetes-*` manager, or the
`aim-pulumi-<project>-<stack>` one of a Shared cache, visible when the
dump carries `managedFields`, as a `--kubeconfig` read always does): the two stacks co-own it, and
a disagreement between them must stay a conflict, never a silent win.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aim_pulumi.adopt.dump import AIM_GROUP, Dump, describe, group_of, object_key
from aim_pulumi.resolve.objects import PATCH_FORCE, STACK_FIELD_MANAGER_PREFIX

__all__ = [
    "FINALIZERS_CLEARED",
    "RELEASE_STEP",
    "Release",
    "aim_objects",
    "applied_without_force",
    "kept_lines",
    "owner_patch",
    "owner_patch_ops",
    "release_command",
    "releases",
    "removal_steps",
]

RELEASE_STEP = "remove the children's ownerReferences to AIM objects and reset their field managers"
_RESET = {"op": "replace", "path": "/metadata/managedFields", "value": [{}]}
_PULUMI_MANAGER = "pulumi-kubernetes"
FINALIZERS_CLEARED: dict[str, Any] = {"metadata": {"finalizers": None}}
"""The merge patch that clears an AIM object's finalizers (the stopped operator never will)."""


@dataclass(frozen=True)
class Release:
    """One live child freed from the operator: the JSON patch that does it (`ops`), or, when its
    field ownership is kept, why (`kept`)."""

    obj: Mapping[str, Any]
    ops: tuple[dict[str, Any], ...]
    kept: str | None = None


def _resource_arg(obj: Mapping[str, Any]) -> str:
    """`kind.group/name` for kubectl (the group keeps `service` from meaning a Knative Service)."""
    group, kind, _, name = object_key(obj)
    return f"{kind.lower()}.{group}/{name}" if group else f"{kind.lower()}/{name}"


def _kubectl(obj: Mapping[str, Any], verb: str, *words: str) -> str:
    """`kubectl [-n NS] VERB KIND.GROUP/NAME WORDS...`, every word quoted for the shell."""
    namespace = object_key(obj)[2]
    scope = ["-n", namespace] if namespace else []
    return shlex.join(["kubectl", *scope, verb, _resource_arg(obj), *words])


def applied_without_force(manifest: Mapping[str, Any]) -> bool:
    """Whether pulumi-kubernetes applies a planned child without force (module docstring)."""
    annotations = (manifest.get("metadata") or {}).get("annotations") or {}
    return str(annotations.get(PATCH_FORCE, "")).lower() != "true"


def _aim_owner_ops(obj: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The removal of an object's ownerReferences to AIM objects, each guarded by a `test` of the
    reference's uid, highest index first: a reference list that changed since the dump makes the
    patch fail rather than remove another."""
    refs = (obj.get("metadata") or {}).get("ownerReferences") or []
    ops: list[dict[str, Any]] = []
    aim = [i for i, r in enumerate(refs) if group_of(str(r.get("apiVersion") or "")) == AIM_GROUP]
    for i in reversed(aim):
        ops.append({"op": "test", "path": f"/metadata/ownerReferences/{i}/uid", "value": refs[i].get("uid")})
        ops.append({"op": "remove", "path": f"/metadata/ownerReferences/{i}"})
    return ops


def _other_stack(obj: Mapping[str, Any]) -> str | None:
    """The field manager of a Pulumi stack that applies the object, if its `managedFields` show one."""
    for entry in (obj.get("metadata") or {}).get("managedFields") or []:
        manager = str((entry or {}).get("manager") or "")
        pulumi = manager.startswith((_PULUMI_MANAGER, STACK_FIELD_MANAGER_PREFIX))
        if pulumi and (entry or {}).get("operation") == "Apply":
            return manager
    return None


def owner_patch_ops(obj: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The JSON patch that removes an object's ownerReferences to AIM objects and resets its field
    ownership (the operator's manager would keep owning what it set), or None when it has no AIM owner."""
    ops = _aim_owner_ops(obj)
    return [*ops, dict(_RESET)] if ops else None


def owner_patch(obj: Mapping[str, Any]) -> str | None:
    """The `kubectl patch` of `owner_patch_ops`, or None when the object has no AIM owner."""
    ops = owner_patch_ops(obj)
    return None if ops is None else release_command(Release(obj, tuple(ops)))


def release_command(release: Release) -> str:
    """The `kubectl patch --type=json` of a release, quoted for the shell."""
    patch = json.dumps(list(release.ops), separators=(",", ":"))
    return _kubectl(release.obj, "patch", "--type=json", "-p", patch)


def releases(dump: Dump, unforced: Iterable[Mapping[str, Any]] = ()) -> list[Release]:
    """What step 2 does to each live child, in identity order: its ownerReferences to AIM objects
    removed, and its field ownership reset when it had such a reference or is one of `unforced`
    (the adopted live objects Pulumi applies without force: `applied_without_force`), unless
    another Pulumi stack applies it too (then `kept` says so, and only the references go)."""
    without_force = {object_key(o) for o in unforced}
    out: list[Release] = []
    for obj in sorted(dump.live, key=object_key):
        owners = _aim_owner_ops(obj)
        if not owners and object_key(obj) not in without_force:
            continue
        other = _other_stack(obj) if object_key(obj) in without_force else None
        if other is not None:
            kept = (
                f"its field managers are kept: another Pulumi stack applies it too (field manager {other}), "
                "and resetting them would take its fields from it; a field the two set differently "
                "stays a conflict on `pulumi up` until they agree"
            )
            out.append(Release(obj, tuple(owners), kept))
            continue
        out.append(Release(obj, (*owners, dict(_RESET))))
    return out


def removal_steps(
    dump: Dump,
    *,
    operator_namespace: str,
    operator_deployment: str,
    released: Sequence[Release] | None = None,
) -> list[tuple[str, list[str]]]:
    """The operator's removal, in order, as (what, commands): nothing it owns stops on the way.

    1. The operator is scaled to zero first, so nothing puts back what the next steps change.
    2. Every child's ownerReferences to AIM objects go, so deleting an AIM object deletes nothing
       else, and the field ownership of those it had and of those Pulumi applies without force is
       reset (`releases`; `released` defaults to the children with AIM owners only).
    3. The AIM objects are deleted with `--cascade=orphan` (services first); those carrying a
       finalizer are first cleared of it, since the stopped operator would never remove it.
    """
    scale = [
        shlex.join(
            [
                "kubectl",
                "-n",
                operator_namespace,
                "scale",
                f"deployment/{operator_deployment}",
                "--replicas=0",
            ]
        )
    ]
    chosen = releases(dump) if released is None else released
    patches = [release_command(r) for r in chosen if r.ops]
    deletes: list[str] = []
    for obj in aim_objects(dump):
        if (obj.get("metadata") or {}).get("finalizers"):
            cleared = json.dumps(FINALIZERS_CLEARED, separators=(",", ":"))
            deletes.append(_kubectl(obj, "patch", "--type=merge", "-p", cleared))
        deletes.append(_kubectl(obj, "delete", "--cascade=orphan"))
    return [
        ("scale the operator to zero", scale),
        (RELEASE_STEP, patches),
        ("delete the AIM custom resources, orphaning their children", deletes),
    ]


def aim_objects(dump: Dump) -> list[dict[str, Any]]:
    """The dump's AIM objects, services first, as step 3 deletes them."""
    objects = [*dump.aim, *(o for o, _ in dump.aim_left)]
    return sorted(objects, key=lambda o: (o.get("kind") != "AIMService", object_key(o)))


def kept_lines(released: Sequence[Release]) -> list[str]:
    """`Kind namespace/name: why`, for each child whose field ownership is kept."""
    return [f"{describe(r.obj)}: {r.kept}" for r in released if r.kept]
