"""Pre-warming: a namespaced profile with `caching.enabled: true` caches its model sources with no service.

The operator materialises such a profile's caches on its own (upstream's AIMProfile reconciler
emits one Shared AIMProfileCache per profile, e2e `aimprofile/profile-driven-cache`), so that the
weights are on disk before the first service binds it. Here the profile's Shared caches are planned
exactly as the Shared caches of a service bound to that profile are (`service.py:_plan_caches`):
the same runtime config (the profile's, in its namespace), the same sizes, names and download env
(`caching.env` included), so the one cache serves both and a service added later changes nothing
but the labels it propagates. A cluster profile has no namespace to cache into and pre-warms none,
as upstream. A folder's object that pre-warms (v1alpha1's namespaced template with `caching.enabled`)
is first converted by the catalog's extension into the profile it pre-warms as
(`Extension.prewarmed_profile`), then planned by the same rule; its errors name the object declared.
"""

from __future__ import annotations

from aim_pulumi.api import AIMKind, AIMProfile
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.caching import CacheProfile, CacheSettings, SizeOf, shared_cache_plans
from aim_pulumi.resolve.children.source_size import source_size_bytes
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.plan.context import PlanningContext
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resolve.types import CachePlan

__all__ = ["prewarms", "profile_caches"]


def prewarms(profile: AIMKind) -> bool:
    """Whether the object is a namespaced profile asking for its sources to be cached."""
    if not isinstance(profile, AIMProfile):
        return False
    caching = profile.spec.caching
    return caching is not None and caching.enabled is True and bool(profile.spec.model_sources)


def profile_caches(
    profile: AIMKind, catalog: Catalog, settings: Settings, *, size_of: SizeOf | None = None
) -> list[CachePlan]:
    """The Shared caches `profile` pre-warms (none unless `prewarms`), as a service's on it would be."""
    declared_ref = profile.object_ref
    # A converted profile is not the catalog's object: its facts are rendered for it alone.
    in_catalog = isinstance(profile, AIMProfile)
    if not in_catalog and catalog.extension is not None:
        converted = catalog.extension.prewarmed_profile(profile, catalog)
        if converted is None:
            return []
        profile = converted
    if not prewarms(profile):
        return []
    namespace = profile.metadata.namespace or "default"
    context = PlanningContext.of(catalog)
    profile_spec = context.profile_facts(profile, shared=in_catalog).spec
    assert isinstance(profile, AIMProfile)
    profile_rc = profile.spec.runtime_config_name or None
    try:
        cache_rc = context.runtime_config(namespace, profile_rc)
    except AIMResolutionError as error:
        raise AIMResolutionError(
            error.field or "spec.runtimeConfigName",
            error.reason,
            f"{error.message} (the profile's caches, which caching.enabled pre-warms, are configured by "
            "its runtime config)",
            object_ref=declared_ref,
        ) from None
    cache_rc_spec = cache_rc.spec if cache_rc is not None else {}
    effective_rc = context.cache_runtime_config(namespace, profile_rc, cache_rc_spec)
    cache_profile = CacheProfile(namespace, profile.metadata.name, profile_spec, profile.kind)
    return shared_cache_plans(
        cache_profile,
        rc_spec=cache_rc_spec,
        settings=CacheSettings.from_settings(settings),
        size_of=size_of or source_size_bytes,
        effective_rc=effective_rc,
    )
