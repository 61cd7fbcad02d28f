"""`aim-pulumi plan`: the offline plan of a program, its files, its errors and its config handling."""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.cli.__main__ import build_parser, main
from aim_pulumi.cli.common import UsageError
from aim_pulumi.cli.project import load_program

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures"
PROGRAMS = FIXTURES / "programs"


def parse_plan(argv: list[str]) -> argparse.Namespace:
    return build_parser().parse_args(["plan", *argv])


def plan(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["plan", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def quickstart_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One run of the quickstart writing both files, shared by the tests that read them."""
    out = tmp_path_factory.mktemp("quickstart")
    stdout = io.StringIO()
    args = parse_plan(
        [str(EXAMPLES / "quickstart"), "--yaml", str(out / "plan.yaml"), "--json", str(out / "plan.json")]
    )
    code = args.func(args, stdout=stdout, stderr=io.StringIO())
    return {
        "code": code,
        "stdout": stdout.getvalue(),
        "yaml": list(yaml.safe_load_all((out / "plan.yaml").read_text())),
        "json": json.loads((out / "plan.json").read_text()),
    }


def test_quickstart_plans_and_prints_the_tree_and_summary(quickstart_files: dict[str, Any]) -> None:
    assert quickstart_files["code"] == 0
    out = quickstart_files["stdout"]
    assert "Plan for aim-quickstart (stack dev)" in out
    assert "AIMService qwen-chat" in out
    assert "├─ InferenceService ml-team/qwen-chat-" in out
    assert "kubernetes:serving.kserve.io/v1beta1:InferenceService" in out
    assert "PersistentVolumeClaim ml-team/qwen-qwen3-8b-cache-" in out
    summary = [line for line in out.splitlines() if line.startswith("AIMService ml-team/qwen-chat:")]
    assert len(summary) == 1
    line = summary[0]
    assert "profile AIMProfile qwen3-8b-nvidia-vllm-" in line
    assert "autoSelectionPolicy any" in line
    assert "runtime config AIMClusterRuntimeConfig default" in line
    assert "route /ml-team/" in line
    assert "replicas 1" in line
    assert "cache Shared" in line
    assert "\x1b[" not in out


def test_yaml_holds_every_kubernetes_manifest_in_apply_order(quickstart_files: dict[str, Any]) -> None:
    """As Helm installs: what others refer to first, custom resources last, each kind sorted."""
    docs = quickstart_files["yaml"]
    keys = [(d["kind"], d["metadata"].get("namespace", ""), d["metadata"]["name"]) for d in docs]
    assert [k[0] for k in keys] == ["PersistentVolumeClaim", "Job", "HTTPRoute", "InferenceService"]
    for doc in docs:
        assert list(doc)[:3] == ["apiVersion", "kind", "metadata"]
    isvc = next(d for d in docs if d["kind"] == "InferenceService")
    assert isvc["apiVersion"] == "serving.kserve.io/v1beta1"
    assert isvc["spec"]["predictor"]["containers"][0]["image"] == "vllm/vllm-openai:v0.17.1-cu130"


def test_json_has_resources_and_service_status(quickstart_files: dict[str, Any]) -> None:
    document = quickstart_files["json"]
    names = {(r["type"], r["name"]): r for r in document["resources"]}
    isvc = names[("kubernetes:serving.kserve.io/v1beta1:InferenceService", "qwen-chat-isvc")]
    assert isvc["parent"] == "qwen-chat"
    assert isvc["inputs"]["kind"] == "InferenceService"
    binding = names[("pulumi-python:dynamic/aim:Binding", "qwen-chat-binding")]
    assert "__provider" not in binding["inputs"]
    assert names[("aim:index:AIMService", "qwen-chat")]["parent"] is None
    assert isvc["urn"].endswith(
        "aim:index:AIMService$kubernetes:serving.kserve.io/v1beta1:InferenceService::qwen-chat-isvc"
    )
    service = names[("aim:index:AIMService", "qwen-chat")]
    assert isvc["parentUrn"] == service["urn"]
    # The InferenceService waits for the Shared cache the stack owns: its PVC and download Job.
    assert sorted(u.rsplit("::", 1)[-1] for u in isvc["dependsOn"]) == [
        "ml-team-qwen-qwen3-8b-cache-6c23c8ce-download",
        "ml-team-qwen-qwen3-8b-cache-6c23c8ce-pvc",
    ]
    pvc = names[("kubernetes:core/v1:PersistentVolumeClaim", "ml-team-qwen-qwen3-8b-cache-6c23c8ce-pvc")]
    assert pvc["options"]["retainOnDelete"] is True and isvc["options"]["retainOnDelete"] is False
    assert isvc["provider"] is None  # the default Kubernetes provider
    status = service["outputs"]["status"]
    assert status["resolvedProfile"]["name"].startswith("qwen3-8b-nvidia-vllm-")
    assert status["resolvedRuntimeConfig"]["name"] == "default"
    assert status["routing"]["path"].startswith("/ml-team/")
    assert status["status"] == "Starting"
    assert status["conditions"][0]["type"] == "RuntimeConfigReady"
    assert document["outputs"]["routePath"] == status["routing"]["path"]  # the stack's exports
    assert document["outputs"]["endpoint"] == status["routing"]["path"]  # no hostnames: the path alone


def test_validate_fails_on_an_invalid_manifest(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plan(capsys, str(PROGRAMS / "invalid-manifest"), "--validate")
    assert code == 1
    problems = [line for line in err.splitlines() if line.startswith("invalid: ")]
    assert len(problems) == 1
    assert "ConfigMap/default/Bad_Name (bad-name): metadata.name" in problems[0]
    assert "1 schema violation(s) in 2 manifest(s)" in err
    assert "manifests valid" not in out


def test_plan_without_validate_accepts_the_same_program(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = plan(capsys, str(PROGRAMS / "invalid-manifest"), "--quiet")
    assert code == 0
    assert err == ""


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        pytest.param(
            "typo-field",
            ["typo-field/__main__.py:3: AIMService/ml-team/chat: spec.modle: UnknownField: ", "spec.model`?"],
            id="typo-in-a-field",
        ),
        pytest.param(
            "missing-profile",
            [
                "missing-profile/__main__.py:11",
                "AIMService/ml-team/chat",
                "spec.profile.name",
                "ProfileNotFound",
            ],
            id="missing-profile",
        ),
    ],
)
def test_bad_program_is_one_line_without_traceback(
    capsys: pytest.CaptureFixture[str], program: str, expected: list[str]
) -> None:
    code, out, err = plan(capsys, str(PROGRAMS / program))
    assert code == 1
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    for fragment in expected:
        assert fragment in lines[0]
    assert "Traceback" not in err


def test_debug_shows_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = plan(capsys, str(PROGRAMS / "missing-profile"), "--debug")
    assert code == 1
    assert "Traceback (most recent call last)" in err
    assert err.strip().splitlines()[-1].startswith("error: ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["/no/such/program"], "no such file or directory", id="missing-program"),
        pytest.param(
            [str(PROGRAMS / "config-echo"), "--config", "novalue"], "key=value", id="config-without-value"
        ),
        pytest.param([str(ROOT / "pyproject.toml")], "expected a Pulumi program", id="not-a-program"),
        pytest.param(
            [str(EXAMPLES / "quickstart"), "--catalog", str(EXAMPLES / "yaml-manifests" / "manifests")],
            "is a service",
            id="catalog-with-a-service",
        ),
        pytest.param(
            [str(EXAMPLES / "quickstart"), "--diff", "/no/such/plan.json"], "no such file", id="diff-missing"
        ),
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = plan(capsys, *argv)
    assert code == 2
    assert message in err


def test_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", str(EXAMPLES / "quickstart"), "--frobnicate"]) == 2


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text)
    return directory


@pytest.mark.parametrize(
    ("files", "stack", "config", "expected_stack", "expected"),
    [
        pytest.param(
            {"Pulumi.yaml": "name: p\nruntime: python\n"},
            None,
            [],
            "dev",
            {},
            id="no-stack-file-means-dev",
        ),
        pytest.param(
            {
                "Pulumi.yaml": "name: p\nruntime: python\n",
                "Pulumi.staging.yaml": "config:\n  aim:strict: true\n",
            },
            None,
            [],
            "staging",
            {"aim:strict": "true"},
            id="the-only-stack-file-is-the-default",
        ),
        pytest.param(
            {
                "Pulumi.yaml": "name: p\nruntime: python\n",
                "Pulumi.a.yaml": "config:\n  p:x: a\n",
                "Pulumi.b.yaml": "config:\n  p:x: b\n",
            },
            None,
            [],
            "dev",
            {},
            id="several-stack-files-default-to-dev",
        ),
        pytest.param(
            {
                "Pulumi.yaml": "name: p\nruntime: python\n",
                "Pulumi.a.yaml": "config:\n  p:x: a\n",
                "Pulumi.b.yaml": "config:\n  p:x: b\n",
            },
            "b",
            [],
            "b",
            {"p:x": "b"},
            id="stack-option-picks-the-file",
        ),
        pytest.param(
            {
                "Pulumi.yaml": "name: p\nruntime: python\nconfig:\n  x:\n    type: string\n    default: d\n"
                "  aim:gatewayProvider: kgateway\n",
            },
            None,
            [],
            "dev",
            {"p:x": "d", "aim:gatewayProvider": "kgateway"},
            id="project-defaults",
        ),
        pytest.param(
            {
                "Pulumi.yaml": "name: p\nruntime: python\nconfig:\n  x:\n    default: d\n",
                "Pulumi.dev.yaml": "config:\n  p:x: s\n  p:n: 3\n  p:list: [1, 2]\n",
            },
            None,
            ["x=c", "aim:strict=true"],
            "dev",
            {"p:x": "c", "p:n": "3", "p:list": "[1,2]", "aim:strict": "true"},
            id="stack-beats-project-and-config-option-beats-stack",
        ),
        pytest.param(
            {
                "Pulumi.yaml": "name: p\nruntime: python\nstackConfigDir: stacks\n",
                "Pulumi.dev.yaml": "config:\n  p:x: beside\n",
                "stacks/Pulumi.prod.yaml": "config:\n  p:x: in-stack-config-dir\n",
            },
            None,
            [],
            "prod",
            {"p:x": "in-stack-config-dir"},
            id="stack-config-dir",
        ),
    ],
)
def test_program_config_is_read_like_the_pulumi_cli(
    tmp_path: Path,
    files: dict[str, str],
    stack: str | None,
    config: list[str],
    expected_stack: str,
    expected: dict[str, str],
) -> None:
    write(tmp_path, {**files, "__main__.py": ""})
    program = load_program(str(tmp_path), stack=stack, config=config)
    assert program.kind == "pulumi"
    assert program.project == "p"
    assert program.stack == expected_stack
    assert dict(program.config) == expected


def test_secure_stack_values_are_secret_placeholders(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "Pulumi.yaml": "name: p\nruntime: python\n",
            "Pulumi.dev.yaml": "config:\n  p:token:\n    secure: v1:abc\n",
            "__main__.py": "",
        },
    )
    program = load_program(str(tmp_path))
    assert program.config == {"p:token": "[secret]"}
    assert program.secret_keys == ("p:token",)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        pytest.param({"Pulumi.yaml": "name: p\nruntime: nodejs\n"}, "only python", id="other-runtime"),
        pytest.param({"Pulumi.yaml": "name: p\nruntime: python\n"}, "no __main__.py", id="no-main"),
        pytest.param({"Pulumi.yaml": "name: [unclosed\n"}, "cannot read", id="broken-project-file"),
        pytest.param(
            {"Pulumi.yaml": "name: p\nruntime: python\nstackConfigDir: nowhere\n", "__main__.py": ""},
            "stackConfigDir 'nowhere' is not a directory",
            id="missing-stack-config-dir",
        ),
        pytest.param({"notes.txt": "hello\n"}, "no \\*.yaml or \\*.yml file", id="nothing-to-plan"),
        pytest.param(
            {"a/Pulumi.yaml": "name: a\nruntime: python\n", "b/__main__.py": "", "c/x.yaml": "{}\n"},
            "holds programs in: a, b; plan one of them",
            id="a-folder-of-programs",
        ),
    ],
)
def test_unusable_program_directories(tmp_path: Path, files: dict[str, str], message: str) -> None:
    write(tmp_path, files)
    with pytest.raises(UsageError, match=message):
        load_program(str(tmp_path))


def test_yaml_directory_is_planned_through_aimstack(tmp_path: Path) -> None:
    program = load_program(str(EXAMPLES / "yaml-manifests" / "manifests"))
    assert program.kind == "manifests"
    assert program.project == "manifests"
    assert program.stack == "dev"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param(
            [], {"greeting": "hello from dev", "tags": '["a","b"]', "gatewayProvider": "kgateway"}, id="dev"
        ),
        pytest.param(
            ["--stack", "prod"],
            {"greeting": "hello from Pulumi.yaml", "token": "[secret]", "gatewayProvider": "envoyGateway"},
            id="prod-stack",
        ),
        pytest.param(
            ["--config", "greeting=from the command line", "--config", "aim:gatewayProvider=custom"],
            {"greeting": "from the command line", "tags": '["a","b"]', "gatewayProvider": "custom"},
            id="config-options",
        ),
    ],
)
def test_config_reaches_the_program(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], expected: dict[str, str]
) -> None:
    target = tmp_path / "plan.json"
    code, _, _ = plan(capsys, str(PROGRAMS / "config-echo"), "--json", str(target), "--quiet", *argv)
    assert code == 0
    document = json.loads(target.read_text())
    assert document["outputs"] == expected


def test_config_changes_the_plan(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The autoscaling example's activation query follows `aim:gatewayProvider`."""
    target = tmp_path / "plan.yaml"
    code, _, _ = plan(
        capsys,
        str(EXAMPLES / "autoscaling"),
        "--config",
        "aim:gatewayProvider=kgateway",
        "--yaml",
        str(target),
    )
    assert code == 0
    scaled = [d for d in yaml.safe_load_all(target.read_text()) if d["kind"] == "ScaledObject"]
    queries = [t["metadata"]["metricQuery"] for d in scaled for t in d["spec"]["triggers"]]
    assert any(q.startswith("sum(envoy_cluster_external_upstream_rq_completed{") for q in queries)


def test_unknown_aim_setting_fails_naming_the_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = plan(capsys, str(EXAMPLES / "quickstart"), "--config", "aim:gatewayProvidr=kgateway")
    assert code == 1
    assert "aim:gatewayProvidr" in err
    assert "InvalidSetting" in err


def test_secrets_print_as_secret(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    files = {"json": tmp_path / "plan.json", "yaml": tmp_path / "plan.yaml"}
    code, out, err = plan(
        capsys, str(PROGRAMS / "secret-output"), "--json", str(files["json"]), "--yaml", str(files["yaml"])
    )
    assert code == 0
    for text in (out, err, files["json"].read_text(), files["yaml"].read_text()):
        assert "hunter2-plaintext" not in text
    document = json.loads(files["json"].read_text())
    assert document["outputs"]["apiKey"] == "[secret]"
    docs = list(yaml.safe_load_all(files["yaml"].read_text()))
    (isvc,) = [d for d in docs if d["kind"] == "InferenceService"]
    (secret,) = [d for d in docs if d["kind"] == "Secret"]
    # The InferenceService stays reviewable: the secret value lives in a Secret it references.
    (container,) = isvc["spec"]["predictor"]["containers"]
    (api_key,) = [e for e in container["env"] if e["name"] == "API_KEY"]
    assert api_key == {
        "name": "API_KEY",
        "valueFrom": {"secretKeyRef": {"name": secret["metadata"]["name"], "key": "API_KEY"}},
    }
    assert secret["stringData"] == {"API_KEY": "[secret]"}  # its keys, never its values


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "extra", "environ", "coloured"),
    [
        pytest.param(io.StringIO, [], {}, False, id="not-a-terminal"),
        pytest.param(FakeTerminal, [], {}, True, id="terminal"),
        pytest.param(FakeTerminal, ["--no-color"], {}, False, id="terminal-no-color-option"),
        pytest.param(FakeTerminal, [], {"NO_COLOR": "1"}, False, id="terminal-NO_COLOR"),
    ],
)
def test_colour_only_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
    stream: type[io.StringIO],
    extra: list[str],
    environ: dict[str, str],
    coloured: bool,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    args = parse_plan([str(PROGRAMS / "config-echo"), *extra])
    out = stream()
    assert args.func(args, stdout=out, stderr=io.StringIO()) == 0
    assert ("\x1b[" in out.getvalue()) is coloured


def test_quiet_prints_nothing_on_success(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plan(capsys, str(PROGRAMS / "config-echo"), "--quiet", "--validate")
    assert (code, out, err) == (0, "", "")


def test_show_secrets_writes_plaintext_to_files_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "plan.yaml"
    code, out, err = plan(capsys, str(PROGRAMS / "secret-output"), "--yaml", str(target), "--show-secrets")
    assert code == 0
    assert "hunter2-plaintext" not in out + err
    (secret,) = [d for d in yaml.safe_load_all(target.read_text()) if d["kind"] == "Secret"]
    assert secret["stringData"] == {"API_KEY": "hunter2-plaintext"}


def test_yaml_manifests_plan_the_same_objects_as_the_program(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, quickstart_files: dict[str, Any]
) -> None:
    target = tmp_path / "plan.yaml"
    code, _, _ = plan(
        capsys, str(EXAMPLES / "yaml-manifests" / "manifests"), "--yaml", str(target), "--quiet"
    )
    assert code == 0
    # A Shared cache's field manager names the project: the directory's, the program's.
    assert without_field_manager(list(yaml.safe_load_all(target.read_text()))) == without_field_manager(
        quickstart_files["yaml"]
    )


def without_field_manager(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = copy.deepcopy(objects)
    for obj in out:
        (obj["metadata"].get("annotations") or {}).pop("pulumi.com/patchFieldManager", None)
    return out


def test_bad_manifest_names_file_and_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = plan(capsys, str(FIXTURES / "manifests" / "typo"))
    assert code == 1
    (line,) = err.strip().splitlines()
    # The line of the misspelt key (the document is the second of the file), as `validate` says.
    assert "services.yaml:16: AIMService/ml-team/broken: spec.modle: UnknownField" in line


@pytest.mark.parametrize(
    ("catalogs", "code"),
    [
        pytest.param([], 1, id="without-catalog-the-model-is-missing"),
        pytest.param([str(FIXTURES / "catalogs" / "qwen")], 0, id="catalog-provides-the-model"),
    ],
)
def test_catalog_directories_are_loaded_before_the_program(
    capsys: pytest.CaptureFixture[str], catalogs: list[str], code: int
) -> None:
    argv = [str(PROGRAMS / "needs-catalog"), "--quiet"]
    for directory in catalogs:
        argv += ["--catalog", directory]
    result, _, err = plan(capsys, *argv)
    assert result == code, err
    if code:
        assert "qwen3-8b" in err


def test_a_resource_name_used_twice_is_refused_with_both_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plan(capsys, str(PROGRAMS / "duplicate-name"))
    assert (code, out) == (1, "")
    (line,) = err.strip().splitlines()
    # The second declaration's line, then (when the traceback shows it) the object it declares.
    assert line.startswith("error: ") and "duplicate-name/__main__.py:5: " in line
    assert line.endswith(
        'DuplicateName: AIMService "chat" is declared twice (first at line 4); '
        "a Pulumi resource name is unique per type and parent: give each its own "
        '(e.g. "chat-<namespace>"; `name` in the arguments keeps the Kubernetes name "chat")'
    )
    assert "Duplicate resource URN" not in err


def test_identical_plain_objects_are_one_and_different_ones_a_duplicate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config_map = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "web", "namespace": "default"},
    }
    (tmp_path / "a.yaml").write_text(yaml.safe_dump_all([{**config_map, "data": {"a": "b"}}] * 2))
    code, _, err = plan(capsys, str(tmp_path), "--quiet")
    assert code == 0, err
    (tmp_path / "a.yaml").write_text(
        yaml.safe_dump_all([{**config_map, "data": {"a": str(n)}} for n in (1, 2)])
    )
    code, _, err = plan(capsys, str(tmp_path))
    assert code == 1
    assert (
        "a.yaml:14: ConfigMap/default/web: metadata.name: DuplicateObject: "
        "declared twice with different content (first as document 1)" in err
    )
    assert "Duplicate resource URN" not in err


def test_a_builtin_kind_without_its_required_field_is_refused_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
    }
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(deployment))
    code, _, err = plan(capsys, str(tmp_path))
    assert code == 1
    assert err.strip().endswith(
        "Deployment/default/web: spec: InvalidSpec: apps/v1 Deployment requires `spec`"
    )
    assert "TypeError" not in err


