"""A profile as selection sees it: every fact a filter or a ranking tier reads, computed once.

The catalog stores these entries in its indexes, so that filtering ten thousand profiles compares
precomputed strings; the rules behind the facts (the base role, tier 1 availability, the type rank
and the version) are selection's and live here, next to the filters and the ranking that read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from aim_pulumi.api.profile import ProfileSpec, ProfileStatus
from aim_pulumi.resolve.objects import (
    OVERLAY_SERVICE_ANNOTATION,
    PROFILE_ORIGIN_LABEL,
    PROFILE_ROLE_LABEL,
    SOURCE_MODEL_LABEL,
    SOURCE_MODEL_SCOPE_LABEL,
    AnyProfile,
    Key,
    object_key,
)
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.versions import VersionKey, profile_version
from aim_pulumi.resolve.types import ObjectRef, Scope

# Type rank of behaviour §4.3: lower is better; an unset type ranks with `unoptimized`.
TYPE_RANK: Mapping[str, int] = {"optimized": 0, "general": 1, "preview": 2, "unoptimized": 3}
UNSET_TYPE_RANK = 3


class InventoryView(Protocol):
    """The declared hardware, as the catalog's inventory is seen from here: is an accelerator present?"""

    def has(
        self,
        vendor: str | None,
        type: str | None,
        model: str | None,
        partitioning_mode: str | None,
        count: int | None,
    ) -> bool: ...


def profile_available(
    spec: ProfileSpec, status: ProfileStatus | None, inventory: InventoryView | None
) -> bool:
    """Tier 1 of the ranking: explicit status first, then the inventory, else available."""
    state = text(status.status if status is not None else None)
    if state in ("Ready", "Running"):
        return True
    if state in ("NotAvailable", "Failed"):
        return False
    if inventory is None:
        return True
    return inventory.has(
        text(spec.accelerator_vendor),
        text(spec.accelerator_type),
        text(spec.accelerator_model),
        text(spec.accelerator_partitioning_mode),
        spec.accelerator_count,
    )


# Spec fields selection compares as text (camelCase, as selectors name them, to the typed
# attribute); precomputed once per profile.
TEXT_FIELDS: Mapping[str, str] = {
    "aimId": "aim_id",
    "modelId": "model_id",
    "profileId": "profile_id",
    "engine": "engine",
    "metric": "metric",
    "precision": "precision",
    "type": "type",
    "image": "image",
    "acceleratorModel": "accelerator_model",
    "acceleratorVendor": "accelerator_vendor",
    "acceleratorType": "accelerator_type",
    "acceleratorPartitioningMode": "accelerator_partitioning_mode",
}


def is_base_spec(spec: ProfileSpec) -> bool:
    """Neither `aimId` nor `modelSources`: a base (skeleton) profile, as upstream marks it."""
    return not text(spec.aim_id) and not spec.model_sources


@dataclass(frozen=True, slots=True)
class ProfileEntry:
    """A profile prepared for selection: the object plus its selection-relevant facts.

    `texts` holds the TEXT_FIELDS of the spec as strings ("" when unset) so that filters compare
    plain strings; `source_model` / `source_model_scope` are the provenance labels ("" when absent).
    The spec and status are the typed ones of `obj` (`spec`, `status`, None when unset).
    """

    obj: AnyProfile
    key: Key
    kind: str
    scope: Scope
    namespace: str
    name: str
    labels: Mapping[str, str]
    spec: ProfileSpec
    status: ProfileStatus | None
    texts: Mapping[str, str]
    source_model: str
    source_model_scope: str
    role: str
    origin: str
    overlay: bool
    type_rank: int
    policy: str
    primary: bool
    available: bool
    version: VersionKey
    generated: bool = False

    @property
    def ref(self) -> ObjectRef:
        return ObjectRef(self.kind, self.name, self.namespace, self.scope, self.obj.effective_uid)

    @property
    def deployable(self) -> bool | None:
        """`status.deployable` as written (None when unset)."""
        return self.status.deployable if self.status is not None else None

    @property
    def state(self) -> str:
        """`status.status` as text ("" when unset)."""
        return text(self.status.status if self.status is not None else None)

    def field(self, camel: str) -> str:
        """A TEXT_FIELDS spec field (camelCase) as text."""
        return self.texts[camel]

    @classmethod
    def build(
        cls, obj: AnyProfile, inventory: InventoryView | None, *, generated: bool = False
    ) -> ProfileEntry:
        spec, status = obj.spec, obj.status
        version = status.version if status is not None else None
        labels = dict(obj.metadata.labels or {})
        annotations = obj.metadata.annotations or {}
        role = labels.get(PROFILE_ROLE_LABEL) or (
            "base"
            if (status is not None and status.deployable is False) or is_base_spec(spec)
            else "deployable"
        )
        key = object_key(obj)
        texts = {camel: text(getattr(spec, attr)) for camel, attr in TEXT_FIELDS.items()}
        return cls(
            obj=obj,
            key=key,
            kind=key[0],
            scope="Namespace" if key[0] == "AIMProfile" else "Cluster",
            namespace=key[1],
            name=key[2],
            labels=labels,
            spec=spec,
            status=status,
            texts=texts,
            source_model=labels.get(SOURCE_MODEL_LABEL, ""),
            source_model_scope=labels.get(SOURCE_MODEL_SCOPE_LABEL, ""),
            role=role,
            origin=labels.get(PROFILE_ORIGIN_LABEL, "user-authored"),
            overlay=bool(annotations.get(OVERLAY_SERVICE_ANNOTATION)),
            type_rank=TYPE_RANK.get(texts["type"], UNSET_TYPE_RANK),
            policy=text(spec.auto_selection_policy) or "optimized",
            primary=spec.primary is True,
            available=profile_available(spec, status, inventory),
            version=VersionKey.of(profile_version(version, texts["image"] or None)),
            generated=generated,
        )
