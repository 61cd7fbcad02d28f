"""Builders shared by the derivation tests: catalogs from YAML, derived profiles as manifests."""

from __future__ import annotations

from typing import Any

import yaml

from aim_pulumi.api import AIMObject, parse, to_manifest
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.derivation.derive import Derivation

G = "aim.eai.amd.com"
NS = "ml-team"


def objects(text: str, namespace: str = NS) -> list[AIMObject]:
    """Every document of `text`, namespaced kinds put in `namespace` unless they say otherwise."""
    out: list[AIMObject] = []
    for doc in yaml.safe_load_all(text):
        if not doc:
            continue
        if not doc["kind"].startswith("AIMCluster"):
            doc["metadata"].setdefault("namespace", namespace)
        out.append(parse(doc))
    return out


def catalog(text: str, *, inventory: Inventory | None = None) -> Catalog:
    return Catalog(objects(text), inventory=inventory, embed_default=False)


def only_derivation(cat: Catalog) -> Derivation:
    sets = cat.profile_sets()
    assert len(sets) == 1, [s.object_ref for s in sets]
    derivation = cat.derivation(sets[0])
    assert derivation is not None
    return derivation


def derived_manifests(derivation: Derivation) -> list[dict[str, Any]]:
    return [to_manifest(d.profile) for d in derivation.profiles]
