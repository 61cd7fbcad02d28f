"""Pulumi.yaml declarations the Pulumi CLI refuses are refused offline too; ESC imports are flagged."""

from __future__ import annotations

from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.cli.common import UsageError
from aim_pulumi.cli.project import load_program


def program_dir(directory: Path, config: str, stack_file: str | None = None) -> Path:
    (directory / "Pulumi.yaml").write_text(f"name: p\nruntime: python\nconfig:\n{config}")
    (directory / "__main__.py").write_text("")
    if stack_file is not None:
        (directory / "Pulumi.dev.yaml").write_text(stack_file)
    return directory


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param(
            "  aim:kedaOtelScalerAddress:\n    type: string\n    default: x\n",
            "Configuration key 'aim:kedaOtelScalerAddress' is not namespaced by the project and should not "
            "define a type",
            id="typed-key-of-another-namespace",
        ),
        pytest.param(
            "  aim:strict:\n    default: true\n",
            "should not define a default value. Did you mean to use the 'value' attribute",
            id="default-for-another-namespace",
        ),
        pytest.param(
            "  aim:strict:\n    description: strict mode\n",
            "Configuration key 'aim:strict' is namespaced and must provide an attribute 'value'",
            id="another-namespace-without-value",
        ),
        pytest.param(
            "  x:\n    default: a\n    value: b\n",
            "project config 'x' cannot have both a 'default' and 'value' attribute",
            id="default-and-value",
        ),
        pytest.param(
            "  x:\n    type: array\n",
            "The configuration key 'x' declares an array but does not specify the underlying type",
            id="array-without-items",
        ),
        pytest.param(
            "  p:n:\n    type: integer\n    default: many\n",
            "The default value specified for configuration key 'p:n' is not of the expected type 'integer'",
            id="default-of-the-wrong-type",
        ),
        pytest.param(
            "  xs:\n    type: array\n    items:\n      type: string\n    default: [a, 1]\n",
            "is not of the expected type 'List<string>'",
            id="array-item-of-the-wrong-type",
        ),
    ],
)
def test_declarations_the_cli_rejects_are_usage_errors(tmp_path: Path, config: str, message: str) -> None:
    program_dir(tmp_path, config)
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        load_program(str(tmp_path))
    assert str(raised.value).startswith(str(tmp_path / "Pulumi.yaml"))


def test_declarations_the_cli_accepts(tmp_path: Path) -> None:
    program_dir(
        tmp_path,
        "  aim:kedaOtelScalerAddress:\n    value: otel:4318\n"
        "  n:\n    type: integer\n    default: '3'\n"
        "  flag:\n    type: boolean\n    default: 'true'\n"
        "  xs:\n    type: array\n    items:\n      type: integer\n    default: [1, 2]\n"
        "  p:plain: shorthand\n",
    )
    program = load_program(str(tmp_path))
    assert dict(program.config) == {
        "aim:kedaOtelScalerAddress": "otel:4318",
        "p:flag": "true",
        "p:n": "3",
        "p:plain": "shorthand",
        "p:xs": "[1,2]",
    }
    assert program.warnings == ()


@pytest.mark.parametrize(
    "environment",
    ["environment:\n  - team/prod\n", "environment:\n  imports:\n    - team/prod\n"],
    ids=["list", "imports"],
)
def test_esc_environment_imports_are_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], environment: str
) -> None:
    program_dir(tmp_path, "  aim:strict:\n    value: false\n", stack_file=environment)
    assert load_program(str(tmp_path)).warnings == (
        f"{tmp_path / 'Pulumi.dev.yaml'}: Pulumi ESC environments are not resolved offline (team/prod): "
        "config they provide is missing from this plan",
    )
    assert main(["plan", str(tmp_path), "--quiet", "--no-color"]) == 0
    assert "warning: " in capsys.readouterr().err
