"""The catalog services resolve against: declared AIM objects, the embedded default, generated profiles.

The operator answers "which profiles belong to this model" with label indexes; the catalog does the
same so that resolving a thousand services against ten thousand profiles never scans them all. Scope
rules are the operator's: a namespaced object is visible only in its namespace, a cluster object
everywhere, and where a name is looked up the namespaced object wins.

Duplicate policy (behaviour leaves it open): adding an object whose (kind, namespace, name) is
already present is a no-op when both manifests are identical (the same YAML loaded twice) and an
`AIMResolutionError` with reason `DuplicateObject` otherwise, whatever the order of the two adds.
A declared profile also wins over a generated profile of the same kind, namespace and name.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from aim_pulumi.api import (
    AIMClusterModel,
    AIMClusterProfile,
    AIMClusterRuntimeConfig,
    AIMKind,
    AIMModel,
    AIMObject,
    AIMProfile,
    load_manifests,
    to_manifest,
)
from aim_pulumi.resolve.catalog.fallbacks import generated_profiles
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config
from aim_pulumi.resolve.selection.versions import VersionKey, profile_version
from aim_pulumi.resolve.types import ObjectRef, Scope

AnyProfile = AIMProfile | AIMClusterProfile
AnyModel = AIMModel | AIMClusterModel

GROUP = "aim.eai.amd.com"
SOURCE_MODEL_LABEL = f"{GROUP}/source-model"
SOURCE_MODEL_SCOPE_LABEL = f"{GROUP}/source-model-scope"
PROFILE_ROLE_LABEL = f"{GROUP}/profile-role"
PROFILE_ORIGIN_LABEL = f"{GROUP}/profile-origin"
OVERLAY_SERVICE_ANNOTATION = f"{GROUP}/overlay-service"
FORCE_REBIND_ANNOTATION = f"{GROUP}/force-rebind"

NAMESPACED_KINDS = frozenset(
    {"AIMService", "AIMProfile", "AIMModel", "AIMRuntimeConfig", "AIMServiceTemplate"}
)
PROFILE_KINDS = frozenset({"AIMProfile", "AIMClusterProfile"})
MODEL_KINDS = frozenset({"AIMModel", "AIMClusterModel"})
RUNTIME_CONFIG_KINDS = frozenset({"AIMRuntimeConfig", "AIMClusterRuntimeConfig"})
TEMPLATE_KINDS = frozenset({"AIMServiceTemplate", "AIMClusterServiceTemplate"})

# Type rank of behaviour §4.3: lower is better; an unset type ranks with `unoptimized`.
TYPE_RANK: Mapping[str, int] = {"optimized": 0, "general": 1, "preview": 2, "unoptimized": 3}
UNSET_TYPE_RANK = 3

Key = tuple[str, str, str]  # (kind, namespace or "", name)


def text(value: Any) -> str:
    """A manifest scalar as text ("" for absent), tolerant of enum members."""
    if value is None:
        return ""
    inner = getattr(value, "value", value)
    return str(inner)


def object_key(obj: AIMKind) -> Key:
    namespace = obj.metadata.namespace if obj.KIND in NAMESPACED_KINDS else None
    return (obj.KIND, namespace or "", obj.metadata.name)


def object_ref(obj: AIMKind) -> ObjectRef:
    """The status reference of an object: cluster objects carry `namespace: ""`."""
    kind, namespace, name = object_key(obj)
    scope: Scope = "Namespace" if kind in NAMESPACED_KINDS else "Cluster"
    return ObjectRef(kind=kind, name=name, namespace=namespace, scope=scope, uid=obj.effective_uid)


# --------------------------------------------------------------------------------------------------
# Inventory


class InventoryPool(BaseModel):
    """One class of accelerator nodes the target cluster offers; `devices` is the per-node count."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    vendor: str = ""
    type: str = ""
    model: str = ""
    partitioning_mode: str = Field(default="", alias="partitioningMode")
    devices: int = Field(default=0, ge=0)


_POOLS = TypeAdapter(list[InventoryPool])


def _partitioning(value: str) -> str:
    lowered = value.strip().lower()
    return "" if lowered == "unpartitioned" else lowered


