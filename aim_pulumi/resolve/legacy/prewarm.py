"""Pre-warming of a namespaced AIMServiceTemplate with `caching.enabled: true`, with no service.

The seeds' "Service Templates" say `caching.enabled: true` pre-warms the model artifacts, and the
operator's template reconciler caches a namespaced template's sources whether or not a service uses
it. Here that is the template converted exactly as a service on it converts it
(`templates.py:template_profile`, the `migrate` conversion): the profile it becomes is pre-warmed
by the core's rule (`aim_pulumi/resolve/plan/prewarm.py`), so the cache has the identity, size and
download env a Shared cache of a service on the template has, and a service added later mounts it.
A cluster template has no namespace to cache into and its `caching` is refused (`kinds.py`).
"""

from __future__ import annotations

from typing import Any

from aim_pulumi.api import AIMKind
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.legacy.kinds import AIMServiceTemplate
from aim_pulumi.resolve.legacy.templates import MODEL_NOT_FOUND, template_profile

__all__ = ["template_prewarm_profile"]


def template_prewarm_profile(obj: AIMKind, catalog: Any) -> AIMKind | None:
    """The profile a namespaced template with `caching.enabled: true` pre-warms as; None for any
    other object. Its model must be declared: the profile's image and sources come with it."""
    if not isinstance(obj, AIMServiceTemplate):
        return None
    caching = obj.spec.caching
    if caching is None or caching.enabled is not True:
        return None
    assert isinstance(catalog, Catalog)
    namespace = obj.metadata.namespace or "default"
    model = catalog.model(namespace, obj.spec.model_name)
    if model is None:
        raise AIMResolutionError(
            "spec.modelName",
            MODEL_NOT_FOUND,
            f"neither an AIMModel {obj.spec.model_name!r} in namespace {namespace!r} nor an AIMClusterModel "
            f"{obj.spec.model_name!r} is declared; caching.enabled pre-warms the sources of the profile "
            "the template and its model make",
            object_ref=obj.object_ref,
        )
    return template_profile(obj, model)
