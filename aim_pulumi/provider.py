"""The component provider: every AIM component, served to Pulumi programs in any language.

`PulumiPlugin.yaml` at the repository root makes the checkout a Pulumi plugin (`pulumi package
add <path or git url>`); its `__main__.py` calls `main`. The schema is the one the SDK's
component analyzer infers from the component classes and their argument TypedDicts (the
generated `aim_pulumi.resources.inputs` types `spec`), plus the package's metadata.

`component_provider_host` would build a plain `ComponentProvider`; this module builds the same
provider with one difference: the SDK turns a schema enum value into the Python enum member,
and here it is turned back into the plain string, so a component constructed by the provider
receives exactly the arguments a Python program would pass (byte-identical child inputs).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from pulumi.output import Inputs
from pulumi.provider.experimental.analyzer import ComponentDefinition
from pulumi.provider.experimental.component import ComponentProvider

from aim_pulumi import __version__
from aim_pulumi.resources import COMPONENTS

__all__ = ["PACKAGE", "AIMComponentProvider", "main", "package_schema"]

PACKAGE = "aim"
"""The package name: every type token is `aim:index:<Kind>`, as the components register."""

_METADATA: Mapping[str, Any] = {
    "displayName": "AMD AIM",
    "description": (
        "Deploy AMD AIM inference services on Kubernetes without the AIM Engine operator: profile "
        "selection, runtime-config merge, routing, scaling and caching decided at deploy time."
    ),
    "keywords": ["kubernetes", "amd", "aim", "inference", "kserve", "category/cloud", "kind/component"],
    "license": "Apache-2.0",
    "publisher": "aim-pulumi",
}


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [_plain(item) for item in value]
    return value


class AIMComponentProvider(ComponentProvider):
    """The SDK's component provider for the AIM components, with plain enum values and metadata."""

    def __init__(self, version: str = __version__) -> None:
        super().__init__(list(COMPONENTS), PACKAGE, version=version)
        schema = json.loads(str(self.schema))
        schema.update(_METADATA)
        self.schema = json.dumps(schema)

    def map_inputs(self, inputs: Inputs, component_def: ComponentDefinition) -> Inputs:
        mapped: Inputs = _plain(super().map_inputs(inputs, component_def))
        return mapped


def package_schema(version: str = __version__) -> dict[str, Any]:
    """The package schema the provider serves (what `pulumi package get-schema` prints)."""
    schema: dict[str, Any] = json.loads(str(AIMComponentProvider(version).schema))
    return schema


def main(args: Sequence[str] | None = None) -> None:
    """Serve the provider to the engine (the plugin's entry point)."""
    from pulumi.provider import main as serve

    serve(AIMComponentProvider(), list(sys.argv[1:] if args is None else args))
