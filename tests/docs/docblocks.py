"""The fenced code blocks of the README and of `docs/`, read as a Markdown parser reads them.

A block's info string says how it is checked: its first word is the language, the rest `key=value`
attributes (a value with spaces in double quotes):

- `python`: a program, run under the offline engine; `run=alternatives`: its trailing statements
  are alternatives, each run with the lines above them, and all must declare the same resources;
  `run=script`: library code run as a plain script (its assertions say what the page claims).
- `console`: `$ aim-pulumi ...` commands, each followed by the output it prints (stdout, then
  stderr), compared line by line; `exit=N` for a last command that must fail with N.
- `sh`: `aim-pulumi ...` commands that must succeed.
- `yaml`: AIM or Kubernetes objects, parsed and admitted (`expect=invalid`: they must be refused).
- `file=PATH`: also written to PATH in the page's working directory before its commands and
  programs run (`aim/chat.yaml`, which `aim-pulumi plan aim/` then plans).
- `example=PATH`: the block is that file of the repository, byte for byte (a program of another
  language, which the real-engine and cluster lanes deploy).
- `lane=real_engine|cluster name=NAME`: run in that lane by the test that asks for the block by
  name (`lane_block`); the unit tests check that some module of the lane's folder does.
- `norun=NAME`: cannot run here at all; `tests/docs/test_docs.py` lists every such NAME with why.

markdown-it-py finds the blocks (fences inside lists, fences of tildes, backticks inside a block)
as GitHub and the Pulumi registry render them, rather than a regular expression that would not.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """The README and every page of `docs/`, as paths relative to the repository."""
    return [README.relative_to(ROOT), *(p.relative_to(ROOT) for p in sorted(DOCS.glob("*.md")))]


@dataclass(frozen=True)
class Block:
    """One fenced block of one page."""

    page: Path
    line: int
    language: str
    attrs: dict[str, str] = field(hash=False)
    source: str

    @property
    def id(self) -> str:
        """What a test is called by: the page and the line of the opening fence."""
        return f"{self.page}:{self.line}"

    @property
    def lane(self) -> str | None:
        return self.attrs.get("lane")

    @property
    def name(self) -> str | None:
        return self.attrs.get("name")

    @property
    def norun(self) -> str | None:
        return self.attrs.get("norun")

    def commands(self) -> list[str]:
        """The commands of an `sh` block: continued lines joined, comments and blank lines dropped."""
        joined = re.sub(r"\\\n\s*", "", self.source)
        return [line for line in joined.splitlines() if shlex.split(line, comments=True)]

    def argv(self, command: str) -> list[str]:
        """One command as the shell splits it (the `# ...` after it dropped)."""
        return shlex.split(command, comments=True)


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    words = shlex.split(info)
    if not words:
        return "", {}
    attrs: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"info string {info!r}: {word!r} is not key=value")
        attrs[key] = value
    return words[0], attrs


@cache
def page_blocks(page: Path) -> tuple[Block, ...]:
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type == "code_block":
            line = token.map[0] + 1 if token.map else "?"
            raise ValueError(f"{page}:{line}: an indented code block; fence it with an info string")
        if token.type != "fence":
            continue
        assert token.map is not None
        language, attrs = parse_info(token.info)
        found.append(Block(page, token.map[0] + 1, language, attrs, token.content))
    return tuple(found)


def blocks() -> list[Block]:
    """Every block of every page, in page order."""
    return [block for page in pages() for block in page_blocks(page)]


def lane_block(lane: str, name: str) -> Block:
    """The block a lane's test runs; the test fails, naming it, when the docs no longer have it."""
    found = [b for b in blocks() if b.lane == lane and b.name == name]
    assert len(found) == 1, f"{len(found)} blocks with lane={lane} name={name} in the README and docs/"
    return found[0]
