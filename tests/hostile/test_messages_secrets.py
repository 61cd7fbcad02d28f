"""Safe messages, secrets on every channel, path templates and the last check before registration."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMValidationError
from aim_pulumi.cli.__main__ import main
from aim_pulumi.manifests.child_admission import check_children
from aim_pulumi.resolve import AIMResolutionError
from aim_pulumi.resolve.children.paths import check_client_go_subset, render_path

PROGRAMS = Path(__file__).resolve().parent.parent / "fixtures" / "programs"
SECRET = "hunter2-plaintext"

SERVICE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: {name}
  namespace: ns1
spec:
  model: {{name: m1}}
"""
PROFILE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMClusterProfile
metadata: {{name: p1}}
spec: {{aimId: {aim_id}, image: "example/aim:1"}}
"""


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def test_validate_escapes_control_characters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "svc.yaml"
    path.write_text(SERVICE.format(name='"a\\r\\nb: c\\x1b[31m"'))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    (line,) = _lines(out)
    assert "AIMService/ns1/a\\r\\nb: c\\x1b[31m: metadata.name: InvalidSpec" in line


def test_plan_error_is_one_escaped_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "svc.yaml"
    path.write_text(SERVICE.format(name='"a\\nb: c"'))
    assert main(["plan", str(path)]) == 1
    err = capsys.readouterr().err
    (line,) = _lines(err)
    assert "AIMService/ns1/a\\nb: c: metadata.name: InvalidSpec" in line


def test_internal_error_is_one_line_and_traceback_only_with_debug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import aim_pulumi.cli.commands.validate as validate

    def boom(*_args: object) -> None:
        raise OverflowError("int too large\nto convert")

    monkeypatch.setattr(validate, "check_report", boom)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == "aim-pulumi validate: error: OverflowError: int too large\\nto convert\n"
    assert main(["validate", "--debug", str(tmp_path)]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_dotdot_aim_id_never_reaches_a_mount_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "profile.yaml"
    path.write_text(PROFILE.format(aim_id='"../../../../../etc"'))
    assert main(["plan", str(path), "--yaml", str(tmp_path / "out.yaml")]) == 1
    err = capsys.readouterr().err
    assert "AIMClusterProfile/p1: spec.aimId: InvalidSpec" in err
    assert not (tmp_path / "out.yaml").exists()


@pytest.mark.parametrize(
    "placeholder",
    [
        ".metadata.labels.x.`sub(/^(a+)+b$/, z)`",
        "..name",
        ".metadata.labels[?(@.x)]",
        ".metadata.name + 1",
        "$",
    ],
)
def test_jsonpath_extensions_are_refused(placeholder: str) -> None:
    with pytest.raises(AIMResolutionError) as info:
        check_client_go_subset(placeholder)
    assert info.value.reason == "PathTemplateInvalid"


@pytest.mark.parametrize(
    "placeholder",
    [
        ".metadata.name",
        "$.metadata.namespace",
        "metadata.name",
        ".metadata.labels['a.b/c']",
        ".a\\.b",
        ".x[0]",
    ],
)
def test_client_go_subset_is_accepted(placeholder: str) -> None:
    check_client_go_subset(placeholder)


def test_catastrophic_regex_template_fails_fast() -> None:
    service = {"metadata": {"name": "s", "namespace": "n", "labels": {"x": "a" * 40}}}
    with pytest.raises(AIMResolutionError) as info:
        render_path("/{.metadata.labels.x.`sub(/^(a+)+b$/, z)`}", service)
    assert info.value.reason == "PathTemplateInvalid"


def test_check_children_names_owner_child_and_field() -> None:
    bad = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cm", "namespace": "ns1", "labels": {"k": "not valid!"}},
        "data": {},
    }
    with pytest.raises(AIMValidationError) as info:
        check_children([bad], "AIMService/ns1/svc")
    err = info.value
    assert (err.object_ref, err.reason, err.field) == (
        "AIMService/ns1/svc",
        "InvalidSpec",
        "metadata.labels[k]",
    )
    assert "ConfigMap/ns1/cm" in err.message


def test_check_children_passes_values_known_only_at_deploy_time() -> None:
    unknown = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cm", "namespace": "ns1", "labels": {"k": "__AIM_OUTPUT_0_Qx__"}},
    }
    check_children([unknown], "AIMService/ns1/svc")


def _saved_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    old = tmp_path / "old.json"
    assert main(["plan", str(PROGRAMS / "secret-output"), "--json", str(old), "--show-secrets"]) == 0
    capsys.readouterr()
    assert SECRET in old.read_text()
    return old


def test_diff_against_a_plaintext_plan_prints_no_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _saved_plan(tmp_path, capsys)
    assert main(["plan", str(PROGRAMS / "secret-output"), "--diff", str(old)]) == 0
    out = capsys.readouterr()
    assert SECRET not in out.out + out.err
    assert "0 to create, 0 to update, 0 to replace, 0 to delete" in out.out


def test_diff_shows_that_a_secret_changed_without_either_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _saved_plan(tmp_path, capsys)
    old.write_text(old.read_text().replace(SECRET, "previous-secret-value"))
    assert main(["plan", str(PROGRAMS / "secret-output"), "--diff", str(old)]) == 0
    out = capsys.readouterr().out
    assert SECRET not in out and "previous-secret-value" not in out
    assert "[secret] -> [secret]" in out


def test_diff_never_prints_removed_plaintext_under_a_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _saved_plan(tmp_path, capsys)
    document = json.loads(old.read_text())
    for resource in document["resources"]:
        if resource["type"] == "kubernetes:core/v1:Secret":
            resource["inputs"]["stringData"]["OLD_KEY"] = "removed-" + SECRET
    old.write_text(json.dumps(document))
    assert main(["plan", str(PROGRAMS / "secret-output"), "--diff", str(old)]) == 0
    out = capsys.readouterr().out
    assert SECRET not in out


def test_program_copy_is_untouched_by_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "prog"
    shutil.copytree(PROGRAMS / "secret-output", program)
    assert main(["plan", str(program), "--json", str(tmp_path / "p.json")]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in program.iterdir() if p.name != "__pycache__") == sorted(
        p.name for p in (PROGRAMS / "secret-output").iterdir() if p.name != "__pycache__"
    )


FALLBACK_STACK = """\
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMClusterRuntimeConfig
metadata: {{name: default}}
spec:
  model:
    profileGeneration:
      fallbacks:
      - name: weird
        match: {{acceleratorVendor: nvidia, acceleratorType: {type}}}
        runtime: {{image: "vllm/vllm-openai:v0.1", engine: vllm, engineArgs: {args}}}
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata: {{name: m1, namespace: ns1}}
spec:
  modelId: Qwen/Qwen3-0.6B
  accelerator: {{vendor: nvidia, count: 1}}
  source: {{size: 2Gi}}
