"""libyaml reads what PyYAML's Python parser reads, or leaves the file to it.

A file is read with libyaml when it can (several times faster on a large catalog); whatever
libyaml reads must be exactly what the Python parser reads, and whatever it cannot read cleanly
(a syntax error, a bound, text libyaml refuses) is read by the Python parser, whose error is the
one reported. Either way the documents, and every error, are the Python parser's.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.api import AIMValidationError
from aim_pulumi.api.limits import _libyaml_documents, _python_documents, load_yaml_documents
from hostile.corpus import corpus

ROOT = Path(__file__).resolve().parents[2]


def _python(text: str) -> list[Any] | BaseException:
    try:
        return list(_python_documents(text))
    except (yaml.YAMLError, AIMValidationError, ValueError, RecursionError) as error:
        return error


def _agrees(text: str) -> bool:
    """libyaml reads nothing, or exactly the documents the Python parser reads."""
    fast = _libyaml_documents(text)
    if fast is None:
        return True
    reference = _python(text)
    assert not isinstance(reference, BaseException), (
        f"libyaml read a file the Python parser refuses: {reference}"
    )
    assert fast == reference
    assert [type(d) for d in fast] == [type(d) for d in reference]
    return True


def _texts() -> list[tuple[str, str]]:
    found = []
    for directory in ("examples", "tests/fixtures"):
        for path in sorted((ROOT / directory).rglob("*.y*ml")):
            found.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    for case in corpus(17, 200):
        with contextlib.suppress(UnicodeDecodeError):
            found.append((case.name, case.data.decode("utf-8")))
    return found


TEXTS = _texts()


BLOCK_CATALOG = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMClusterProfile
metadata:
  labels:
    aim.eai.amd.com/source-model: qwen
  name: qwen-c0
spec:
  acceleratorCount: 1
  aimId: example/qwen
  image: amdenterpriseai/aim-qwen:0.8.5
  precision: fp8
  released: 2024-01-01
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: svc-0
  namespace: team-a
spec:
  model:
    name: qwen
  env:
  - name: NOTE
    value: |
      two lines,
      unquoted: 2024-01-01
"""


def test_libyaml_reads_a_block_style_catalog() -> None:
    """Without libyaml every file takes the Python parser, and the comparisons here prove nothing."""
    fast = _libyaml_documents(BLOCK_CATALOG)
    assert fast is not None
    assert fast == list(_python_documents(BLOCK_CATALOG))
    assert fast[1]["spec"]["env"][0]["value"].endswith("unquoted: 2024-01-01\n")
    assert fast[0]["spec"]["released"] == "2024-01-01"  # no timestamps: Kubernetes reads a string


def test_flow_collections_and_tabs_are_read_by_the_python_parser() -> None:
    """There the two disagree: libyaml reads `[n?ull]` and `n<TAB>ull`, which PyYAML refuses."""
    for text in ("[n?ull]\n", "n\tull\n", "a: {b: 1}\n"):
        assert _libyaml_documents(text) is None


@pytest.mark.parametrize(("name", "text"), TEXTS, ids=[name for name, _ in TEXTS])
def test_libyaml_reads_what_the_python_parser_reads(name: str, text: str) -> None:
    assert _agrees(text)


@pytest.mark.parametrize(
    "text",
    [
        "x: " + "[" * 3000 + "]" * 3000 + "\n",
        "&a [*a]\n",
        "a: 1\na: 2\n",
        "a: [1, 2\n",
        "%YAML 2.0\n---\na: 1\n",
        "a: *nowhere\n",
        '"a\\ud800"\n',
        "a: " + "9" * 200 + "\n",
    ],
)
def test_what_libyaml_cannot_read_cleanly_is_left_to_the_python_parser(text: str) -> None:
    assert _libyaml_documents(text) is None
    reference = _python(text)
    try:
        documents: Any = list(load_yaml_documents(text))
    except (yaml.YAMLError, AIMValidationError) as error:
        documents = error
    if isinstance(reference, BaseException):
        assert type(documents) is type(reference) and str(documents) == str(reference)
    else:
        assert documents == reference


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(
        [
            *["2024-01-01", "0x1F", "0o17", "1_000", "~", "null", "yes", "NO", "1e3", ".inf", "<<", "=", ""],
            # where go-yaml, which the loaders follow, and PyYAML's YAML 1.1 part ways
            *["1:30", "017", "08", "0x_1F", "0b-101", "y", "N", "1.", ".5_5", "1e400", "+12", "-0b11"],
        ]
    ),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.text(max_size=6) | _scalars.filter(lambda v: v is not None and not isinstance(v, float)),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=20,
)