def test_a_kustomization_document_is_skipped_not_planned(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    docs = [
        {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": ["a.yaml"]},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web", "namespace": "default"}},
    ]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "stack.yaml").write_text(yaml.safe_dump_all(docs))
    target = tmp_path / "plan.yaml"
    code, out, err = plan(capsys, str(tmp_path / "in"), "--yaml", str(target))
    assert code == 0, err
    assert "stack.yaml:1: skipped: kustomize configuration" in out
    assert [d["kind"] for d in yaml.safe_load_all(target.read_text())] == ["ConfigMap"]


def test_json_outputs_of_components_sharing_a_name_stay_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """In model-id an AIMModel and an AIMService are both named `mistral-7b-nvidia`."""
    target = tmp_path / "plan.json"
    code, _, _ = plan(capsys, str(EXAMPLES / "model-id"), "--json", str(target), "--quiet")
    assert code == 0
    document = json.loads(target.read_text())
    by_urn = {r["urn"]: r for r in document["resources"]}
    model = by_urn["urn:pulumi:dev::aim-model-id::aim:index:AIMModel::mistral-7b-nvidia"]
    service = by_urn["urn:pulumi:dev::aim-model-id::aim:index:AIMService::mistral-7b-nvidia"]
    assert model["outputs"]["status"]["generatedProfiles"] == [service["outputs"]["resolvedProfile"]["name"]]
    assert service["outputs"]["status"]["reconcilerPipeline"] == "profile"
    # The stack's own exports are apart from every resource's outputs.
    assert set(document["outputs"]) == {"mistral-7b-amd", "mistral-7b-nvidia"}
    assert document["outputs"]["mistral-7b-nvidia"] == service["outputs"]["resolvedProfile"]


