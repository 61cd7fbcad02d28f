"""The catalog services resolve against: declared AIM objects, the embedded default, generated and
derived profiles.

The operator answers "which profiles belong to this model" with label indexes; the catalog does the
same so that resolving a thousand services against ten thousand profiles never scans them all. Scope
rules are the operator's: a namespaced object is visible only in its namespace, a cluster object
everywhere, and where a name is looked up the namespaced object wins.

Memo: what planning derives from the catalog alone (a namespace's merged runtime config, a
selector's evaluation) is computed once per catalog generation, which every added object bumps.
Memoised values are shared by every caller, so callers treat them as read-only and copy what
ends up in a plan.

Duplicate policy (behaviour leaves it open): adding an object whose (kind, namespace, name) is
already present is a no-op when both manifests are identical (the same YAML loaded twice) and an
`AIMResolutionError` with reason `DuplicateObject` otherwise, whatever the order of the two adds.
A declared profile also wins over a generated or derived profile of the same kind, namespace and
name, and a declared profile set over the child set a model's `spec.profiles` creates.

Derived profiles (`aim_pulumi/resolve/derivation/`) are computed after the generated ones, from
every declared and generated profile, and take part in every query as members: a service selects
them whatever order the program declared things in, and a derived profile is never a source.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from aim_pulumi.api import (
    AIMClusterModel,
    AIMClusterProfile,
    AIMClusterProfileSet,
    AIMError,
    AIMKind,
    AIMModel,
    AIMObject,
    AIMProfile,
    AIMProfileSet,
    AIMValidationError,
    to_manifest,
)
from aim_pulumi.api.model_source import AIMClusterModelSource
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.records import ImageRecord, SourceRecord
from aim_pulumi.resolve.catalog.discovered import DiscoveredModel, DiscoveredOrigin, discovered_profiles
from aim_pulumi.resolve.catalog.embedded import embedded_default_runtime_config
from aim_pulumi.resolve.catalog.extension import Extension
from aim_pulumi.resolve.catalog.fallbacks import generated_profiles
from aim_pulumi.resolve.catalog.indexes import CatalogIndex
from aim_pulumi.resolve.catalog.model_sources import SourceModels, source_models
from aim_pulumi.resolve.derivation.derive import Derivation, DerivedProfile, derive
from aim_pulumi.resolve.derivation.discovery_cache import DiscoveryCache
from aim_pulumi.resolve.derivation.model_sets import AnyProfileSet, model_profile_set
from aim_pulumi.resolve.derivation.sources import SourceProfile, source_of
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.objects import (
    MODEL_KINDS,
    NAMESPACED_KINDS,
    PROFILE_KINDS,
    PROFILE_SET_KINDS,
    RUNTIME_CONFIG_KINDS,
    SOURCE_MODEL_LABEL,
    AnyModel,
    AnyProfile,
    Key,
    object_key,
)
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config
from aim_pulumi.resolve.scalars import text
from aim_pulumi.resolve.selection.candidate import InventoryView, ProfileEntry

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
    # Image discovery (`discovered.py`) and model sources (`model_sources.py`).
    models: dict[Key, AIMClusterModel] = field(default_factory=dict)
    models_by_image: dict[str, list[AIMClusterModel]] = field(default_factory=dict)
    sources: dict[Key, SourceModels] = field(default_factory=dict)
    source_errors: dict[Key, AIMError] = field(default_factory=dict)
    discovered: dict[Key, DiscoveredModel] = field(default_factory=dict)
    discovery_errors: dict[Key, AIMError] = field(default_factory=dict)
    origins: dict[Key, DiscoveredOrigin] = field(default_factory=dict)


class ImageSource(Protocol):
    """What the catalog asks of discovery (`aim_pulumi/discovery/session.py:Discoveries`)."""

    def image(self, image: str) -> ImageRecord: ...

    def prefetch(self, image: str) -> Future[ImageRecord] | None: ...

    def source(self, name: str, spec: Mapping[str, Any]) -> SourceRecord: ...

    def prefetch_source(self, name: str, spec: Mapping[str, Any]) -> Future[SourceRecord] | None: ...

    def read_live(self, image: str) -> bool: ...


@dataclass
class _Derived:
    """Profiles derived by the program's profile sets (declared, or created by models), on demand."""

    entries: dict[Key, ProfileEntry] = field(default_factory=dict)
    by_model: _Index = field(default_factory=dict)
    by_aim_id: _Index = field(default_factory=dict)
    by_namespace: dict[str, list[ProfileEntry]] = field(default_factory=dict)
    derivations: dict[Key, Derivation] = field(default_factory=dict)
    set_errors: dict[Key, AIMResolutionError] = field(default_factory=dict)
    origins: dict[Key, tuple[Key, int]] = field(default_factory=dict)


