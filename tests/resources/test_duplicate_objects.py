"""One Kubernetes object per program: two declarations of one object are refused before anything
registers, naming both (two AIMServices named alike once planned twice and overwrote each other)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.manifests.object_identity import collisions, object_key

PIPELINE = '{"aim.eai.amd.com/reconciler-pipeline": "profile"}'
MODEL = (
    'AIMModel("qwen3-8b", {"namespace": "ml", "spec": {"modelId": "Qwen/Qwen3-8B", '
    '"accelerator": {"vendor": "nvidia", "count": 1}, "source": {"size": "17Gi"}}})\n'
)


def _service(resource: str, name: str, extra: str = "") -> str:
    return (
        f'AIMService("{resource}", {{"name": "{name}", "namespace": "ml", "annotations": {PIPELINE}, '
        f'"spec": {{"model": {{"name": "qwen3-8b"}}, "caching": {{"mode": "Shared"}}{extra}}}}})\n'
    )


def _program(tmp_path: Path, body: str) -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: dup\nruntime: python\n")
    (tmp_path / "__main__.py").write_text("from aim_pulumi import AIMModel, AIMService\n" + body)
    return tmp_path


def _plan(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["plan", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_two_services_of_one_kubernetes_name_are_refused_naming_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    program = _program(
        tmp_path, MODEL + _service("llama-chat", "llama-chat") + _service("qwen-chat", "llama-chat")
    )
    code, out, err = _plan(capsys, str(program), "--validate")
    assert (code, out) == (1, "")
    (line,) = err.strip().splitlines()
    assert line.startswith("error: __main__.py:4: AIMService/ml/llama-chat: metadata.name: DuplicateObject: ")
    assert "InferenceService ml/llama-chat-" in line
    assert (
        'AIMService "llama-chat", __main__.py:3' in line and 'AIMService "qwen-chat", __main__.py:4' in line
    )


def test_the_shared_cache_of_two_services_is_one_declaration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = _program(tmp_path, MODEL + _service("a", "a") + _service("b", "b"))
    code, out, err = _plan(capsys, str(program), "--validate")
    assert code == 0, err
    assert out.count("PersistentVolumeClaim ml/qwen-qwen3-8b-cache-") == 1


YAML_STACK = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata: {name: m1, namespace: ns1}
spec:
  modelId: Qwen/Qwen3-0.6B
  accelerator: {vendor: nvidia, count: 1}
  source: {size: 2Gi}
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: svc
  namespace: ns1
  annotations: {aim.eai.amd.com/reconciler-pipeline: profile}
spec:
  model: {name: m1}
  caching: {mode: Dedicated}
"""


def _child_name(capsys: pytest.CaptureFixture[str], path: Path, kind: str) -> str:
    code, out, err = _plan(capsys, str(path))
    assert code == 0, err
    return next(
        line.split(f"{kind} ns1/")[1].split()[0] for line in out.splitlines() if f"{kind} ns1/" in line
    )


@pytest.mark.parametrize(
    ("kind", "document"),
    [
        (
            "InferenceService",
            "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
            "metadata: {name: NAME, namespace: ns1}\n"
            "spec: {predictor: {containers: [{name: kserve-container, image: x}]}}\n",
        ),
        (
            "PersistentVolumeClaim",
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: NAME, namespace: ns1}\n"
            "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
        ),
    ],
)
def test_a_plain_object_at_a_childs_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, document: str
) -> None:
    path = tmp_path / "stack.yaml"
    path.write_text(YAML_STACK)
    name = _child_name(capsys, path, kind)
    path.write_text(YAML_STACK + "---\n" + document.replace("NAME", name))
    code, out, err = _plan(capsys, str(path), "--validate")
    assert (code, out) == (1, "")
    (line,) = err.strip().splitlines()
    assert "AIMService/ns1/svc: metadata.name: DuplicateObject: " in line
    assert f"{kind} ns1/{name} is declared twice, by {kind}/ns1/{name} of AIMStack" in line
    assert "stack.yaml:3)" in line


def test_the_same_object_at_two_versions_is_one_object() -> None:
    old = {"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "x"}}
    new = {**old, "apiVersion": "autoscaling/v2"}
    assert object_key(old) == object_key(new) == ("autoscaling", "HorizontalPodAutoscaler", "default", "x")
    found = collisions([("a", [old]), ("b", [new]), ("b", [new])])
    assert [(c.first, c.second) for c in found] == [("a", "b")]
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x", "namespace": "y"}}
    assert object_key(namespace) == ("", "Namespace", "", "x")
