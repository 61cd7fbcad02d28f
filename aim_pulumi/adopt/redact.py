"""What a report of an import may show of a live or planned value: never a credential.

The report (`report.json`, and the same report printed) lists the fields the first `pulumi up`
changes or keeps, with the live and the planned value. The live objects are the operator's, and an
InferenceService's env holds whatever the AIMService said, `HF_TOKEN: hf_...` included; a report
is pasted into tickets and CI logs. So a value is shown only where `validate` and `explain` would
show it (`aim_pulumi.api.base.may_hold_credentials`, one rule for every output): a Secret's values
never, and any field whose path names a credential (an env entry by its name, `HF_TOKEN`; a key
like `apiKey`), or an env entry known only by its position, as `[not shown]`. The structure
around a hidden value stays, so the report still says which fields differ.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from aim_pulumi.api.base import may_hold_credentials

__all__ = ["NOT_SHOWN", "SECRET", "path_parts", "shown"]

NOT_SHOWN = "[not shown]"
SECRET = "[secret]"
_PART = re.compile(r"\[([^\]]*)\]|([^.\[\]]+)")


def path_parts(path: str) -> tuple[str | int, ...]:
    """A report path as the parts `may_hold_credentials` reads: `env[name=HF_TOKEN].value` ->
    ("env", "HF_TOKEN", "value"), `args[0]` -> ("args", 0)."""
    parts: list[str | int] = []
    for selector, word in _PART.findall(path):
        if word:
            parts.append(word)
        elif selector.isdigit():
            parts.append(int(selector))
        else:
            # `[name=X]`, `[k1=a,k2=b]`: the item is known by its key values.
            parts.append(",".join(pair.partition("=")[2] for pair in selector.split(",")))
    return tuple(parts)


def shown(kind: str, path: str, value: Any) -> Any:
    """`value` (at `path` of a `kind` object) as a report may hold it (module docstring)."""
    if value is None:
        return None
    if kind == "Secret":
        return SECRET
    return _hidden(path_parts(path), value)


def _hidden(loc: tuple[str | int, ...], value: Any) -> Any:
    if isinstance(value, Mapping):
        return {
            key: item if key == "name" and _named_by(loc, item) else _hidden((*loc, str(key)), item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_hidden((*loc, _item_key(item, i)), item) for i, item in enumerate(value)]
    return NOT_SHOWN if may_hold_credentials(loc) else value


def _item_key(item: Any, index: int) -> str | int:
    """A list item as a path names it: by its `name` when it has one (an env entry), else by index."""
    name = item.get("name") if isinstance(item, Mapping) else None
    return name if isinstance(name, str) else index


def _named_by(loc: tuple[str | int, ...], name: Any) -> bool:
    """Whether `name` is the key the item at `loc` is already known by (so showing it adds nothing)."""
    return bool(loc) and isinstance(name, str) and loc[-1] == name
