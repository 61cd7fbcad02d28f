"""Pure, deterministic deploy-time decisions of the AIM operator; no Pulumi here.

Everything a controller decides when it turns an AIMService into children (runtime configs,
profile selection, overlays, generated profiles, templates, paths, labels, env, names, scaling,
caches) is a plain function of the declared objects, so a plan can be explained and tested.
The rules live in rooms named after what they decide (catalog, selection, runtime_config, children,
plan, legacy; see ARCHITECTURE.md); this module re-exports the names most callers need.
"""

from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.labels import label_key_matches, propagate_labels
from aim_pulumi.resolve.children.names import (
    derived_name,
    http_route_name,
    inference_service_name,
    overlay_profile_name,
)
from aim_pulumi.resolve.children.paths import render_path
from aim_pulumi.resolve.children.scaling import render_activation_query
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resolve.plan.service import plan_service
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config
from aim_pulumi.resolve.runtime_config.merge import merge_env, merge_runtime_config_specs
from aim_pulumi.resolve.selection.select import ProfileSelection, select_profile
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resolve.types import ResolvedRuntimeConfig

__all__ = [
    "AIMResolutionError",
    "Catalog",
    "Inventory",
    "ProfileSelection",
    "ResolvedRuntimeConfig",
    "ServicePlan",
    "Settings",
    "derived_name",
    "http_route_name",
    "inference_service_name",
    "label_key_matches",
    "merge_env",
    "merge_runtime_config_specs",
    "overlay_profile_name",
    "plan_service",
    "propagate_labels",
    "render_activation_query",
    "render_path",
    "resolve_runtime_config",
    "select_profile",
]
