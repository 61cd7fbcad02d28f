"""cel-python's parser, with its LALR tables kept between processes by lark's own cache.

cel-python builds its one parser (`celpy.celparser.CELParser.CEL_PARSER`) from its grammar the
first time a process compiles a rule: lark's LALR analysis of the CEL grammar, about 0.2 s of CPU,
paid by every `pulumi preview` and `pulumi up` of a program that admits one AIM object. Lark can keep
the result of that analysis in a file (its `cache` option) and load it in about a tenth of the time.
This module builds the same parser cel-python builds (same grammar, same options, checked by
`tests/schemas/test_cel_parser.py` against cel-python's own over every CEL rule of the vendored
schemas) with a cache file, and hands it to cel-python before cel-python builds its own.

The file lives in the user's cache directory (`$XDG_CACHE_HOME/aim-pulumi`, else
`~/.cache/aim-pulumi`), never in a shared temporary directory: lark stores the tables with pickle,
so only a directory the user alone writes to is fit to load them from. Its name holds lark's and
cel-python's versions; lark also checks the grammar and options it was made from, and builds the
tables again when they differ or the file is unreadable. When the directory cannot be made or
written (a read-only home), the parser is built as before and nothing is written. Set
`AIM_PULUMI_CEL_CACHE=0` to never read or write the file.
"""

from __future__ import annotations

import os
import re
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import lark
from celpy import celparser

__all__ = ["cache_file", "install_cached_parser", "parser_options"]

_DISABLE = "AIM_PULUMI_CEL_CACHE"


def parser_options() -> dict[str, object]:
    """The options `celpy.celparser.CELParser` gives `lark.Lark` (cel-python 0.5)."""
    return {
        "parser": "lalr",
        "start": "expr",
        "debug": True,
        "g_regex_flags": re.M,
        "lexer_callbacks": {"IDENT": celparser.CELParser.ambiguous_literals},
        "propagate_positions": True,
        "maybe_placeholders": False,
        "priority": "invert",
        "tree_class": lark.Tree,
    }


def _grammar() -> str:
    return (Path(celparser.__file__).parent / "cel.lark").read_text()


def _version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:  # pragma: no cover - both are installed with aim-pulumi
        return "unknown"


def cache_file() -> Path | None:
    """Where the tables are kept, or None when caching is off or no cache directory can be made."""
    if os.environ.get(_DISABLE, "1") == "0":
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    directory = Path(base) / "aim-pulumi"
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return None
    if not os.access(directory, os.W_OK):
        return None
    python = "{}.{}".format(*sys.version_info[:2])
    return directory / f"cel-parser-py{python}-lark{_version('lark')}-celpy{_version('cel-python')}.lark"


def install_cached_parser() -> None:
    """Give cel-python its parser, built from (or saved to) the cache file, unless it has one."""
    if celparser.CELParser.CEL_PARSER is not None:
        return
    path = cache_file()
    if path is None:
        return
    try:
        # Lark reads the file when it holds tables of this grammar and these options (the path is
        # one of them), else builds them and writes it; a file cut short by a program writing it at
        # the same moment is built again, as a damaged one is.
        parser = lark.Lark(_grammar(), cache=str(path), **parser_options())
    except OSError:
        return  # cel-python builds its own, as without this module
    celparser.CELParser.CEL_PARSER = parser
