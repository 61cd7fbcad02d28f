"""A user's mistake reads the same under `pulumi preview` as under `aim-pulumi plan`: one line.

The Python language host prints an exception that ends a program with a traceback of the SDK's
frames; the components make their errors ones it prints as the message alone, with the program's
declaring line in front. Each row runs a fixture program under the real CLI and compares.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from harness import REPO, RealStack, toolchain_dir

pytestmark = pytest.mark.real_engine

PROGRAMS = REPO / "tests" / "fixtures" / "programs"


@pytest.mark.parametrize(
    ("program", "line"),
    [
        pytest.param(
            "missing-profile",
            "__main__.py:11: AIMService/ml-team/chat: spec.profile.name: ProfileNotFound: ",
            id="resolution-error",
        ),
        pytest.param(
            "typo-field",
            "__main__.py:3: AIMService/ml-team/chat: spec.modle: UnknownField: ",
            id="constructor-error",
        ),
        pytest.param(
            "duplicate-name",
            '__main__.py:5: DuplicateName: AIMService "chat" is declared twice (first at line 4)',
            id="duplicate-name",
        ),
    ],
)
def test_an_error_is_its_line_without_a_traceback(program: str, line: str, tmp_path: Path) -> None:
    stack = RealStack(PROGRAMS / program, tmp_path, toolchain_dir())
    done = stack.pulumi("preview", check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "Traceback" not in output and "unhandled exception" not in output
    (error,) = {text.strip() for text in output.splitlines() if text.strip().startswith(f"error: {line}")}
    offline = subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", "plan", str(PROGRAMS / program)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert offline.returncode == 1
    # Offline names the file from where it ran; the message after it is the same text.
    assert offline.stderr.strip().endswith(error.removeprefix("error: __main__.py"))


def test_an_unknown_stack_setting_is_named_at_its_line_in_the_stack_file_under_both(tmp_path: Path) -> None:
    """Not at the line of the program (or of the SDK) that first read the settings: where it is set,
    with the setting meant. `pulumi config set` writes it to Pulumi.dev.yaml, as a user would."""
    stack = RealStack(PROGRAMS / "typo-field", tmp_path, toolchain_dir())
    stack.config("aim:gatwayProvider", "envoyGateway")
    stack_file = stack.dir / "Pulumi.dev.yaml"
    (line,) = [
        n for n, text in enumerate(stack_file.read_text().splitlines(), 1) if "aim:gatwayProvider" in text
    ]
    done = stack.pulumi("preview", check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in output
    expected = (
        f"Pulumi.dev.yaml:{line}: aim:gatwayProvider: InvalidSetting: unknown setting; "
        "did you mean aim:gatewayProvider? (known settings: "
    )
    (error,) = {text.strip() for text in output.splitlines() if text.strip().startswith(f"error: {expected}")}
    offline = subprocess.run(
        [sys.executable, "-m", "aim_pulumi.cli", "plan", str(stack.dir), "--stack", "dev"],
        capture_output=True,
        text=True,
        check=False,
        cwd=stack.dir,
    )
    assert offline.returncode == 1
    assert offline.stderr.strip() == error
