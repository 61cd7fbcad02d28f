"""The shape of an index a version's folder adds to the catalog, so the catalog names no kind it does not own.

The catalog indexes the v1alpha2 kinds itself (profiles by model and aimId, models by image). A
version's folder hands the catalog a factory of its own index with its `Extension`
(`aim_pulumi/resolve/catalog/extension.py`; v1alpha1's template index); the catalog builds one,
feeds it the objects of its kinds, and the folder answers its own queries from it
(`catalog.index(TemplateIndex).template(...)`), so the catalog has no method of a kind it does not own.
"""

from __future__ import annotations

from typing import Protocol

from aim_pulumi.api import AIMKind
from aim_pulumi.resolve.objects import Key

__all__ = ["CatalogIndex"]


class CatalogIndex(Protocol):
    """One index of one catalog: the kinds it is fed."""

    kinds: frozenset[str]

    def add(self, key: Key, obj: AIMKind) -> None: ...