WARNINGS = [
    'AIMModel orphan: ReferenceNotFound: runtime config "missing" not found',
    "AIMService chat: PathTemplateInvalid: path template of ml-team/chat",
]


def test_every_warning_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plan(capsys, str(PROGRAMS / "warnings"))
    assert (code, err) == (0, "")
    assert "Plan for warnings (stack dev): 5 resources to create" in out
    lines = out.splitlines()
    summary = lines.index(next(line for line in lines if line.startswith("AIMService ml-team/chat:")))
    assert lines[summary + 1].startswith("  warning: PathTemplateInvalid: ")
    assert any(line.startswith("warning: " + WARNINGS[0]) for line in lines)


def test_quiet_still_prints_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = plan(capsys, str(PROGRAMS / "warnings"), "--quiet")
    assert (code, out) == (0, "")
    lines = err.splitlines()
    assert len(lines) == 2
    for line, expected in zip(lines, WARNINGS, strict=True):
        assert line.startswith("warning: " + expected)


def test_one_resource_is_singular(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "Pulumi.yaml": "name: one\nruntime: python\n",
            "__main__.py": "from aim_pulumi import AIMClusterProfile\n"
            "AIMClusterProfile('p', {'spec': {'aimId': 'o/m', 'image': 'x:1'}})\n",
        },
    )
    code, out, _ = plan(capsys, str(tmp_path))
    assert code == 0
    assert out.splitlines()[0] == "Plan for one (stack dev): 1 resource to create"


