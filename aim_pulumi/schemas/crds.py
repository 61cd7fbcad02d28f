"""CustomResourceDefinitions rebuilt from the vendored CRD schemas, for a cluster that has none.

A cluster the children are applied to needs the KServe, Gateway API and KEDA CRDs (and, to hold AIM
objects themselves, the AIM CRDs). The vendored schemas are each CRD's own `openAPIV3Schema` (minus
descriptions, plus the `x-source` record of where it came from), so the definition is that schema
put back in its place: the same structure, the same `x-kubernetes-*` markers and CEL rules, with
the status subresource every one of these kinds has upstream. Versions of one kind (AIMService
v1alpha1 and v1alpha2) become one CRD with both versions served, the source's storage version
stored, and no conversion webhook (the API server converts by rewriting `apiVersion`).

Core kinds (Job, PVC, ...) are the API server's own and have no definition here.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

__all__ = ["crd_manifests", "crd_schema", "custom_resource_definition"]

_SCHEMA_ONLY_KEYS = ("$schema", "$id", "x-source", "x-kubernetes-group-version-kind")
# Groups under k8s.io are protected: the API server wants the approval their upstream CRDs carry.
_API_APPROVALS = {"gateway.networking.k8s.io": "https://github.com/kubernetes-sigs/gateway-api/pull/2997"}


def _crd_schemas() -> list[dict[str, Any]]:
    """Every vendored schema that came from a CRD (its `x-source` names one)."""
    found = []
    for entry in sorted(resources.files("aim_pulumi.schemas").iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".json"):
            continue
        document = json.loads(entry.read_text(encoding="utf-8"))
        if isinstance(document.get("x-source"), Mapping) and document["x-source"].get("crd"):
            found.append(document)
    return found


def _version(document: Mapping[str, Any]) -> dict[str, Any]:
    source = document["x-source"]
    schema = {k: v for k, v in document.items() if k not in _SCHEMA_ONLY_KEYS}
    # A CRD may say nothing of `metadata` beyond its type: the API server owns ObjectMeta's schema.
    properties = dict(schema.get("properties") or {})
    properties["metadata"] = {"type": "object"}
    schema["properties"] = properties
    version: dict[str, Any] = {
        "name": source["version"],
        "served": bool(source.get("served", True)),
        "storage": bool(source.get("storage", True)),
        "schema": {"openAPIV3Schema": schema},
    }
    if "status" in properties:
        version["subresources"] = {"status": {}}
    return version


def custom_resource_definition(documents: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """One CRD from the vendored schemas of its versions (all of one `x-source.crd`)."""
    versions = sorted(documents, key=lambda d: str(d["x-source"]["version"]))
    if not versions:
        raise ValueError("a CRD needs at least one version")
    first = versions[0]
    source = first["x-source"]
    gvk = first["x-kubernetes-group-version-kind"][0]
    name = str(source["crd"])
    plural, group = name.split(".", 1)
    kind = str(gvk["kind"])
    built = [_version(d) for d in versions]
    if sum(v["storage"] for v in built) != 1:
        # Exactly one stored version: the newest one, unless the sources say otherwise.
        for v in built:
            v["storage"] = v is built[-1]
    metadata: dict[str, Any] = {"name": name}
    if group in _API_APPROVALS:
        metadata["annotations"] = {"api-approved.kubernetes.io": _API_APPROVALS[group]}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": metadata,
        "spec": {
            "group": group,
            "names": {
                "kind": kind,
                "listKind": f"{kind}List",
                "plural": plural,
                "singular": kind.lower(),
            },
            "scope": str(
                source.get("scope") or ("Cluster" if kind.startswith("AIMCluster") else "Namespaced")
            ),
            "versions": built,
        },
    }


def crd_manifests(groups: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Every CRD the vendored schemas describe (optionally only those of `groups`), sorted by name."""
    wanted = set(groups) if groups is not None else None
    by_name: dict[str, list[dict[str, Any]]] = {}
    for document in _crd_schemas():
        name = str(document["x-source"]["crd"])
        if wanted is None or name.split(".", 1)[1] in wanted:
            by_name.setdefault(name, []).append(document)
    return [custom_resource_definition(by_name[name]) for name in sorted(by_name)]


@functools.cache
def _schemas_by_type() -> dict[tuple[str, str], Mapping[str, Any]]:
    schemas: dict[tuple[str, str], Mapping[str, Any]] = {}
    for crd in crd_manifests():
        spec = crd["spec"]
        for version in spec["versions"]:
            api_version = f"{spec['group']}/{version['name']}"
            schemas[(api_version, spec["names"]["kind"])] = version["schema"]["openAPIV3Schema"]
    return schemas


def crd_schema(api_version: str, kind: str) -> Mapping[str, Any] | None:
    """The `openAPIV3Schema` of a kind the vendored CRDs define; None for the API server's own kinds.

    One object per kind for the life of the process, so the defaulters made for it are made once.
    """
    return _schemas_by_type().get((api_version, kind))
