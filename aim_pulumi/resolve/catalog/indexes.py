"""Indexes a version's folder adds to the catalog, so the catalog names no kind it does not own.

The catalog indexes the v1alpha2 kinds itself (profiles by model and aimId, models by image). The
v1alpha1 folder (`aim_pulumi/resolve/legacy/`) adds its template index here when the seam
(`aim_pulumi.api.extensions`) loads it; every catalog then builds one of each registered index,
feeds it the objects of its kinds; the folder answers its own queries from it
(`catalog.index(TemplateIndex).template(...)`), so the catalog has no method of a kind it does not own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from aim_pulumi.api import AIMKind
from aim_pulumi.resolve.objects import Key

__all__ = ["INDEXES", "CatalogIndex", "register_index"]


class CatalogIndex(Protocol):
    """One index of one catalog: the kinds it is fed."""

    kinds: frozenset[str]

    def add(self, key: Key, obj: AIMKind) -> None: ...


#: One factory per registered index, called with the new catalog (for its by-name lookups).
INDEXES: list[Callable[[Any], CatalogIndex]] = []


def register_index(factory: Callable[[Any], CatalogIndex]) -> None:
    """Give every catalog built from now on an index made by `factory(catalog)`."""
    INDEXES.append(factory)
