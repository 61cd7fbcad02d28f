"""The catalog's template index: templates by the model they serve, answered per namespace.

A v1alpha1 service finds its template by name or among its model's templates (behaviour §7.2), so
the catalog keeps the templates by `spec.modelName` as it keeps profiles by model. The index is
v1alpha1's own: its `Extension` (`extension.py`) hands the catalog a factory of it (`Extension.index`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aim_pulumi.api import AIMKind, to_manifest
from aim_pulumi.resolve.legacy.kinds import TEMPLATE_KINDS
from aim_pulumi.resolve.objects import Key
from aim_pulumi.resolve.scalars import text

if TYPE_CHECKING:
    from aim_pulumi.resolve.catalog.store import Catalog

__all__ = ["TemplateIndex", "template_index"]


class TemplateIndex:
    """The templates of one catalog, by model name and namespace ("" for cluster templates)."""

    kinds = TEMPLATE_KINDS

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._by_model: dict[str, dict[str, list[AIMKind]]] = {}

    def add(self, key: Key, obj: AIMKind) -> None:
        model_name = text((to_manifest(obj).get("spec") or {}).get("modelName"))
        self._by_model.setdefault(model_name, {}).setdefault(key[1], []).append(obj)

    def template(self, namespace: str, name: str) -> AIMKind | None:
        """The template of that name: the namespace's, else the cluster's."""
        return self._catalog.lookup("AIMServiceTemplate", "AIMClusterServiceTemplate", namespace, name)

    def templates_for_model(self, namespace: str, model_name: str) -> list[AIMKind]:
        """Visible templates whose `spec.modelName` is the model: namespace ones first, by name."""
        per_ns = self._by_model.get(model_name, {})
        local = sorted(per_ns.get(namespace, ()), key=lambda o: o.metadata.name)
        cluster = sorted(per_ns.get("", ()), key=lambda o: o.metadata.name)
        return local + cluster


def template_index(catalog: Catalog) -> TemplateIndex:
    """The template index of a catalog (every catalog has one while v1alpha1 is installed)."""
    return catalog.index(TemplateIndex)
