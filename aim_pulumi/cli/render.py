"""Terminal output of the offline commands: colour, tables and value formatting.

Colour is decided once per command (a terminal, no `--no-color`, `NO_COLOR`, `FORCE_COLOR` or
`TERM=dumb`), so redirected output and CI logs stay plain text that tests and `grep` can read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from aim_pulumi.offline.documents import SECRET, UNKNOWN, as_mapping, redact_secrets

__all__ = [
    "SECRET",
    "UNKNOWN",
    "Palette",
    "as_mapping",
    "format_value",
    "is_terminal",
    "palette_for",
    "redact_secrets",
    "table",
    "use_colour",
]


_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}


def use_colour(stream: TextIO, *, no_color: bool = False, environ: Mapping[str, str] | None = None) -> bool:
    """Colour for a terminal, by the conventions of no-color.org and force-color.org.

    `--no-color` and a non-empty `NO_COLOR` always win; then a non-empty `FORCE_COLOR` (other than
    `0`) colours even a pipe (CI logs that render ANSI); then `TERM=dumb` turns colour off; else
    colour exactly when the stream is a terminal.
    """
    env = os.environ if environ is None else environ
    if no_color or env.get("NO_COLOR", "") != "":
        return False
    if env.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    if env.get("TERM") == "dumb":
        return False
    return is_terminal(stream)


def is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except ValueError:  # a closed stream
        return False


@dataclass(frozen=True)
class Palette:
    """Wraps text in ANSI colours when enabled, and returns it untouched otherwise."""

    enabled: bool = False

    def paint(self, text: str, *styles: str) -> str:
        if not self.enabled or not styles:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")

    def dim(self, text: str) -> str:
        return self.paint(text, "dim")

    def create(self, text: str) -> str:
        return self.paint(text, "green")

    def update(self, text: str) -> str:
        return self.paint(text, "yellow")

    def delete(self, text: str) -> str:
        return self.paint(text, "red")

    def warning(self, text: str) -> str:
        return self.paint(text, "yellow")

    def error(self, text: str) -> str:
        return self.paint(text, "red", "bold")


def palette_for(stream: TextIO, *, no_color: bool = False) -> Palette:
    return Palette(use_colour(stream, no_color=no_color))


def format_value(value: Any, limit: int | None = 80) -> str:
    """One value on one line: JSON, cut with an ellipsis past `limit` characters (None: never cut)."""
    if value is None:
        text = "(absent)"
    elif value in (SECRET, UNKNOWN):
        text = str(value)
    else:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, indent: str = "  ") -> list[str]:
    """Left-aligned columns separated by two spaces; the last column is never padded."""
    widths = [len(h) for h in headers]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell))

    def line(cells: Sequence[str]) -> str:
        padded = [cell.ljust(widths[i]) if i < len(cells) - 1 else cell for i, cell in enumerate(cells)]
        return (indent + "  ".join(padded)).rstrip()

    return [line(headers), *(line(row) for row in rows)]
