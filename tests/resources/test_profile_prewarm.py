"""A namespaced profile with `caching.enabled: true` pre-warms its model sources with no service, as
upstream's profile reconciler does (e2e `aimprofile/profile-driven-cache`), and a profile's deprecated
`manualSelectionOnly` is accepted as the CRD accepts it, with the CRD's deprecation said."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.cli.__main__ import main

# The upstream e2e's profile, in a namespace.
PROFILE = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: test-profile-driven-cache
  namespace: ns1
spec:
  aimId: test/profile-driven-cache
  modelId: test/profile-driven-cache-fp8
  engine: vllm
  metric: latency
  precision: fp8
  type: general
  primary: true
  image: registry.example.com/test-image:1.0.0
  modelSources:
    - modelId: test/profile-driven-cache-fp8
      sourceUri: hf://test-org/profile-driven-cache-weights
      size: 2Gi
  caching:
    enabled: true
    env:
      - name: HF_TOKEN
        valueFrom:
          secretKeyRef: {name: huggingface-creds, key: token}
"""
SERVICE = """\
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata: {name: svc, namespace: ns1}
spec: {profile: {name: test-profile-driven-cache}, caching: {mode: Shared}}
"""


def plan(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, *argv: str
) -> tuple[int, str, list[dict[str, Any]]]:
    path = tmp_path / "stack.yaml"
    path.write_text(text)
    target = tmp_path / "plan.yaml"
    code = main(["plan", str(path), "--validate", "--yaml", str(target), *argv])
    captured = capsys.readouterr()
    manifests = list(yaml.safe_load_all(target.read_text())) if code == 0 else []
    return code, captured.out + captured.err, manifests


def caches(manifests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in manifests if m["kind"] in ("PersistentVolumeClaim", "Job")]


def test_a_profile_with_caching_enabled_prewarms_its_sources_with_no_service(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, manifests = plan(capsys, tmp_path, PROFILE)
    assert code == 0, out
    pvc, job = caches(manifests)
    assert pvc["metadata"]["name"].startswith("test-profile-driven-cache-fp8-cache-")
    assert pvc["metadata"]["namespace"] == "ns1"
    assert pvc["metadata"]["labels"]["aim.eai.amd.com/cache-mode"] == "shared"
    (container,) = job["spec"]["template"]["spec"]["containers"]
    token = next(e for e in container["env"] if e["name"] == "HF_TOKEN")
    assert token["valueFrom"] == {"secretKeyRef": {"name": "huggingface-creds", "key": "token"}}
    assert "AIMSharedCache ns1-test-profile-driven-cache-fp8-cache-" in out


def test_the_prewarmed_cache_is_the_one_a_service_on_the_profile_mounts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, _, alone = plan(capsys, tmp_path, PROFILE)
    code, out, with_service = plan(capsys, tmp_path, PROFILE + SERVICE)
    assert code == 0, out
    assert caches(with_service) == caches(alone)
    assert out.count("AIMSharedCache ns1-") == 1
    isvc = next(m for m in with_service if m["kind"] == "InferenceService")
    claims = [
        v["persistentVolumeClaim"]["claimName"]
        for v in isvc["spec"]["predictor"]["volumes"]
        if "persistentVolumeClaim" in v
    ]
    assert claims == [caches(alone)[0]["metadata"]["name"]]


@pytest.mark.parametrize("change", ["enabled: false", "none"])
def test_without_caching_enabled_nothing_is_prewarmed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: str
) -> None:
    text = PROFILE.replace("    enabled: true", "    enabled: false")
    if change == "none":
        text = text.split("  caching:")[0]
    code, out, manifests = plan(capsys, tmp_path, text)
    assert code == 0, out
    assert caches(manifests) == []


def test_a_prewarmed_source_of_unknown_size_fails_at_the_profile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = plan(capsys, tmp_path, PROFILE.replace("      size: 2Gi\n", ""))
    assert code == 1
    (line,) = [line for line in out.splitlines() if line.startswith("error:")]
    assert "AIMProfile/ns1/test-profile-driven-cache: spec.modelSources[0]" in line
    assert "CacheSizeUnknown" in line


MANUAL = """\
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata: {name: p1, namespace: ns1}
spec: {aimId: qwen/qwen3, image: ghcr.io/x/aim:1, manualSelectionOnly: true}
"""


def test_manual_selection_only_is_accepted_with_the_crds_deprecation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = plan(capsys, tmp_path, MANUAL)
    assert code == 0, out
    (warning,) = [line for line in out.splitlines() if "manualSelectionOnly" in line]
    assert "DeprecatedField" in warning and "type: unoptimized" in warning
    path = tmp_path / "stack.yaml"
    assert main(["validate", str(path)]) == 0
    captured = capsys.readouterr()
    assert "note: " in captured.err and "spec.manualSelectionOnly: DeprecatedField" in captured.err
    # A value the CRD refuses is still refused.
    path.write_text(MANUAL.replace("manualSelectionOnly: true", "manualSelectionOnly: sometimes"))
    assert main(["validate", str(path)]) == 1
    capsys.readouterr()
