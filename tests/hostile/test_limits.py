"""Bounded YAML and value checks: hostile input is an AIMValidationError, never a hang or a crash."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from aim_pulumi.api import AIMValidationError, load_manifests, parse
from aim_pulumi.api.errors import escape
from aim_pulumi.api.io import manifest_files
from aim_pulumi.api.limits import MAX_DEPTH, MAX_FILE_BYTES

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