# Characters and fragments that change how YAML reads a text: indicators, breaks, anchors, scalars.
EDITS = [
    *" \t\n-:[]{},&*!|>'\"#%@`?\r\x85\u2028\ufeff\x00\\",
    "\n- ",
    ": ",
    " #",
    "\n---\n",
    "\n...\n",
    "&a ",
    "*a",
    "|\n  ",
    ">-\n  ",
    "? ",
    "!!str ",
    "!x ",
    "<<: ",
    "\n  ",
    "\r\n",
    "%TAG ! x\n---\n",
    "'it''s'",
]


# Hypothesis examples per property (AIM_YAML_EXAMPLES raises it for a longer search).
_EXAMPLES = settings(max_examples=int(os.environ.get("AIM_YAML_EXAMPLES", "300")), deadline=None)
# Characters inserted into written YAML: each one changes how a scanner reads what follows it.
_DAMAGE = " \t\n-:[]{},&*!|>'\"#%@`?\r\x85\u2028"


def _edits(characters: str) -> st.SearchStrategy[list[tuple[int, str]]]:
    """Up to three insertions of one of `characters` at any position of the text."""
    return st.lists(st.tuples(st.integers(min_value=0), st.sampled_from(list(characters))), max_size=3)


def _damaged(text: str, edits: list[tuple[int, str]]) -> str:
    """`text` with each edit's character inserted at its position (modulo the text's length)."""
    for position, character in edits:
        at = position % (len(text) + 1)
        text = text[:at] + character + text[at:]
    return text


@_EXAMPLES
@given(
    documents=st.lists(_values, min_size=1, max_size=3),
    flow=st.sampled_from([None, True, False]),
    unicode=st.booleans(),
    width=st.sampled_from([20, 80, 1000]),
    edits=_edits(_DAMAGE),
)
def test_libyaml_agrees_on_written_and_damaged_yaml(
    documents: list[Any], flow: bool | None, unicode: bool, width: int, edits: list[tuple[int, str]]
) -> None:
    try:
        text = yaml.safe_dump_all(documents, default_flow_style=flow, allow_unicode=unicode, width=width)
    except yaml.YAMLError:
        return
    assert _agrees(_damaged(text, edits))


@_EXAMPLES
@given(
    documents=st.lists(_values, min_size=1, max_size=3),
    style=st.sampled_from(['"', "'"]),
    unicode=st.booleans(),
    width=st.sampled_from([20, 80, 1000]),
    edits=_edits(_DAMAGE + "\\"),
)
def test_libyaml_agrees_on_flow_collections_of_quoted_scalars(
    documents: list[Any], style: str, unicode: bool, width: int, edits: list[tuple[int, str]]
) -> None:
    """The flow collections libyaml is given (only quoted scalars in them), written and damaged."""
    try:
        text = yaml.safe_dump_all(
            documents, default_flow_style=True, default_style=style, allow_unicode=unicode, width=width
        )
    except yaml.YAMLError:
        return
    assert _agrees(_damaged(text, edits))


def test_libyaml_reads_braces_in_block_scalars_and_flow_collections_of_quoted_scalars() -> None:
    """A path template's `{...}` or a quoted list does not send a large catalog to the slow parser."""
    text = (
        "spec:\n  routing:\n    pathTemplate: /{.metadata.namespace}/{.metadata.name}\n"
        "  labelPropagation:\n    match: [\"org.example/*\", 'team']\n  env: []\n  labels: {}\n"
        '  nested: [["a"], {"k": "v"}]\n'
    )
    fast = _libyaml_documents(text)
    assert fast is not None
    assert fast == list(_python_documents(text))
    assert fast[0]["spec"]["routing"]["pathTemplate"] == "/{.metadata.namespace}/{.metadata.name}"
    assert fast[0]["spec"]["labelPropagation"]["match"] == ["org.example/*", "team"]


@pytest.mark.parametrize("text", ["- |#null\n", "a: >-#x\n", "a: |2#\n  b\n"])
def test_a_block_header_run_into_a_comment_is_read_by_the_python_parser(text: str) -> None:
    """libyaml reads `|#x`; the Python scanner refuses it, and its error is the one reported."""
    assert _libyaml_documents(text) is None
    assert _agrees(text)