@dataclass(frozen=True)
class Inventory:
    """The accelerators a cluster has, declared because no node detector runs at deploy time.

    Matching (chosen): `cpu` always matches; vendor, type and model compare case-insensitively and
    only when both the pool and the request set them; partitioning modes compare case-insensitively
    with `unpartitioned` equal to unset; the pool must offer at least the requested device count.
    """

    pools: tuple[InventoryPool, ...] = ()

    @classmethod
    def from_config(cls, config: str | Sequence[Mapping[str, Any]]) -> Inventory:
        """Build from the `aim:inventory` stack value (a JSON list) or the already decoded list."""
        data = json.loads(config) if isinstance(config, str) else list(config)
        return cls(tuple(_POOLS.validate_python(data)))

    def has(
        self,
        vendor: str | None,
        type: str | None,
        model: str | None,
        partitioning_mode: str | None,
        count: int | None,
    ) -> bool:
        want_type = (type or "").lower()
        if want_type == "cpu":
            return True
        want_vendor, want_model = (vendor or "").lower(), (model or "").lower()
        want_mode, want_count = _partitioning(partitioning_mode or ""), count or 0
        for pool in self.pools:
            if want_type and pool.type and pool.type.lower() != want_type:
                continue
            if want_vendor and pool.vendor and pool.vendor.lower() != want_vendor:
                continue
            if want_model and pool.model and pool.model.lower() != want_model:
                continue
            if _partitioning(pool.partitioning_mode) != want_mode:
                continue
            if pool.devices < want_count:
                continue
            return True
        return False


def profile_available(
    spec: Mapping[str, Any], status: Mapping[str, Any], inventory: Inventory | None
) -> bool:
    """Tier 1 of the ranking: explicit status first, then the inventory, else available."""
    state = text(status.get("status"))
    if state in ("Ready", "Running"):
        return True
    if state in ("NotAvailable", "Failed"):
        return False
    if inventory is None:
        return True
    count = spec.get("acceleratorCount")
    return inventory.has(
        text(spec.get("acceleratorVendor")),
        text(spec.get("acceleratorType")),
        text(spec.get("acceleratorModel")),
        text(spec.get("acceleratorPartitioningMode")),
        int(count) if count is not None else None,
    )


# --------------------------------------------------------------------------------------------------
# Profile entries: every field selection reads, computed once per profile


# Spec fields selection compares as text; precomputed once per profile.
TEXT_FIELDS = (
    "aimId",
    "modelId",
    "profileId",
    "engine",
    "metric",
    "precision",
    "type",
    "image",
    "acceleratorModel",
    "acceleratorVendor",
    "acceleratorType",
    "acceleratorPartitioningMode",
)


def is_base_spec(spec: Mapping[str, Any]) -> bool:
    """Neither `aimId` nor `modelSources`: a base (skeleton) profile, as upstream marks it."""
    return not text(spec.get("aimId")) and not spec.get("modelSources")


@dataclass(frozen=True, slots=True)
class ProfileEntry:
    """A profile prepared for selection: the object plus its selection-relevant facts.

    `texts` holds the TEXT_FIELDS of the spec as strings ("" when unset) so that filters compare
    plain strings; `source_model` / `source_model_scope` are the provenance labels ("" when absent).
    """

    obj: AnyProfile
    key: Key
    kind: str
    scope: Scope
    namespace: str
    name: str
    labels: Mapping[str, str]
    spec: Mapping[str, Any]
    status: Mapping[str, Any]
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

    def field(self, camel: str) -> str:
        found = self.texts.get(camel)
        return found if found is not None else text(self.spec.get(camel))

    @classmethod
    def build(cls, obj: AnyProfile, inventory: Inventory | None, *, generated: bool = False) -> ProfileEntry:
        manifest = to_manifest(obj)
        spec: Mapping[str, Any] = manifest.get("spec") or {}
        status: Mapping[str, Any] = manifest.get("status") or {}
        labels = dict(obj.metadata.labels or {})
        annotations = obj.metadata.annotations or {}
        role = labels.get(PROFILE_ROLE_LABEL) or (
            "base" if status.get("deployable") is False or is_base_spec(spec) else "deployable"
        )
        key = object_key(obj)
        texts = {name: text(spec.get(name)) for name in TEXT_FIELDS}
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
            policy=text(spec.get("autoSelectionPolicy")) or "optimized",
            primary=spec.get("primary") is True,
            available=profile_available(spec, status, inventory),
            version=VersionKey.of(profile_version(status.get("version"), texts["image"] or None)),
            generated=generated,
        )


# --------------------------------------------------------------------------------------------------
# Embedded default runtime config


