"""A namespace that is an Output the offline plan cannot know (an auto-named Namespace's name):
every CLI path says it is unknown, none crashes, and errors name the object with `?` for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from aim_pulumi.cli.__main__ import main

PROGRAM = """\
import pulumi
import pulumi_kubernetes as k8s
from aim_pulumi import AIMModel, AIMProfile, AIMService

ns = k8s.core.v1.Namespace("ml")
AIMModel("qwen3-8b", {"namespace": ns.metadata.name, "spec": {"modelId": "Qwen/Qwen3-8B",
    "accelerator": {"vendor": "nvidia", "count": 1}, "source": {"size": "17Gi"}}})
chat = AIMService("chat", {"namespace": ns.metadata.name,
    "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
    "spec": {"model": {"name": "qwen3-8b"}, "caching": {"mode": "Shared"}}})
pulumi.export("path", chat.route_path)
"""


@pytest.fixture
def program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: auto-named\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(PROGRAM)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_plan_says_the_service_is_unknown(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "plan", str(program), "--validate")
    assert code == 0, err
    assert "AIMService chat: namespace not known offline" in out
    assert "Namespace ?" in out
    assert "path: [unknown]" in out
    assert "1 manifests valid against the vendored schemas" in out


def test_yaml_and_json_write_the_unknown_name(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "plan", str(program), "--yaml", "-")
    assert code == 0, err
    (namespace,) = list(yaml.safe_load_all(out))
    assert namespace == {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "[unknown]"}}
    code, out, err = run(capsys, "plan", str(program), "--json", "-")
    assert code == 0, err
    services = [r for r in json.loads(out)["resources"] if r["type"] == "aim:index:AIMService"]
    assert services[0]["outputs"]["status"] == "[unknown]"


def test_explain_names_the_service_whose_namespace_is_unknown(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "explain", str(program), "--service", "ml/chat")
    assert (code, out) == (1, "")
    assert "with a namespace not known offline" in err and err.rstrip().endswith(": chat")
    assert "Traceback" not in err and "AttributeError" not in err


def test_an_error_names_the_unknown_namespace_with_a_question_mark(
    program: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (program / "__main__.py").write_text(
        PROGRAM + 'AIMProfile("p", {"namespace": ns.metadata.name, "spec": {"image": "x", "aimId": "a/b", '
        '"resources": {"requests": {"cpu": "-1"}}}})\n'
    )
    code, _, err = run(capsys, "plan", str(program))
    assert code == 1
    assert err.startswith("error: __main__.py:12: AIMProfile/?/p: spec.resources.requests.cpu: InvalidSpec:")
