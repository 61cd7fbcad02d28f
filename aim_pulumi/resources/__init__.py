"""Pulumi components: AIM objects declared in a program, resolved and deployed at `pulumi up`."""

from aim_pulumi.resources.model import AIMClusterModel, AIMClusterModelArgs, AIMModel, AIMModelArgs
from aim_pulumi.resources.profile import AIMClusterProfile, AIMClusterProfileArgs, AIMProfile, AIMProfileArgs
from aim_pulumi.resources.registry import current_registry, reset_registry
from aim_pulumi.resources.runtime_config import (
    AIMClusterRuntimeConfig,
    AIMClusterRuntimeConfigArgs,
    AIMRuntimeConfig,
    AIMRuntimeConfigArgs,
)
from aim_pulumi.resources.service import AIMService, AIMServiceArgs
from aim_pulumi.resources.shared_cache import AIMSharedCache
from aim_pulumi.resources.stack import AIMStack, AIMStackArgs

COMPONENTS = (
    AIMService,
    AIMProfile,
    AIMClusterProfile,
    AIMModel,
    AIMClusterModel,
    AIMRuntimeConfig,
    AIMClusterRuntimeConfig,
    AIMStack,
)
"""The public component classes (what a component provider serves)."""

__all__ = [
    "COMPONENTS",
    "AIMClusterModel",
    "AIMClusterModelArgs",
    "AIMClusterProfile",
    "AIMClusterProfileArgs",
    "AIMClusterRuntimeConfig",
    "AIMClusterRuntimeConfigArgs",
    "AIMModel",
    "AIMModelArgs",
    "AIMProfile",
    "AIMProfileArgs",
    "AIMRuntimeConfig",
    "AIMRuntimeConfigArgs",
    "AIMService",
    "AIMServiceArgs",
    "AIMSharedCache",
    "AIMStack",
    "AIMStackArgs",
    "current_registry",
    "reset_registry",
]
