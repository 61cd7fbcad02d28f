"""Errors point at the place to fix: the line `validate` names, every problem of a run, `<stdin>`
for standard input, a stack setting where the project or the command line sets it (with the
setting meant), and an AIM error's own object only, the same words offline and under `pulumi preview`.
"""

from __future__ import annotations

import argparse
import io
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest

from aim_pulumi.api import AIMValidationError
from aim_pulumi.cli.commands import plan, validate
from aim_pulumi.cli.failures import failure_line
from aim_pulumi.cli.project import load_program

BAD = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata: {name: m1, namespace: team-a}
spec: {image: "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"}
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: chat
  namespace: team-a
spec:
  model:
    name: m1
  replicas: -3
  bogusField: 1
---
# a values file's document, not an object
replicas: 3
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: chat2
  namespace: team-a
spec:
  model:
    name: m1
  minReplicas: "x"
"""

PROFILE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMClusterProfile
metadata: {name: llama}
spec: {aimId: meta/llama, image: "example/aim-llama:1.0.0"}
"""


def command(module: Any, *argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="aim-pulumi")
    module.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args([module.__name__.rsplit(".", 1)[1], *argv])
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = args.func(args, stdout=out, stderr=err)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def errors(stderr: str) -> list[str]:
    return [line.removeprefix("error: ") for line in stderr.splitlines() if line.startswith("error: ")]


