"""What selection reads of the catalog it is handed, as protocols of its own room.

The catalog sits above selection (its indexes store selection's candidates), so selection is written
against these read-only views rather than the store: the store satisfies them, checked by mypy where
the plan hands it over, and no module of selection names the room above it, not even for types.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol, TypeVar

from aim_pulumi.api.errors import AIMError
from aim_pulumi.api.io import AIMObject
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.objects import AnyModel
from aim_pulumi.resolve.selection.candidate import InventoryView, ProfileEntry

__all__ = ["CatalogView"]

_T = TypeVar("_T")


class CatalogView(Protocol):
    """The lookups and pools selection reads; every method is deterministic in the catalog's contents."""

    @property
    def inventory(self) -> InventoryView | None: ...

    def get(self, kind: str, namespace: str | None, name: str) -> AIMObject | None: ...

    def model(self, namespace: str, name: str) -> AnyModel | None: ...

    def models_with_image(self, namespace: str, image: str) -> tuple[list[AnyModel], list[AnyModel]]: ...

    def has_model_or_profiles(self, namespace: str, model_name: str) -> bool: ...

    def generation_error(self, model: AnyModel) -> AIMResolutionError | None: ...

    def discovery_error(self, model: AnyModel) -> AIMError | None: ...

    def replaces_embedded_default(self) -> bool: ...

    def profile_pool(
        self, namespace: str, *, model: str | None = None, aim_id: str | None = None
    ) -> list[ProfileEntry]: ...

    def profile_entry(self, kind: str, namespace: str | None, name: str) -> ProfileEntry | None: ...

    def retained_profile_entry(self, kind: str, namespace: str | None, name: str) -> ProfileEntry | None: ...

    def names_of(self, kind: str) -> list[tuple[str, str]]: ...

    def memoised(self, key: Hashable, compute: Callable[[], _T]) -> _T: ...
