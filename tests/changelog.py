"""CHANGELOG.md read as its tests need it: each version's entry and the lines of its **On upgrade**.

An upgrade line is `- none` or `- OPERATION TYPE: words`, OPERATION one of update, replace, create,
delete, discard and TYPE a Pulumi type in backticks (CHANGELOG.md says so at its top). The upgrade test
compares the (operation, type) pairs of the newest entry with what `pulumi preview` shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"
OPERATIONS = ("update", "replace", "create", "delete", "discard")
_LINE = re.compile(r"^- `(update|replace|create|delete|discard) ([\w:./-]+)`")


@dataclass(frozen=True)
class Entry:
    version: str
    upgrade_lines: tuple[str, ...]

    @property
    def announced(self) -> frozenset[tuple[str, str]]:
        """The (operation, Pulumi type) pairs the entry says a deployed stack sees; empty for `none`."""
        found = set()
        for line in self.upgrade_lines:
            match = _LINE.match(line)
            if match:
                found.add((match.group(1), match.group(2)))
        return frozenset(found)

    @property
    def says_none(self) -> bool:
        return self.upgrade_lines == ("- none",)


def entries(text: str | None = None) -> list[Entry]:
    """Every version's entry, newest first, with the bullet lines of its `### On upgrade` section."""
    text = CHANGELOG.read_text() if text is None else text
    found = []
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        version = block.splitlines()[0].strip()
        upgrade = re.search(r"^### On upgrade\n(.*?)(?=^### |\Z)", block, flags=re.M | re.S)
        lines = [] if upgrade is None else [ln for ln in upgrade.group(1).splitlines() if ln.startswith("- ")]
        found.append(Entry(version, tuple(lines)))
    return found
