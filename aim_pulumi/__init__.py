"""aim-pulumi: AMD AIM inference services on Kubernetes with Pulumi, without an in-cluster operator.

The AIM Engine operator's decisions (profile selection, runtime-config merge, routing, scaling,
caching) are made at deploy time by the components below, so `pulumi preview` shows every child
a change touches. Typed AIM objects and YAML I/O live in `aim_pulumi.api`; the pure resolver in
`aim_pulumi.resolve`.
"""

from typing import TYPE_CHECKING, Any

from aim_pulumi._version import __version__

# The components load Pulumi, so they are imported on first use: the pure layers (`aim_pulumi.api`,
# `aim_pulumi.resolve`, `aim-pulumi validate`) never pay for it. The pure layers' names are imported
# on first use too: `aim-pulumi --version` and shell completion start in a fraction of the time when
# importing the package does not build every model.


def __getattr__(name: str) -> Any:
    if _PURE.get(name) == "aim_pulumi.api":
        from aim_pulumi import api

        return getattr(api, name)
    if _PURE.get(name) == "aim_pulumi.resolve":
        from aim_pulumi import resolve

        return getattr(resolve, name)
    if _PURE.get(name) == "aim_pulumi.versions":
        from aim_pulumi import versions

        return getattr(versions, name)
    if _PURE.get(name) == "aim_pulumi.resolve.catalog.embedded":
        from aim_pulumi.resolve.catalog import embedded

        return getattr(embedded, name)
    if name in _COMPONENTS:
        from aim_pulumi import resources

        return getattr(resources, name)
    if name == "inputs":  # the typed `spec` objects (`aim_pulumi.inputs.GatewayRefArgsDict`, ...)
        from aim_pulumi.resources import inputs

        return inputs
    raise AttributeError(f"module 'aim_pulumi' has no attribute {name!r}")


# Public names, written by scripts/generate_types.py from its one list: run it after changing one.
_COMPONENTS = frozenset(
    {
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
        "AIMStack",
        "AIMStackArgs",
        "AIMStackArgsDict",
    }
)
_PURE = {
    "AIMError": "aim_pulumi.api",
    "AIMValidationError": "aim_pulumi.api",
    "load_manifests": "aim_pulumi.versions",
    "parse": "aim_pulumi.versions",
    "to_manifest": "aim_pulumi.api",
    "AIMResolutionError": "aim_pulumi.resolve",
    "embedded_fallbacks": "aim_pulumi.resolve.catalog.embedded",
}

if TYPE_CHECKING:
    from aim_pulumi.api import (
        AIMError,
        AIMValidationError,
        to_manifest,
    )
    from aim_pulumi.resolve import (
        AIMResolutionError,
    )
    from aim_pulumi.resolve.catalog.embedded import (
        embedded_fallbacks,
    )
    from aim_pulumi.resources import (
        AIMClusterModel,
        AIMClusterModelArgs,
        AIMClusterModelArgsDict,
        AIMClusterModelSource,
        AIMClusterModelSourceArgs,
        AIMClusterModelSourceArgsDict,
        AIMClusterProfile,
        AIMClusterProfileArgs,
        AIMClusterProfileArgsDict,
        AIMClusterProfileSet,
        AIMClusterProfileSetArgs,
        AIMClusterProfileSetArgsDict,
        AIMClusterRuntimeConfig,
        AIMClusterRuntimeConfigArgs,
        AIMClusterRuntimeConfigArgsDict,
        AIMModel,
        AIMModelArgs,
        AIMModelArgsDict,
        AIMProfile,
        AIMProfileArgs,
        AIMProfileArgsDict,
        AIMProfileSet,
        AIMProfileSetArgs,
        AIMProfileSetArgsDict,
        AIMRuntimeConfig,
        AIMRuntimeConfigArgs,
        AIMRuntimeConfigArgsDict,
        AIMService,
        AIMServiceArgs,
        AIMServiceArgsDict,
        AIMStack,
        AIMStackArgs,
        AIMStackArgsDict,
        inputs,
    )
    from aim_pulumi.versions import (
        load_manifests,
        parse,
    )

__all__ = [
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
    "AIMError",
    "AIMModel",
    "AIMModelArgs",
    "AIMModelArgsDict",
    "AIMProfile",
    "AIMProfileArgs",
    "AIMProfileArgsDict",
    "AIMProfileSet",
    "AIMProfileSetArgs",
    "AIMProfileSetArgsDict",
    "AIMResolutionError",
    "AIMRuntimeConfig",
    "AIMRuntimeConfigArgs",
    "AIMRuntimeConfigArgsDict",
    "AIMService",
    "AIMServiceArgs",
    "AIMServiceArgsDict",
    "AIMStack",
    "AIMStackArgs",
    "AIMStackArgsDict",
    "AIMValidationError",
    "__version__",
    "embedded_fallbacks",
    "inputs",
    "load_manifests",
    "parse",
    "to_manifest",
]
# End of the generated public names.
