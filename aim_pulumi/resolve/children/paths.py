"""HTTP path templates: JSONPath placeholders rendered against the AIMService, then normalised.

Each segment is lowercased and percent-encoded so that any label or name value yields a path the
Gateway API accepts; a template that cannot be rendered is reported, never guessed at, because a
wrong path would silently expose the service somewhere else.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from jsonpath_ng import jsonpath
from jsonpath_ng.ext.parser import parse as jsonpath_parse

from aim_pulumi.resolve.errors import AIMResolutionError

MAX_PATH_LENGTH = 200
DEFAULT_PATH_TEMPLATE = "/{.metadata.namespace}/{.metadata.uid}"
PATH_TEMPLATE_FIELD = "spec.routing.pathTemplate"

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_DOT_SEGMENTS = frozenset({".", ".."})


def _invalid(message: str, field: str) -> AIMResolutionError:
    return AIMResolutionError(field, "PathTemplateInvalid", message)


@functools.lru_cache(maxsize=512)
def _compile(expression: str) -> Any:
    return jsonpath_parse(expression)


@functools.lru_cache(maxsize=512)
def _field_chain(expression: str) -> tuple[str, ...] | None:
    """The field names of an expression that is nothing but field access (`$.metadata.name`).

    Read from the parsed expression itself, so a keyword or extension the parser treats
    differently never takes this path; None for anything else.
    """
    node = _compile(expression)
    chain: list[str] = []
    while type(node) is jsonpath.Child:
        field = node.right
        if (
            type(field) is not jsonpath.Fields
            or len(field.fields) != 1
            or field.fields[0] == "*"
            or getattr(field, "_deprecated_wildcard_use", None) is not False
        ):
            return None
        chain.append(field.fields[0])
        node = node.left
    if type(node) is not jsonpath.Root:
        return None
    return tuple(reversed(chain))


def _field_chain_values(chain: tuple[str, ...], data: Any) -> list[Any]:
    """What the parsed field chain finds in `data`, by the parser's own lookup (`Fields.find`)
    without building its match objects: one value, or none when a field is missing."""
    value = data
    for name in chain:
        try:
            value = value.get(name, _MISSING)
        except (TypeError, AttributeError):
            return []
        if value is _MISSING:
            return []
    return [value]


_MISSING = object()

_PLAIN_FIELD = re.compile(r"^(?:[A-Za-z_@][A-Za-z0-9_@-]*|\*)?$")


def _bracket_escaped_fields(text: str) -> str:
    """Rewrite kubectl field names into the bracket form the JSONPath parser reads.

    kubectl and client-go accept `.labels.app\\.kubernetes\\.io/name` (a backslash keeps a dot inside
    one field name, and `/` is an ordinary field character); the parser only reads such names as
    `['app.kubernetes.io/name']`. Brackets and filter expressions are copied as written.
    """
    out: list[str] = []
    field: list[str] = []
    in_field = False
    index = 0

    def close_field() -> None:
        name = "".join(field)
        field.clear()
        if _PLAIN_FIELD.match(name):
            out.append("." + name)
        else:
            out.append("['" + name.replace("\\", "\\\\").replace("'", "\\'") + "']")

    while index < len(text):
        char = text[index]
        if in_field and char == "\\" and index + 1 < len(text):
            field.append(text[index + 1])
            index += 2
            continue
        if char == "." or char == "[":
            if in_field:
                close_field()
                in_field = False
            if char == ".":
                in_field = True
                index += 1
                continue
            depth, quote_char, start = 0, "", index
            while index < len(text):
                inner = text[index]
                if quote_char:
                    quote_char = "" if inner == quote_char else quote_char
                elif inner in "'\"":
                    quote_char = inner
                elif inner == "[":
                    depth += 1
                elif inner == "]":
                    depth -= 1
                    if depth == 0:
                        break
                index += 1
            out.append(text[start : index + 1])
            index += 1
            continue
        if in_field:
            field.append(char)
        else:
            out.append(char)
        index += 1
    if in_field:
        close_field()
    return "".join(out)


@functools.lru_cache(maxsize=1024)
def _expression(placeholder: str) -> str:
    text = placeholder.strip()
    if "\\" in text:
        text = _bracket_escaped_fields(text)
    if text.startswith("$"):
        return text
    if text.startswith("."):
        return "$" + text
    return "$." + text


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/")


@functools.lru_cache(maxsize=1024)
def check_client_go_subset(placeholder: str, field: str = PATH_TEMPLATE_FIELD) -> None:
    """Accept only what the operator's client-go JSONPath reads in a path template.

    Remembered when accepted (every service of a namespace renders the same template); a refusal
    is raised anew each time.

    That is `$`, then field access (`.name`, with `\\.` for a dot inside a key), bracketed keys
    (`['a.b/c']`, `["x"]`), indexes (`[0]`) and `[*]`. jsonpath-ng's extensions (`sub`, filters,
    arithmetic, wildcards, recursive descent) are refused: the operator would not render them,
    and some of them run user regexes. One left-to-right scan, so the check is linear.
    """
    text = placeholder.strip()
    if text.startswith("$"):
        text = text[1:]
    elif not text.startswith((".", "[")):
        text = "." + text
    if not text:
        raise _invalid(f"placeholder {{{placeholder}}} selects nothing", field)
    position = 0

    def refuse(detail: str) -> AIMResolutionError:
        return _invalid(
            f"placeholder {{{placeholder}}} is not a valid JSONPath expression for the operator: it "
            f"{detail}; only field access (.name), bracketed keys (['key']) and escaped dots (\\.) "
            "are supported",
            field,
        )

    while position < len(text):
        char = text[position]
        if char == ".":
            start = position = position + 1
            while position < len(text):
                if text[position] == "\\" and position + 1 < len(text) and text[position + 1] == ".":
                    position += 2
                elif text[position] in _NAME_CHARS:
                    position += 1
                else:
                    break
            if position == start:
                raise refuse(f"has an empty or unsupported field name at offset {start}")
        elif char == "[":
            close = text.find("]", position)
            if close < 0:
                raise refuse("has an unclosed bracket")
            inner = text[position + 1 : close]
            quoted = len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\""
            if not (quoted and inner[0] not in inner[1:-1]) and not inner.isdigit() and inner != "*":
                raise refuse(f"uses the unsupported bracket expression [{inner}]")
            position = close + 1
        else:
            raise refuse(f"uses {char!r} at offset {position}")


def _render_value(placeholder: str, service: Mapping[str, Any], field: str) -> str:
    check_client_go_subset(placeholder, field)
    expression = _expression(placeholder)
    try:
        compiled = _compile(expression)
    except Exception as exc:
        raise _invalid(
            f"placeholder {{{placeholder}}} is not a valid JSONPath expression: {exc}", field
        ) from exc
    try:
        chain = _field_chain(expression)
        if chain is not None and jsonpath.auto_id_field is None:
            matches = _field_chain_values(chain, service)
        else:
            matches = [match.value for match in compiled.find(service)]
    except Exception as exc:
        raise _invalid(f"placeholder {{{placeholder}}} cannot be evaluated: {exc}", field) from exc
    if not matches:
        raise _invalid(f"placeholder {{{placeholder}}} matches no field of the service", field)
    if len(matches) > 1:
        raise _invalid(
            f"placeholder {{{placeholder}}} matches {len(matches)} values; it must match one", field
        )
    value = matches[0]
    if value is None:
        raise _invalid(f"placeholder {{{placeholder}}} is null", field)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return json.dumps(value)
    raise _invalid(
        f"placeholder {{{placeholder}}} is {type(value).__name__}, not a string, number or boolean", field
    )


def _substitute(template: str, service: Mapping[str, Any], field: str) -> str:
    pieces: list[str] = []
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        literal = template[position : match.start()]
        if "{" in literal or "}" in literal:
            raise _invalid(f"template {template!r} has an unmatched brace", field)
        pieces.append(literal)
        pieces.append(_render_value(match.group(1), service, field))
        position = match.end()
    tail = template[position:]
    if "{" in tail or "}" in tail:
        raise _invalid(f"template {template!r} has an unmatched brace", field)
    pieces.append(tail)
    return "".join(pieces)


def _encode_segment(segment: str, field: str) -> str:
    lowered = segment.lower()
    if lowered in _DOT_SEGMENTS:
        raise _invalid(f"segment {segment!r} is a relative path segment, which HTTPRoute paths reject", field)
    try:
        return quote(lowered, safe="", encoding="utf-8", errors="strict")
    except UnicodeEncodeError as exc:
        raise _invalid(f"segment {segment!r} is not valid Unicode text", field) from exc


def normalize_path(rendered: str, *, field: str = PATH_TEMPLATE_FIELD) -> str:
    """Normalise a rendered path in the documented order: encode, length check, trailing slash."""
    segments = [_encode_segment(segment, field) for segment in rendered.split("/") if segment]
    if not segments:
        raise _invalid(f"rendered path {rendered!r} has no segment", field)
    path = "/" + "/".join(segments)
    if rendered.endswith("/"):
        path += "/"
    if len(path) > MAX_PATH_LENGTH:
        raise _invalid(
            f"rendered path is {len(path)} characters long; at most {MAX_PATH_LENGTH} allowed", field
        )
    return path.rstrip("/")


def render_path(template: str | None, service: Mapping[str, Any], *, field: str = PATH_TEMPLATE_FIELD) -> str:
    """The HTTP path of a service's route.

    `service` is the CRD-shaped AIMService (`apiVersion`, `kind`, `metadata` with the effective
    `uid`, `spec`, `status`). `None` or `""` selects the default `/<namespace>/<uid>`. Raises
    AIMResolutionError(reason="PathTemplateInvalid") naming `field` and why it failed.
    """
    effective = template if template else DEFAULT_PATH_TEMPLATE
    return normalize_path(_substitute(effective, service, field), field=field)
