"""What every service planned on one catalog state shares: each remembered result behind a named method.

Many services of a namespace read the same runtime config, deploy the same catalog profile and share
its caches; each of those results depends on the catalog alone (and the arguments named here), so it
is computed once per catalog state and every plan gets its own copy of what it may change. The keys,
the identity checks (a remembered rendering is of this very object, not of an equal one declared
later) and the copies live here, so the planning sequence reads decisions only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from aim_pulumi.api import AIMKind, to_manifest
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.caching import (
    CacheProfile,
    CacheSettings,
    cache_runtime_config,
    shared_cache_plans,
)
from aim_pulumi.resolve.children.container import is_direct_vllm, profile_config_content, profile_hash
from aim_pulumi.resolve.objects import Key, object_key
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config
from aim_pulumi.resolve.runtime_config.merge import Layer, merge_layers_with_provenance, plain_copy
from aim_pulumi.resolve.types import CachePlan, ResolvedRuntimeConfig

__all__ = ["PlanningContext", "ProfileFacts"]


#: The catalog memo's key of the context itself (compared by identity).
_CONTEXT = object()

_T = TypeVar("_T")
_K = TypeVar("_K", bound=Hashable)


def _remember(memo: dict[_K, _T], key: _K, compute: Callable[[], _T]) -> _T:
    """`compute()` once per key; an exception is not remembered (as `Catalog.memoised`)."""
    try:
        return memo[key]
    except KeyError:
        pass
    value = compute()
    memo[key] = value
    return value


@dataclass(frozen=True)
class ProfileFacts:
    """The effective profile as a plan reads it: its spec and status (the plan's own copies), the
    hash of its spec, and its profile-file content (None when the plan renders it itself)."""

    spec: dict[str, Any]
    status: Any
    spec_hash: str
    config_content: str | None


class PlanningContext:
    """The remembered results of one catalog state; `PlanningContext.of(catalog)` is the only way in."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        # One memo per remembered result, keyed by that result's own arguments; the context lives
        # as long as the catalog state (`of`), so these do too.
        self._runtime_configs: dict[tuple[str, str], ResolvedRuntimeConfig | None] = {}
        self._service_runtime_configs: dict[tuple[str, str], Mapping[str, Any]] = {}
        self._routings: dict[tuple[str, str], Mapping[str, Any] | None] = {}
        self._profiles: dict[Key, tuple[AIMKind, ProfileFacts]] = {}
        self._cache_runtime_configs: dict[tuple[str, str], Mapping[str, Any] | None] = {}
        self._shared_caches: dict[tuple[str, Key, CacheSettings], tuple[AIMKind, list[CachePlan]]] = {}

    @staticmethod
    def of(catalog: Catalog) -> PlanningContext:
        """The context of the catalog's current state: a new one once an object is added."""
        return catalog.memoised(_CONTEXT, lambda: PlanningContext(catalog))

    def runtime_config(self, namespace: str, name: str | None) -> ResolvedRuntimeConfig | None:
        """The runtime config `name` resolves to from `namespace`, shared: read it, or `own_copy` it."""
        return _remember(
            self._runtime_configs,
            (namespace, name or ""),
            lambda: resolve_runtime_config(self._catalog, namespace, name),
        )

    @staticmethod
    def own_copy(resolved: ResolvedRuntimeConfig | None) -> ResolvedRuntimeConfig | None:
        """A plan's own copy of a shared resolution, so that changing one plan changes no other."""
        if resolved is None:
            return None
        return ResolvedRuntimeConfig(
            ref=resolved.ref,
            spec=plain_copy(resolved.spec),
            contributions=dict(resolved.contributions),
            scopes=resolved.scopes,
        )

    def service_runtime_config(self, namespace: str, name: str | None, inline: Layer) -> Mapping[str, Any]:
        """The runtime config a service's children read: the resolved one under its inline block.

        Without an inline block it depends on the catalog alone, so it is merged once per namespace
        and name and shared read-only (nothing a plan holds refers into it: every consumer copies).
        """
        resolved = self.runtime_config(namespace, name)

        def merge() -> dict[str, Any]:
            merged, _ = merge_layers_with_provenance(
                [("RuntimeConfig", resolved.spec if resolved else None), inline]
            )
            return merged

        if inline.spec is not None:
            return merge()
        return _remember(self._service_runtime_configs, (namespace, name or ""), merge)

    def namespace_routing(
        self, namespace: str, runtime_config: str | None, compute: Callable[[], Mapping[str, Any] | None]
    ) -> Mapping[str, Any] | None:
        """The routing of a service with no inline block and no routing of its own: its runtime
        config's, the same for every such service of the namespace."""
        return _remember(self._routings, (namespace, runtime_config or ""), compute)

    def profile_facts(self, profile: AIMKind, *, shared: bool) -> ProfileFacts:
        """The facts of the effective profile, rendered once per catalog state when `shared` (it is a
        catalog object, checked to be this very object) and copied for the plan."""

        def render() -> tuple[AIMKind, ProfileFacts]:
            manifest = to_manifest(profile)
            spec: dict[str, Any] = dict(manifest.get("spec") or {})
            content = None if is_direct_vllm(spec) else profile_config_content(spec)
            return profile, ProfileFacts(spec, manifest.get("status"), profile_hash(spec), content)

        if shared:
            rendered, facts = _remember(self._profiles, object_key(profile), render)
            if rendered is profile:
                return ProfileFacts(
                    plain_copy(facts.spec), plain_copy(facts.status), facts.spec_hash, facts.config_content
                )
        manifest = to_manifest(profile)
        spec = dict(manifest.get("spec") or {})
        return ProfileFacts(spec, manifest.get("status"), profile_hash(spec), None)

    def cache_runtime_config(
        self, namespace: str, runtime_config: str | None, cache_rc_spec: Mapping[str, Any]
    ) -> Mapping[str, Any] | None:
        """What a Shared cache reads of its profile's runtime config (it ignores the service's storage)."""
        return _remember(
            self._cache_runtime_configs,
            (namespace, runtime_config or ""),
            lambda: cache_runtime_config(cache_rc_spec),
        )

    def shared_cache_plans(
        self,
        catalog_profile: AIMKind,
        profile: CacheProfile,
        *,
        rc_spec: Mapping[str, Any] | None,
        settings: CacheSettings,
        effective_rc: Mapping[str, Any] | None,
    ) -> list[CachePlan] | None:
        """The Shared caches of a catalog profile sized from its sources alone, planned once for every
        service on it; None when the remembered plans are of another object of the same name."""

        def plan_shared() -> tuple[AIMKind, list[CachePlan]]:
            # Not this plan's own spec: the memo outlives it.
            own = dataclasses.replace(profile, spec=plain_copy(profile.spec))
            return catalog_profile, shared_cache_plans(
                own, rc_spec=rc_spec, settings=settings, effective_rc=effective_rc
            )

        key = (profile.namespace, object_key(catalog_profile), settings)
        remembered, plans = _remember(self._shared_caches, key, plan_shared)
        return plans if remembered is catalog_profile else None
