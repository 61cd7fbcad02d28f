"""CRD structural defaulting, applied before validation as the API server does.

Some rules only hold after defaulting: HTTPRoute's "port required for a Service backend" CEL rule
reads `backendRefs[].kind`, which the schema defaults to `Service`, and its match-count rule reads
`rules[].matches`, defaulted to one `PathPrefix /` match. Defaults live only in the CRD schemas,
which have no `$ref`; the core schemas have `$ref`s but no defaults, so references are not followed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

_EMPTY: Mapping[str, Any] = {}


def _subschema(schema: Mapping[str, Any], keyword: str) -> Mapping[str, Any]:
    sub = schema.get(keyword)
    return sub if isinstance(sub, Mapping) else _EMPTY


def apply_defaults(value: object, schema: Mapping[str, Any]) -> Any:
    """A copy of `value` with every absent field that declares a `default` filled in.

    The copy is made of dicts, lists and scalars only, whatever mappings or sequences came in, so
    the caller's object is never modified and jsonschema sees the types it expects. Defaults are
    themselves defaulted (a defaulted object gets its own nested defaults), as the API server does.
    """
    if isinstance(value, Mapping):
        properties = _subschema(schema, "properties")
        values = {str(key): item for key, item in value.items()}
        for name, field_schema in properties.items():
            if name not in values and isinstance(field_schema, Mapping) and "default" in field_schema:
                values[name] = copy.deepcopy(field_schema["default"])
        map_values = _subschema(schema, "additionalProperties")
        return {
            key: apply_defaults(item, _subschema(properties, key) if key in properties else map_values)
            for key, item in values.items()
        }
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        items = _subschema(schema, "items")
        return [apply_defaults(item, items) for item in value]
    return value
