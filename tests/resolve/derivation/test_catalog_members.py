"""Derived profiles are catalog members: every service selects them, in any declaration order, and
the set's status follows their availability."""

from __future__ import annotations

import itertools

import pytest
import yaml
from derivation_builders import NS, catalog, derived_manifests, objects, only_derivation

from aim_pulumi.manifests import build_service_manifests
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.derivation.derive import derivation_status
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.plan.service import plan_service

G = "aim.eai.amd.com"

SOURCE = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: qwen-fp8-mi300x
  annotations:
    aim.eai.amd.com/profile-copyable: "true"
    aim.eai.amd.com/base-image: docker.io/amdenterpriseai/aim-base:0.8.5
  labels:
    aim.eai.amd.com/source-model: qwen3-32b
    aim.eai.amd.com/source-model-scope: namespace
spec:
  aimId: qwen/qwen3-32b
  modelId: Qwen/Qwen3-32B
  profileId: vllm-mi300x-fp8-tp1-latency
  image: docker.io/amdenterpriseai/aim-qwen-qwen3-32b:0.8.5
  type: optimized
  primary: true
  engine: vllm
  precision: fp8
  acceleratorVendor: amd
  acceleratorType: gpu
  acceleratorModel: MI300X
  acceleratorCount: 1
  imagePullSecrets: [{name: source-pull}]
  serviceAccountName: source-sa
  modelSources:
    - modelId: Qwen/Qwen3-32B
      sourceUri: hf://Qwen/Qwen3-32B
      size: 64Gi
"""

FINETUNE = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: qwen-finetune
spec:
  profiles:
    derivedFrom:
      selector:
        modelRef: {name: qwen3-32b}
    versionPolicy: latest
    overrides:
      modelSources:
        - modelId: acme/qwen3-32b-ft
          sourceUri: s3://models/qwen3-32b-ft
          size: 64Gi
"""

SERVICE = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: chat
  annotations:
    aim.eai.amd.com/reconciler-pipeline: profile
spec:
  model:
    name: qwen-finetune
"""


def _plan_children(cat: Catalog) -> list[dict[str, object]]:
    service = next(o for o in cat.objects() if o.kind == "AIMService")
    return build_service_manifests(plan_service(service, cat))  # type: ignore[arg-type]


def test_any_declaration_order_gives_the_same_children() -> None:
    docs = objects(SOURCE + "---" + FINETUNE + "---" + SERVICE)
    results = []
    for order in itertools.permutations(docs):
        cat = Catalog(list(order), embed_default=False)
        results.append(_plan_children(cat))
    assert all(result == results[0] for result in results)
    [isvc] = [m for m in results[0] if m["kind"] == "InferenceService"]
    assert "aim-base:0.8" in str(isvc)


def test_a_service_selects_a_derived_profile_by_model_by_selector_and_by_name() -> None:
    cat = catalog(SOURCE + "---" + FINETUNE)
    [derived] = derived_manifests(only_derivation(cat))
    name = derived["metadata"]["name"]
    for spec in (
        "model: {name: qwen-finetune}",
        "profile: {selector: {aimId: qwen/qwen3-32b, modelId: acme/qwen3-32b-ft}}",
        f"profile: {{name: {name}}}",
    ):
        service = objects(
            f"""
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: chat
  annotations: {{aim.eai.amd.com/reconciler-pipeline: profile}}
spec:
  {spec}
"""
        )[0]
        plan = plan_service(service, cat)  # type: ignore[arg-type]
        assert plan.profile_name == name, spec
        assert plan.container.image == "docker.io/amdenterpriseai/aim-base:0.8"


def test_pull_secrets_and_service_account_come_from_the_set_else_the_source() -> None:
    [derived] = derived_manifests(only_derivation(catalog(SOURCE + "---" + FINETUNE)))
    assert derived["spec"]["imagePullSecrets"] == [{"name": "source-pull"}]
    assert derived["spec"]["serviceAccountName"] == "source-sa"
    own = """
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfileSet
metadata:
  name: remix
spec:
  selector: {aimId: qwen/qwen3-32b}
  versionPolicy: all
  imagePullSecrets: [{name: set-pull}]
  serviceAccountName: set-sa
"""
    [derived] = derived_manifests(only_derivation(catalog(SOURCE + own)))
    assert derived["spec"]["imagePullSecrets"] == [{"name": "set-pull"}]
    assert derived["spec"]["serviceAccountName"] == "set-sa"


def test_a_derived_profile_is_never_a_source() -> None:
    second = """
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfileSet
metadata:
  name: of-the-finetune
spec:
  selector: {modelId: acme/qwen3-32b-ft}
  versionPolicy: all
