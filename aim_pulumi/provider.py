"""The component provider: every AIM component, served to Pulumi programs in any language.

`PulumiPlugin.yaml` at the repository root makes the checkout a Pulumi plugin (`pulumi package
add <path or git url>`); its `__main__.py` calls `main`, which serves it with `provider_server`
(one stack catalog per deployment across Construct calls, and the binding resource). The schema
is the one the SDK's component analyzer infers from the component classes and their argument TypedDicts (the
generated `aim_pulumi.resources.inputs` types `spec`), plus the package's metadata.

`component_provider_host` would build a plain `ComponentProvider`; this module builds the same
provider and hands each component exactly the arguments a Python program would pass
(byte-identical child inputs), which the SDK's input mapping does not: it turns a schema enum
value into the Python enum member (turned back into the plain string here), and it leaves every
number as the float the wire carries, which the strict API models reject for an integer field
(`accelerator.count: 1.0`), so integer properties are made integers again, at any depth. It
also drops every key the schema does not know, so a misspelt key (`replicaz`) from a YAML
program would vanish unseen; here it fails the Construct call naming its path.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from pulumi.errors import InputPropertiesError
from pulumi.output import Inputs, Output
from pulumi.provider.experimental.analyzer import ComponentDefinition, PropertyDefinition, PropertyType
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


def _integer(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value  # a fractional number stays as given, for the model to reject naming the field


class AIMComponentProvider(ComponentProvider):
    """The SDK's component provider for the AIM components, with plain values and the metadata."""

    def __init__(self, version: str = __version__) -> None:
        super().__init__(list(COMPONENTS), PACKAGE, version=version)
        schema = json.loads(str(self.schema))
        schema.update(_METADATA)
        self.schema = json.dumps(_polished(schema))

    def map_inputs(self, inputs: Inputs, component_def: ComponentDefinition) -> Inputs:
        unknown = self._unknown_keys(inputs, component_def.inputs, "")
        if unknown:
            raise InputPropertiesError(
                f"{component_def.name}: unknown properties {', '.join(unknown)}",
                [
                    {"property_path": path, "reason": f"{component_def.name} has no property `{path}`"}
                    for path in unknown
                ],
            )
        mapped = super().map_inputs(inputs, component_def)
        plain: Inputs = self._object(mapped, component_def.inputs, component_def.inputs_mapping)
        return plain

    def _object(
        self, value: Any, properties: Mapping[str, PropertyDefinition], mapping: Mapping[str, str]
    ) -> Any:
        if not isinstance(value, Mapping):
            return self._value(value, None)
        by_python_name = {mapping.get(name, name): prop for name, prop in properties.items()}
        return {key: self._value(item, by_python_name.get(key)) for key, item in value.items()}

    def _unknown_keys(self, value: Any, properties: Mapping[str, PropertyDefinition], path: str) -> list[str]:
        """Every key the schema does not know, by path: the SDK's mapping would drop them silently."""
        if not isinstance(value, Mapping):
            return []
        found: list[str] = []
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            prop = properties.get(key)
            if prop is None:
                found.append(inner)
            else:
                found.extend(self._unknown_in(item, prop, inner))
        return found

    def _unknown_in(self, value: Any, prop: PropertyDefinition, path: str) -> list[str]:
        type_def = self.get_type_definition(prop) if prop.ref else None
        if type_def is not None and not type_def.enum:
            return self._unknown_keys(value, type_def.properties, path)
        if prop.items is not None and isinstance(value, Sequence) and not isinstance(value, str | bytes):
            return [
                p for i, item in enumerate(value) for p in self._unknown_in(item, prop.items, f"{path}[{i}]")
            ]
        if prop.additional_properties is not None and isinstance(value, Mapping):
            extra = prop.additional_properties
            return [p for k, item in value.items() for p in self._unknown_in(item, extra, f"{path}.{k}")]
        return []

    def _value(self, value: Any, prop: PropertyDefinition | None) -> Any:
        """`value` as a Python program would write it, following the schema property `prop`."""
        if isinstance(value, Output):
            return value.apply(lambda inner: self._value(inner, prop))
        if isinstance(value, Enum):
            return value.value
        type_def = self.get_type_definition(prop) if prop is not None and prop.ref else None
        if type_def is not None and not type_def.enum:
            return self._object(value, type_def.properties, type_def.properties_mapping)
        if isinstance(value, Mapping):
            inner = prop.additional_properties if prop is not None else None
            return {key: self._value(item, inner) for key, item in value.items()}
        if isinstance(value, Sequence) and not isinstance(value, str | bytes):
            inner = prop.items if prop is not None else None
            return [self._value(item, inner) for item in value]
        if prop is not None and prop.type == PropertyType.INTEGER:
            return _integer(value)
        return value


def _normalised(node: Any, *, element: bool = False) -> Any:
    """The schema as the Pulumi CLI reads it back, so what it prints is the committed file.

    Descriptions lose the source's indentation (`\n    ` of a docstring); the analyzer's copies of
    a property's description on its `items` / `additionalProperties` and its null descriptions
    of enum values are dropped, as are empty lists, which the CLI drops when it reads a schema.
    """
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, item in node.items():
            if key == "description" and (item is None or element):
                continue
            if key in ("requiredInputs", "dependencies") and item == []:
                continue
            if key == "description" and isinstance(item, str):
                out[key] = inspect.cleandoc(item)
            else:
                out[key] = _normalised(item, element=key in ("items", "additionalProperties"))
        return out
    if isinstance(node, list):
        return [_normalised(item) for item in node]
    return node


def _polished(schema: dict[str, Any]) -> dict[str, Any]:
    """The analyzer's schema, normalised as the CLI reads it, with every component output described.

    The analyzer keeps a docstring's indentation and describes only outputs the class itself
    declares; generated SDKs print both as they are, so the schema is finished here.
    """
    from aim_pulumi.resources.attribute_docs import attribute_docs
    from aim_pulumi.resources.constructors import camel_case

    polished: dict[str, Any] = _normalised(schema)
    polished.setdefault("config", {})
    for component in COMPONENTS:
        resource = polished.get("resources", {}).get(f"{PACKAGE}:index:{component.__name__}")
        if resource is None:
            continue
        docs = {camel_case(name): text for name, text in attribute_docs(component).items()}
        for name, prop in resource.get("properties", {}).items():
            if "description" not in prop and docs.get(name):
                prop["description"] = docs[name]
    return polished


def package_schema(version: str = __version__) -> dict[str, Any]:
    """The package schema the provider serves (what `pulumi package get-schema` prints)."""
    schema: dict[str, Any] = json.loads(str(AIMComponentProvider(version).schema))
    return schema


def main(args: Sequence[str] | None = None) -> None:
    """Serve the provider to the engine (the plugin's entry point)."""
    from aim_pulumi.provider_server import serve

    serve(AIMComponentProvider(), list(sys.argv[1:] if args is None else args))
