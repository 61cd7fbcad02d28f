"""Plain Kubernetes objects of an AIM directory, declared as ordinary pulumi-kubernetes resources.

A directory that `kubectl apply -f` deploys whole (the Namespace, a Secret, the AIM objects)
deploys whole through `AIMStack` too. Each object becomes the pulumi-kubernetes resource of its
kind: the SDK's own class for a built-in kind (so a Secret's data is a Pulumi secret and the
provider's await and diff logic are the native ones), a `kubernetes:<apiVersion>:<kind>` custom
resource (what `apiextensions.CustomResource` registers, with every top-level field) for any
other group. The classes are used directly rather than through `yaml.v2.ConfigGroup`, which the
provider expands at deploy time and so could not be planned offline.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Mapping
from typing import Any

import pulumi

from aim_pulumi.api.errors import AIMValidationError
from aim_pulumi.manifests.child_admission import object_problems

__all__ = ["check_kubernetes_object", "declare_kubernetes_object", "sdk_class"]

# Written by the cluster, never by a manifest author: not an input of any resource.
_OUTPUT_ONLY = ("status",)
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_CAMEL_BACK = re.compile(r"_([a-z])")


def _module_name(group: str) -> str | None:
    """The pulumi_kubernetes module of an API group: `` -> core, `rbac.authorization.k8s.io` -> rbac."""
    if group == "":
        return "core"
    if "." not in group:
        return group
    if group.endswith(".k8s.io"):
        return group.split(".", 1)[0]
    return None


def sdk_class(api_version: str, kind: str) -> type[pulumi.CustomResource] | None:
    """The pulumi-kubernetes class of a built-in kind, or None for a custom resource."""
    group, _, version = api_version.rpartition("/")
    module_name = _module_name(group)
    if module_name is None or not version:
        return None
    try:
        module = importlib.import_module(f"pulumi_kubernetes.{module_name}.{version}")
    except ImportError:
        return None
    cls = getattr(module, kind, None)
    if isinstance(cls, type) and issubclass(cls, pulumi.CustomResource):
        return cls
    return None


def _arguments(manifest: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in manifest.items() if k not in ("apiVersion", "kind", *_OUTPUT_ONLY)}


def _snake(key: str) -> str:
    return _CAMEL.sub("_", key).lower()


def _required_fields(api_version: str, kind: str) -> list[str]:
    """The top-level fields the SDK class of a built-in kind requires (a Deployment's `spec`)."""
    cls = sdk_class(api_version, kind)
    args = getattr(inspect.getmodule(cls), f"{kind}Args", None) if cls is not None else None
    if not isinstance(args, type):
        return []
    return [
        name
        for name, parameter in inspect.signature(args).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is inspect.Parameter.empty
    ]


def check_kubernetes_object(manifest: Mapping[str, Any], *, values: bool = True) -> None:
    """Raise before anything registers when an object cannot become its pulumi-kubernetes resource.

    Every object needs `metadata.name` (its Pulumi name and the cluster's key); a built-in kind
    must keep to its SDK class's top-level fields and give the ones the class requires, which the
    class would otherwise refuse with a bare `TypeError` halfway through a program.
    """
    api_version, kind = str(manifest["apiVersion"]), str(manifest["kind"])
    metadata = manifest.get("metadata")
    if not isinstance(metadata, Mapping) or not isinstance(metadata.get("name"), str) or not metadata["name"]:
        raise AIMValidationError("metadata.name", "InvalidSpec", f"{api_version} {kind} needs metadata.name")
    cls = sdk_class(api_version, kind)
    if cls is None:
        return
    accepted = set(inspect.signature(cls._internal_init).parameters)  # type: ignore[attr-defined]
    for key in _arguments(manifest):
        if _snake(key) not in accepted:
            raise AIMValidationError(
                key, "UnknownField", f"{api_version} {kind} has no top-level field {key!r}"
            )
    given = {_snake(key) for key, value in _arguments(manifest).items() if value is not None}
    for required in _required_fields(api_version, kind):
        if required not in given:
            field = _CAMEL_BACK.sub(lambda m: m.group(1).upper(), required)
            raise AIMValidationError(field, "InvalidSpec", f"{api_version} {kind} requires `{field}`")
    # What the API server would refuse, refused before anything registers (as a service's children);
    # `values=False` leaves that to a caller that lists every problem (`validate`).
    problems = object_problems(manifest) if values else []
    if problems:
        field, message = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise AIMValidationError(field, "InvalidSpec", f"{message}{more}")


def declare_kubernetes_object(
    name: str, manifest: Mapping[str, Any], opts: pulumi.ResourceOptions | None = None
) -> pulumi.CustomResource:
    """Declare one manifest (checked with `check_kubernetes_object`) as the Pulumi resource `name`."""
    check_kubernetes_object(manifest)
    api_version, kind = str(manifest["apiVersion"]), str(manifest["kind"])
    body = _arguments(manifest)
    cls = sdk_class(api_version, kind)
    if cls is None:
        # Every top-level field as written (a custom resource need not keep to `spec`).
        props = {"apiVersion": api_version, "kind": kind, **body}
        return pulumi.CustomResource(f"kubernetes:{api_version}:{kind}", name, props, opts)
    return cls(name, opts=opts, **{_snake(k): v for k, v in body.items()})
