"""`aim-pulumi validate`: exit codes 0/1/2, one `file:doc: ref: field: reason: message` line per problem."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main

SEEDS = Path(__file__).resolve().parents[2] / "fixtures" / "seeds"

GOOD = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: qwen-chat
  namespace: ml-team
spec:
  model:
    name: qwen-qwen3-32b
"""

BAD = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: qwen-bad
  namespace: ml-team
spec:
  routng: {}
  template:
    name: t
  profile:
    selector:
      role: base
"""

LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<doc>\d+): (?P<ref>\S+): (?P<field>\S+): (?P<reason>\w+): (?P<message>.+)$"
)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(["validate", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_valid_seed_directory_exits_zero_with_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = _run(capsys, str(SEEDS))
    assert code == 0
    assert lines == ["45 objects valid"]


def test_several_paths_are_counted_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _write(tmp_path / "a.yaml", GOOD)
    b = _write(tmp_path / "b.yml", GOOD + "---\n" + GOOD)
    code, lines, _ = _run(capsys, str(a), str(b))
    assert (code, lines) == (0, ["3 objects valid"])


def test_problems_exit_one_with_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = _write(tmp_path / "svc.yaml", GOOD + "---\n" + BAD)
    code, lines, err = _run(capsys, str(file))
    assert code == 1
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), lines
    assert [(m["file"], m["doc"], m["ref"], m["field"], m["reason"]) for m in parsed if m] == [
        (str(file), "2", "AIMService/ml-team/qwen-bad", "spec.routng", "UnknownField"),
    ]
    assert "did you mean `spec.routing`?" in lines[0]
    assert "1 problem(s) in 1 of 2 document(s)" in err


def test_every_admission_problem_of_a_document_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _write(tmp_path / "svc.yaml", BAD.replace("  routng: {}\n", ""))
    code, lines, _ = _run(capsys, str(file))
    assert code == 1
    fields = [m["field"] for m in (LINE.match(line) for line in lines) if m]
    assert fields == ["spec.template", "spec.template", "spec.profile.selector.role", "spec.profile.selector"]


def test_yaml_error_and_schema_violation_are_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "a.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: Ml_Team\n")
    _write(tmp_path / "b.yaml", GOOD + "---\nspec: [unclosed\n")
    code, lines, _ = _run(capsys, str(tmp_path))
    assert code == 1
    matches = [LINE.match(line) for line in lines]
    assert [(m["doc"], m["ref"], m["field"], m["reason"]) for m in matches if m] == [
        ("1", "Namespace/Ml_Team", "metadata.name", "SchemaViolation"),
        ("2", "?", "(root)", "InvalidYAML"),
    ]


def test_missing_path_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "a.yaml", GOOD)
    code, lines, err = _run(capsys, str(tmp_path / "a.yaml"), str(tmp_path / "missing.yaml"))
    assert (code, lines) == (2, [])
    assert "no such file or directory" in err


@pytest.mark.parametrize(
    "content",
    [None, "", "---\n# nothing here\n---\n"],
    ids=["empty-directory", "empty-file", "only-empty-documents"],
)
def test_nothing_to_validate_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    target = tmp_path if content is None else _write(tmp_path / "a.yaml", content)
    _write(tmp_path / "readme.txt", "not a manifest")
    code, lines, err = _run(capsys, str(target))
    assert (code, lines) == (2, [])
    assert "no manifests found" in err


def test_no_arguments_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 2
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err


def test_stdin_is_read_for_dash(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(BAD))
    code, lines, _ = _run(capsys, "-")
    assert code == 1
    assert lines[0].startswith("<stdin>:1: AIMService/ml-team/qwen-bad: spec.routng: UnknownField: ")


def test_console_module_entry_point(tmp_path: Path) -> None:
    file = _write(tmp_path / "svc.yaml", GOOD)
    done = subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", "validate", str(file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "1 objects valid\n")


def test_validate_path_imports_no_pulumi() -> None:
    code = (
        "import sys, aim_pulumi.api, aim_pulumi.cli.commands.validate; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pulumi', 'pulumi_kubernetes')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_validate_refuses_what_go_parse_quantity_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = (
        "apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMProfile\nmetadata:\n  name: p\n  namespace: ml-team\n"
        "spec:\n  aimId: org/m\n  image: r/m:1\n  modelSources:\n"
        "    - {modelId: org/m, sourceUri: 'hf://org/m', size: ' 17Gi '}\n"
    )
    file = _write(tmp_path / "p.yaml", profile)
    code, lines, _ = _run(capsys, str(file))
    assert code == 1
    match = LINE.match(lines[0])
    assert match is not None
    assert (match["field"], match["reason"]) == ("spec.modelSources[0].size", "InvalidSpec")
    assert "Kubernetes quantity" in match["message"]
