"""`aim-pulumi import --apply`: the operator's removal steps that are API calls, made against the cluster.

The same steps, in the same order and with the same request bodies, as the `kubectl` commands
`import` prints (`aim_pulumi.cli.adoption.removal_steps`):

1. the operator's Deployment scaled to zero (its `scale` subresource), so nothing puts back what
   the next steps change;
2. each child's ownerReferences to AIM objects removed with the uid-guarded JSON patch of
   `owner_patch_ops` (a reference list that changed since it was read fails the patch, and the
   command with it, rather than removing another reference);
3. with `--delete-aim-objects` only: every AIM object deleted with `propagationPolicy: Orphan`,
   services first, each first cleared of its finalizers (the stopped operator would never remove
   them). Orphaning leaves every child, whoever owns it, so this may run before or after
   `pulumi up`; it ends the operator's deployment for good, which is why it is asked for apart.

`pulumi import` and `pulumi up` are not API calls of this kind and stay the user's: they run in the
user's Pulumi project, with its backend and credentials.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aim_pulumi.cli.adoption import AIM_GROUP, Dump, describe, group_of, object_key, owner_patch_ops
from aim_pulumi.cli.cluster_read import CHILD_KINDS, ClusterReadError

__all__ = ["apply_removal"]

_PLURALS = {kind: plural for _, kind, plural in CHILD_KINDS}


def _path(obj: Mapping[str, Any], plurals: Mapping[str, str], suffix: str = "") -> str:
    api_version = str(obj.get("apiVersion") or "")
    group, kind, namespace, name = object_key(obj)
    plural = plurals.get(kind) or _PLURALS.get(kind) or f"{kind.lower()}s"
    base = f"/apis/{api_version}" if group else f"/api/{api_version}"
    where = f"/namespaces/{namespace}" if namespace else ""
    return f"{base}{where}/{plural}/{name}{suffix}"


def apply_removal(
    kubeconfig: str,
    context: str | None,
    dump: Dump,
    *,
    operator_namespace: str,
    operator_deployment: str,
    delete: bool,
    say: Callable[[str], None],
) -> None:
    """Make the removal's API calls in order; raises `ClusterReadError` on the first that fails."""
    from kubernetes import client, config
    from urllib3.exceptions import HTTPError

    from aim_pulumi.cli.cluster_read import aim_kinds

    load: Any = config.new_client_from_config  # untyped in the client
    api = load(config_file=kubeconfig, context=context, persist_config=False)

    def call(method: str, path: str, body: Any, content_type: str, what: str) -> None:
        request = api.param_serialize(
            method=method,
            resource_path=path,
            header_params={"Content-Type": content_type, "Accept": "application/json"},
            body=body,
            auth_settings=["BearerToken"],
        )
        try:
            response = api.call_api(*request)
            response.read()
        except client.ApiException as exc:
            raise ClusterReadError(f"{what}: HTTP {exc.status} {exc.reason}") from None
        if not 200 <= int(response.status) < 300:
            raise ClusterReadError(f"{what}: HTTP {response.status} {_message(response.data)}")
        say(f"applied: {what}")

    try:
        plurals = {kind: plural for _, kind, plural, _ in aim_kinds(api)}
        call(
            "PATCH",
            f"/apis/apps/v1/namespaces/{operator_namespace}/deployments/{operator_deployment}/scale",
            {"spec": {"replicas": 0}},
            "application/merge-patch+json",
            f"scale Deployment {operator_namespace}/{operator_deployment} to zero",
        )
        for obj in sorted(dump.live, key=object_key):
            ops = owner_patch_ops(obj)
            if ops is not None:
                call(
                    "PATCH",
                    _path(obj, plurals),
                    ops,
                    "application/json-patch+json",
                    f"remove the ownerReferences of {describe(obj)} to AIM objects",
                )
        if delete:
            for aim_obj in _aim_objects(dump):
                if (aim_obj.get("metadata") or {}).get("finalizers"):
                    call(
                        "PATCH",
                        _path(aim_obj, plurals),
                        {"metadata": {"finalizers": None}},
                        "application/merge-patch+json",
                        f"clear the finalizers of {describe(aim_obj)}",
                    )
                call(
                    "DELETE",
                    _path(aim_obj, plurals),
                    {"apiVersion": "v1", "kind": "DeleteOptions", "propagationPolicy": "Orphan"},
                    "application/json",
                    f"delete {describe(aim_obj)}, orphaning its children",
                )
    except (HTTPError, OSError) as exc:  # connection refused, TLS, timeouts
        raise ClusterReadError(f"cannot reach the API server: {exc}") from None
    finally:
        api.close()


def _message(data: bytes | None) -> str:
    """The API server's `Status.message` of a refused call (a failed uid `test`, a missing object)."""
    try:
        status = json.loads(data or b"{}")
    except ValueError:
        return ""
    return str(status.get("message") or "") if isinstance(status, dict) else ""


def _aim_objects(dump: Dump) -> Sequence[Mapping[str, Any]]:
    """The dump's AIM objects, services first (as the printed steps delete them)."""
    objects = [*dump.aim, *(o for o, _ in dump.aim_left)]
    assert all(group_of(str(o.get("apiVersion") or "")) == AIM_GROUP for o in objects)
    return sorted(objects, key=lambda o: (o.get("kind") != "AIMService", object_key(o)))
