"""Pulumi components: AIM objects declared in a program, resolved and deployed at `pulumi up`."""

from aim_pulumi.resources.inputs import (
    AIMClusterModelArgs,
    AIMClusterModelArgsDict,
    AIMClusterModelSourceArgs,
    AIMClusterModelSourceArgsDict,
    AIMClusterProfileArgs,
    AIMClusterProfileArgsDict,
    AIMClusterProfileSetArgs,
    AIMClusterProfileSetArgsDict,
    AIMClusterRuntimeConfigArgs,
    AIMClusterRuntimeConfigArgsDict,
    AIMModelArgs,
    AIMModelArgsDict,
    AIMProfileArgs,
    AIMProfileArgsDict,
    AIMProfileSetArgs,
    AIMProfileSetArgsDict,
    AIMRuntimeConfigArgs,
    AIMRuntimeConfigArgsDict,
    AIMServiceArgs,
    AIMServiceArgsDict,
    AIMStackArgs,
    AIMStackArgsDict,
)
from aim_pulumi.resources.model import AIMClusterModel, AIMModel
from aim_pulumi.resources.model_source import AIMClusterModelSource
from aim_pulumi.resources.profile import AIMClusterProfile, AIMProfile
from aim_pulumi.resources.profile_set import AIMClusterProfileSet, AIMProfileSet
from aim_pulumi.resources.registry import current_registry, reset_registry
from aim_pulumi.resources.runtime_config import AIMClusterRuntimeConfig, AIMRuntimeConfig
from aim_pulumi.resources.service import AIMService
from aim_pulumi.resources.shared_cache import AIMSharedCache
from aim_pulumi.resources.stack import AIMStack

COMPONENTS = (
    AIMService,
    AIMProfile,
    AIMClusterProfile,
    AIMModel,
    AIMClusterModel,
    AIMClusterModelSource,
    AIMProfileSet,
    AIMClusterProfileSet,
    AIMRuntimeConfig,
    AIMClusterRuntimeConfig,
    AIMStack,
)
"""The public component classes (what a component provider serves)."""

__all__ = [
    "COMPONENTS",
    "AIMClusterModel",
    "AIMClusterModelArgs",
    "AIMClusterModelArgsDict",
    "AIMClusterModelSource",
    "AIMClusterModelSourceArgs",
    "AIMClusterModelSourceArgsDict",
    "AIMClusterProfile",
    "AIMClusterProfileArgs",
    "AIMClusterProfileArgsDict",
    "AIMClusterProfileSet",
    "AIMClusterProfileSetArgs",
    "AIMClusterProfileSetArgsDict",
    "AIMClusterRuntimeConfig",
    "AIMClusterRuntimeConfigArgs",
    "AIMClusterRuntimeConfigArgsDict",
    "AIMModel",
    "AIMModelArgs",
    "AIMModelArgsDict",
    "AIMProfile",
    "AIMProfileArgs",
    "AIMProfileArgsDict",
    "AIMProfileSet",
    "AIMProfileSetArgs",
    "AIMProfileSetArgsDict",
    "AIMRuntimeConfig",
    "AIMRuntimeConfigArgs",
    "AIMRuntimeConfigArgsDict",
    "AIMService",
    "AIMServiceArgs",
    "AIMServiceArgsDict",
    "AIMSharedCache",
    "AIMStack",
    "AIMStackArgs",
    "AIMStackArgsDict",
    "current_registry",
    "reset_registry",
]