@cache
def embedded_default_runtime_config() -> AIMClusterRuntimeConfig:
    """The chart-equivalent `AIMClusterRuntimeConfig/default` shipped as package data (§6.4)."""
    source = resources.files("aim_pulumi.resolve").joinpath("defaults/cluster-runtime-config.yaml")
    (obj,) = load_manifests(io.StringIO(source.read_text(encoding="utf-8")))
    if not isinstance(obj, AIMClusterRuntimeConfig):  # pragma: no cover - package data is fixed
        raise TypeError("embedded default is not an AIMClusterRuntimeConfig")
    return obj


def embedded_fallbacks() -> list[dict[str, Any]]:
    """The embedded default's profile-generation fallbacks, to copy into a declared default.

    A program's own `AIMClusterRuntimeConfig/default` replaces the embedded one (same name, same
    object, as on a cluster), fallbacks included; listing these in its
    `model.profileGeneration.fallbacks` keeps the embedded NVIDIA vLLM generation.
    """
    spec = to_manifest(embedded_default_runtime_config()).get("spec") or {}
    fallbacks = ((spec.get("model") or {}).get("profileGeneration") or {}).get("fallbacks") or []
    return [dict(f) for f in copy.deepcopy(fallbacks)]


# --------------------------------------------------------------------------------------------------
# Indexes

# label or field value -> namespace ("" for cluster objects) -> entries
_Index = dict[str, dict[str, list[ProfileEntry]]]


def _index_add(index: _Index, value: str, entry: ProfileEntry) -> None:
    if value:
        index.setdefault(value, {}).setdefault(entry.namespace, []).append(entry)


@dataclass
class _Generated:
    """Profiles generated from ID-backed models (behaviour §6), computed on demand."""

    entries: dict[Key, ProfileEntry] = field(default_factory=dict)
    retained: dict[Key, ProfileEntry] = field(default_factory=dict)
    by_model: _Index = field(default_factory=dict)
    by_aim_id: _Index = field(default_factory=dict)
    by_namespace: dict[str, list[ProfileEntry]] = field(default_factory=dict)
    per_model: dict[Key, tuple[ProfileEntry, ...]] = field(default_factory=dict)
    errors: dict[Key, AIMResolutionError] = field(default_factory=dict)


LookupScope = Literal["Auto", "Namespace", "Cluster"]