class ClosedPipe(io.StringIO):
    """Standard output whose reader has gone away (`aim-pulumi plan . | head -1`)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_ends_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdout", ClosedPipe())
    assert main(["plan", str(PROGRAMS / "config-echo")]) == 1
    assert capsys.readouterr().err == ""


def test_template_pipeline_summary_names_template_and_model(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = plan(capsys, str(FIXTURES / "manifests" / "legacy-template"))
    assert code == 0
    (summary,) = [line for line in out.splitlines() if line.startswith("AIMService ")]
    assert summary.startswith(
        "AIMService ml-research/chat: template AIMServiceTemplate qwen3-32b-latency of model qwen-qwen3-32b "
        "(template pipeline); runtime config AIMClusterRuntimeConfig default; no route; replicas 1; "
    )


def test_the_collector_is_paused_while_the_plan_is_written_and_only_then(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    import aim_pulumi.cli.commands.plan as plan_command
    import aim_pulumi.cli.execution as execution

    seen: dict[str, bool] = {}
    original_execute, original_print = plan_command.execute, plan_command._print_plan

    def executing(*args: Any, **kwargs: Any) -> Any:
        seen["run"] = gc.isenabled()
        return original_execute(*args, **kwargs)

    def printing(*args: Any, **kwargs: Any) -> None:
        seen["writing"] = gc.isenabled()
        original_print(*args, **kwargs)

    monkeypatch.setattr(plan_command, "execute", executing)
    monkeypatch.setattr(plan_command, "_print_plan", printing)
    assert execution.execute is original_execute
    code, out, _ = plan(capsys, str(EXAMPLES / "quickstart"), "--no-color")
    assert code == 0 and "InferenceService" in out
    # The program runs with the collector (the engine tunes it); the writing out does without.
    assert seen == {"run": True, "writing": False}
    assert gc.isenabled()
    gc.disable()
    try:
        assert plan(capsys, str(EXAMPLES / "quickstart"), "--no-color")[0] == 0
        assert not gc.isenabled()  # a caller's choice is left as it was
    finally:
        gc.enable()


def test_a_plan_that_is_the_whole_process_freezes_its_heap_instead_of_collecting_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    import aim_pulumi.cli.common as common
    from aim_pulumi.cli.__main__ import main

    assert plan(capsys, str(EXAMPLES / "quickstart"), "--no-color")[0] == 0
    assert gc.get_freeze_count() == 0  # called with arguments: a caller's process goes on
    monkeypatch.setattr(common, "_PROCESS_ENDS_WITH_COMMAND", False)
    monkeypatch.setattr(sys, "argv", ["aim-pulumi", "plan", str(EXAMPLES / "quickstart"), "--no-color"])
    try:
        assert main() == 0
        assert common._PROCESS_ENDS_WITH_COMMAND
        # What the plan made is out of every later collection, the one at exit included.
        assert gc.get_freeze_count() > 0 and gc.isenabled()
    finally:
        gc.unfreeze()
    capsys.readouterr()


def test_yaml_puts_a_namespace_before_the_objects_in_it(tmp_path: Path) -> None:
    """`kubectl apply -f plan.yaml` on a fresh cluster needs the Namespace first."""
    out = tmp_path / "plan.yaml"
    program = PROGRAMS / "with-namespace"
    assert main(["plan", str(program), "--quiet", "--yaml", str(out)]) == 0
    kinds = [d["kind"] for d in yaml.safe_load_all(out.read_text()) if d]
    assert kinds == ["Namespace", "ServiceAccount", "InferenceService"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_program_that_is_a_fifo_is_refused_before_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "manifests.yaml"
    os.mkfifo(fifo)
    # Opening it would block until a writer comes: refused from its type alone.
    with pytest.raises(UsageError, match=r"not a regular file or directory .*pipe YAML in with `-`"):
        load_program(str(fifo))


def test_program_directory_linking_out_is_refused_before_planning(tmp_path: Path) -> None:
    (tmp_path / "models.yaml").write_text((FIXTURES / "legacy" / "models.yaml").read_text())
    (tmp_path / "secrets.yaml").symlink_to("/etc/shadow")
    with pytest.raises(UsageError) as caught:
        load_program(str(tmp_path))
    assert str(caught.value) == (
        f"{tmp_path / 'secrets.yaml'}: symlink to /etc/shadow, outside {tmp_path}; not followed "
        "(copy it in to read it)"
    )


def test_plan_file_in_a_missing_directory_is_refused_before_planning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "no-such-dir" / "plan.yaml"
    code, out, err = plan(capsys, str(EXAMPLES / "quickstart"), "--yaml", str(target), "--json", "-")
    assert (code, out) == (2, "")
    assert err == (
        f"aim-pulumi plan: error: cannot write {target}: {target.parent} is not an existing directory; "
        "create it first\n"
    )
    assert not target.parent.exists()


def test_stack_config_scalars_reach_the_program_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As the Pulumi CLI passes them: `1:30` is not 90 and `on` is not true (YAML 1.1 would say so)."""
    program = tmp_path / "config-echo"
    program.mkdir()
    for name in ("Pulumi.yaml", "__main__.py"):
        (program / name).write_text((PROGRAMS / "config-echo" / name).read_text())
    (program / "Pulumi.dev.yaml").write_text(
        "config:\n  config-echo:greeting: 1:30\n  config-echo:tags: [on, 1:30]\n  config-echo:token: 0o17\n"
    )
    target = tmp_path / "plan.json"
    code, _, err = plan(capsys, str(program), "--json", str(target), "--quiet")
    assert code == 0, err
    outputs = json.loads(target.read_text())["outputs"]
    assert (outputs["greeting"], outputs["token"]) == ("1:30", "0o17")
    # Structured values go as JSON, typed as Go's yaml.v3 types them (YAML 1.2: `on` is text).
    assert json.loads(outputs["tags"]) == ["on", "1:30"]


def test_a_mistyped_gateway_provider_is_an_error_with_the_close_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As every other setting: a value that only warned and fell back to `none` (behaviour §9) hid
    a disabled scale-from-zero."""
    code, out, err = plan(capsys, str(EXAMPLES / "quickstart"), "-c", "aim:gatewayProvider=envoy")
    assert (code, out) == (1, "")
    (line,) = err.strip().splitlines()
    assert line == (
        "error: --config: aim:gatewayProvider: InvalidSetting: expected one of envoyGateway, kgateway, "
        "custom, none, "
        "got 'envoy' (did you mean envoyGateway?)"
    )
