"""Reading a scalar of a manifest the one way every decision compares it.

Specs reach resolve as plain dicts (from `to_manifest`) and, in a few places, as the typed models'
enum members; both must compare equal to the text a user wrote, and an absent field must compare
equal to an empty one, as the operator's Go structs (zero-valued strings) do.
"""

from __future__ import annotations

from typing import Any

__all__ = ["text"]


def text(value: Any) -> str:
    """A manifest scalar as text ("" for absent), an enum member as its value."""
    if value is None:
        return ""
    return str(getattr(value, "value", value))
