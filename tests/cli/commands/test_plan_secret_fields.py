"""A Pulumi secret outside an env value: refused by name, never hiding a whole object from review."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from aim_pulumi.cli.__main__ import main

PROGRAM = Path(__file__).resolve().parents[2] / "fixtures" / "programs" / "secret-field"


def _plan(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["plan", str(PROGRAM), *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_secret_service_account_name_is_refused_naming_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "plan.yaml"
    code, out, err = _plan(capsys, "--config", "secret=true", "--yaml", str(target))
    assert code == 1
    assert "AIMService/default/chat: spec.serviceAccountName: SecretNotAllowed:" in err
    assert "Error" not in err.replace("error:", "")  # no Python exception type in the message
    assert "runner" not in out + err and "hunter2-plaintext" not in out + err
    assert not target.exists()


def test_a_plain_output_there_keeps_the_whole_spec_reviewable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "plan.yaml"
    code, _, err = _plan(capsys, "--yaml", str(target))
    assert code == 0, err
    (isvc,) = [d for d in yaml.safe_load_all(target.read_text()) if d["kind"] == "InferenceService"]
    assert isvc["spec"]["predictor"]["serviceAccountName"] == "runner"
    (container,) = isvc["spec"]["predictor"]["containers"]
    (api_key,) = [e for e in container["env"] if e["name"] == "API_KEY"]
    assert api_key["valueFrom"]["secretKeyRef"]["key"] == "API_KEY"