LookupScope = Literal["Auto", "Namespace", "Cluster"]

_T = TypeVar("_T")
_I = TypeVar("_I")


class Catalog:
    """Declared AIM objects, the embedded default runtime config and generated profiles.

    `system_namespace` is where an AIMClusterModel resolves the namespaced half of its runtime config.
    `extension` is the version's folder the program serves beside v1alpha2 (v1alpha1), or None:
    the catalog indexes its kinds, and everything that plans against the catalog reads it here.
    """

    def __init__(
        self,
        objects: Iterable[AIMObject] = (),
        *,
        inventory: InventoryView | None = None,
        embed_default: bool = True,
        system_namespace: str = "aim-system",
        discovery: ImageSource | None = None,
        extension: Extension | None = None,
    ) -> None:
        self.inventory = inventory
        self.discovery = discovery
        self.extension = extension
        self.embed_default = embed_default
        self.system_namespace = system_namespace
        self._objects: dict[Key, AIMObject] = {}
        self._profiles: dict[Key, ProfileEntry] = {}
        self._profiles_by_model: _Index = {}
        self._profiles_by_aim_id: _Index = {}
        self._profiles_by_namespace: dict[str, list[ProfileEntry]] = {}
        self._models_by_image: dict[str, dict[str, list[AnyModel]]] = {}
        self._id_models: dict[Key, AnyModel] = {}
        self._image_models: dict[Key, AnyModel] = {}
        self._sources: dict[Key, AIMClusterModelSource] = {}
        self._indexes: tuple[CatalogIndex, ...] = () if extension is None else (extension.index(self),)
        self._namespaced = NAMESPACED_KINDS | {
            cls.KIND for cls in (extension.kinds if extension is not None else ()) if cls.SCOPE == "Namespace"
        }
        self._generated: _Generated | None = None
        self._derived: _Derived | None = None
        self._sets: dict[Key, AnyProfileSet] = {}
        self._derived_models: dict[Key, AnyModel] = {}
        self._discovery_caches: dict[tuple[str, str], DiscoveryCache] = {}
        self._pools: dict[tuple[str, str, str], tuple[ProfileEntry, ...]] = {}
        self.generation = 0
        self._memo: dict[Hashable, Any] = {}
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
                "",
                "DuplicateObject",
                f"{kind} {where} is declared twice with different content; declare each object once",
                object_ref=f"{kind}/{where}",
            )
        self._objects[key] = obj
        self._pools.clear()
        self.generation += 1
        self._memo.clear()
        self._derived = None
        kind = key[0]
        if kind in PROFILE_KINDS:
            assert isinstance(obj, AIMProfile | AIMClusterProfile)
            self._index_profile(key, ProfileEntry.build(obj, self.inventory))
            if self._image_models or self._sources:
                self._generated = None  # a declared profile of an image model stands for discovery
        elif kind in MODEL_KINDS:
            assert isinstance(obj, AIMModel | AIMClusterModel)
            image = text(obj.spec.image)
            if image:
                self._models_by_image.setdefault(image, {}).setdefault(key[1], []).append(obj)
            if text(obj.spec.model_id):
                self._id_models[key] = obj
            if image:
                self._image_models[key] = obj
            if obj.spec.profiles is not None:
                self._derived_models[key] = obj
            self._generated = None
        elif kind == "AIMClusterModelSource":
            assert isinstance(obj, AIMClusterModelSource)
            self._sources[key] = obj
            self._generated = None
        elif kind in PROFILE_SET_KINDS:
            assert isinstance(obj, AIMProfileSet | AIMClusterProfileSet)
            self._sets[key] = obj
        elif kind in RUNTIME_CONFIG_KINDS:
            self._generated = None
        else:
            for index in self._indexes:
                if kind in index.kinds:
                    index.add(key, obj)

    def _index_profile(self, key: Key, entry: ProfileEntry) -> None:
        self._profiles[key] = entry
        _index_add(self._profiles_by_model, entry.labels.get(SOURCE_MODEL_LABEL, ""), entry)
        _index_add(self._profiles_by_aim_id, entry.field("aimId"), entry)
        self._profiles_by_namespace.setdefault(entry.namespace, []).append(entry)

    def use_inventory(self, inventory: InventoryView | None) -> None:
        """Judge availability against `inventory` from now on (the hardware read from a cluster).

        Every declared profile's entry is rebuilt in its place and the generated profiles are made
        again, so nothing planned before keeps the availability of the inventory it replaced.
        """
        self.inventory = inventory
        declared = list(self._profiles.items())
        self._profiles = {}
        self._profiles_by_model = {}
        self._profiles_by_aim_id = {}
        self._profiles_by_namespace = {}
        for key, entry in declared:
            self._index_profile(key, ProfileEntry.build(entry.obj, inventory, generated=entry.generated))
        self._generated = None
        self._pools.clear()
        self._memo.clear()
        self.generation += 1

    def extend(self, objects: Iterable[AIMObject]) -> None:
        for obj in objects:
            self.add(obj)

    def add_discovery_cache(self, cache: DiscoveryCache) -> None:
        """A discovery cache a profile set's `sourceRef` may name (by namespace and name)."""
        self._discovery_caches[(cache.namespace, cache.name)] = cache
        self._pools.clear()
        self.generation += 1
        self._memo.clear()
        self._derived = None

    def memoised(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        """`compute()` once per catalog generation and `key`; an exception is not remembered.

        The value is shared by every later caller with the same key until an object is added,
        so it must depend on nothing but the catalog and the key, and no caller may mutate it.
        """
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            pass
        value = compute()
        self._memo[key] = value
        return value

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
        key = (kind, (namespace or "") if kind in self._namespaced else "", name)
        found = self._objects.get(key)
        if found is not None:
            return found
        if kind == "AIMClusterRuntimeConfig" and name == "default" and self.embed_default:
            return embedded_default_runtime_config()
        if kind in PROFILE_KINDS:
            entry = self._generated_state().entries.get(key) or self._derived_state().entries.get(key)
            return entry.obj if entry is not None else None
        if kind == "AIMClusterModel" and self._sources:
            return self._generated_state().models.get(key)
        if kind in PROFILE_SET_KINDS:
            derivation = self._derived_state().derivations.get(key)
            return derivation.profile_set if derivation is not None else None
        return None

    def names_of(self, kind: str) -> list[tuple[str, str]]:
        """(namespace, name) of every object of `kind`, generated profiles included, sorted.

        Only an error path reads it (a name that is not there, and the ones that are).
        """
        keys = {(ns, name) for k, ns, name in self._objects if k == kind}
        if kind in PROFILE_KINDS:
            keys.update((ns, name) for k, ns, name in self._generated_state().entries if k == kind)
            keys.update((ns, name) for k, ns, name in self._derived_state().entries if k == kind)
        if kind == "AIMClusterModel" and self._sources:
            keys.update((ns, name) for _, ns, name in self._generated_state().models)
        return sorted(keys)

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

    def index(self, of: type[_I]) -> _I:
        """This catalog's index of class `of`, the one its extension added (`Extension.index`)."""
        for index in self._indexes:
            if isinstance(index, of):
                return index
        raise LookupError(f"no {of.__name__}: this catalog was built without the extension that adds it")

    def models_with_image(self, namespace: str, image: str) -> tuple[list[AnyModel], list[AnyModel]]:
        """Models declaring `spec.image == image`: (namespace models, cluster models), by name."""
        per_ns = self._models_by_image.get(image, {})
        local = sorted(per_ns.get(namespace, ()), key=lambda o: o.metadata.name)
        cluster_models: list[AnyModel] = list(per_ns.get("", ()))
        if self._sources:
            cluster_models.extend(self._generated_state().models_by_image.get(image, ()))
        cluster = sorted(cluster_models, key=lambda o: o.metadata.name)
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
        return (
            self._profiles.get(key)
            or self._generated_state().entries.get(key)
            or self._derived_state().entries.get(key)
        )

    def entry_for(self, profile: AnyProfile) -> ProfileEntry:
        """The selection entry of any profile, including ones outside the catalog (overlays)."""
        key = object_key(profile)
        found = self.profile_entry(key[0], key[1], key[2])
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
        derived = self._derived_state()
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
            der = derived.by_model.get(model, {})
        elif aim_id:
            declared, gen = self._profiles_by_aim_id.get(aim_id, {}), generated.by_aim_id.get(aim_id, {})
            der = derived.by_aim_id.get(aim_id, {})
        else:
            declared = {ns: self._profiles_by_namespace.get(ns, []) for ns in (namespace, "")}
            gen = {ns: generated.by_namespace.get(ns, []) for ns in (namespace, "")}
            der = {ns: derived.by_namespace.get(ns, []) for ns in (namespace, "")}
        out: list[ProfileEntry] = []
        for ns in (namespace, ""):
            part = list(declared.get(ns, ()))
            part.extend(e for e in gen.get(ns, ()) if e.key not in self._profiles)
            part.extend(e for e in der.get(ns, ()) if e.key not in self._profiles)
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

    # ---------------------------------------------------------------- discovery and model sources

    def start_discoveries(self) -> list[Future[Any]]:
        """Start the registry reads the catalog will need, returning those still running.

        Model sources are listed first; the images of the models a finished listing materialises
        are read next, so a caller waits, calls again, until nothing is left running.
        """
        if self.discovery is None:
            return []
        running: list[Future[Any]] = []
        images: set[str] = set()
        for key in sorted(self._sources):
            source = self._sources[key]
            spec = to_manifest(source)["spec"]
            future = self.discovery.prefetch_source(source.metadata.name, spec)
            if future is not None and not future.done():
                running.append(future)
                continue
            try:
                record = self.discovery.source(source.metadata.name, spec)
            except AIMError:
                continue  # reported by the source's status
            images.update(image.uri for image in record.images)
        for key in sorted(self._image_models):
            if not self._declares_profiles(self._image_models[key]):
                images.add(text(self._image_models[key].spec.image))
        for image in sorted(images):
            read = self.discovery.prefetch(image)
            if read is not None and not read.done():
                running.append(read)
        return running

    def discovered(self, model: AnyModel) -> DiscoveredModel | None:
        """What an image-backed model got from its image (None: not discovered)."""
        return self._generated_state().discovered.get(object_key(model))

    def discovery_error(self, model: AnyModel) -> AIMError | None:
        """Why an image-backed model's image could not be discovered."""
        return self._generated_state().discovery_errors.get(object_key(model))

    def discovered_origin(self, profile: AnyProfile) -> DiscoveredOrigin | None:
        """The image, digest, layer and file a discovered profile came from (what `explain` names)."""
        return self._generated_state().origins.get(object_key(profile))

    def source_models(self, source: AIMClusterModelSource) -> SourceModels | None:
        return self._generated_state().sources.get(object_key(source))

    def source_error(self, source: AIMClusterModelSource) -> AIMError | None:
        return self._generated_state().source_errors.get(object_key(source))

    def read_live(self, image: str) -> bool:
        """Whether this run read `image` from its registry (the lock had no entry for it)."""
        return self.discovery is not None and self.discovery.read_live(image)

    def _declares_profiles(self, model: AnyModel) -> bool:
        """A model whose profiles the program declares (labelled with it) is not discovered: its
        declared profiles are its catalog, as they were before discovery existed."""
        namespace = model.metadata.namespace or "" if isinstance(model, AIMModel) else ""
        found = self._profiles_by_model.get(model.metadata.name, {})
        return bool(found.get(namespace)) or bool(found.get(""))

    def _generated_state(self) -> _Generated:
        if self._generated is None:
            self._pools.clear()
            self._generated = self._generate()
        return self._generated

    def _generate(self) -> _Generated:
        state = _Generated()
        id_models: dict[Key, AnyModel] = dict(self._id_models)
        image_models: dict[Key, AnyModel] = dict(self._image_models)
        for key in sorted(self._sources):
            self._materialise(key, self._sources[key], state, id_models, image_models)
        self._generate_from_fallbacks(state, id_models)
        for key in sorted(image_models):
            self._discover(key, image_models[key], state)
        return state

    def _materialise(
        self,
        key: Key,
        source: AIMClusterModelSource,
        state: _Generated,
        id_models: dict[Key, AnyModel],
        image_models: dict[Key, AnyModel],
    ) -> None:
        record: SourceRecord | None = None
        if self.discovery is not None and (source.spec.filters or source.spec.images):
            try:
                record = self.discovery.source(source.metadata.name, to_manifest(source)["spec"])
            except AIMError as error:
                state.source_errors[key] = error.located(object_ref=source.object_ref)
                return
        try:
            made = source_models(source, record)
        except AIMResolutionError as error:
            state.source_errors[key] = error
            return
        state.sources[key] = made
        for model in made.models:
            model_key = object_key(model)
            if model_key in self._objects:
                continue  # a declared model of that name is respected, never re-owned
            state.models[model_key] = model
            image = text(model.spec.image)
            if image:
                state.models_by_image.setdefault(image, []).append(model)
                image_models[model_key] = model
            if text(model.spec.model_id):
                id_models[model_key] = model

    def _discover(self, key: Key, model: AnyModel, state: _Generated) -> None:
        if self.discovery is None or self._declares_profiles(model):
            return
        try:
            record = self.discovery.image(text(model.spec.image))
        except DiscoveryError as error:
            state.discovery_errors[key] = error.located(object_ref=model.object_ref)
            return
        everything = discovered_profiles(model, record, None)
        names = [p.metadata.name for p in everything.supported]
        result = (
            discovered_profiles(model, record, self.inventory, retained=names)
            if self.inventory
            else everything
        )
        state.discovered[key] = result
        for profile in (*result.supported, *result.unsupported):
            entry = ProfileEntry.build(profile, self.inventory, generated=True)
            origin = result.origins.get(profile.metadata.name)
            if origin is not None:
                state.origins[entry.key] = origin
            if entry.key in self._profiles:
                continue  # a declared profile of the same name wins
            if entry.state == "NotAvailable" and self.inventory is not None:
                state.retained[entry.key] = entry
                continue
            state.entries[entry.key] = entry
            _index_add(state.by_model, entry.labels.get(SOURCE_MODEL_LABEL, ""), entry)
            _index_add(state.by_aim_id, entry.field("aimId"), entry)
            state.by_namespace.setdefault(entry.namespace, []).append(entry)

    def _generate_from_fallbacks(self, state: _Generated, id_models: Mapping[Key, AnyModel]) -> None:
        for key in sorted(id_models):
            model = id_models[key]
            rc_namespace = key[1] or self.system_namespace
            rc_name = text(model.spec.runtime_config_name)
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
                if entry.state == "NotAvailable" and self.inventory is not None:
                    state.retained[entry.key] = entry
                    continue
                mine.append(entry)
                state.entries[entry.key] = entry
                _index_add(state.by_model, entry.labels.get(SOURCE_MODEL_LABEL, ""), entry)
                _index_add(state.by_aim_id, entry.field("aimId"), entry)
                state.by_namespace.setdefault(entry.namespace, []).append(entry)
            state.per_model[key] = tuple(mine)

    # ---------------------------------------------------------------- derived profiles

    def profile_sets(self) -> list[AnyProfileSet]:
        """Every profile set of the program: declared ones and those models create, by key."""
        return [d.profile_set for _, d in sorted(self._derived_state().derivations.items())]

    def derivation(self, profile_set: AnyProfileSet) -> Derivation | None:
        """The derivation of a set of this catalog (declared, or a model's child set)."""
        return self._derived_state().derivations.get(object_key(profile_set))

    def model_derivation(self, model: AnyModel) -> Derivation | AIMResolutionError | None:
        """The derivation of a model's `spec.profiles`, or why its child set could not be made."""
        state = self._derived_state()
        key = object_key(model)
        if key in state.set_errors:
            return state.set_errors[key]
        child = model_profile_set(model) if model.spec.profiles is not None else None
        return state.derivations.get(object_key(child)) if child is not None else None

    def derived_profile(
        self, kind: str, namespace: str | None, name: str
    ) -> tuple[Derivation, DerivedProfile] | None:
        """The derivation a catalog profile comes from, with its derived profile (None: not derived)."""
        key = (kind, (namespace or "") if kind == "AIMProfile" else "", name)
        if key in self._profiles:
            return None
        state = self._derived_state()
        origin = state.origins.get(key)
        if origin is None:
            return None
        derivation = state.derivations[origin[0]]
        return derivation, derivation.profiles[origin[1]]

    def derived_entry(self, profile: AnyProfile) -> bool:
        """Whether a profile of this catalog is one a profile set derived."""
        key = object_key(profile)
        return key not in self._profiles and key in self._derived_state().entries

    def _derived_state(self) -> _Derived:
        if self._derived is None:
            self._pools.clear()
            self._derived = self._derive()
        return self._derived

    def _derivation_sources(
        self, namespaces: set[str]
    ) -> tuple[dict[str, list[SourceProfile]], list[SourceProfile]]:
        """The declared and generated profiles of `namespaces` and the cluster as derivation
        sources: (by namespace, cluster), each by key."""
        by_namespace: dict[str, list[SourceProfile]] = {}
        cluster: list[SourceProfile] = []
        generated = self._generated_state().entries
        keys = sorted(
            key
            for key in {*self._profiles, *generated}
            if key[1] in namespaces or key[0] == "AIMClusterProfile"
        )
        for key in keys:
            entry = self._profiles.get(key) or generated[key]
            source = source_of(entry)
            if entry.scope == "Cluster":
                cluster.append(source)
            else:
                by_namespace.setdefault(entry.namespace, []).append(source)
        return by_namespace, cluster

    def _derive(self) -> _Derived:
        state = _Derived()
        sets: dict[Key, AnyProfileSet] = dict(self._sets)
        for key in sorted(self._derived_models):
            model = self._derived_models[key]
            try:
                child = model_profile_set(model)
            except AIMValidationError as error:
                state.set_errors[key] = AIMResolutionError(
                    "spec.profiles",
                    "InvalidSpec",
                    f"the AIMProfileSet this model's spec.profiles creates is invalid: "
                    f"{error.field}: {error.message}",
                    object_ref=model.object_ref,
                )
                continue
            if child is not None:
                sets.setdefault(object_key(child), child)
        if not sets:
            return state
        by_namespace, cluster = self._derivation_sources({key[1] for key in sets if key[1]})
        taken = set(self._profiles) | set(self._generated_state().entries)
        for key in sorted(sets):
            profile_set = sets[key]
            derivation = derive(
                profile_set,
                by_namespace.get(key[1], []),
                cluster,
                lambda namespace, name: self._discovery_caches.get((namespace, name)),
                self.system_namespace,
            )
            state.derivations[key] = derivation
            for index, derived in enumerate(derivation.profiles):
                entry = ProfileEntry.build(derived.profile, self.inventory)
                if entry.key in taken:
                    continue  # a declared (or generated) profile of that name wins
                taken.add(entry.key)
                state.origins[entry.key] = (key, index)
                state.entries[entry.key] = entry
                _index_add(state.by_model, entry.labels.get(SOURCE_MODEL_LABEL, ""), entry)
                _index_add(state.by_aim_id, entry.field("aimId"), entry)
                state.by_namespace.setdefault(entry.namespace, []).append(entry)
        return state
