"""`aim-pulumi import --kubeconfig`: the objects a dump would hold, listed from the cluster; and `--apply`.

Reading is read-only by construction: the only calls are discovery and `list`. The kubeconfig is
read with `persist_config=False`, so not even a refreshed token is written back to the user's file,
and the client's discovery cache is kept in a directory of this run that is removed with it (the
`kubernetes.dynamic` client otherwise keeps one in the system's temporary directory, shared by
every run against the same server).

What is listed, in one namespace (`-n`) or all of them: every kind of the AIM group the API server
serves (found by discovery, each kind in the group's preferred version, as `kubectl get` reads it),
the cluster-scoped AIM kinds always (the namespace's services resolve against them, as `kubectl get
-n NS` lists them too), and the kinds of the children the project plans, plus Services, where KServe
puts the predictor's endpoint (the report names them as left with their InferenceService). A kind
the cluster does not serve (its CRD is absent) is skipped: a cluster without KEDA has no
ScaledObjects to adopt.

A namespace holds much that is nobody's business here (`kube-root-ca.crt`, other applications'
Secrets and Services), and a dump is made of the objects someone chose. So the objects of the child
kinds are kept when they are tied to AIM: an ownerReference to an AIM object, an
`aim.eai.amd.com/*` label, `app.kubernetes.io/managed-by: aim-engine` (or `aim-pulumi`), or an
ownerReference to an object kept for one of these reasons (KServe's predictor Service). The rest
is returned apart: `import` adopts from it only the objects the plan names, so a planned child that
exists under its planned name is never created twice, whoever made it.

`apply_removal` makes the removal steps that are API calls, in the order and with the request
bodies of the `kubectl` commands `import` prints (`aim_pulumi.adopt.removal.removal_steps`):

1. the operator's Deployment scaled to zero (its `scale` subresource), so nothing puts back what
   the next steps change;
2. each child's ownerReferences to AIM objects removed, and its field ownership reset where
   Pulumi needs it, with the uid-guarded JSON patch of `aim_pulumi.adopt.removal.releases` (a
   reference list that changed since it was read fails the patch, and the command with it, rather
   than removing another reference);
3. with `--delete-aim-objects` only: every AIM object deleted with `propagationPolicy: Orphan`,
   services first, each first cleared of its finalizers (the stopped operator would never remove
   them). Orphaning leaves every child, whoever owns it, so this may run before or after
   `pulumi up`; it ends the operator's deployment for good, which is why it is asked for apart.

`pulumi import` and `pulumi up` are not API calls of this kind and stay the user's: they run in the
user's Pulumi project, with its backend and credentials.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aim_pulumi.adopt.dump import Dump, describe, group_of, object_key
from aim_pulumi.adopt.removal import FINALIZERS_CLEARED, Release, aim_objects
from aim_pulumi.api import AIM_GROUP

__all__ = ["CHILD_KINDS", "ClusterRead", "ClusterReadError", "apply_removal", "read_cluster", "tied_to_aim"]

# (apiVersion, kind) of the listed children.
CHILD_KINDS: tuple[tuple[str, str], ...] = (
    ("serving.kserve.io/v1beta1", "InferenceService"),
    ("gateway.networking.k8s.io/v1", "HTTPRoute"),
    ("keda.sh/v1alpha1", "ScaledObject"),
    ("v1", "PersistentVolumeClaim"),
    ("batch/v1", "Job"),
    ("v1", "ConfigMap"),
    ("v1", "Secret"),
    ("v1", "Service"),
)
_MANAGERS = frozenset({"aim-engine", "aim-pulumi"})
_PAGE = 500


class ClusterReadError(Exception):
    """The cluster could not be read or refused a call (unreachable, a kind the credentials may not list)."""


@dataclass
class ClusterRead:
    """`objects`: what a dump of the deployment holds; `others`: listed, but tied to no AIM object."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    others: list[dict[str, Any]] = field(default_factory=list)


