"""Order- and comment-preserving edits of a mapping (plain dicts and ruamel's CommentedMap alike).

`aim-pulumi migrate` rewrites a user's YAML in place, so a field that is renamed or replaced keeps
its position and the comments around it; these are the only edits the conversions make.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any


def sub(mapping: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """`mapping[key]` when it is a mapping, else an empty one."""
    value = mapping.get(key)
    return value if isinstance(value, Mapping) else {}


def _comments(mapping: MutableMapping[str, Any]) -> Any:
    ca = getattr(mapping, "ca", None)
    return getattr(ca, "items", None)


def like(mapping: Mapping[str, Any], **items: Any) -> MutableMapping[str, Any]:
    """A new mapping of the same type as `mapping` (so round-trip YAML keeps its node style)."""
    fresh: MutableMapping[str, Any] = type(mapping)()  # type: ignore[assignment]
    fresh.update(items)
    return fresh


def insert(mapping: MutableMapping[str, Any], position: int, key: str, value: Any) -> None:
    insert = getattr(mapping, "insert", None)
    if callable(insert):
        insert(position, key, value)
        return
    items = list(mapping.items())
    items.insert(position, (key, value))
    mapping.clear()
    mapping.update(items)


def _split_comment(mapping: MutableMapping[str, Any], key: str) -> tuple[Any, Any]:
    """Detach the comment a round-trip loader attached after `key`: (end-of-line part, following lines).

    The loader stores the comment at the end of a key's line together with the full-line comments
    below it (which a reader sees as introducing the next key), so the two parts are moved apart.
    """
    comments = _comments(mapping)
    entry = comments.pop(key, None) if comments is not None else None
    token = entry[2] if isinstance(entry, list) and len(entry) > 2 else None
    value = getattr(token, "value", None)
    if not isinstance(value, str):
        return None, None
    first, _, rest = value.partition("\n")
    if not first.strip():
        return None, token
    eol: Any = copy.copy(token)
    eol.value = first + "\n"
    following: Any = None
    if rest.strip():
        following = copy.copy(token)
        following.value = "\n" + rest
    return eol, following


def _attach(mapping: MutableMapping[str, Any], key: str | None, token: Any) -> None:
    """Attach a comment after the line of `key`; after a nested block it would land inside, so not there."""
    comments = _comments(mapping)
    if token is None or comments is None or key is None or key not in mapping:
        return
    if isinstance(mapping[key], Mapping | list):
        return
    entry = comments.get(key)
    if isinstance(entry, list) and len(entry) > 2 and entry[2] is not None:
        merged = copy.copy(entry[2])
        merged.value = entry[2].value + token.value.lstrip("\n")
        entry[2] = merged
    else:
        comments[key] = [None, None, token, None]


def _previous_key(mapping: MutableMapping[str, Any], key: str) -> str | None:
    keys = list(mapping.keys())
    position = keys.index(key)
    return keys[position - 1] if position > 0 else None


def replace(
    mapping: MutableMapping[str, Any],
    old: str,
    new_items: Sequence[tuple[str, Any]],
    *,
    eol_to: tuple[MutableMapping[str, Any], str] | None = None,
) -> None:
    """Put `new_items` where `old` was, keeping the comments around it.

    The end-of-line comment of `old` follows the first new key (or `eol_to`, where the meaning of
    the field went); the comment lines below it stay before the key that came next.
    """
    position = list(mapping.keys()).index(old)
    before = _previous_key(mapping, old)
    eol, following = _split_comment(mapping, old)
    del mapping[old]
    for offset, (key, value) in enumerate(new_items):
        insert(mapping, position + offset, key, value)
    first = new_items[0][0] if new_items else None
    last = new_items[-1][0] if new_items else before
    if eol_to is not None:
        _attach(*eol_to, eol)
    elif first is not None:
        _attach(mapping, first, eol)
    _attach(mapping, last, following)


def delete(mapping: MutableMapping[str, Any], key: str) -> None:
    """Remove `key`; comment lines below it stay before the key that came next."""
    if key in mapping:
        replace(mapping, key, [])


def carry(source: Any, key: str, target: MutableMapping[str, Any], target_key: str) -> None:
    """Move the comments of `source[key]` to `target[target_key]`, where its value went."""
    if isinstance(source, MutableMapping) and key in source:
        eol, following = _split_comment(source, key)
        _attach(target, target_key, eol)
        _attach(target, target_key, following)


def last_line(block: Any) -> tuple[MutableMapping[str, Any], str] | None:
    """The mapping and key of a block's last scalar line, where a round-trip loader keeps the comment
    lines that follow the whole block; None when the block ends in a sequence or is empty."""
    if not isinstance(block, MutableMapping) or not block:
        return None
    key = list(block.keys())[-1]
    value = block[key]
    if isinstance(value, MutableMapping) and value:
        return last_line(value)
    if isinstance(value, list):
        return None
    return block, key


def move_following(
    line: tuple[MutableMapping[str, Any], str] | None, target: MutableMapping[str, Any], key: str
) -> None:
    """Move the comment lines below `line` (its end-of-line comment stays) to below `target[key]`."""
    if line is None:
        return
    holder, holder_key = line
    eol, following = _split_comment(holder, holder_key)
    _attach(holder, holder_key, eol)
    _attach(target, key, following)


def rename(mapping: MutableMapping[str, Any], old: str, new: str) -> None:
    if old in mapping:
        replace(mapping, old, [(new, mapping[old])])


def child_map(parent: MutableMapping[str, Any], key: str, after: Sequence[str]) -> MutableMapping[str, Any]:
    """`parent[key]` as a mapping, created right after the last present key of `after` when missing."""
    existing: Any = parent.get(key)
    if isinstance(existing, MutableMapping):
        return existing
    fresh = like(parent)
    if key in parent:
        parent[key] = fresh
        return fresh
    keys = list(parent.keys())
    position = max((keys.index(k) + 1 for k in after if k in parent), default=len(keys))
    insert(parent, position, key, fresh)
    return fresh
