"""Bounded YAML and value checks: hostile input is an AIMValidationError, never a hang or a crash."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.api import AIMValidationError
from aim_pulumi.api.errors import escape
from aim_pulumi.api.io import manifest_files
from aim_pulumi.api.limits import MAX_DEPTH, MAX_FILE_BYTES
from tests.versions import load_manifests, parse

MODEL = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata: {name: m1, namespace: ns1}
spec:
  modelId: Qwen/Qwen3-0.6B
  accelerator: {vendor: nvidia, count: 1}
  source: {size: 2Gi}
"""


def _load(text: str) -> AIMValidationError:
    with pytest.raises(AIMValidationError) as info:
        load_manifests(io.StringIO(text))
    return info.value


def test_billion_laughs_is_refused_quickly() -> None:
    levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        levels.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
    started = time.monotonic()
    err = _load(MODEL.replace("source: {size: 2Gi}", "source: {size: 2Gi}\n") + "\n".join(levels) + "\n")
    assert time.monotonic() - started < 5
    assert err.reason == "InputTooLarge"
    assert "aliases included" in err.message


def test_self_referencing_alias_is_a_cycle_error() -> None:
    err = _load("&a [*a]\n")
    assert (err.reason, err.field) == ("InvalidSpec", "[0]")
    assert "cyclic alias" in err.message


def test_deep_nesting_names_the_line() -> None:
    err = _load("x: " + "[" * 3000 + "]" * 3000 + "\n")
    assert err.reason == "InputTooLarge"
    assert f"deeper than {MAX_DEPTH}" in err.message
    assert "line 1" in err.message


def test_duplicate_key_names_field_and_lines() -> None:
    err = _load(MODEL.replace("  source: {size: 2Gi}\n", "  source: {size: 2Gi}\n  modelId: other\n"))
    assert (err.reason, err.field) == ("InvalidSpec", "spec.modelId")
    assert "duplicate key 'modelId' at line 8 (first at line 5)" in err.message


def test_lone_surrogate_in_yaml_is_invalid_spec() -> None:
    err = _load(MODEL.replace("Qwen/Qwen3-0.6B", '"a\\ud800"'))
    assert (err.reason, err.field) == ("InvalidSpec", "spec.modelId")


def test_file_too_large_is_refused_before_reading(tmp_path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(AIMValidationError) as info:
        load_manifests(big)
    assert info.value.reason == "InputTooLarge"
    assert info.value.file == str(big)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_in_directory_is_skipped_with_a_note(tmp_path) -> None:
    (tmp_path / "model.yaml").write_text(MODEL)
    os.mkfifo(tmp_path / "pipe.yaml")
    notes: list[Path] = []
    assert manifest_files(tmp_path, notes) == [tmp_path / "model.yaml"]
    assert notes == [tmp_path / "pipe.yaml"]
    assert [o.metadata.name for o in load_manifests(tmp_path)] == ["m1"]


def _python_model(**spec: object) -> dict[str, object]:
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMModel",
        "metadata": {"name": "m1", "namespace": "ns1"},
        "spec": {"modelId": "Qwen/Qwen3-0.6B", "accelerator": {"vendor": "nvidia", "count": 1}, **spec},
    }


def test_python_api_deep_value_is_clean() -> None:
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(AIMValidationError) as info:
        parse(_python_model(extra=deep))
    assert info.value.reason == "InputTooLarge"
    assert info.value.field.startswith("spec.extra[0]")


def test_python_api_integer_beyond_int64() -> None:
    obj = _python_model()
    obj["spec"]["accelerator"]["count"] = 10**30  # type: ignore[index]
    with pytest.raises(AIMValidationError) as info:
        parse(obj)
    assert info.value.field == "spec.accelerator.count"


def test_python_api_self_containing_value() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(AIMValidationError) as info:
        parse(_python_model(extra=loop))
    assert "contains itself" in info.value.message


