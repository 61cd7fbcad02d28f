"""The command line as kubectl, helm and pulumi users expect it: versions, `-`, short flags, colour,
completion, JSON output, stack checks and suggestions for a mistyped flag."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from aim_pulumi.cli.__main__ import build_parser, main, option_strings, subcommand_parsers
from aim_pulumi.cli.parser import completion_script as script
from aim_pulumi.cli.render import use_colour

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PROGRAMS = ROOT / "tests" / "fixtures" / "programs"
LEGACY = ROOT / "tests" / "fixtures" / "legacy"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_version_flag_and_command(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    from aim_pulumi import __version__

    code, out, _ = run(capsys, "--version")
    assert code == 0
    # The package's own version from its code (an editable install's metadata keeps the one it was
    # installed at), the SDKs' from their metadata.
    assert out.startswith(f"aim-pulumi {__version__} (pulumi {version('pulumi')}, ")
    assert run(capsys, "version") == (0, out, "")
    code, out, _ = run(capsys, "version", "--output", "json")
    assert code == 0
    assert json.loads(out)["pulumi-kubernetes"] == version("pulumi-kubernetes")


def test_version_flag_imports_no_command_and_no_pulumi() -> None:
    """Scripts ask `--version` often; it answers without the commands, Pulumi or the AIM models."""
    probe = (
        "import sys; from aim_pulumi.cli.__main__ import main; code = main(['--version']); "
        "names = ('aim_pulumi.cli.commands.plan', 'aim_pulumi.api.base', 'pydantic'); "
        "heavy = sorted(m for m in sys.modules if m == 'pulumi' or m.startswith(names)); print(code, heavy)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 []"


def test_dash_writes_the_plan_to_stdout_and_no_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "plan", str(EXAMPLES / "quickstart"), "--json", "-")
    assert code == 0
    document = json.loads(out)  # standard output is the document and nothing else
    assert document["project"] == "aim-quickstart"
    code, out, _ = run(capsys, "plan", str(EXAMPLES / "quickstart"), "--yaml", "-", "--validate")
    assert code == 0
    kinds = sorted(d["kind"] for d in yaml.safe_load_all(out))
    assert kinds == ["HTTPRoute", "InferenceService", "Job", "PersistentVolumeClaim"]
    assert list(tmp_path.iterdir()) == []  # no file named `-`
    code, _, err = run(capsys, "plan", str(EXAMPLES / "quickstart"), "--json", "-", "--yaml", "-")
    assert code == 2
    assert "cannot both write to standard output" in err


def test_dash_reads_manifests_and_old_plans_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    manifests = EXAMPLES / "yaml-manifests" / "manifests"
    text = "---\n".join(p.read_text() for p in sorted(manifests.glob("*.yaml")))
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(capsys, "plan", "-", "--json", "-")
    assert code == 0
    plan = json.loads(out)
    assert plan["project"] == "stdin"
    assert "kubernetes:serving.kserve.io/v1beta1:InferenceService" in {r["type"] for r in plan["resources"]}

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(plan)))
    code, out, _ = run(capsys, "plan", str(EXAMPLES / "yaml-manifests"), "--diff", "-", "--expect-no-changes")
    assert code == 1  # another project: the AIMStack is named after it
    assert "note: the old plan is of another project (stdin stack dev" in out
    code, _, err = run(capsys, "plan", "-", "--diff", "-")
    assert code == 2
    assert "cannot both read standard input" in err


def test_short_stack_and_config_flags(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "plan.json"
    code, _, _ = run(
        capsys,
        "plan",
        str(PROGRAMS / "config-echo"),
        "-s",
        "prod",
        "-c",
        "greeting=hi",
        "--json",
        str(target),
    )
    assert code == 0
    document = json.loads(target.read_text())
    assert document["stack"] == "prod"
    assert document["outputs"]["greeting"] == "hi"


def test_a_named_stack_without_its_file_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "plan", str(PROGRAMS / "config-echo"), "--stack", "staging")
    assert (code, out) == (2, "")
    assert "--stack staging: no Pulumi.staging.yaml in" in err
    assert "(stacks: dev, prod)" in err
    # --config can supply the stack's values instead of its file.
    target = tmp_path / "plan.json"
    code, _, _ = run(
        capsys,
        "plan",
        str(PROGRAMS / "config-echo"),
        "-s",
        "staging",
        "-c",
        "greeting=yo",
        "--json",
        str(target),
    )
    assert code == 0
    assert json.loads(target.read_text())["stack"] == "staging"


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["plan", str(EXAMPLES / "quickstart"), "--yml", "x.yaml"], "did you mean `--yaml` for `--yml`?"),
        (["plan", str(EXAMPLES / "quickstart"), "--vaildate"], "did you mean `--validate` for `--vaildate`?"),
        (["validate", "x.yaml", "--ouptut", "json"], "did you mean `--output` for `--ouptut`?"),
        (["pln", "x"], "did you mean `plan`?"),
    ],
    ids=["yml", "vaildate", "ouptut", "subcommand"],
)
def test_a_mistyped_flag_or_command_gets_a_suggestion(
    capsys: pytest.CaptureFixture[str], argv: list[str], hint: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert hint in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("environ", "terminal", "no_color", "coloured"),
    [
        ({}, True, False, True),
        ({}, False, False, False),
        ({"NO_COLOR": "1"}, True, False, False),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False, False),
        ({"FORCE_COLOR": "1"}, False, False, True),
        ({"FORCE_COLOR": "0"}, False, False, False),
        ({"FORCE_COLOR": "1"}, False, True, False),
        ({"TERM": "dumb"}, True, False, False),
        ({"TERM": "dumb", "FORCE_COLOR": "true"}, True, False, True),
    ],
)
def test_colour_follows_no_color_force_color_and_term(
    environ: dict[str, str], terminal: bool, no_color: bool, coloured: bool
) -> None:
    stream = Terminal() if terminal else io.StringIO()
    assert use_colour(stream, no_color=no_color, environ=environ) is coloured


def test_force_color_colours_a_piped_plan(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    code, out, _ = run(capsys, "plan", str(EXAMPLES / "quickstart"))
    assert code == 0
    assert "\x1b[32m" in out
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run(capsys, "plan", str(EXAMPLES / "quickstart"))
    assert "\x1b[" not in out


def every_flag() -> dict[str, list[str]]:
    return {name: option_strings(sub) for name, sub in subcommand_parsers(build_parser()).items()}


def test_bash_completion_completes_subcommands_flags_and_choices(tmp_path: Path) -> None:
    bash = shutil.which("bash")
    assert bash is not None
    path = tmp_path / "aim-pulumi.bash"
    path.write_text(script("bash"))

    def complete(*words: str) -> list[str]:
        line = " ".join(f"'{w}'" for w in words)
        program = (
            f"source {path}; COMP_WORDS=(aim-pulumi {line}); COMP_CWORD={len(words)}; _shtab_aim_pulumi; "
            'printf "%s\\n" "${COMPREPLY[@]}"'
        )
        done = subprocess.run([bash, "-c", program], capture_output=True, text=True, check=True)
        return done.stdout.split()

    assert complete("") == [
        "plan",
        "explain",
        "discover",
        "validate",
        "migrate",
        "import",
        "completion",
        "version",
    ]
    assert set(complete("-")) == {"-h", "--help", "--version"}
    assert complete("plan", "--d") == ["--debug", "--diff", "--detailed-exitcode"]
    assert complete("completion", "") == ["bash", "zsh", "fish"]
    assert set(complete("plan", "-")) == set(every_flag()["plan"])


def test_zsh_and_fish_completion_name_every_flag() -> None:
    zsh, fish = script("zsh"), script("fish")
    assert zsh.startswith("# aim-pulumi zsh completion") and "#compdef aim-pulumi" in zsh
    for command, flags in every_flag().items():
        assert f"-a {command} " in fish
        for flag in flags:
            assert flag in zsh
            form = f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}"
            assert form in fish, (command, flag)


def test_completion_command_prints_the_script(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "completion", "bash")
    assert (code, out) == (0, script("bash"))
    assert run(capsys, "completion", "tcsh")[0] == 2


def test_validate_json_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMService\nmetadata: {name: chat, namespace: ml-team}\n"
        "spec: {modle: {name: m}}\n"
    )
    code, out, err = run(capsys, "validate", str(bad), "--output", "json")
    assert (code, err) == (1, "")
    report = json.loads(out)
    assert report["valid"] is False and report["documents"] == 1
    (problem,) = report["problems"]
    assert problem == {
        "file": str(bad),
        "document": 1,
        "line": 4,
        "object": "AIMService/ml-team/chat",
        "field": "spec.modle",
        "reason": "UnknownField",
        "message": problem["message"],
    }
    code, out, _ = run(capsys, "validate", str(EXAMPLES / "yaml-manifests"), "--output", "json")
    assert code == 0
    report = json.loads(out)
    assert (report["valid"], report["documents"], report["problems"]) == (True, 2, [])
    assert report["notes"] == [
        f"{EXAMPLES / 'yaml-manifests' / 'Pulumi.yaml'}: skipped: "
        "Pulumi project or stack settings, not an object"
    ]


def test_explain_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "explain", str(EXAMPLES / "quickstart"), "--service", "ml-team/qwen-chat", "--output", "json"
    )
    assert code == 0
    document = json.loads(out)
    assert document["service"] == "ml-team/qwen-chat"
    assert document["pipeline"] == "profile"
    assert document["profile"]["name"].startswith("qwen3-8b-nvidia-vllm-")
    (candidate,) = document["candidates"]
    assert candidate["outcome"] == "selected" and candidate["profile"] == document["profile"]["name"]
    assert document["runtimeConfig"]["used"] == "AIMClusterRuntimeConfig default"
    assert {"name", "value", "setBy", "overriddenBy"} == set(document["env"][0])


def test_migrate_json_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = LEGACY / "mixed"
    code, out, err = run(capsys, "migrate", str(source), "--output", "json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["converted"] >= 1 and report["problems"] == []
    converted = [f for f in report["files"] if f["converted"]]
    assert converted and all("apiVersion: aim.eai.amd.com/v1alpha2" in f["content"] for f in converted)
    code, out, _ = run(capsys, "migrate", str(source), "-o", str(tmp_path / "out"), "--output", "json")
    assert code == 0
    for entry in json.loads(out)["files"]:
        assert "content" not in entry
        assert Path(entry["written"]).is_file()


def test_the_cli_page_and_help_list_every_flag() -> None:
    readme = (ROOT / "docs" / "cli.md").read_text()
    parser = build_parser()
    for command, sub in subcommand_parsers(parser).items():
        assert f"`aim-pulumi {command}" in readme, command
        usage = sub.format_help()
        for action in sub._actions:
            for flag in action.option_strings:
                if flag in ("-h", "--help"):
                    continue
                assert flag in usage, (command, flag)
                assert f"`{flag}" in readme or f" {flag}" in readme or f"[{flag}" in readme, (command, flag)
    assert "--version" in parser.format_help() and "--version" in readme


@pytest.mark.skipif(os.name != "posix", reason="a terminal is a POSIX notion here")
def test_progress_only_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    from aim_pulumi.cli.commands.plan import run as plan_run

    args = build_parser().parse_args(["plan", str(EXAMPLES / "multi-team")])
    terminal, piped = Terminal(), io.StringIO()
    assert plan_run(args, stdout=io.StringIO(), stderr=terminal) == 0
    assert "planning: " in terminal.getvalue() and "service(s) resolved" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\x1b[K")  # the line is erased when the plan prints
    assert plan_run(args, stdout=io.StringIO(), stderr=piped) == 0
    assert piped.getvalue() == ""
    quiet = build_parser().parse_args(["plan", str(EXAMPLES / "multi-team"), "--quiet"])
    terminal = Terminal()
    assert plan_run(quiet, stdout=io.StringIO(), stderr=terminal) == 0
    assert "planning: " not in terminal.getvalue()


def test_explain_reads_manifests_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    manifests = EXAMPLES / "yaml-manifests" / "manifests"
    text = "---\n".join(p.read_text() for p in sorted(manifests.glob("*.yaml")))
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(capsys, "explain", "-", "--service", "ml-team/qwen-chat")
    assert code == 0
    assert out.startswith("AIMService ml-team/qwen-chat\n  profile pipeline, shape Model, model qwen3-8b\n")
