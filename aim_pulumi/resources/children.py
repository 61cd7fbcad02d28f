"""The one place a built manifest becomes a pulumi-kubernetes resource.

The builders speak Kubernetes (camelCase dicts); pulumi-kubernetes accepts those dicts as they
are, so what Pulumi registers is byte for byte the manifest the builders produced (and the
project's schema validator checked). Typed SDK classes are used where they exist so diffs and
await logic are the provider's native ones; the KServe, Gateway API and KEDA kinds go through
`apiextensions.CustomResource`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from aim_pulumi.manifests.cache import (
    JOB_FIXED_AT_CREATION,
    PVC_FIXED_AT_CREATION,
    PVC_FIXED_FIELDS,
    kept_at_creation,
)
from aim_pulumi.resources._sdk import kubernetes_sdk_version

__all__ = ["CUSTOM_KINDS", "ObservedCustomResource", "inherited_dependencies", "read_child", "register_child"]

# (apiVersion, kind) of the CRD-backed children a service can have.
CUSTOM_KINDS = frozenset(
    {
        ("serving.kserve.io/v1beta1", "InferenceService"),
        ("gateway.networking.k8s.io/v1", "HTTPRoute"),
        ("keda.sh/v1alpha1", "ScaledObject"),
    }
)
_ALLOWED_TOP_LEVEL: Mapping[tuple[str, str], frozenset[str]] = {
    ("v1", "ConfigMap"): frozenset({"apiVersion", "kind", "metadata", "data", "binaryData", "immutable"}),
    ("v1", "Secret"): frozenset({"apiVersion", "kind", "metadata", "type", "stringData"}),
    ("v1", "PersistentVolumeClaim"): frozenset({"apiVersion", "kind", "metadata", "spec"}),
    ("batch/v1", "Job"): frozenset({"apiVersion", "kind", "metadata", "spec"}),
    **{key: frozenset({"apiVersion", "kind", "metadata", "spec"}) for key in CUSTOM_KINDS},
}


class ObservedCustomResource(k8s.apiextensions.CustomResource):
    """`apiextensions.CustomResource` that also exposes the object's `status` as an output.

    The SDK class resolves only the properties it registers, so a custom object's status (the
    InferenceService's `Ready` condition, the HTTPRoute's parent conditions) would never reach the
    program; the AIMService status is read from it. It registers the same type token and inputs.
    """

    status: pulumi.Output[Any]
    """The `status` the provider read back from the cluster (None until a controller writes one)."""

    def __init__(
        self,
        resource_name: str,
        api_version: str,
        kind: str,
        metadata: Any = None,
        spec: Any = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(version=kubernetes_sdk_version()))
        props = {"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec, "status": None}
        pulumi.CustomResource.__init__(self, f"kubernetes:{api_version}:{kind}", resource_name, props, opts)
        # What `read_child` reads it back as (the SDK's own outputs are Outputs of these).
        self.api_version_of = api_version
        self.kind_of = kind
        self.name_of = metadata.get("name") if isinstance(metadata, Mapping) else None
        self.namespace_of = metadata.get("namespace") if isinstance(metadata, Mapping) else None


def inherited_dependencies(opts: pulumi.ResourceOptions | None) -> list[Any]:
    """A component's own `depends_on` (e.g. its Namespace), which Pulumi does not pass to children.

    Children get it explicitly so that they too are created after what the component waits for.
    """
    depends_on = opts.depends_on if opts is not None else None
    if depends_on is None:
        return []
    return list(depends_on) if isinstance(depends_on, list | tuple) else [depends_on]


def register_child(
    name: str, manifest: Mapping[str, Any], opts: pulumi.ResourceOptions | None = None
) -> pulumi.CustomResource:
    """Declare `manifest` as the Pulumi resource `name`; unknown kinds or fields are a bug, not input."""
    api_version = manifest.get("apiVersion")
    kind = manifest.get("kind")
    key = (str(api_version), str(kind))
    allowed = _ALLOWED_TOP_LEVEL.get(key)
    if allowed is None:
        raise ValueError(f"{name}: no Pulumi resource is known for {api_version}/{kind}")
    extra = sorted(set(manifest) - allowed)
    if extra:
        raise ValueError(f"{name}: {api_version}/{kind} manifest has fields a child cannot carry: {extra}")
    metadata = manifest.get("metadata")
    if key == ("v1", "ConfigMap"):
        return k8s.core.v1.ConfigMap(
            name,
            metadata=metadata,
            data=manifest.get("data"),
            binary_data=manifest.get("binaryData"),
            immutable=manifest.get("immutable"),
            opts=opts,
        )
    if key == ("v1", "Secret"):
        # The SDK class holds stringData as a Pulumi secret, whatever the values were.
        return k8s.core.v1.Secret(
            name,
            metadata=metadata,
            type=manifest.get("type"),
            string_data=manifest.get("stringData"),
            opts=opts,
        )
    if key == ("v1", "PersistentVolumeClaim"):
        # Every PVC a service has is a cache, whose access modes its creation fixed.
        kept = pulumi.ResourceOptions(ignore_changes=list(PVC_FIXED_AT_CREATION))
        return k8s.core.v1.PersistentVolumeClaim(
            name, metadata=metadata, spec=manifest.get("spec"), opts=pulumi.ResourceOptions.merge(opts, kept)
        )
    if key == ("batch/v1", "Job"):
        # Every Job a service has is a download Job, which its creation fixed (all but its name).
        fixed = pulumi.ResourceOptions(ignore_changes=list(JOB_FIXED_AT_CREATION))
        return k8s.batch.v1.Job(
            name, metadata=metadata, spec=manifest.get("spec"), opts=pulumi.ResourceOptions.merge(opts, fixed)
        )
    return ObservedCustomResource(
        name,
        api_version=key[0],
        kind=key[1],
        metadata=metadata,
        spec=manifest.get("spec"),
        opts=opts,
    )


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def warn_if_kept_at_creation(
    pvc: pulumi.CustomResource, manifest: Mapping[str, Any], job_name: str, resource: pulumi.Resource
) -> None:
    """Warn on `resource` when the cache PVC Pulumi knows keeps fields the plan would change.

    Its access modes are in `ignoreChanges` (`PVC_FIXED_AT_CREATION`), so such a change
    would otherwise pass unseen; the PVC's outputs are what the cluster holds (a preview of one not
    created yet echoes the plan, and warns of nothing).
    """

    def check(spec: Any) -> None:
        # The SDK's output type names its fields in Python (`access_modes`); a mock's is a plain dict.
        live = {
            field: getattr(spec, _snake(field)) if hasattr(spec, _snake(field)) else (spec or {}).get(field)
            for field in PVC_FIXED_FIELDS
        }
        message = kept_at_creation(manifest, job_name, live if spec else None)
        if message is not None:
            pulumi.log.warn(message, resource=resource)

    pvc.spec.apply(check)  # type: ignore[attr-defined]


def read_child(
    name: str, child: ObservedCustomResource, opts: pulumi.ResourceOptions | None = None
) -> ObservedCustomResource:
    """Read a CRD-backed child back from the cluster as the Pulumi resource `name` (a `read` step).

    The read happens once everything in `opts.depends_on` is registered, so its `status` is what
    the object's controller wrote by then. In a preview of a child not created yet its id is
    unknown, and so is what the read returns. The read names the object's namespace and name as
    well as its id: the provider reads a custom resource whose kind it is given in the namespace
    of the inputs, not of the id.
    """
    return ObservedCustomResource(
        name,
        api_version=child.api_version_of,
        kind=child.kind_of,
        metadata={"name": child.name_of, "namespace": child.namespace_of},
        opts=pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=child.id)),
    )
