"""`aim-pulumi import --kubeconfig`: the objects a dump would hold, listed from the cluster instead.

Read-only by construction: the only calls are discovery and `list`. The kubeconfig is read with
`persist_config=False`, so not even a refreshed token is written back to the user's file.

What is listed, in one namespace (`-n`) or all of them: every kind of the AIM group the API server
serves (found by discovery, each kind in the group's preferred version, as `kubectl get` reads it),
the cluster-scoped AIM kinds always (the namespace's services resolve against them, as `kubectl get
-n NS` lists them too), and the kinds of the children the project plans, plus Services, where KServe
puts the predictor's endpoint (the report names them as left with their InferenceService). A kind
the cluster does not serve (its CRD is absent: 404) is skipped: a cluster without KEDA has no
ScaledObjects to adopt.

A namespace holds much that is nobody's business here (`kube-root-ca.crt`, other applications'
Secrets and Services), and a dump is made of the objects someone chose. So the objects of the child
kinds are kept when they are tied to AIM: an ownerReference to an AIM object, an
`aim.eai.amd.com/*` label, `app.kubernetes.io/managed-by: aim-engine` (or `aim-pulumi`), or an
ownerReference to an object kept for one of these reasons (KServe's predictor Service). The rest
is returned apart: `import` adopts from it only the objects the plan names, so a planned child that
exists under its planned name is never created twice, whoever made it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aim_pulumi.cli.adoption import AIM_GROUP, group_of

__all__ = ["CHILD_KINDS", "ClusterRead", "ClusterReadError", "aim_kinds", "read_cluster"]

# (apiVersion, kind, plural) of the listed children.
CHILD_KINDS: tuple[tuple[str, str, str], ...] = (
    ("serving.kserve.io/v1beta1", "InferenceService", "inferenceservices"),
    ("gateway.networking.k8s.io/v1", "HTTPRoute", "httproutes"),
    ("keda.sh/v1alpha1", "ScaledObject", "scaledobjects"),
    ("v1", "PersistentVolumeClaim", "persistentvolumeclaims"),
    ("batch/v1", "Job", "jobs"),
    ("v1", "ConfigMap", "configmaps"),
    ("v1", "Secret", "secrets"),
    ("v1", "Service", "services"),
)
# The typed client's method stem of each core and batch kind (`list_namespaced_<stem>`).
_TYPED_STEMS = {
    "PersistentVolumeClaim": "persistent_volume_claim",
    "Job": "job",
    "ConfigMap": "config_map",
    "Secret": "secret",
    "Service": "service",
}
_MANAGERS = frozenset({"aim-engine", "aim-pulumi"})
_PAGE = 500


class ClusterReadError(Exception):
    """The cluster could not be read (unreachable, a kind the credentials may not list, ...)."""


@dataclass
class ClusterRead:
    """`objects`: what a dump of the deployment holds; `others`: listed, but tied to no AIM object."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    others: list[dict[str, Any]] = field(default_factory=list)


def _pages(
    fetch: Callable[[str | None], Mapping[str, Any]], api_version: str, kind: str
) -> Iterator[dict[str, Any]]:
    """Every item of a paginated list, with the apiVersion and kind a typed list leaves off its items."""
    token: str | None = None
    while True:
        page = fetch(token)
        for item in page.get("items") or []:
            obj = dict(item)
            obj.setdefault("apiVersion", api_version)
            obj.setdefault("kind", kind)
            yield obj
        token = (page.get("metadata") or {}).get("continue") or None
        if token is None:
            return


def aim_kinds(api: Any) -> list[tuple[str, str, str, bool]]:
    """(apiVersion, kind, plural, namespaced) of every listable AIM kind, in its preferred version."""
    from kubernetes import client

    groups = client.ApisApi(api).get_api_versions().groups or []
    group = next((g for g in groups if g.name == AIM_GROUP), None)
    if group is None:
        return []
    preferred = group.preferred_version.version if group.preferred_version else None
    versions = [v.version for v in group.versions or []]
    ordered = ([preferred] if preferred else []) + [v for v in versions if v != preferred]
    found: dict[str, tuple[str, str, str, bool]] = {}
    custom = client.CustomObjectsApi(api)
    for version in ordered:
        for resource in custom.get_api_resources(AIM_GROUP, version).resources or []:
            if "/" in resource.name or resource.kind in found or "list" not in (resource.verbs or []):
                continue
            found[resource.kind] = (
                f"{AIM_GROUP}/{version}",
                resource.kind,
                resource.name,
                bool(resource.namespaced),
            )
    return sorted(found.values(), key=lambda k: k[1])


def _list(api: Any, api_version: str, kind: str, plural: str, namespace: str | None) -> list[dict[str, Any]]:
    """One kind's objects, in `namespace` or everywhere; [] when the cluster does not serve the kind."""
    from kubernetes import client

    group = group_of(api_version)
    version = api_version.rsplit("/", 1)[-1]
    fetch: Callable[[str | None], Mapping[str, Any]]
    if kind in _TYPED_STEMS:
        # The typed core/batch APIs, their JSON read as the server sent it (a model object would
        # drop the fields this client version does not know).
        typed = client.BatchV1Api(api) if group == "batch" else client.CoreV1Api(api)
        stem = _TYPED_STEMS[kind]
        if namespace is None:
            method = getattr(typed, f"list_{stem}_for_all_namespaces")
            args: tuple[str, ...] = ()
        else:
            method = getattr(typed, f"list_namespaced_{stem}")
            args = (namespace,)

        def fetch(token: str | None) -> Mapping[str, Any]:
            response = method(*args, limit=_PAGE, _continue=token, _preload_content=False)
            page: Mapping[str, Any] = json.loads(response.data)
            return page

    else:
        custom = client.CustomObjectsApi(api)

        def fetch(token: str | None) -> Mapping[str, Any]:
            # The client types a custom object list as `object`: it is the decoded JSON.
            if namespace is None:
                page = custom.list_cluster_custom_object(group, version, plural, limit=_PAGE, _continue=token)
            else:
                page = custom.list_namespaced_custom_object(
                    group, version, namespace, plural, limit=_PAGE, _continue=token
                )
            return page if isinstance(page, Mapping) else {}

    try:
        return list(_pages(fetch, api_version, kind))
    except client.ApiException as exc:
        if exc.status == 404:  # the kind's CRD is not installed
            return []
        where = f"in namespace {namespace}" if namespace else "in all namespaces"
        raise ClusterReadError(
            f"listing {plural}.{group or 'core'} {where}: HTTP {exc.status} {exc.reason}"
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
    from kubernetes import client, config
    from urllib3.exceptions import HTTPError

    load: Any = config.new_client_from_config  # untyped in the client
    api = load(config_file=kubeconfig, context=context, persist_config=False)
    try:
        objects: list[dict[str, Any]] = []
        try:
            aim_kinds_found = aim_kinds(api)
        except client.ApiException as exc:
            raise ClusterReadError(
                f"discovering the {AIM_GROUP} kinds: HTTP {exc.status} {exc.reason}"
            ) from None
        for api_version, kind, plural, namespaced in aim_kinds_found:
            objects.extend(_list(api, api_version, kind, plural, namespace if namespaced else None))
        for api_version, kind, plural in CHILD_KINDS:
            objects.extend(_list(api, api_version, kind, plural, namespace))
    except HTTPError as exc:  # connection refused, TLS, timeouts: urllib3 gave up
        raise ClusterReadError(f"cannot reach the API server: {exc}") from None
    finally:
        api.close()
    return tied_to_aim(objects)
