"""The operator's end-to-end derivation scenarios (`tests/e2e/v1alpha2/` of aim-engine), each as a test of
the same name: the objects the scenario applies, and what it asserts of the set, the derived
profiles and the model, checked against the deploy-time derivation.

A scenario's `status: Ready` of a derived profile is its availability here (no inventory: every
profile is available); names the scenario matches by label instead of by hash are checked exactly
where the operator's algorithm gives them (`profilecopy-no-match` pins one).
"""

from __future__ import annotations

import yaml
from derivation_builders import NS, catalog, derived_manifests, only_derivation

from aim_pulumi.api import to_manifest
from aim_pulumi.resolve.derivation.derive import derivation_status
from aim_pulumi.resolve.derivation.discovery_cache import read_discovery_cache
from aim_pulumi.resolve.plan.service import plan_service
from aim_pulumi.resources.model import model_status

G = "aim.eai.amd.com"

DERIVEDFROM_SOURCE = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: derivedfrom-source
  annotations:
    aim.eai.amd.com/base-image: docker.io/amdenterpriseai/aim-base:0.1.10
    aim.eai.amd.com/profile-copyable: "true"
  labels:
    aim.eai.amd.com/profile-role: deployable
    aim.eai.amd.com/profile-origin: discovered
    aim.eai.amd.com/source-model: derivedfrom-source-model
    aim.eai.amd.com/source-model-scope: namespace
spec:
  aimId: derived-org/derived-model
  modelId: derived-org/derived-model
  profileId: cpu-default
  image: docker.io/amdenterpriseai/aim-dummy:0.2.0
  primary: true
  modelSources:
    - modelId: derived-org/derived-model
      sourceUri: hf://derived-org/derived-model
"""

DERIVEDFROM_MODEL = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: derivedfrom-finetune
spec:
  profiles:
    derivedFrom:
      selector:
        aimId: derived-org/derived-model
        modelId: derived-org/derived-model
    versionPolicy: pinned
    version: 0.2.0
    overrides:
      modelSources:
        - modelId: derived-org/derived-finetune
          sourceUri: s3://models/derived-finetune
"""


def test_derivedfrom_happy_path() -> None:
    """The model's child set carries the model's source-model labels and the derivation spec; its one
    derived profile is deployable, origin `derived`, labelled with the model, keeps the aimId and takes
    the new weights; the model reports its aimId, the set and 1/1 ready."""
    cat = catalog(DERIVEDFROM_SOURCE + "---" + DERIVEDFROM_MODEL)
    derivation = only_derivation(cat)
    profile_set = to_manifest(derivation.profile_set)
    assert profile_set["metadata"]["labels"] == {
        "app.kubernetes.io/managed-by": "aim-pulumi",
        f"{G}/source-model": "derivedfrom-finetune",
        f"{G}/source-model-scope": "namespace",
    }
    assert profile_set["spec"]["selector"] == {
        "aimId": "derived-org/derived-model",
        "modelId": "derived-org/derived-model",
    }
    assert (profile_set["spec"]["versionPolicy"], profile_set["spec"]["version"]) == ("pinned", "0.2.0")
    [derived] = derived_manifests(derivation)
    labels = derived["metadata"]["labels"]
    assert labels[f"{G}/profile-role"] == "deployable"
    assert labels[f"{G}/profile-origin"] == "derived"
    assert labels[f"{G}/source-model"] == "derivedfrom-finetune"
    assert derived["spec"]["aimId"] == "derived-org/derived-model"
    assert derived["spec"]["modelSources"] == [
        {"modelId": "derived-org/derived-finetune", "sourceUri": "s3://models/derived-finetune"}
    ]
    model = next(o for o in cat.objects() if o.kind == "AIMModel")
    status = model_status(model, cat)  # type: ignore[arg-type]
    assert status["status"] == "Ready"
    assert status["aimId"] == "derived-org/derived-model"
    assert status["profileSetRef"]["name"] == profile_set["metadata"]["name"]
    assert (status["managedProfiles"]["total"], status["managedProfiles"]["ready"]) == (1, 1)


