"""`aim-pulumi validate`: exit codes 0/1/2, one `file:line: ref: field: reason: message` line per problem."""

from __future__ import annotations

import io
import json
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
    r"^(?P<file>[^:]+):(?P<line>\d+): (?P<ref>\S+): (?P<field>\S+): (?P<reason>\w+): (?P<message>.+)$"
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
    # GOOD is 8 lines, then `---`: `routng:` is line 7 of BAD, line 16 of the file.
    assert [(m["file"], m["line"], m["ref"], m["field"], m["reason"]) for m in parsed if m] == [
        (str(file), "16", "AIMService/ml-team/qwen-bad", "spec.routng", "UnknownField"),
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
    assert [(m["line"], m["ref"], m["field"], m["reason"]) for m in matches if m] == [
        ("4", "Namespace/Ml_Team", "metadata.name", "SchemaViolation"),
        ("11", "?", "(root)", "InvalidYAML"),  # where the parser met the end of the stream
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
    assert lines[0].startswith("<stdin>:7: AIMService/ml-team/qwen-bad: spec.routng: UnknownField: ")


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


DEEP = """\
# the namespace first
apiVersion: v1
kind: Namespace
metadata:
  name: ml-team
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: deep
  namespace: ml-team
spec:
  model:
    name: qwen-qwen3-32b
  env:
    - name: A
      value: "1"
    - value: "2"
  replicas: 1:30
  routing:
    enabeld: true
---
values: {a: 1}
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
---
apiVersion: batch/v1
kind: Job
metadata:
  name: j
  namespace: ml-team
spec:
  backoffLimit: 1
"""


def test_each_problem_is_reported_at_the_line_of_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deep in the second document: the key's line, not the document's position or its first line."""
    file = _write(tmp_path / "stack.yaml", DEEP)
    code, lines, err = _run(capsys, str(file))
    assert code == 1
    found = sorted((int(m["line"]), m["ref"], m["field"], m["reason"]) for m in map(LINE.match, lines) if m)
    assert found == [
        (18, "AIMService/ml-team/deep", "spec.env[1].name", "InvalidSpec"),  # missing: its list item
        (19, "AIMService/ml-team/deep", "spec.replicas", "InvalidSpec"),  # `1:30` is text to Kubernetes
        (21, "AIMService/ml-team/deep", "spec.routing.enabeld", "UnknownField"),
        (35, "Job/ml-team/j", "spec.template", "SchemaViolation"),  # missing: the mapping that lacks it
        (35, "Job/ml-team/j", "spec.template.spec.restartPolicy", "SchemaViolation"),
    ]
    # Notes point at lines too: the skipped document and the one no schema is vendored for.
    assert f"note: {file}:23: skipped: not a Kubernetes object" in err
    assert f"note: {file}:25: Widget/w: not validated" in err
    assert "5 problem(s) in 2 of 4 document(s)" in err


def test_json_problems_carry_the_line_and_the_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _write(tmp_path / "stack.yaml", DEEP)
    code, lines, _ = _run(capsys, str(file), "--output", "json")
    assert code == 1
    report = json.loads("\n".join(lines))
    located = {(p["field"], p["document"], p["line"]) for p in report["problems"]}
    assert ("spec.replicas", 2, 19) in located and ("spec.template", 5, 35) in located
    assert report["notValidated"] == [f"{file}:25: Widget/w"]


def test_a_yaml_error_and_a_duplicate_key_are_reported_at_their_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    duplicate = _write(
        tmp_path / "a.yaml",
        GOOD + "---\n" + GOOD.replace("  model:\n", "  replicas: 1\n  replicas: 2\n  model:\n"),
    )
    broken = _write(tmp_path / "b.yaml", GOOD + "---\nspec:\n  model: {name: [x\n")
    code, lines, _ = _run(capsys, str(duplicate), str(broken))
    assert code == 1
    found = [(m["file"], m["line"], m["field"], m["reason"]) for m in map(LINE.match, lines) if m]
    assert found == [
        (str(duplicate), "17", "spec.replicas", "InvalidSpec"),  # the repeated key
        (str(broken), "12", "(root)", "InvalidYAML"),
    ]


LEGACY = Path(__file__).resolve().parents[2] / "fixtures" / "manifests" / "legacy-template"


def _without_template_sources(tmp_path: Path) -> Path:
    directory = tmp_path / "legacy"
    directory.mkdir()
    for file in LEGACY.iterdir():
        text = file.read_text()
        if "modelSources:" in text and "AIMServiceTemplate" in text:
            text = text[: text.index("  modelSources:")]
        (directory / file.name).write_text(text)
    return directory


def test_a_template_plan_would_refuse_is_named_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """validate warns what plan refuses: a template with no sources cannot deploy here (TemplateNotReady).

    A note, since the operator admits it (its discovery would fill the sources).
    """
    directory = _without_template_sources(tmp_path)
    assert main(["validate", str(directory)]) == 0
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if "TemplateNotReady" in line]
    assert re.match(
        r"note: .*model\.yaml:14: AIMServiceTemplate/ml-research/qwen3-32b-latency: "
        r"spec\.modelSources: TemplateNotReady: .*; a service using it will not plan$",
        line,
    )
    assert main(["plan", str(directory)]) == 1
    err = capsys.readouterr().err
    assert (
        "model.yaml:14: AIMServiceTemplate/ml-research/qwen3-32b-latency: spec.modelSources: TemplateNotReady"
        in err
    )


def test_a_builtin_kind_plan_would_refuse_is_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.yaml").write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n")
    assert main(["validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "a.yaml:1: Deployment/web: spec: InvalidSpec: apps/v1 Deployment requires `spec`" in out
