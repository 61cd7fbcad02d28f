"""A namespaced v1alpha1 AIMServiceTemplate with `caching.enabled: true` pre-warms its model sources
with no service (seed "Service Templates": "`caching.enabled: true` pre-warms model artifacts"):
a Shared cache with exactly the identity and content a Shared cache of a service on the template has.
Before, such a template was catalog data only and nothing was cached until a service used it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.cli.__main__ import main

MODEL = """\
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMModel
metadata: {name: m1, namespace: ns1}
spec:
  image: ghcr.io/silogen/aim-dummy:0.1.10
"""
TEMPLATE = """\
---
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMServiceTemplate
metadata: {name: t1, namespace: ns1}
spec:
  modelName: m1
  metric: latency
  precision: fp16
  hardware:
    gpu: {model: MI300X, requests: 1}
  modelSources:
  - {name: test-org/test-model, sourceURI: "hf://test-org/test-model", size: 2Gi}
  caching:
    enabled: true
    env:
    - name: HF_TOKEN
      valueFrom:
        secretKeyRef: {name: huggingface-creds, key: token}
"""
SERVICE = """\
---
apiVersion: aim.eai.amd.com/v1alpha1
kind: AIMService
metadata: {name: svc, namespace: ns1}
spec:
  model: {name: m1}
  template: {name: t1}
  cacheModel: true
"""


def plan(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> tuple[int, str, list[dict[str, Any]]]:
    path = tmp_path / "stack.yaml"
    path.write_text(text)
    target = tmp_path / "plan.yaml"
    code = main(["plan", str(path), "--validate", "--yaml", str(target)])
    captured = capsys.readouterr()
    manifests = [m for m in yaml.safe_load_all(target.read_text()) if m] if code == 0 else []
    return code, captured.out + captured.err, manifests


def caches(manifests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in manifests if m["kind"] in ("PersistentVolumeClaim", "Job")]


def test_a_template_with_caching_enabled_prewarms_its_sources_with_no_service(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, manifests = plan(capsys, tmp_path, MODEL + TEMPLATE)
    assert code == 0, out
    assert [m["kind"] for m in manifests] == ["PersistentVolumeClaim", "Job"]
    pvc, job = manifests
    assert pvc["metadata"]["namespace"] == job["metadata"]["namespace"] == "ns1"
    assert pvc["metadata"]["labels"]["aim.eai.amd.com/cache-mode"] == "shared"
    assert pvc["metadata"]["labels"]["aim.eai.amd.com/profile"] == "t1"
    # 2Gi of sources with the cache's headroom, downloading the template's source with caching.env.
    assert pvc["spec"]["resources"]["requests"]["storage"] == "3Gi"
    container = job["spec"]["template"]["spec"]["containers"][0]
    assert "hf://test-org/test-model" in str(container)
    token = next(e for e in container["env"] if e["name"] == "HF_TOKEN")
    assert token["valueFrom"]["secretKeyRef"] == {"name": "huggingface-creds", "key": "token"}


def test_the_prewarmed_cache_is_the_one_a_service_on_the_template_mounts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, _, alone = plan(capsys, tmp_path, MODEL + TEMPLATE)
    code, out, with_service = plan(capsys, tmp_path, MODEL + TEMPLATE + SERVICE)
    assert code == 0, out
    # One cache, declared once: the service's Shared cache is the pre-warmed one, byte for byte.
    assert caches(with_service) == alone
    isvc = next(m for m in with_service if m["kind"] == "InferenceService")
    claims = [
        v["persistentVolumeClaim"]["claimName"]
        for v in isvc["spec"]["predictor"].get("volumes", [])
        if "persistentVolumeClaim" in v
    ]
    assert alone[0]["metadata"]["name"] in claims


@pytest.mark.parametrize("caching", ["enabled: false", "none"])
def test_without_caching_enabled_a_template_prewarms_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, caching: str
) -> None:
    template = (
        TEMPLATE.split("  caching:")[0]
        if caching == "none"
        else TEMPLATE.replace("    enabled: true", f"    {caching}")
    )
    code, out, manifests = plan(capsys, tmp_path, MODEL + template)
    assert code == 0, out
    assert caches(manifests) == []


def test_a_prewarming_template_without_its_model_fails_at_the_template(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = plan(capsys, tmp_path, TEMPLATE.lstrip("-\n"))
    assert code == 1
    assert "AIMServiceTemplate/ns1/t1" in out
    assert "spec.modelName" in out and "ModelNotFound" in out