CUSTOM_COPY = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: custom-copy-source
  annotations:
    aim.eai.amd.com/base-image: docker.io/amdenterpriseai/aim-base:0.1.10
    aim.eai.amd.com/profile-copyable: "true"
spec:
  aimId: custom-org/custom-model
  modelId: copied-org/copied-model
  profileId: cpu-latency
  image: ghcr.io/silogen/aim-dummy:0.2.0
  primary: true
  engine: vllm
  containerEnv:
    - name: KEEP
      value: "1"
    - name: OVERRIDE
      value: old
  engineEnv:
    KEEP: "1"
    OVERRIDE: old
  engineArgs:
    tensor-parallel-size: 2
    max-model-len: 8192
  modelSources:
    - modelId: copied-org/copied-model
      sourceUri: hf://copied-org/copied-model
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: custom-copy-model
spec:
  profiles:
    derivedFrom:
      selector:
        aimId: custom-org/custom-model
        modelId: copied-org/copied-model
        engineArgs:
          tensor-parallel-size: 2
    versionPolicy: pinned
    version: 0.2.0
    overrides:
      modelSources:
        - modelId: custom-org/custom-copy-model
          sourceUri: s3://models/custom-copy-model
      containerEnv:
        - name: OVERRIDE
          value: new
        - name: ADDED
          value: "2"
      engineEnv:
        OVERRIDE: new
        ADDED: "2"
      engineArgs:
        tensor-parallel-size: 4
"""


def test_custom_copy() -> None:
    """A selector with an engineArgs subset picks the source; the copy keeps identity and primary,
    takes its modelId from the new weights, merges env by name (KEEP, OVERRIDE replaced in place,
    ADDED appended) and engine env by key, shallow-merges engine args, and runs `aim-base:0.1` on
    the source image's registry (the base image ref cut to MAJOR.MINOR)."""
    derivation = only_derivation(catalog(CUSTOM_COPY))
    [derived] = derived_manifests(derivation)
    spec = derived["spec"]
    assert spec["aimId"] == "custom-org/custom-model"
    assert spec["modelId"] == "custom-org/custom-copy-model"
    assert spec["profileId"] == "cpu-latency"
    assert spec["primary"] is True
    assert spec["image"] == "ghcr.io/silogen/aim-base:0.1"
    assert spec["modelSources"] == [
        {"modelId": "custom-org/custom-copy-model", "sourceUri": "s3://models/custom-copy-model"}
    ]
    assert spec["containerEnv"] == [
        {"name": "KEEP", "value": "1"},
        {"name": "OVERRIDE", "value": "new"},
        {"name": "ADDED", "value": "2"},
    ]
    assert spec["engineEnv"] == {"KEEP": "1", "OVERRIDE": "new", "ADDED": "2"}
    assert spec["engineArgs"] == {"tensor-parallel-size": 4, "max-model-len": 8192}
    assert derived["metadata"]["labels"][f"{G}/source-model"] == "custom-copy-model"


NO_MATCH = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: profilecopy-no-match-source
  annotations:
    aim.eai.amd.com/base-image: docker.io/amdenterpriseai/aim-base:0.1.10
    aim.eai.amd.com/profile-copyable: "true"
spec:
  aimId: profilecopy/org-source
  modelId: profilecopy/org-source
  profileId: cpu-default
  image: docker.io/amdenterpriseai/aim-dummy:0.2.0
  primary: true
  modelSources:
    - modelId: profilecopy/org-source
      sourceUri: hf://profilecopy/org-source
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: profilecopy-no-match-model
spec:
  profiles:
    derivedFrom:
      selector:
        aimId: profilecopy/missing-source
        modelId: profilecopy/missing-source
    versionPolicy: pinned
    version: 0.2.0
    overrides:
      modelSources:
        - modelId: profilecopy/no-match-model
          sourceUri: s3://models/profilecopy-no-match
