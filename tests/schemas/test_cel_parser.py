"""The cached CEL parser is cel-python's own parser, and the cache never stands in a program's way.

`aim_pulumi/schemas/cel_parser.py` builds the parser cel-python builds, with lark's cache file:
every CEL expression of the vendored schemas (rules and message expressions) must parse to the same
tree with both. Each program run is a fresh process, so the cache is exercised in subprocesses
with their own `XDG_CACHE_HOME`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lark
import pytest
from celpy import celparser

from aim_pulumi.schemas import cel_parser

SCHEMAS = Path(cel_parser.__file__).parent


def _expressions(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for rule in node.get("x-kubernetes-validations") or ():
            yield rule["rule"]
            if rule.get("messageExpression"):
                yield rule["messageExpression"]
        for value in node.values():
            yield from _expressions(value)
    elif isinstance(node, list):
        for value in node:
            yield from _expressions(value)


EXPRESSIONS = sorted(
    {e for path in SCHEMAS.glob("*.json") for e in _expressions(json.loads(path.read_text()))}
)


def test_the_vendored_schemas_hold_many_expressions() -> None:
    assert len(EXPRESSIONS) > 50


def test_every_expression_parses_to_the_tree_cel_python_parses_it_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grammar = (Path(celparser.__file__).parent / "cel.lark").read_text()
    monkeypatch.setattr(celparser.CELParser, "CEL_PARSER", None)
    own = celparser.CELParser().CEL_PARSER  # cel-python's, built from its grammar as it builds it
    assert own is not None
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(celparser.CELParser, "CEL_PARSER", None)
    cel_parser.install_cached_parser()
    written = celparser.CELParser.CEL_PARSER
    monkeypatch.setattr(celparser.CELParser, "CEL_PARSER", None)
    cel_parser.install_cached_parser()  # now loaded from the file written just before
    loaded = celparser.CELParser.CEL_PARSER
    assert written is not None and loaded is not None and loaded is not written
    assert [p.name for p in (tmp_path / "aim-pulumi").iterdir()] == [cel_parser.cache_file().name]  # type: ignore[union-attr]
    # The same grammar and options as cel-python's (its lexer callback included: `true` is a literal).
    assert lark.Lark(grammar, **cel_parser.parser_options()).options.options == own.options.options  # type: ignore[arg-type]
    for expression in EXPRESSIONS:
        expected = own.parse(expression)
        assert written.parse(expression) == expected, expression
        assert loaded.parse(expression) == expected, expression


PROBE = """
import json, sys
from celpy import json_to_cel
from aim_pulumi.schemas.cel import compiled
program = compiled("self.a == true && size(self.b) > 0")
print(bool(program.evaluate({"self": json_to_cel(json.loads(sys.argv[1]))})))
"""


def _run(env: dict[str, str], value: str = '{"a": true, "b": [1]}') -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, value], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # nothing said about the cache, whatever happened to it
    return done.stdout.strip()


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "AIM_PULUMI_CEL_CACHE")}
    env.update(extra)
    return env


def test_a_program_writes_the_tables_once_then_reads_them(tmp_path: Path) -> None:
    env = _env(XDG_CACHE_HOME=str(tmp_path))
    assert _run(env) == "True"
    (cached,) = (tmp_path / "aim-pulumi").iterdir()
    first = cached.read_bytes()
    assert _run(env, '{"a": false, "b": [1]}') == "False"
    assert list((tmp_path / "aim-pulumi").iterdir()) == [cached]  # no temporary file left
    assert cached.read_bytes() == first


def test_a_damaged_file_is_built_again(tmp_path: Path) -> None:
    env = _env(XDG_CACHE_HOME=str(tmp_path))
    _run(env)
    (cached,) = (tmp_path / "aim-pulumi").iterdir()
    good = cached.read_bytes()
    cut = good[: len(good) // 2]
    cached.write_bytes(cut)
    assert _run(env) == "True"
    rebuilt = cached.read_bytes()
    # Written again whole (lark pickles sets, so the bytes may differ), and read by the next run.
    assert rebuilt.split(b"\n", 1)[0] == good.split(b"\n", 1)[0] and len(rebuilt) > len(cut)
    assert _run(env) == "True"
    assert cached.read_bytes() == rebuilt


def test_no_cache_when_switched_off_or_unwritable(tmp_path: Path) -> None:
    assert _run(_env(XDG_CACHE_HOME=str(tmp_path / "off"), AIM_PULUMI_CEL_CACHE="0")) == "True"
    assert not (tmp_path / "off").exists()
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory would be")
    assert _run(_env(XDG_CACHE_HOME=str(blocked))) == "True"
