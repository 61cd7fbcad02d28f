"""A type checker catches what a misspelt or mistyped `spec` would otherwise fail on at plan time.

The programs are checked as a user's would be: `mypy --strict` in a subprocess, in a directory
of their own, finding the package through MYPYPATH (so an editable install's import hook, which
mypy cannot follow, does not matter). One run checks every program; each test reads its file's
errors.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*/__main__.py"))

BAD = {
    "misspelt_key": (
        """
        import aim_pulumi as aim

        aim.AIMService("s", {"namespace": "x", "spec": {"model": {"name": "m"}, "replicaz": 2}})
        """,
        r'Extra key "replicaz" for TypedDict "AIMServiceSpec"',
    ),
    "wrong_value_type": (
        """
        import aim_pulumi as aim

        aim.AIMService("s", {"namespace": "x", "spec": {"model": {"name": "m"}, "replicas": "two"}})
        """,
        r'TypedDict item "replicas" has type "int \|',
    ),
    "misspelt_nested_key": (
        """
        import aim_pulumi as aim

        aim.AIMService("s", {"spec": {"routing": {"enabled": True, "gatewayref": {"name": "g"}}}})
        """,
        r'Extra key "gatewayref" for TypedDict "Routing"',
    ),
    "value_outside_a_closed_set": (
        """
        import aim_pulumi as aim

        aim.AIMProfile("p", {"spec": {"aimId": "a", "image": "i", "precision": "fp9"}})
        """,
        r'TypedDict item "precision" has type "Literal\[\'fp4\', \'fp8\'',
    ),
    "missing_required_nested_key": (
        """
        import aim_pulumi as aim

        aim.AIMService("s", {"spec": {"env": [{"value": "1"}]}})
        """,
        r'Missing key "name" for TypedDict "EnvVar"',
    ),
    "misspelt_model_key": (
        """
        import aim_pulumi as aim

        aim.AIMModel("m", {"spec": {"modelID": "Qwen/Qwen3-8B"}})
        """,
        r'Extra key "modelID" for TypedDict "AIMModelSpec"',
    ),
}

GOOD_EXTRA = {
    # A secret Output is accepted where a value only flows into a child.
    "secret_env_value": """
        import pulumi

        import aim_pulumi as aim

        token = pulumi.Config().require_secret("hfToken")
        aim.AIMService(
            "s",
            {"spec": {"model": {"name": "m"}, "env": [{"name": "HF_TOKEN", "value": token}]}},
        )
        """,
    "typed_nested_object": """
        from aim_pulumi import AIMService, inputs

        gateway: inputs.GatewayRefArgsDict = {"name": "g", "namespace": "gateways"}
        AIMService("s", {"spec": {"routing": {"enabled": True, "gatewayRef": gateway}}})
        """,
}


def _readme_python() -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(r"```python\n(.*?)```", text, re.S)
    assert match, "the README shows a Python program"
    return match.group(1)


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    workdir = tmp_path_factory.mktemp("programs")
    files: dict[str, Path] = {}
    for example in EXAMPLES:
        files[f"example_{example.parent.name}"] = example
    for name, (source, _) in BAD.items():
        files[f"bad_{name}"] = workdir / f"bad_{name}.py"
        files[f"bad_{name}"].write_text(textwrap.dedent(source))
    for name, source in GOOD_EXTRA.items():
        files[f"good_{name}"] = workdir / f"good_{name}.py"
        files[f"good_{name}"].write_text(textwrap.dedent(source))
    (workdir / "readme.py").write_text(_readme_python())
    files["readme"] = workdir / "readme.py"
    copies = []
    for key, path in files.items():
        copy = workdir / f"{key.replace('-', '_')}.py"
        if copy != path:
            copy.write_text(path.read_text())
        copies.append(copy)
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--config-file",
            os.devnull,
            "--cache-dir",
            str(workdir / ".mypy_cache"),
            "--no-error-summary",
            *[str(c) for c in copies],
        ],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr
    errors: dict[str, list[str]] = {key.replace("-", "_"): [] for key in files}
    for line in result.stdout.splitlines():
        head = Path(line.split(":", 1)[0]).stem
        if ": error:" in line:
            assert head in errors, line
            errors[head].append(line)
    return errors


@pytest.mark.parametrize("example", [p.parent.name for p in EXAMPLES])
def test_every_example_program_type_checks(mypy_errors: dict[str, list[str]], example: str) -> None:
    assert mypy_errors[f"example_{example.replace('-', '_')}"] == []


def test_the_readme_program_type_checks(mypy_errors: dict[str, list[str]]) -> None:
    assert mypy_errors["readme"] == []


@pytest.mark.parametrize("name", sorted(GOOD_EXTRA))
def test_supported_programs_type_check(mypy_errors: dict[str, list[str]], name: str) -> None:
    assert mypy_errors[f"good_{name}"] == []


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_spec_is_rejected_naming_the_field(mypy_errors: dict[str, list[str]], name: str) -> None:
    errors = mypy_errors[f"bad_{name}"]
    assert len(errors) == 1, errors
    assert re.search(BAD[name][1], errors[0]), errors[0]