"""


def test_profilecopy_no_match() -> None:
    """Zero matches are NotAvailable, never a vacuous Ready: the set (named exactly as the operator
    names it) reports 0 total, 0 ready, NoMatchingProfiles; the model NotAvailable with its aimId."""
    cat = catalog(NO_MATCH)
    derivation = only_derivation(cat)
    assert derivation.profile_set.metadata.name == "profilecopy-no-match-model-profiles-d2b69d38"
    status = derivation_status(derivation, lambda profile: True)
    assert status["status"] == "NotAvailable"
    assert (status["managedProfiles"]["total"], status["managedProfiles"]["ready"]) == (0, 0)
    assert status["conditions"][0]["reason"] == "NoMatchingProfiles"
    model = next(o for o in cat.objects() if o.kind == "AIMModel")
    model_view = model_status(model, cat)  # type: ignore[arg-type]
    assert model_view["status"] == "NotAvailable"
    assert model_view["aimId"] == "profilecopy/missing-source"
    assert model_view["profileSetRef"]["name"] == "profilecopy-no-match-model-profiles-d2b69d38"


SEEDED = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: seeded-derivative-source
  annotations:
    aim.eai.amd.com/base-image: docker.io/amdenterpriseai/aim-base:0.1.10
    aim.eai.amd.com/profile-copyable: "true"
spec:
  aimId: seeded-org/seeded-model
  modelId: seeded-org/seeded-model
  profileId: cpu-default
  image: docker.io/amdenterpriseai/aim-dummy:0.2.0
  primary: true
  modelSources:
    - modelId: seeded-org/seeded-model
      sourceUri: hf://seeded-org/seeded-model
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: seeded-derivative-model
spec:
  profiles:
    derivedFrom:
      selector:
        aimId: seeded-org/seeded-model
        modelId: seeded-org/seeded-model
    versionPolicy: pinned
    version: 0.2.0
    overrides:
      modelSources:
        - modelId: seeded-org/seeded-model
          sourceUri: s3://models/seeded-model
"""

UNRELATED = """
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: unrelated-matching-profile
spec:
  aimId: seeded-org/seeded-model
  modelId: seeded-org/seeded-model
  profileId: gpu-ignored
  image: ghcr.io/silogen/aim-dummy:0.2.0
  acceleratorModel: MI300X
  acceleratorCount: 1
  modelSources:
    - modelId: seeded-org/seeded-model
      sourceUri: hf://seeded-org/seeded-model
"""


def test_seeded_derivatives() -> None:
    """The model's status counts only its set's own derivatives: an unrelated profile that matches the
    selector (but is not marked copyable) is neither derived from nor counted, before and after."""
    for text in (SEEDED, SEEDED + UNRELATED):
        cat = catalog(text)
        derivation = only_derivation(cat)
        [derived] = derivation.profiles
        assert derived.source.name == "seeded-derivative-source"
        model = next(o for o in cat.objects() if o.kind == "AIMModel")
        status = model_status(model, cat)  # type: ignore[arg-type]
        assert (status["status"], status["managedProfiles"]["total"], status["managedProfiles"]["ready"]) == (
            "Ready",
            1,
            1,
        )
    assert cat.profile("ml-team", "unrelated-matching-profile") is not None


NO_RECOPY_SOURCE = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: profileset-no-recopy-model-cpu-bf16-latency
  annotations:
    aim.eai.amd.com/profile-source: image
    aim.eai.amd.com/profile-copyable: "true"
  labels:
    aim.eai.amd.com/profile-role: deployable
    aim.eai.amd.com/profile-origin: discovered
    aim.eai.amd.com/source-model: profileset-no-recopy-model
    aim.eai.amd.com/source-model-scope: namespace
spec:
  aimId: HuggingFaceTB/SmolLM2-135M
  modelId: HuggingFaceTB/SmolLM2-135M
  profileId: cpu-bf16-latency
  image: docker.io/amdenterpriseai/aim-dummy:0.2.0
  modelSources:
    - modelId: HuggingFaceTB/SmolLM2-135M
      sourceUri: hf://HuggingFaceTB/SmolLM2-135M