@contextlib.contextmanager
def _cluster(kubeconfig: str, context: str | None) -> Iterator[Any]:
    """A dynamic client of the cluster the kubeconfig names; its discovery cache dies with the block.

    The kubeconfig's own errors (`kubernetes.config.ConfigException`, `OSError`) go through for the
    command to report as usage errors; a server that cannot be reached is a `ClusterReadError`.
    """
    from kubernetes import config
    from kubernetes.dynamic import DynamicClient
    from urllib3.exceptions import HTTPError

    load: Any = config.new_client_from_config  # untyped in the client
    api = load(config_file=kubeconfig, context=context, persist_config=False)
    try:
        with tempfile.TemporaryDirectory(prefix="aim-pulumi-discovery-") as cache:
            try:
                dynamic: Any = DynamicClient  # untyped in the client
                yield dynamic(api, cache_file=str(Path(cache) / "discovery.json"))
            except HTTPError as exc:  # connection refused, TLS, timeouts: urllib3 gave up
                raise ClusterReadError(f"cannot reach the API server: {exc}") from None
    finally:
        api.close()


def _failed(exc: Any) -> str:
    """`HTTP <status> <the API server's Status.message, else the reason>` of a refused call."""
    try:
        status = json.loads(exc.body or b"{}")
    except (TypeError, ValueError):
        status = {}
    message = status.get("message") if isinstance(status, dict) else None
    return f"HTTP {exc.status} {message or exc.reason}"


def _aim_resources(client: Any) -> list[Any]:
    """Every listable AIM kind, in the group's preferred version (else the first the server lists)."""
    from kubernetes.dynamic.resource import ResourceList

    # Discovery also lists a `<Kind>List` pseudo-resource per kind: not a kind of its own.
    kinds = [r for r in client.resources.search(group=AIM_GROUP) if not isinstance(r, ResourceList)]
    found: dict[str, Any] = {}
    for resource in sorted(kinds, key=lambda r: not r.preferred):
        if resource.kind not in found and "list" in (resource.verbs or []):
            found[resource.kind] = resource
    return [found[kind] for kind in sorted(found)]


def _list(client: Any, resource: Any, namespace: str | None) -> list[dict[str, Any]]:
    """One kind's objects, in `namespace` (None: everywhere), as the server sent them, page by page."""
    from kubernetes.dynamic.exceptions import DynamicApiError, NotFoundError

    objects: list[dict[str, Any]] = []
    token: str | None = None
    try:
        while True:
            page = client.get(resource, namespace=namespace, limit=_PAGE, _continue=token).to_dict()
            for item in page.get("items") or []:
                obj = dict(item)  # a list of a built-in kind leaves its items' apiVersion and kind off
                obj.setdefault("apiVersion", resource.group_version)
                obj.setdefault("kind", resource.kind)
                objects.append(obj)
            token = (page.get("metadata") or {}).get("continue") or None
            if token is None:
                return objects
    except NotFoundError:  # the kind's CRD went away since discovery
        return []
    except DynamicApiError as exc:
        where = f"in namespace {namespace}" if namespace else "in all namespaces"
        raise ClusterReadError(
            f"listing {resource.name}.{resource.group or 'core'} {where}: {_failed(exc)}"
        ) from None


