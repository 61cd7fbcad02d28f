"""A `kind: List` document is read as its items, as kubectl applies it: `validate` checks each item
at the line of its own field, and `plan` plans each item (and refuses a bad one) as a document of
its own would be."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from aim_pulumi.cli.__main__ import main

LIST = """\
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: one
      namespace: ml
    data:
      a: "1"
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: two
      namespace: ml
    data:
      {key}: "2"
"""


def _write(tmp_path: Path, key: str) -> Path:
    path = tmp_path / "list.yaml"
    path.write_text(LIST.format(key=key), encoding="utf-8")
    return path


def test_validate_checks_each_item_at_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(_write(tmp_path, "b"))]) == 0
    assert capsys.readouterr().out.strip() == "2 objects valid"
    path = _write(tmp_path, "a/b")
    assert main(["validate", str(path)]) == 1
    (line,) = [ln for ln in capsys.readouterr().out.splitlines() if "SchemaViolation" in ln]
    assert line.startswith(f"{path}:17: ConfigMap/ml/two: data[a/b]: SchemaViolation: ")


def test_plan_plans_each_item_and_refuses_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plan", str(_write(tmp_path, "b")), "--yaml", "-"]) == 0
    planned = [doc for doc in yaml.safe_load_all(capsys.readouterr().out) if doc]
    assert [(d["kind"], d["metadata"]["name"], d["data"]) for d in planned] == [
        ("ConfigMap", "one", {"a": "1"}),
        ("ConfigMap", "two", {"b": "2"}),
    ]
    assert main(["plan", str(_write(tmp_path, "a/b"))]) == 1
    err = capsys.readouterr().err
    assert "ConfigMap/ml/two: data[a/b]: " in err
    assert "a valid config key must consist of alphanumeric characters" in err