"""


def test_fallback_accelerator_type_is_reported_where_it_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "stack.yaml"
    path.write_text(FALLBACK_STACK.format(type="TPU", args="{}"))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        "AIMClusterRuntimeConfig/default: spec.model.profileGeneration.fallbacks[0].match.acceleratorType: "
        "InvalidSpec" in out
    )


def test_bad_generated_profile_names_the_model_and_the_fallback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "stack.yaml"
    path.write_text(FALLBACK_STACK.format(type="gpu", args="{port: 9000}"))
    assert main(["plan", str(path)]) == 1
    err = capsys.readouterr().err
    assert (
        "stack.yaml:16: AIMModel/ns1/m1: spec.modelId: InvalidSpec: the profile generated for this model"
        in err
    )
    assert "fallback 'weird'" in err


def test_plan_of_non_utf8_stdin_is_a_clean_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    raw = io.BytesIO(b'apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMModel\nmetadata: {name: "caf\xe9"}\n')
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw, encoding="utf-8"))
    assert main(["plan", "-"]) == 1
    err = capsys.readouterr().err
    assert "InvalidYAML: cannot read" in err and "Traceback" not in err


def test_diff_against_deeply_nested_json_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.json"
    old.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["plan", str(PROGRAMS / "secret-output"), "--diff", str(old)]) == 2
    assert "nested too deeply" in capsys.readouterr().err


# Runtime-config env values that are Pulumi secrets (a secret config value, `Output.secret`).
RC_SECRETS = ("s3-key-plaintext", "hf-token-plaintext")
RC_PROGRAM = PROGRAMS / "runtime-config-secret"


def _plan_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[str, dict, list]:
    plan_json, plan_yaml = tmp_path / "plan.json", tmp_path / "plan.yaml"
    assert main(["plan", str(RC_PROGRAM), "--json", str(plan_json), "--yaml", str(plan_yaml), *flags]) == 0
    out = capsys.readouterr()
    import yaml

    return (
        out.out + out.err,
        json.loads(plan_json.read_text()),
        list(yaml.safe_load_all(plan_yaml.read_text())),
    )


def _isvc_env(documents: list) -> dict:
    (isvc,) = [d for d in documents if d["kind"] == "InferenceService"]
    return {e["name"]: e for e in isvc["spec"]["predictor"]["containers"][0]["env"]}


def test_runtime_config_secrets_never_reach_the_plan_in_plain_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    printed, plan, documents = _plan_files(tmp_path, capsys, "--validate")

    for secret in RC_SECRETS:
        assert secret not in printed
        assert secret not in json.dumps(plan) and secret not in json.dumps(documents)
    env = _isvc_env(documents)
    (secret_doc,) = [d for d in documents if d["kind"] == "Secret"]
    name = secret_doc["metadata"]["name"]
    for key in ("AWS_SECRET_ACCESS_KEY", "HF_TOKEN"):
        assert env[key] == {"name": key, "valueFrom": {"secretKeyRef": {"name": name, "key": key}}}
    assert env["LOG_LEVEL"] == {"name": "LOG_LEVEL", "value": "debug"}
    assert secret_doc["stringData"] == {"AWS_SECRET_ACCESS_KEY": "[secret]", "HF_TOKEN": "[secret]"}
    (config,) = [r for r in plan["resources"] if r["type"] == "aim:index:AIMRuntimeConfig"]
    assert config["outputs"]["spec"] == "[secret]" and config["outputs"]["status"] == "[secret]"
    assert "manifests valid against the vendored schemas" in printed


def test_show_secrets_writes_runtime_config_secrets_only_where_they_belong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, plan, documents = _plan_files(tmp_path, capsys, "--show-secrets")

    assert (tmp_path / "plan.json").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "plan.yaml").stat().st_mode & 0o777 == 0o600
    (secret_doc,) = [d for d in documents if d["kind"] == "Secret"]
    assert secret_doc["stringData"] == {"AWS_SECRET_ACCESS_KEY": RC_SECRETS[0], "HF_TOKEN": RC_SECRETS[1]}
    # The namespace config's HF_TOKEN wins over the cluster config's plain one.
    assert "cluster-plain-overridden" not in json.dumps(documents)
    assert "valueFrom" in _isvc_env(documents)["HF_TOKEN"]
    holders = {r["type"] for r in plan["resources"] if RC_SECRETS[0] in json.dumps(r)}
    assert holders == {"kubernetes:core/v1:Secret", "aim:index:AIMRuntimeConfig"}


def test_explain_shows_runtime_config_secrets_as_secret(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(RC_PROGRAM), "--service", "default/chat"]) == 0
    out = capsys.readouterr()
    for secret in RC_SECRETS:
        assert secret not in out.out + out.err
    rows = [line for line in out.out.splitlines() if "AWS_SECRET_ACCESS_KEY" in line]
    assert rows and all("[secret]" in row for row in rows)


def test_diff_of_a_changed_runtime_config_secret_shows_neither_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.json"
    assert main(["plan", str(RC_PROGRAM), "--json", str(old), "--show-secrets"]) == 0
    old.write_text(old.read_text().replace(RC_SECRETS[1], "hf-previous-value"))
    capsys.readouterr()

    assert main(["plan", str(RC_PROGRAM), "--diff", str(old)]) == 0

    out = capsys.readouterr()
    assert "stringData.HF_TOKEN: [secret] -> [secret]" in out.out
    for value in (*RC_SECRETS, "hf-previous-value"):
        assert value not in out.out + out.err


PLAIN_TOKEN = "hf_plaintext_in_a_manifest"


def _plain_token_manifests(tmp_path: Path, value: Any) -> Path:
    (tmp_path / "aim.yaml").write_text(
        yaml.safe_dump_all(
            [
                {
                    "apiVersion": "aim.eai.amd.com/v1alpha2",
                    "kind": "AIMClusterProfile",
                    "metadata": {"name": "llama"},
                    "spec": {"aimId": "meta/llama", "image": "example/llama:1", "acceleratorType": "gpu"},
                },
                {
                    "apiVersion": "aim.eai.amd.com/v1alpha2",
                    "kind": "AIMService",
                    "metadata": {"name": "chat", "namespace": "default"},
                    "spec": {
                        "profile": {"name": "llama"},
                        "env": [
                            {"name": "HF_TOKEN", "value": value},
                            {"name": "LOG_LEVEL", "value": "debug"},
                        ],
                    },
                },
            ]
        )
    )
    return tmp_path


def test_explain_and_validate_keep_a_plain_credential_value_out_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One rule (`may_hold_credentials`) decides for both commands which values are never shown."""
    (tmp_path / "good").mkdir()
    good = _plain_token_manifests(tmp_path / "good", PLAIN_TOKEN)
    assert main(["explain", str(good), "--service", "default/chat"]) == 0
    out = capsys.readouterr()
    assert PLAIN_TOKEN not in out.out + out.err
    (row,) = [line.split() for line in out.out.splitlines() if line.split()[:1] == ["HF_TOKEN"]]
    assert row[1:3] == ["[not", "shown]"]
    (debug,) = [line.split() for line in out.out.splitlines() if line.split()[:1] == ["LOG_LEVEL"]]
    assert debug[1] == '"debug"'  # a value no credential name marks is still shown

    (tmp_path / "bad").mkdir()
    bad = _plain_token_manifests(tmp_path / "bad", [PLAIN_TOKEN])
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr()
    assert PLAIN_TOKEN not in out.out + out.err
    assert "spec.env[0].value" in out.out + out.err


@pytest.mark.parametrize(
    ("loc", "hidden"),
    [
        (("env", "HF_TOKEN", "value"), True),
        (("spec", "env", 0, "value"), True),
        (("env", "AIM_MODEL_ID", "value"), False),
        (("spec", "engineEnv", "API_KEY"), True),
        (("spec", "engineEnv", "VLLM_USE_V1"), False),
        (("spec", "containerEnv"), True),
        (("artifact", "s3", "credentialsSecretRef", "name"), True),
        (("env", "AWS_SECRET_ACCESS_KEY"), True),
        (("spec", "image"), False),
    ],
)
def test_which_fields_may_hold_credentials(loc: tuple[str | int, ...], hidden: bool) -> None:
    from aim_pulumi.api.base import may_hold_credentials

    assert may_hold_credentials(loc) is hidden
