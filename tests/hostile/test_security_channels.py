"""The channels an attacker (or a slip) used to get a secret printed, a host contacted or a command
hung: a plain Secret's value in `validate` and `plan`, an old plan's secret envelope in `--diff`,
`--diff` of a FIFO, a device or a huge file, and unbounded message lines."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from aim_pulumi.cli.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart"
SECRET = "PLAINSECRET-0123456789"
ENVELOPE_KEY = "4dabf18193072939515e22adb298388d"
ENVELOPE_SECRET = "1b47061264138c4ac30d75fd1eb44270"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "string_data",
    [f"{{x: [{SECRET}]}}", f"{{x: {{nested: {SECRET}}}}}", f"{{x: {SECRET}, y: [1]}}"],
)
def test_a_plain_secrets_value_of_the_wrong_type_is_never_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, string_data: str
) -> None:
    path = tmp_path / "secret.yaml"
    path.write_text(
        f"apiVersion: v1\nkind: Secret\nmetadata: {{name: s, namespace: ns1}}\nstringData: {string_data}\n"
    )
    for command in (["validate", str(path)], ["plan", str(path)], ["plan", str(path), "--validate"]):
        code, out, err = run(capsys, *command)
        assert code == 1, (command, out, err)
        assert SECRET not in out + err, (command, out + err)
        assert "stringData[" in out + err
        for internal in ("AssertionError", "TypeError", "Traceback"):
            assert internal not in out + err


@pytest.fixture(scope="module")
def old_plan(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    target = tmp_path_factory.mktemp("old") / "plan.json"
    assert main(["plan", str(QUICKSTART), "--json", str(target)]) == 0
    plan: dict[str, Any] = json.loads(target.read_text())
    return plan


def test_diff_never_prints_what_an_old_plan_holds_in_a_secret_envelope(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old_plan: dict[str, Any]
) -> None:
    capsys.readouterr()
    isvc = next(r for r in old_plan["resources"] if r["type"].endswith("InferenceService"))
    env = isvc["inputs"]["spec"]["predictor"]["containers"][0]["env"]
    env[0]["value"] = {ENVELOPE_KEY: ENVELOPE_SECRET, "value": SECRET}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old_plan))
    code, out, err = run(capsys, "plan", str(QUICKSTART), "--diff", str(path))
    assert code == 0, err
    assert SECRET not in out + err
    assert "[secret]" in out


def test_diff_lines_are_bounded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old_plan: dict[str, Any]
) -> None:
    capsys.readouterr()
    isvc = next(r for r in old_plan["resources"] if r["type"].endswith("InferenceService"))
    isvc["inputs"]["metadata"]["labels"]["huge"] = "A" * 3_000_000
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old_plan))
    code, out, err = run(capsys, "plan", str(QUICKSTART), "--diff", str(path))
    assert code == 0, err
    assert max(len(line) for line in (out + err).splitlines()) < 2500
    assert "(3000000 characters)" in out


def test_diff_refuses_devices_fifos_and_huge_files_without_reading_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fifo = tmp_path / "plan.fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)  # sparse: nothing is written
    for given, said in (
        ("/dev/zero", "not a regular file"),
        (str(fifo), "not a regular file"),
        (str(huge), "larger than 64 MiB"),
    ):
        # A read of the FIFO would block for ever: a writer opened late makes a hang visible.
        timer = threading.Timer(30, lambda: os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        timer.start()
        try:
            code, out, err = run(capsys, "plan", str(QUICKSTART), "--diff", given)
        finally:
            timer.cancel()
        assert (code, out) == (2, ""), err
        assert said in err


def test_a_plan_error_line_is_bounded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: long\nruntime: python\n")
    (tmp_path / "__main__.py").write_text("raise ValueError('x' * 3_000_000)\n")
    code, out, err = run(capsys, "plan", str(tmp_path))
    assert (code, out) == (1, "")
    assert max(len(line) for line in err.splitlines()) < 2500
    assert "ValueError" in err  # the program's own error keeps its name