def test_plan_reports_every_problem_of_a_yaml_run_at_the_line_validate_names(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    code, out, _ = command(validate, str(bad))
    assert code == 1
    checked = out.splitlines()
    assert [line.split(": ", 1)[0] for line in checked] == [f"{bad}:14", f"{bad}:15", f"{bad}:28"]
    code, _, err = command(plan, str(bad), "--quiet")
    assert code == 1
    assert errors(err) == checked


def test_problems_of_several_files_and_plain_objects_are_all_reported_in_reading_order(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.yaml").write_text(BAD)
    # A plain object that cannot become its Kubernetes resource, and a file with a YAML error.
    (tmp_path / "b.yaml").write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n")
    (tmp_path / "c.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n")
    code, _, err = command(plan, str(tmp_path), "--quiet")
    assert code == 1
    places = [line.split(": ", 1)[0] for line in errors(err)]
    a, b, c = (str(tmp_path / name) for name in ("a.yaml", "b.yaml", "c.yaml"))
    assert places[:3] == [f"{a}:14", f"{a}:15", f"{a}:28"]
    assert places[3:] == [f"{b}:1", f"{c}:4"]
    code, out, _ = command(validate, str(tmp_path))
    assert [line.split(": ", 1)[0] for line in out.splitlines()] == places


def test_standard_input_is_named_stdin_in_errors_and_notes(tmp_path: Path) -> None:
    code, _, err = command(plan, "-", "--quiet", stdin=BAD)
    assert code == 1
    assert [line.split(": ", 1)[0] for line in errors(err)] == ["<stdin>:14", "<stdin>:15", "<stdin>:28"]
    assert "aim-pulumi-" not in err and "manifests.yaml" not in err
    code, out, err = command(plan, "-", stdin=PROFILE + "---\n# values\nreplicas: 3\n")
    assert code == 0, err
    # The line of the document's first key, as `validate -` names it.
    assert "note: <stdin>:7: skipped: not a Kubernetes object (no apiVersion and kind)" in out + err


def test_a_skipped_document_is_named_at_its_first_line_as_validate_names_it(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(PROFILE + "---\n\n# values\nreplicas: 3\n")
    note = f"{tmp_path / 'a.yaml'}:8: skipped: not a Kubernetes object (no apiVersion and kind)"
    code, out, err = command(plan, str(tmp_path))
    assert code == 0, err
    assert f"note: {note}" in out + err
    code, _, err = command(validate, str(tmp_path))
    assert f"note: {note}" in err


# --------------------------------------------------------------------------------------------------
# Stack settings

PROGRAM = """\
from aim_pulumi.resources import AIMClusterProfile, AIMService

AIMClusterProfile("llama", {"spec": {"aimId": "meta/llama", "image": "example/aim-llama:1.0.0"}})
AIMService("chat", {"namespace": "team-a", "spec": {"profile": {"name": "llama"}}})
"""


def project(tmp_path: Path, stack_file: str | None = None, project_config: str = "") -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: demo\nruntime: python\n" + project_config)
    (root / "__main__.py").write_text(PROGRAM)
    if stack_file is not None:
        (root / "Pulumi.dev.yaml").write_text(stack_file)
    return root


def test_an_unknown_setting_in_the_stack_file_is_named_at_its_line_with_the_setting_meant(
    tmp_path: Path,
) -> None:
    root = project(tmp_path, "config:\n  aim:strict: 'false'\n  aim:gatwayProvider: envoyGateway\n")
    code, _, err = command(plan, str(root), "--stack", "dev", "--quiet")
    assert code == 1
    (line,) = errors(err)
    assert line.startswith(
        f"{root / 'Pulumi.dev.yaml'}:3: aim:gatwayProvider: InvalidSetting: unknown setting; "
        "did you mean aim:gatewayProvider? (known settings: "
    )


def test_an_unknown_setting_given_with_config_is_named_as_a_command_line_setting(tmp_path: Path) -> None:
    root = project(tmp_path)
    code, _, err = command(plan, str(root), "-c", "aim:downloadImag=example/dl:1", "--quiet")
    assert code == 1
    (line,) = errors(err)
    assert line.startswith(
        "--config: aim:downloadImag: InvalidSetting: unknown setting; did you mean aim:downloadImage?"
    )
    assert "example/dl:1" not in line  # the value is never repeated: it may be a credential


def test_a_bad_value_in_pulumi_yaml_project_config_is_named_there(tmp_path: Path) -> None:
    root = project(tmp_path, project_config="config:\n  aim:strict:\n    value: maybe\n")
    code, _, err = command(plan, str(root), "--quiet")
    assert code == 1
    (line,) = errors(err)
    assert line.startswith(f"{root / 'Pulumi.yaml'}:4: aim:strict: InvalidSetting: expected true or false")


def test_a_setting_is_located_in_the_stack_file_under_the_real_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `pulumi preview` says: the project root is the SDK's, the stack its current one."""
    import pulumi

    from aim_pulumi.resources.settings import setting_site

    root = project(tmp_path, "encryptionsalt: v1:abc\nconfig:\n  aim:gatwayProvider: envoyGateway\n")
    monkeypatch.setattr(pulumi.runtime, "get_root_directory", lambda: str(root))
    monkeypatch.setattr(pulumi, "get_stack", lambda: "dev")
    site = setting_site("aim:gatwayProvider")
    assert site is not None and (site.filename, site.line) == (str(root / "Pulumi.dev.yaml"), 3)
    assert setting_site("aim:strict") is None


def test_an_unknown_component_setting_says_the_setting_meant() -> None:
    from aim_pulumi.resolve.errors import AIMResolutionError
    from aim_pulumi.resolve.settings import Settings

    with pytest.raises(
        AIMResolutionError, match=r"unknown setting 'gatway_provider'; did you mean gateway_provider\?"
    ):
        Settings().with_overrides(gatway_provider="kgateway")


# --------------------------------------------------------------------------------------------------
# An AIM error names the object it carries, never one guessed from the frames it passed through


def test_an_aim_error_names_no_object_guessed_from_its_traceback(tmp_path: Path) -> None:
    import pulumi

    class AIMService(pulumi.ComponentResource):
        def __init__(self, name: str, args: dict[str, Any]) -> None:
            raise AIMValidationError("", "DuplicateName", f'AIMService "{name}" is declared twice')

    AIMService.__module__ = "aim_pulumi.resources.service"
    root = project(tmp_path)
    program = load_program(str(root))
    try:
        AIMService.__new__(AIMService).__init__("chat", {"namespace": "team-b"})
    except AIMValidationError as raised:
        error = raised
    assert any(frame.f_code.co_name == "__init__" for frame, _ in traceback.walk_tb(error.__traceback__))
    assert failure_line(error, program) == 'DuplicateName: AIMService "chat" is declared twice'
