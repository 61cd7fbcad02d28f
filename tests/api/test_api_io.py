"""load_manifests from a file, a directory and a stream; errors name file, document and field."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from aim_pulumi.api import AIMValidationError, dump_manifests, read_documents, to_manifest
from tests.versions import load_manifests

SERVICE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: {name}
  namespace: ml-team
spec:
  model:
    name: qwen-qwen3-32b
"""

PROFILE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMClusterProfile
metadata:
  name: {name}
spec:
  aimId: qwen/qwen3-32b
  image: amdenterpriseai/aim-qwen-qwen3-32b:0.8.5
"""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_load_one_file_with_several_documents(tmp_path: Path) -> None:
    file = _write(tmp_path / "stack.yaml", SERVICE.format(name="a") + "---\n" + PROFILE.format(name="p"))
    objects = load_manifests(file)
    assert [(o.kind, o.metadata.name) for o in objects] == [("AIMService", "a"), ("AIMClusterProfile", "p")]
    assert load_manifests(str(file)) == objects


def test_load_directory_recursively_sorted_yaml_and_yml_only(tmp_path: Path) -> None:
    _write(tmp_path / "b.yaml", SERVICE.format(name="b"))
    _write(tmp_path / "a" / "z.yml", SERVICE.format(name="az"))
    _write(tmp_path / "a" / "notes.txt", "not: yaml: at: all: [")
    _write(tmp_path / "c" / "d.YAML", PROFILE.format(name="cd"))
    names = [o.metadata.name for o in load_manifests(tmp_path)]
    assert names == ["az", "b", "cd"]


def test_load_stream_skips_empty_documents() -> None:
    text = "---\n" + SERVICE.format(name="a") + "---\n---\n# only a comment\n---\n" + PROFILE.format(name="p")
    objects = load_manifests(io.StringIO(text))
    assert [o.metadata.name for o in objects] == ["a", "p"]


def test_error_names_file_document_object_and_field(tmp_path: Path) -> None:
    bad = SERVICE.format(name="bad").replace("  model:", "  routng: {}\n  model:")
    file = _write(tmp_path / "stack.yaml", SERVICE.format(name="ok") + "---\n---\n" + bad)
    with pytest.raises(AIMValidationError) as info:
        load_manifests(tmp_path)
    err = info.value
    assert (err.file, err.document, err.object_ref) == (str(file), 3, "AIMService/ml-team/bad")
    assert (err.field, err.reason) == ("spec.routng", "UnknownField")
    assert str(err).startswith(f"{file}:3: AIMService/ml-team/bad: spec.routng: UnknownField: ")


def test_stream_errors_are_located_in_the_stream() -> None:
    stream = io.StringIO(
        PROFILE.format(name="p")
        + "---\n"
        + PROFILE.format(name="q").replace("aimId: qwen/qwen3-32b", "aimId: ''")
    )
    with pytest.raises(AIMValidationError) as info:
        load_manifests(stream)
    assert (info.value.file, info.value.document, info.value.object_ref) == (
        "<stream>",
        2,
        "AIMClusterProfile/q",
    )
    assert info.value.field == "spec.aimId"


def test_yaml_syntax_error_is_a_validation_error(tmp_path: Path) -> None:
    file = _write(tmp_path / "broken.yaml", SERVICE.format(name="a") + "---\nkind: [unclosed\n")
    with pytest.raises(AIMValidationError) as info:
        load_manifests(file)
    assert (info.value.reason, info.value.file, info.value.document) == ("InvalidYAML", str(file), 2)
    assert info.value.field


def test_non_aim_kind_in_a_directory_is_an_error(tmp_path: Path) -> None:
    _write(tmp_path / "00-namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ml-team\n")
    _write(tmp_path / "10-service.yaml", SERVICE.format(name="a"))
    with pytest.raises(AIMValidationError) as info:
        load_manifests(tmp_path)
    assert (info.value.field, info.value.reason, info.value.object_ref) == (
        "kind",
        "UnknownKind",
        "Namespace/ml-team",
    )


def test_missing_path_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_manifests(tmp_path / "missing")


def test_unquoted_dates_stay_strings() -> None:
    text = SERVICE.format(name="a").replace(
        "  namespace: ml-team\n", "  namespace: ml-team\n  annotations:\n    released: 2024-01-01\n"
    )
    (svc,) = load_manifests(io.StringIO(text))
    assert svc.metadata.annotations == {"released": "2024-01-01"}


def test_read_documents_counts_positions_from_one() -> None:
    docs = read_documents(io.StringIO("---\n---\na: 1\n---\nb: 2\n"))
    assert [(d.document, d.data) for d in docs] == [(2, {"a": 1}), (3, {"b": 2})]


def test_dump_manifests_reloads_to_the_same_objects() -> None:
    objects = load_manifests(io.StringIO(SERVICE.format(name="a") + "---\n" + PROFILE.format(name="p")))
    again = load_manifests(io.StringIO(dump_manifests(objects)))
    assert again == objects
    assert [to_manifest(o) for o in again] == [to_manifest(o) for o in objects]
