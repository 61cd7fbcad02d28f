"""What used to go silently wrong now says so, with the fix: a `spec.model` the named profile does not
serve, a credential in plain text, a runtime config in a namespace nothing uses, an unknown gateway
provider; `aim:strict` turns every such warning into an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main

PROFILE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata: {name: p1, namespace: ns1, labels: {aim.eai.amd.com/source-model: qwen}}
spec: {aimId: qwen/qwen3, image: ghcr.io/x/aim:1, acceleratorVendor: amd, acceleratorModel: MI300X,
  acceleratorCount: 1}
"""
SERVICE = """\
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata: {name: svc, namespace: ns1}
spec:
  profile: {name: p1}
"""


def plan(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, *argv: str) -> tuple[int, str, str]:
    path = tmp_path / "stack.yaml"
    path.write_text(text)
    code = main(["plan", str(path), *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def problem_lines(out: str, err: str, reason: str) -> list[str]:
    return [line for line in (out + err).splitlines() if reason in line]


@pytest.mark.parametrize(
    ("model", "served"),
    [
        ("name: llama", False),
        ("name: qwen", True),
        ("image: ghcr.io/x/aim:2", False),
        ("image: ghcr.io/x/aim:1", True),
    ],
)
def test_a_model_the_named_profile_does_not_serve_is_said_to_be_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, model: str, served: bool
) -> None:
    code, out, err = plan(capsys, tmp_path, PROFILE + SERVICE + f"  model: {{{model}}}\n")
    assert code == 0, err
    lines = problem_lines(out, err, "ModelIgnored")
    if served:
        assert lines == []
        return
    (line,) = lines
    field = "spec.model.name" if model.startswith("name") else "spec.model.image"
    assert f'{field} "{model.split(": ")[1]}" is ignored' in line
    assert 'AIMProfile "p1" by name' in line and f"drop {field}" in line
    text = PROFILE + SERVICE + f"  model: {{{model}}}\n"
    code, out, err = plan(capsys, tmp_path, text, "-c", "aim:strict=true")
    assert code == 1 and out == ""
    assert "ModelIgnored" in err and "strict mode turns warnings" in err


@pytest.mark.parametrize(
    ("env", "warned"),
    [
        ("{name: HF_TOKEN, value: hf_abcdefghijklmnopqrstuvwx}", True),
        ("{name: MY_PASSWORD, value: hunter2}", True),
        ("{name: CONFIG, value: AKIAABCDEFGHIJKLMNOP}", True),
        ("{name: HF_TOKEN, valueFrom: {secretKeyRef: {name: hf, key: token}}}", False),
        ("{name: LOG_LEVEL, value: debug}", False),
    ],
)
def test_a_plain_credential_in_env_is_a_warning_naming_output_secret(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, env: str, warned: bool
) -> None:
    code, out, err = plan(capsys, tmp_path, PROFILE + SERVICE + f"  env: [{env}]\n")
    assert code == 0, err
    lines = problem_lines(out, err, "PlainCredential")
    assert len(lines) == int(warned)
    if warned:
        assert "pulumi.Output.secret" in lines[0]
        assert "hf_abc" not in lines[0] and "hunter2" not in lines[0] and "AKIA" not in lines[0]


def test_a_credential_given_as_an_output_secret_is_not_warned_about(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: secret-env\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(
        "import pulumi\nfrom aim_pulumi import AIMProfile, AIMService\n"
        'AIMProfile("p1", {"namespace": "ns1", '
        '"spec": {"aimId": "qwen/qwen3", "image": "ghcr.io/x/aim:1"}})\n'
        'AIMService("svc", {"namespace": "ns1", "spec": {"profile": {"name": "p1"}, '
        '"env": [{"name": "HF_TOKEN", "value": pulumi.Output.secret("hf_abcdefghijklmnopqrstuvwx")}]}})\n'
    )
    code = main(["plan", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "PlainCredential" not in captured.out + captured.err


RUNTIME_CONFIG = """\
---
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMRuntimeConfig
metadata: {name: default, namespace: NS}
spec:
  env: [{name: VLLM_LOGGING_LEVEL, value: DEBUG}]
"""


def test_a_runtime_config_in_a_namespace_nothing_uses_is_a_warning_with_the_closest_namespace(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = PROFILE + SERVICE + RUNTIME_CONFIG.replace("NS", "ns11")
    code, out, err = plan(capsys, tmp_path, text)
    assert code == 0, err
    (line,) = problem_lines(out, err, "RuntimeConfigUnused")
    assert "AIMRuntimeConfig ns11/default is used by nothing" in line
    assert 'did you mean namespace "ns1"?' in line
    # Where the service is, it is used, and nothing is said.
    code, out, err = plan(capsys, tmp_path, PROFILE + SERVICE + RUNTIME_CONFIG.replace("NS", "ns1"))
    assert code == 0 and problem_lines(out, err, "RuntimeConfigUnused") == []
    code, out, err = plan(capsys, tmp_path, text, "-c", "aim:strict=true")
    assert code == 1 and "RuntimeConfigUnused" in err and "AIMRuntimeConfig/ns11/default" in err


@pytest.mark.parametrize(("value", "code"), [("kgateway", 0), ("KGateway", 0), ("kgatway", 1), ("istio", 1)])
def test_an_unknown_gateway_provider_is_an_error_as_every_other_setting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str, code: int
) -> None:
    found, out, err = plan(capsys, tmp_path, PROFILE + SERVICE, "-c", f"aim:gatewayProvider={value}")
    assert found == code, err
    if code:
        assert out == ""
        expected = "expected one of envoyGateway, kgateway, custom, none"
        assert f"aim:gatewayProvider: InvalidSetting: {expected}" in err
        if value == "kgatway":
            assert "did you mean kgateway?" in err


@pytest.mark.parametrize(
    ("name", "warned"), [("has space", True), ("Registry", True), ("registry-creds", False)]
)
def test_an_image_pull_secret_no_secret_can_be_named_is_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, warned: bool
) -> None:
    """The API server stores any `imagePullSecrets[].name`; one that is no Secret's name fails every
    pull from a private registry on the node, long after `pulumi up`."""
    text = PROFILE + SERVICE + f'  imagePullSecrets: [{{name: "{name}"}}]\n'
    code, out, err = plan(capsys, tmp_path, text)
    assert code == 0, err
    lines = problem_lines(out, err, "PullSecretNameInvalid")
    assert len(lines) == int(warned), out + err
    if not warned:
        return
    assert f'imagePullSecrets name "{name}" can name no Secret' in lines[0]
    code, out, err = plan(capsys, tmp_path, text, "-c", "aim:strict=true")
    assert code == 1 and out == ""
    assert "PullSecretNameInvalid" in err and "strict mode turns warnings" in err