def _labels(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    labels: Mapping[str, Any] = (obj.get("metadata") or {}).get("labels") or {}
    return labels


def _owner_uids(obj: Mapping[str, Any]) -> set[str]:
    return {
        str(r.get("uid")) for r in (obj.get("metadata") or {}).get("ownerReferences") or [] if r.get("uid")
    }


def _marked(obj: Mapping[str, Any]) -> bool:
    labels = _labels(obj)
    return labels.get("app.kubernetes.io/managed-by") in _MANAGERS or any(
        str(k).startswith(f"{AIM_GROUP}/") for k in labels
    )


def tied_to_aim(objects: Sequence[dict[str, Any]]) -> ClusterRead:
    """Split listed objects into those a dump of the deployment holds and the others (module docstring)."""
    kept_uids = {
        str((o.get("metadata") or {}).get("uid"))
        for o in objects
        if group_of(str(o.get("apiVersion") or "")) == AIM_GROUP
    }
    tied = {id(o) for o in objects if group_of(str(o.get("apiVersion") or "")) == AIM_GROUP}
    changed = True
    while changed:  # owners first or not, an owned object follows its kept owner
        changed = False
        for obj in objects:
            if id(obj) in tied or not (_marked(obj) or _owner_uids(obj) & kept_uids):
                continue
            tied.add(id(obj))
            kept_uids.add(str((obj.get("metadata") or {}).get("uid")))
            changed = True
    return ClusterRead(
        objects=[o for o in objects if id(o) in tied], others=[o for o in objects if id(o) not in tied]
    )


def read_cluster(kubeconfig: str, context: str | None, namespace: str | None) -> ClusterRead:
    """List the deployment from the cluster `kubeconfig` (and `context`) names; `namespace` None is all.

    Raises `ClusterReadError` when the API server cannot be reached or refuses a list, and lets
    the kubeconfig's own errors (`kubernetes.config.ConfigException`, `OSError`) through for the
    command to report as usage errors.
    """
    from kubernetes.dynamic.exceptions import DynamicApiError, ResourceNotFoundError

    objects: list[dict[str, Any]] = []
    with _cluster(kubeconfig, context) as client:
        try:
            aim = _aim_resources(client)
        except DynamicApiError as exc:
            raise ClusterReadError(f"discovering the {AIM_GROUP} kinds: {_failed(exc)}") from None
        for resource in aim:
            objects.extend(_list(client, resource, namespace if resource.namespaced else None))
        for api_version, kind in CHILD_KINDS:
            try:
                resource = client.resources.get(api_version=api_version, kind=kind)
            except ResourceNotFoundError:  # the cluster does not serve the kind: nothing to adopt
                continue
            objects.extend(_list(client, resource, namespace))
    return tied_to_aim(objects)


def apply_removal(
    kubeconfig: str,
    context: str | None,
    dump: Dump,
    released: Sequence[Release],
    *,
    operator_namespace: str,
    operator_deployment: str,
    delete: bool,
    say: Callable[[str], None],
) -> None:
    """Make the removal's API calls in order (module docstring); raises `ClusterReadError` on the
    first that fails. `released` is step 2 as the import decided it (`releases`)."""
    try:
        _apply(kubeconfig, context, dump, released, operator_namespace, operator_deployment, delete, say)
    except OSError as exc:
        raise ClusterReadError(f"cannot reach the API server: {exc}") from None


def _apply(
    kubeconfig: str,
    context: str | None,
    dump: Dump,
    released: Sequence[Release],
    operator_namespace: str,
    operator_deployment: str,
    delete: bool,
    say: Callable[[str], None],
) -> None:
    from kubernetes.dynamic.exceptions import DynamicApiError

    with _cluster(kubeconfig, context) as client:

        def call(method: str, obj: Mapping[str, Any], body: Any, content_type: str, what: str) -> None:
            _, kind, namespace, name = object_key(obj)
            resource = client.resources.get(api_version=str(obj.get("apiVersion")), kind=kind)
            if method == "scale":
                resource, method = resource.subresources["scale"], "patch"
            try:
                if method == "patch":
                    client.patch(
                        resource, body, name=name, namespace=namespace or None, content_type=content_type
                    )
                else:
                    client.delete(resource, name=name, namespace=namespace or None, body=body)
            except DynamicApiError as exc:
                raise ClusterReadError(f"{what}: {_failed(exc)}") from None
            say(f"applied: {what}")

        deployment = {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": operator_deployment, "namespace": operator_namespace},
        }
        call(
            "scale",
            deployment,
            {"spec": {"replicas": 0}},
            "application/merge-patch+json",
            f"scale Deployment {operator_namespace}/{operator_deployment} to zero",
        )
        for release in released:
            if release.ops:
                what = (
                    f"remove the ownerReferences of {describe(release.obj)} to AIM objects"
                    if any(op["op"] == "remove" for op in release.ops)
                    else f"reset the field managers of {describe(release.obj)}"
                )
                call("patch", release.obj, list(release.ops), "application/json-patch+json", what)
        if not delete:
            return
        for aim_obj in aim_objects(dump):
            if (aim_obj.get("metadata") or {}).get("finalizers"):
                call(
                    "patch",
                    aim_obj,
                    FINALIZERS_CLEARED,
                    "application/merge-patch+json",
                    f"clear the finalizers of {describe(aim_obj)}",
                )
            call(
                "delete",
                aim_obj,
                {"apiVersion": "v1", "kind": "DeleteOptions", "propagationPolicy": "Orphan"},
                "application/json",
                f"delete {describe(aim_obj)}, orphaning its children",
            )