"""
    cat = catalog(SOURCE + "---" + FINETUNE + second)
    derivation = cat.derivation(next(s for s in cat.profile_sets() if s.metadata.name == "of-the-finetune"))
    assert derivation is not None and derivation.profiles == ()
    assert derivation_status(derivation, lambda p: True)["conditions"][0]["reason"] == "NoMatchingProfiles"


def test_a_declared_profile_wins_over_a_derived_one_of_its_name() -> None:
    cat = catalog(SOURCE + "---" + FINETUNE)
    [derived] = derived_manifests(only_derivation(cat))
    declared = dict(derived)
    declared["spec"] = {**derived["spec"], "image": "my/own:1"}
    declared["metadata"] = {"name": derived["metadata"]["name"], "namespace": NS}
    cat.add(objects(yaml.safe_dump(declared))[0])
    profile = cat.profile(NS, derived["metadata"]["name"])
    assert profile is not None and profile.spec.image == "my/own:1"
    assert not cat.derived_entry(profile)


def test_availability_gives_the_sets_status() -> None:
    two = (
        SOURCE
        + "---"
        + SOURCE.replace("qwen-fp8-mi300x", "qwen-fp8-mi325x")
        .replace("MI300X", "MI325X")
        .replace("mi300x", "mi325x")
    )
    text = two + "---" + FINETUNE
    inventory = Inventory.from_config([{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8}])
    cat = catalog(text, inventory=inventory)
    status = derivation_status(only_derivation(cat), lambda p: cat.entry_for(p).available)
    assert status["managedProfiles"] == {
        "total": 2,
        "ready": 1,
        "notAvailable": 1,
        "deployable": 2,
        "base": 0,
    }
    assert (status["status"], status["conditions"][0]["reason"]) == (
        "Degraded",
        "ManagedProfilesPartiallyReady",
    )
    cat = catalog(
        text,
        inventory=Inventory.from_config([{"vendor": "amd", "type": "gpu", "model": "MI200", "devices": 8}]),
    )
    status = derivation_status(only_derivation(cat), lambda p: cat.entry_for(p).available)
    assert (status["status"], status["conditions"][0]["reason"]) == (
        "NotAvailable",
        "ManagedProfilesNotAvailable",
    )


def test_a_derived_profile_that_fails_admission_is_a_derivation_failure() -> None:
    bad = """
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfileSet
metadata:
  name: nvidia-remix
spec:
  selector: {aimId: qwen/qwen3-32b}
  versionPolicy: all
  overrides:
    acceleratorVendor: nvidia
    engineArgs: {host: 0.0.0.0}
"""
    derivation = only_derivation(catalog(SOURCE + bad))
    status = derivation_status(derivation, lambda p: True)
    assert (status["status"], status["conditions"][0]["reason"]) == ("Degraded", "DerivationFailed")
    assert "qwen-fp8-mi300x" in status["conditions"][0]["message"]
    assert "spec.engineArgs" in status["conditions"][0]["message"]


def test_a_cluster_set_derives_cluster_profiles_every_namespace_sees() -> None:
    text = (
        SOURCE.replace("kind: AIMProfile", "kind: AIMClusterProfile").replace(
            "  labels:\n    aim.eai.amd.com/source-model: qwen3-32b\n"
            "    aim.eai.amd.com/source-model-scope: namespace\n",
            "",
        )
        + """
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMClusterProfileSet
metadata:
  name: everywhere
  labels: {aim.eai.amd.com/source-model: shared-ft, aim.eai.amd.com/source-model-scope: cluster, team: x}
spec:
  selector: {aimId: qwen/qwen3-32b}
  versionPolicy: latest
  overrides:
    modelSources: [{modelId: acme/ft, sourceUri: "s3://m/ft"}]
"""
    )
    cat = catalog(text)
    [derived] = derived_manifests(only_derivation(cat))
    assert derived["kind"] == "AIMClusterProfile"
    assert "namespace" not in derived["metadata"]
    assert f"{G}/profile-set-namespace" not in derived["metadata"]["annotations"]
    assert derived["metadata"]["labels"][f"{G}/source-model"] == "shared-ft"
    assert "team" not in derived["metadata"]["labels"]  # only aim.eai.amd.com/ labels propagate
    assert cat.profile("anywhere", derived["metadata"]["name"]) is not None


def test_a_model_child_set_that_cannot_be_made_is_reported_on_the_model() -> None:
    text = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMClusterModel
metadata:
  name: vendor-remix
spec:
  profiles:
    derivedFrom:
      selector: {aimId: qwen/qwen3-32b, acceleratorVendor: amd}
    versionPolicy: all
"""
    cat = catalog(text)
    model = cat.objects()[0]
    outcome = cat.model_derivation(model)  # type: ignore[arg-type]
    assert isinstance(outcome, AIMResolutionError)
    assert "acceleratorVendor" in outcome.message


@pytest.mark.parametrize("policy", ["latest", "pinned"])
def test_a_new_base_version_is_one_change_of_the_service(policy: str) -> None:
    pinned = "    version: 0.8.5\n" if policy == "pinned" else ""
    finetune = FINETUNE.replace("versionPolicy: latest\n", f"versionPolicy: {policy}\n{pinned}")
    before = _plan_children(catalog(SOURCE + "---" + finetune + "---" + SERVICE))
    newer = SOURCE.replace("qwen-fp8-mi300x", "qwen-fp8-mi300x-0-9").replace(":0.8.5", ":0.9.1")
    after = _plan_children(catalog(SOURCE + "---" + newer + "---" + finetune + "---" + SERVICE))
    isvc = next(m for m in after if m["kind"] == "InferenceService")
    if policy == "latest":
        assert after != before
        assert "docker.io/amdenterpriseai/aim-base:0.9" in str(isvc)
    else:
        assert after == before
    assert [m["kind"] for m in after] == [m["kind"] for m in before]
