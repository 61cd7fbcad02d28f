"""The checks the Pulumi CLI makes on a project's `config:` declarations before it runs a program.

`pulumi preview` refuses a Pulumi.yaml whose declarations break these rules, so an offline plan that
accepted it would promise a deployment that cannot start. The rules are those of the Pulumi SDK's
`Project.Validate` (sdk/go/common/workspace/project.go), with its messages: a key of the project's own
namespace declares a type and a default that must agree; a key of another namespace (`aim:strict`,
`kubernetes:namespace`) only sets a `value`, since its type belongs to the package that owns it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["declaration_problem", "environment_imports"]


def _namespaced_by_project(project: str, key: str) -> bool:
    return ":" not in key or key.startswith(project + ":")


def _matches(type_name: str, items: Any, value: Any) -> bool:
    if type_name == "string":
        return isinstance(value, str)
    if type_name == "integer":
        if isinstance(value, bool):
            return False
        if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
            return True
        if isinstance(value, str):
            try:
                int(value)
            except ValueError:
                return False
            return True
        return False
    if type_name == "boolean":
        return isinstance(value, bool) or value in ("true", "false")
    if type_name == "object":
        return isinstance(value, Mapping)
    if not isinstance(value, list) or not isinstance(items, Mapping):
        return False
    return all(_matches(str(items.get("type")), items.get("items"), item) for item in value)


def _full_type_name(type_name: str, items: Any) -> str:
    if type_name == "array" and isinstance(items, Mapping):
        return f"List<{_full_type_name(str(items.get('type')), items.get('items'))}>"
    return type_name


def declaration_problem(project: str, key: str, declaration: Mapping[str, Any]) -> str | None:
    """Why the Pulumi CLI would refuse this `config:` declaration, in its words; None if it accepts it."""
    if declaration.get("default") is not None and declaration.get("value") is not None:
        return f"project config '{key}' cannot have both a 'default' and 'value' attribute"
    type_name = declaration.get("type")
    if _namespaced_by_project(project, key):
        if type_name == "array" and declaration.get("items") is None:
            return (
                f"The configuration key '{key}' declares an array but does not specify the underlying "
                "type via the 'items' attribute"
            )
        default, items = declaration.get("default"), declaration.get("items")
        if type_name and default is not None and not _matches(str(type_name), items, default):
            expected = _full_type_name(str(type_name), items)
            return (
                f"The default value specified for configuration key '{key}' is not of the expected type "
                f"'{expected}'"
            )
        return None
    if type_name:
        return f"Configuration key '{key}' is not namespaced by the project and should not define a type"
    if declaration.get("default") is not None:
        return (
            f"Configuration key '{key}' is not namespaced by the project and should not define a default "
            "value. Did you mean to use the 'value' attribute instead of 'default'?"
        )
    if declaration.get("value") is None:
        return f"Configuration key '{key}' is namespaced and must provide an attribute 'value'"
    return None


def environment_imports(data: Any) -> list[str]:
    """The Pulumi ESC environments a stack file imports (`environment:` as a list or `imports:`)."""
    section = data.get("environment") if isinstance(data, Mapping) else None
    if isinstance(section, Mapping):
        section = section.get("imports")
    if isinstance(section, str):
        return [section]
    if isinstance(section, list):
        return [str(item) for item in section]
    return []