def test_escape_shows_control_characters() -> None:
    assert escape("a\nb\tc\r\x1b[31m\u202e\ud800é") == "a\\nb\\tc\\r\\x1b[31m\\u202e\\ud800é"


def test_error_text_is_one_line() -> None:
    err = AIMValidationError("metadata.name", "InvalidSpec", "bad", object_ref="AIMService/ns/a\nb: c")
    assert str(err) == "AIMService/ns/a\\nb: c: metadata.name: InvalidSpec: bad"


def _reference_value_problem(value: object, path: str = "") -> tuple[str, str, str] | None:
    """The plain walk `value_problem` must agree with: a joined path per value, checks in order."""
    from collections.abc import Mapping

    from aim_pulumi.api.errors import join_path
    from aim_pulumi.api.limits import INT64_MAX, INT64_MIN

    seen: set[int] = set()
    stack: list[tuple[object, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        field = where or "(root)"
        if depth > MAX_DEPTH:
            return (field, "InputTooLarge", f"nesting deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return (field, "InvalidSpec", "a lone surrogate is not valid text")
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if not INT64_MIN <= item <= INT64_MAX:
                return (field, "InvalidSpec", "integer out of range (Kubernetes integers are at most 64-bit)")
        elif isinstance(item, Mapping | list | tuple):
            if id(item) in seen:
                continue  # the generated values below share but never contain themselves
            seen.add(id(item))
            if isinstance(item, Mapping):
                for key, child in item.items():
                    if isinstance(key, str):
                        try:
                            key.encode("utf-8")
                        except UnicodeEncodeError:
                            return (field, "InvalidSpec", "a lone surrogate is not valid text")
                    stack.append((child, join_path(where, str(key)), depth + 1))
            else:
                for position, child in enumerate(item):
                    stack.append((child, join_path(where, position) if where else f"[{position}]", depth + 1))
    return None


_HOSTILE_TEXT = st.sampled_from(["a", "é", "\ud800", "", "[0]", "x.y", "ok\udfff"])
_HOSTILE_SCALARS = (
    st.none() | st.booleans() | st.floats(allow_nan=False) | _HOSTILE_TEXT
    | st.integers(min_value=-(2**64), max_value=2**64)
)  # fmt: skip
_HOSTILE_VALUES = st.recursive(
    _HOSTILE_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(_HOSTILE_TEXT | st.integers(0, 2), inner, max_size=3)
    ),
    max_leaves=16,
)


@settings(max_examples=400, deadline=None)
@given(value=_HOSTILE_VALUES, path=st.sampled_from(["", "spec", "spec.env[1]"]))
def test_value_problem_reports_what_a_plain_walk_reports(value: object, path: str) -> None:
    from aim_pulumi.api.limits import value_problem

    problem = value_problem(value, path)
    found = None if problem is None else (problem.field, problem.reason, problem.message)
    assert found == _reference_value_problem(value, path)


def test_value_problem_path_of_a_deep_bad_value_is_spelled_out() -> None:
    from aim_pulumi.api.limits import value_problem

    value = {"spec": {"env": [{"name": "A"}, {"name": "B", "value": "\ud800"}]}}
    problem = value_problem(value)
    assert problem is not None and problem.field == "spec.env[1].value"


def test_an_error_line_is_bounded_and_says_how_long_the_value_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 3 MB label value comes back as its start and its length, not as a 3 MB line."""
    from aim_pulumi.cli.__main__ import main

    value = "a" * 3_000_000
    manifest = tmp_path / "service.yaml"
    manifest.write_text(
        "apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMService\n"
        f"metadata: {{name: chat, namespace: ml, labels: {{team: {value}}}}}\n"
        "spec: {model: {name: m}}\n"
    )
    assert main(["validate", str(manifest)]) == 1
    output = capsys.readouterr()
    lines = (output.out + output.err).splitlines()
    assert lines and max(len(line) for line in lines) <= 2100
    assert "(3000000 characters)" in output.out + output.err