"""


def _no_recopy_set(name: str) -> str:
    return f"""
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfileSet
metadata:
  name: {name}
spec:
  selector:
    aimId: HuggingFaceTB/SmolLM2-135M
    modelId: HuggingFaceTB/SmolLM2-135M
    profileId: cpu-bf16-latency
  versionPolicy: all
"""


def test_no_recopy() -> None:
    """Two sets with the same selector each derive exactly one profile, from the discovered source:
    the first set's copy (same spec, annotated profile-source: copy) is never a source of the second."""
    cat = catalog(
        NO_RECOPY_SOURCE + _no_recopy_set("first-copy-profiles") + _no_recopy_set("second-copy-profiles")
    )
    sets = cat.profile_sets()
    assert [s.metadata.name for s in sets] == ["first-copy-profiles", "second-copy-profiles"]
    for profile_set in sets:
        derivation = cat.derivation(profile_set)
        assert derivation is not None
        [derived] = derived_manifests(derivation)
        assert derived["metadata"]["annotations"][f"{G}/profile-source"] == "copy"
        assert derived["metadata"]["annotations"][f"{G}/profile-set-name"] == profile_set.metadata.name
        assert derived["spec"]["profileId"] == "cpu-bf16-latency"
        assert derivation.profiles[0].source.name == "profileset-no-recopy-model-cpu-bf16-latency"
        status = derivation_status(derivation, lambda profile: True)
        assert (status["status"], status["managedProfiles"]["total"]) == ("Ready", 1)


CACHE_CONFIGMAP = """
apiVersion: v1
kind: ConfigMap
metadata:
  name: cache-backed-discovery
  annotations:
    aim.eai.amd.com/discovery-source-image: quay.io/amd/aim-cached:0.9.0
data:
  metadata.json: |
    {
      "aimId": "cached-org/cached-model",
      "sourceImage": "quay.io/amd/aim-cached:0.9.0",
      "baseImage": "quay.io/amd/aim-base-vllm:0.9.0",
      "discoveryCommandVersion": "v1",
      "profileIds": ["cpu-default"]
    }
  profiles.cached-org__cached-model__cpu-default.yaml: |
    aim_id: cached-org/cached-model
    model_id: cached-org/cached-model
    metadata:
      engine: vllm
      accelerator_type: cpu
      accelerator_count: 1
      metric: latency
      precision: fp16
      type: general
    engine_args:
      dtype: float16
"""

CACHE_SET = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfileSet
metadata:
  name: cache-backed-profiles
spec:
  sourceRef:
    name: cache-backed-discovery
  selector:
    aimId: cached-org/cached-model
    modelId: cached-org/cached-model
  versionPolicy: pinned
  version: 0.9.0
  image: quay.io/acme/aim-base-vllm:0.9.0
  overrides:
    modelSources:
      - modelId: cached-org/custom-model
        sourceUri: s3://models/cached-model
"""


def test_cache_backed() -> None:
    """A set whose sourceRef names a seeded discovery-cache ConfigMap derives from its entry: the copy
    (role deployable, origin derived, profile-source copy) has the cache's identity and profileId, the
    new weights' modelId, the set's image; the set reports Ready 1/1. Without the cache declared,
    the set reports SourceLoadFailed."""
    cat = catalog(CACHE_SET)
    status = derivation_status(only_derivation(cat), lambda profile: True)
    assert (status["status"], status["conditions"][0]["reason"]) == ("Degraded", "SourceLoadFailed")
    cat.add_discovery_cache(read_discovery_cache(NS, yaml.safe_load(CACHE_CONFIGMAP)))
    derivation = only_derivation(cat)
    [derived] = derived_manifests(derivation)
    assert derived["metadata"]["labels"][f"{G}/profile-role"] == "deployable"
    assert derived["metadata"]["labels"][f"{G}/profile-origin"] == "derived"
    assert derived["metadata"]["annotations"][f"{G}/profile-source"] == "copy"
    spec = derived["spec"]
    assert (spec["aimId"], spec["modelId"], spec["profileId"]) == (
        "cached-org/cached-model",
        "cached-org/custom-model",
        "cpu-default",
    )
    assert spec["image"] == "quay.io/acme/aim-base-vllm:0.9.0"
    assert spec["modelSources"] == [
        {"modelId": "cached-org/custom-model", "sourceUri": "s3://models/cached-model"}
    ]
    status = derivation_status(derivation, lambda profile: True)
    assert (status["status"], status["managedProfiles"]["total"], status["managedProfiles"]["ready"]) == (
        "Ready",
        1,
        1,
    )


CUSTOM_MODEL_BASE = """
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: custom-base-vllm-mi300x-bf16-tp2
  annotations:
    aim.eai.amd.com/profile-copyable: "true"
    aim.eai.amd.com/base-image: docker.io/vllm/vllm-openai-rocm:v0.16.0
  labels:
    aim.eai.amd.com/profile-role: base
    aim.eai.amd.com/profile-origin: discovered
    aim.eai.amd.com/source-model: custom-base
    aim.eai.amd.com/source-model-scope: namespace