class Catalog:
    """Declared AIM objects, the embedded default runtime config and generated profiles.

    `system_namespace` is where an AIMClusterModel resolves the namespaced half of its runtime config.
    """

    def __init__(
        self,
        objects: Iterable[AIMObject] = (),
        *,
        inventory: Inventory | None = None,
        embed_default: bool = True,
        system_namespace: str = "aim-system",
    ) -> None:
        self.inventory = inventory
        self.embed_default = embed_default
        self.system_namespace = system_namespace
        self._objects: dict[Key, AIMObject] = {}
        self._profiles: dict[Key, ProfileEntry] = {}
        self._profiles_by_model: _Index = {}
        self._profiles_by_aim_id: _Index = {}
        self._profiles_by_namespace: dict[str, list[ProfileEntry]] = {}
        self._models_by_image: dict[str, dict[str, list[AnyModel]]] = {}
        self._id_models: dict[Key, AnyModel] = {}
        self._templates_by_model: dict[str, dict[str, list[AIMObject]]] = {}
        self._generated: _Generated | None = None
        self._pools: dict[tuple[str, str, str], tuple[ProfileEntry, ...]] = {}
        for obj in objects:
            self.add(obj)

    # ---------------------------------------------------------------- building

    def add(self, obj: AIMObject) -> None:
        key = object_key(obj)
        existing = self._objects.get(key)
        if existing is not None:
            if to_manifest(existing) == to_manifest(obj):
                return
            kind, namespace, name = key
            where = f"{namespace}/{name}" if namespace else name
            raise AIMResolutionError(
                "DuplicateObject",
                f"{kind} {where} is declared twice with different content; declare each object once",
                object_ref=f"{kind}/{where}",
            )
        self._objects[key] = obj
        self._pools.clear()
        kind = key[0]
        if kind in PROFILE_KINDS:
            assert isinstance(obj, AIMProfile | AIMClusterProfile)
            entry = ProfileEntry.build(obj, self.inventory)
            self._profiles[key] = entry
            _index_add(self._profiles_by_model, entry.labels.get(SOURCE_MODEL_LABEL, ""), entry)
            _index_add(self._profiles_by_aim_id, entry.field("aimId"), entry)
            self._profiles_by_namespace.setdefault(entry.namespace, []).append(entry)
        elif kind in MODEL_KINDS:
            assert isinstance(obj, AIMModel | AIMClusterModel)
            spec = to_manifest(obj).get("spec") or {}
            image = text(spec.get("image"))
            if image:
                self._models_by_image.setdefault(image, {}).setdefault(key[1], []).append(obj)
            if text(spec.get("modelId")):
                self._id_models[key] = obj
            self._generated = None
        elif kind in RUNTIME_CONFIG_KINDS:
            self._generated = None
        elif kind in TEMPLATE_KINDS:
            model_name = text((to_manifest(obj).get("spec") or {}).get("modelName"))
            self._templates_by_model.setdefault(model_name, {}).setdefault(key[1], []).append(obj)

    def extend(self, objects: Iterable[AIMObject]) -> None:
        for obj in objects:
            self.add(obj)

    # ---------------------------------------------------------------- plain lookups

    def __len__(self) -> int:
        return len(self._objects)

    def __contains__(self, obj: object) -> bool:
        return isinstance(obj, AIMKind) and object_key(obj) in self._objects

    def objects(self) -> list[AIMObject]:
        """Every declared object (not the embedded default, not generated profiles), in key order."""
        return [self._objects[k] for k in sorted(self._objects)]

    def get(self, kind: str, namespace: str | None, name: str) -> AIMObject | None:
        """Exact lookup; includes the embedded default and generated profiles."""
        key = (kind, (namespace or "") if kind in NAMESPACED_KINDS else "", name)
        found = self._objects.get(key)
        if found is not None:
            return found
        if kind == "AIMClusterRuntimeConfig" and name == "default" and self.embed_default:
            return embedded_default_runtime_config()
        if kind in PROFILE_KINDS:
            entry = self._generated_state().entries.get(key)
            return entry.obj if entry is not None else None
        return None

    def replaces_embedded_default(self) -> bool:
        """Whether the program declares its own `AIMClusterRuntimeConfig/default`."""
        return ("AIMClusterRuntimeConfig", "", "default") in self._objects and self.embed_default

    def lookup(self, namespaced_kind: str, cluster_kind: str, namespace: str, name: str) -> AIMObject | None:
        """By-name lookup with the namespaced object winning over the cluster one."""
        return self.get(namespaced_kind, namespace, name) or self.get(cluster_kind, None, name)

    def runtime_config_objects(self, namespace: str, name: str) -> tuple[AIMObject | None, AIMObject | None]:
        """(`AIMRuntimeConfig{namespace, name}`, `AIMClusterRuntimeConfig{name}`), either may be None."""
        return self.get("AIMRuntimeConfig", namespace, name), self.get("AIMClusterRuntimeConfig", None, name)

    def model(self, namespace: str, name: str) -> AnyModel | None:
        found = self.lookup("AIMModel", "AIMClusterModel", namespace, name)
        return found if isinstance(found, AIMModel | AIMClusterModel) else None

    def template(self, namespace: str, name: str) -> AIMObject | None:
        return self.lookup("AIMServiceTemplate", "AIMClusterServiceTemplate", namespace, name)

    def templates_for_model(self, namespace: str, model_name: str) -> list[AIMObject]:
        """Visible templates whose `spec.modelName` is the model: namespace ones first, by name."""
        per_ns = self._templates_by_model.get(model_name, {})
        local = sorted(per_ns.get(namespace, ()), key=lambda o: o.metadata.name)
        cluster = sorted(per_ns.get("", ()), key=lambda o: o.metadata.name)
        return local + cluster

    def models_with_image(self, namespace: str, image: str) -> tuple[list[AnyModel], list[AnyModel]]:
        """Models declaring `spec.image == image`: (namespace models, cluster models), by name."""
        per_ns = self._models_by_image.get(image, {})
        local = sorted(per_ns.get(namespace, ()), key=lambda o: o.metadata.name)
        cluster = sorted(per_ns.get("", ()), key=lambda o: o.metadata.name)
        return local, cluster

    # ---------------------------------------------------------------- profiles

    def profile(self, namespace: str, name: str) -> AnyProfile | None:
        """By-name profile lookup: the namespace AIMProfile, else the AIMClusterProfile."""
        entry = self.profile_entry("AIMProfile", namespace, name) or self.profile_entry(
            "AIMClusterProfile", None, name
        )
        return entry.obj if entry is not None else None

    def profile_entry(self, kind: str, namespace: str | None, name: str) -> ProfileEntry | None:
        key = (kind, (namespace or "") if kind == "AIMProfile" else "", name)
        return self._profiles.get(key) or self._generated_state().entries.get(key)

    def entry_for(self, profile: AnyProfile) -> ProfileEntry:
        """The selection entry of any profile, including ones outside the catalog (overlays)."""
        key = object_key(profile)
        found = self._profiles.get(key) or self._generated_state().entries.get(key)
        if found is not None and found.obj is profile:
            return found
        return ProfileEntry.build(profile, self.inventory)

    def retained_profile_entry(self, kind: str, namespace: str | None, name: str) -> ProfileEntry | None:
        """A generated profile whose hardware is absent from the inventory, kept only for a binding."""
        key = (kind, (namespace or "") if kind == "AIMProfile" else "", name)
        if key in self._profiles:
            return None
        return self._generated_state().retained.get(key)

    def profile_pool(
        self, namespace: str, *, model: str | None = None, aim_id: str | None = None
    ) -> list[ProfileEntry]:
        """Profiles visible from `namespace` that a selector anchored on `model` or `aim_id` can reach.

        Namespaced profiles of other namespaces are never returned. Order: namespace profiles then
        cluster profiles, each by name, so that callers never see insertion order.
        """
        generated = self._generated_state()
        cache_key = (
            ("model", model, namespace)
            if model
            else (("aimId", aim_id, namespace) if aim_id else ("", "", namespace))
        )
        cached = self._pools.get(cache_key)
        if cached is not None:
            return list(cached)
        if model:
            declared, gen = self._profiles_by_model.get(model, {}), generated.by_model.get(model, {})
        elif aim_id:
            declared, gen = self._profiles_by_aim_id.get(aim_id, {}), generated.by_aim_id.get(aim_id, {})
        else:
            declared = {ns: self._profiles_by_namespace.get(ns, []) for ns in (namespace, "")}
            gen = {ns: generated.by_namespace.get(ns, []) for ns in (namespace, "")}
        out: list[ProfileEntry] = []
        for ns in (namespace, ""):
            part = list(declared.get(ns, ()))
            part.extend(e for e in gen.get(ns, ()) if e.key not in self._profiles)
            part.sort(key=lambda e: e.name)
            out.extend(part)
        self._pools[cache_key] = tuple(out)
        return out

    def has_model_or_profiles(self, namespace: str, model_name: str) -> bool:
        """Whether a model name means anything here: a visible model or a visible labelled profile."""
        if self.model(namespace, model_name) is not None:
            return True
        return bool(self.profile_pool(namespace, model=model_name))

    # ---------------------------------------------------------------- generated profiles

    def generated_profiles_of(self, model: AnyModel) -> tuple[AnyProfile, ...]:
        """The profiles generated for an ID-backed model (hardware-present ones), by fallback order."""
        return tuple(e.obj for e in self._generated_state().per_model.get(object_key(model), ()))

    def generation_error(self, model: AnyModel) -> AIMResolutionError | None:
        """Why a model produced no generated profiles, when its runtime config could not be resolved."""
        return self._generated_state().errors.get(object_key(model))

    def _generated_state(self) -> _Generated:
        if self._generated is None:
            self._pools.clear()
            self._generated = self._generate()
        return self._generated

    def _generate(self) -> _Generated:
        state = _Generated()
        for key in sorted(self._id_models):
            model = self._id_models[key]
            rc_namespace = key[1] or self.system_namespace
            rc_name = text((to_manifest(model).get("spec") or {}).get("runtimeConfigName"))
            try:
                resolved = resolve_runtime_config(self, rc_namespace, rc_name or None)
            except AIMResolutionError as err:
                state.errors[key] = err
                continue
            rc_spec: Mapping[str, Any] = resolved.spec if resolved is not None else {}
            everything = generated_profiles(model, rc_spec, None)
            if self.inventory is None:
                produced = everything
            else:
                names = tuple(p.metadata.name for p in everything)
                produced = generated_profiles(model, rc_spec, self.inventory, retained=names)
            mine: list[ProfileEntry] = []
            for profile in produced:
                entry = ProfileEntry.build(profile, self.inventory, generated=True)
                if text(entry.status.get("status")) == "NotAvailable" and self.inventory is not None:
                    state.retained[entry.key] = entry
                    continue
                mine.append(entry)
                state.entries[entry.key] = entry
                _index_add(state.by_model, entry.labels.get(SOURCE_MODEL_LABEL, ""), entry)
                _index_add(state.by_aim_id, entry.field("aimId"), entry)
                state.by_namespace.setdefault(entry.namespace, []).append(entry)
            state.per_model[key] = tuple(mine)
        return state
