"""No exception class of this package's internals, and no stack frame, in any message: a hostile
input that reaches an unguarded step is said in words (plan lines once showed `RecursionError`,
`AssertionError`, `ValueError: embedded null byte`, `NoCredentialsError`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart"
# An exception's class name as Python prints it, other than this project's AIM errors.
EXCEPTION_NAME = re.compile(r"\b(?!AIM|Internal)[A-Z][A-Za-z]*(Error|Exception)\b")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_setting_nested_too_deeply_is_an_invalid_setting(capsys: pytest.CaptureFixture[str]) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    code, output = run(capsys, "plan", str(QUICKSTART), "-c", f"aim:inventory={deep}")
    assert code == 1
    assert (
        "aim:inventory: InvalidSetting: expected a JSON list of accelerator pools: nested too deeply"
        in output
    )
    assert not EXCEPTION_NAME.search(output) and "Traceback" not in output


def test_an_env_source_the_api_server_refuses_is_named_at_its_aim_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "service.yaml"
    path.write_text(
        "apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMService\nmetadata: {name: s, namespace: ns1}\n"
        "spec:\n  profile: {name: p}\n"
        "  env: [{name: A, valueFrom: {fieldRef: {fieldPath: metadata.bogus}}}]\n"
    )
    for command in ("validate", "plan"):
        code, output = run(capsys, command, str(path))
        assert code == 1, output
        assert "spec.env[0].valueFrom.fieldRef.fieldPath" in output, output
        assert "field label not supported: metadata.bogus" in output