spec:
  engine: vllm
  metric: latency
  precision: bf16
  type: general
  acceleratorModel: MI300X
  acceleratorCount: 2
  image: amdenterpriseai/aim-base:0.11
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMProfile
metadata:
  name: custom-base-vllm-mi300x-bf16-tp1
  annotations:
    aim.eai.amd.com/profile-copyable: "true"
  labels:
    aim.eai.amd.com/profile-role: base
    aim.eai.amd.com/profile-origin: discovered
    aim.eai.amd.com/source-model: custom-base
    aim.eai.amd.com/source-model-scope: namespace
spec:
  engine: vllm
  metric: latency
  precision: bf16
  type: general
  acceleratorModel: MI300X
  acceleratorCount: 1
  image: amdenterpriseai/aim-base:0.11
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMModel
metadata:
  name: custom-derived
spec:
  profiles:
    derivedFrom:
      selector:
        role: base
        modelRef:
          name: custom-base
          scope: Namespace
        acceleratorCount: 2
    versionPolicy: all
    overrides:
      aimId: acme/custom-transformer
      modelId: Qwen/Qwen3-0.6B
      modelSources:
        - modelId: Qwen/Qwen3-0.6B
          sourceUri: hf://Qwen/Qwen3-0.6B
---
apiVersion: aim.eai.amd.com/v1alpha2
kind: AIMService
metadata:
  name: custom-service
  annotations:
    aim.eai.amd.com/reconciler-pipeline: profile
spec:
  model:
    name: custom-derived
  profile:
    selector:
      minimumType: unoptimized
"""


def test_custom_model_end_to_end() -> None:
    """The custom-model chain: the base image's base profiles (role base) are completed by the
    derivation model's identity and weights into one deployable profile (the tp2 one the selector
    narrows to), labelled with the derivation model, on the base model's image as-is (never the base
    image's own FROM line); the service backed by the model plans on it."""
    cat = catalog(CUSTOM_MODEL_BASE)
    derivation = only_derivation(cat)
    [derived] = derived_manifests(derivation)
    assert derived["metadata"]["labels"][f"{G}/profile-role"] == "deployable"
    assert derived["metadata"]["labels"][f"{G}/source-model"] == "custom-derived"
    spec = derived["spec"]
    assert spec["acceleratorCount"] == 2
    assert spec["image"] == "amdenterpriseai/aim-base:0.11"
    assert (spec["aimId"], spec["modelId"]) == ("acme/custom-transformer", "Qwen/Qwen3-0.6B")
    model = next(o for o in cat.objects() if o.kind == "AIMModel")
    assert model_status(model, cat)["kind"] == "Custom"  # type: ignore[arg-type]
    service = next(o for o in cat.objects() if o.kind == "AIMService")
    plan = plan_service(service, cat)  # type: ignore[arg-type]
    assert plan.profile_name == derived["metadata"]["name"]
    assert plan.container.image == "amdenterpriseai/aim-base:0.11"
