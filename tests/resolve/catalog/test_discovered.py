"""Profiles of an image-backed model from what its image holds, as the operator materialises them."""

from __future__ import annotations

import json

from aim_pulumi.api import AIMClusterModel, AIMModel, parse
from aim_pulumi.discovery.records import ImageRecord, LockedProfile, SourceImage, SourceRecord
from aim_pulumi.resolve.catalog.discovered import discovered_profile_name, discovered_profiles
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.catalog.model_sources import source_model_name, source_models
from aim_pulumi.resolve.catalog.store import Catalog
from aim_pulumi.resolve.children.names import derived_name

IMAGE = "registry.test/aim/qwen:0.8.5"
LAYER = "sha256:" + "1" * 64


def profile_file(path: str, **metadata: object) -> LockedProfile:
    document: dict[str, object] = {"aim_id": "Qwen/Qwen3-0.6B", "model_id": "Qwen/Qwen3-0.6B"}
    meta = {
        "engine": "vllm",
        "gpu": "MI300X",
        "gpu_count": 1,
        "precision": "fp8",
        "metric": "latency",
        "type": "optimized",
    }
    meta.update(metadata)  # type: ignore[arg-type]
    document["metadata"] = meta
    document["engine_args"] = {"max-model-len": 8192}
    document["env_vars"] = {"VLLM_X": "1"}
    return LockedProfile(path, LAYER, json.dumps(document))


def record(
    *profiles: LockedProfile, aim_id: str = "Qwen/Qwen3-0.6B", labels: dict[str, str] | None = None
) -> ImageRecord:
    env = {"AIM_ID": aim_id, "AIM_BASE_IMAGE_REF": "aim-base:0.8"} if aim_id else {}
    return ImageRecord(IMAGE, "sha256:" + "9" * 64, None, env, labels or {}, profiles)


def cluster_model(name: str = "qwen") -> AIMClusterModel:
    model = parse(
        {
            "apiVersion": "aim.eai.amd.com/v1alpha2",
            "kind": "AIMClusterModel",
            "metadata": {"name": name},
            "spec": {"image": IMAGE, "imagePullSecrets": [{"name": "pull"}]},
        }
    )
    assert isinstance(model, AIMClusterModel)
    return model


def test_a_profile_is_made_as_the_operator_makes_it() -> None:
    result = discovered_profiles(
        cluster_model(),
        record(profile_file("Qwen/Qwen3-0.6B/vllm-mi300x-fp8-tp1-latency.yaml", primary=True)),
        None,
    )
    (profile,) = result.supported
    assert profile.kind == "AIMClusterProfile"
    assert profile.metadata.name == derived_name(
        ["qwen", "vllm-mi300x-fp8-tp1-latency"], ["qwen", "vllm-mi300x-fp8-tp1-latency"]
    )
    assert profile.metadata.labels == {
        "app.kubernetes.io/managed-by": "aim-pulumi",
        "aim.eai.amd.com/profile-role": "deployable",
        "aim.eai.amd.com/profile-origin": "discovered",
        "aim.eai.amd.com/source-model": "qwen",
        "aim.eai.amd.com/source-model-scope": "cluster",
    }
    annotations = profile.metadata.annotations
    assert annotations["aim.eai.amd.com/profile-source"] == "image"
    assert annotations["aim.eai.amd.com/base-image"] == "aim-base:0.8"
    assert (
        annotations["aim.eai.amd.com/model-name"] == "qwen"
        and "aim.eai.amd.com/model-namespace" not in annotations
    )
    spec = profile.spec
    assert (spec.profile_id, spec.image, spec.aim_id, spec.model_id) == (
        "vllm-mi300x-fp8-tp1-latency",
        IMAGE,
        "Qwen/Qwen3-0.6B",
        "Qwen/Qwen3-0.6B",
    )
    # Legacy gpu / gpu_count fields: the model and count, and type gpu.
    assert (spec.accelerator_model, spec.accelerator_type, spec.accelerator_count) == ("MI300X", "gpu", 1)
    assert (
        spec.primary is True
        and spec.engine_args == {"max-model-len": 8192}
        and spec.engine_env == {"VLLM_X": "1"}
    )
    assert [(s.model_id, s.source_uri) for s in spec.model_sources] == [
        ("Qwen/Qwen3-0.6B", "hf://Qwen/Qwen3-0.6B")
    ]
    assert [s.name for s in spec.image_pull_secrets] == ["pull"]
    status = result.status
    assert (status["kind"], status["aimId"], status["baseImage"], status["version"]) == (
        "Image",
        "Qwen/Qwen3-0.6B",
        "aim-base:0.8",
        "0.8.5",
    )
    assert status["discoveredProfiles"]["total"] == 1
    assert result.origins[profile.metadata.name].path == "Qwen/Qwen3-0.6B/vllm-mi300x-fp8-tp1-latency.yaml"


def test_bound_files_win_over_general_and_a_base_image_keeps_general() -> None:
    files = (
        profile_file("Qwen/Qwen3-0.6B/a.yaml"),
        profile_file("general/a.yaml", precision="fp16"),
        profile_file("general/b.yaml"),
    )
    bound = discovered_profiles(cluster_model(), record(*files), None)
    assert [p.spec.profile_id for p in bound.supported] == ["a"]
    base_file = LockedProfile(
        "general/cpu.yaml",
        LAYER,
        json.dumps({"metadata": {"engine": "vllm", "metric": "latency", "type": "general"}}),
    )
    base = discovered_profiles(cluster_model(), record(base_file, aim_id=""), None)
    (profile,) = base.supported
    assert profile.metadata.labels["aim.eai.amd.com/profile-role"] == "base" and profile.spec.aim_id is None


def test_primary_from_recommended_deployments_when_the_file_does_not_say() -> None:
    labels = {
        "com.amd.aim.model.recommendedDeployments": json.dumps([{"gpuModel": "mi300x", "precision": "fp8"}])
    }
    files = (
        profile_file("Qwen/Qwen3-0.6B/fp8.yaml"),
        profile_file("Qwen/Qwen3-0.6B/fp16.yaml", precision="fp16"),
        profile_file("Qwen/Qwen3-0.6B/said.yaml", primary=False),
    )
    result = discovered_profiles(cluster_model(), record(*files, labels=labels), None)
    assert {p.spec.profile_id: p.spec.primary for p in result.supported} == {
        "fp8": True,
        "fp16": False,
        "said": False,
    }


def test_the_inventory_decides_what_is_supported() -> None:
    files = (
        profile_file("Qwen/Qwen3-0.6B/mi300.yaml"),
        profile_file("Qwen/Qwen3-0.6B/mi325.yaml", gpu="MI325X"),
    )
    inventory = Inventory.from_config([{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8}])
    result = discovered_profiles(cluster_model(), record(*files), inventory)
    assert [p.spec.profile_id for p in result.supported] == ["mi300"] and result.unsupported == ()
    counts = result.status["discoveredProfiles"]
    assert (counts["total"], counts["supported"], counts["unsupported"]) == (2, 1, 1)
    assert [g["supported"] for g in counts["byHardware"]] == [True, False]
    kept = discovered_profiles(
        cluster_model(), record(*files), inventory, retained=[discovered_profile_name("qwen", "mi325")]
    )
    assert [p.status.status for p in kept.unsupported] == ["NotAvailable"]  # type: ignore[union-attr]


def test_a_file_that_makes_no_valid_profile_is_left_out_and_named() -> None:
    result = discovered_profiles(
        cluster_model(),
        record(
            profile_file("Qwen/Qwen3-0.6B/ok.yaml"),
            profile_file("Qwen/Qwen3-0.6B/bad.yaml", metric="fastest"),
        ),
        None,
    )
    assert [p.spec.profile_id for p in result.supported] == ["ok"]
    assert len(result.problems) == 1 and result.problems[0].startswith(
        "Qwen/Qwen3-0.6B/bad.yaml: spec.metric"
    )


def test_a_namespaced_model_gets_namespaced_profiles() -> None:
    model = parse(
        {
            "apiVersion": "aim.eai.amd.com/v1alpha2",
            "kind": "AIMModel",
            "metadata": {"name": "qwen", "namespace": "ml"},
            "spec": {"image": IMAGE},
        }
    )
    assert isinstance(model, AIMModel)
    (profile,) = discovered_profiles(model, record(profile_file("Qwen/Qwen3-0.6B/a.yaml")), None).supported
    assert profile.kind == "AIMProfile" and profile.metadata.namespace == "ml"
    assert profile.metadata.annotations["aim.eai.amd.com/model-namespace"] == "ml"
    assert profile.metadata.labels["aim.eai.amd.com/source-model-scope"] == "namespace"


class _Lockfile:
    """An ImageSource answering from fixed records (what the lock file gives the catalog)."""

    def __init__(
        self, images: dict[str, ImageRecord], sources: dict[str, SourceRecord] | None = None
    ) -> None:
        self.images, self.sources = images, sources or {}

    def image(self, image: str) -> ImageRecord:
        return self.images[image]

    def prefetch(self, image: str) -> None:
        return None

    def source(self, name: str, spec: object) -> SourceRecord:
        return self.sources[name]

    def prefetch_source(self, name: str, spec: object) -> None:
        return None

    def read_live(self, image: str) -> bool:
        return False


def test_the_catalog_offers_discovered_profiles_unless_the_program_declares_the_models_profiles() -> None:
    images = {IMAGE: record(profile_file("Qwen/Qwen3-0.6B/a.yaml"))}
    catalog = Catalog([cluster_model()], discovery=_Lockfile(images))  # type: ignore[arg-type]
    assert [e.name for e in catalog.profile_pool("ml", model="qwen")] == [
        discovered_profile_name("qwen", "a")
    ]
    declared = parse(
        {
            "apiVersion": "aim.eai.amd.com/v1alpha2",
            "kind": "AIMClusterProfile",
            "metadata": {"name": "mine", "labels": {"aim.eai.amd.com/source-model": "qwen"}},
            "spec": {
                "image": IMAGE,
                "aimId": "Qwen/Qwen3-0.6B",
                "modelSources": [{"modelId": "Qwen/Qwen3-0.6B", "sourceUri": "hf://Qwen/Qwen3-0.6B"}],
            },
        }
    )
    catalog.add(declared)
    assert [e.name for e in catalog.profile_pool("ml", model="qwen")] == ["mine"]


def test_a_model_source_materialises_cluster_models_with_the_operators_names() -> None:
    source = parse(
        {
            "apiVersion": "aim.eai.amd.com/v1alpha1",
            "kind": "AIMClusterModelSource",
            "metadata": {"name": "amd"},
            "spec": {
                "registry": "registry.test",
                "filters": [{"image": "aim/*"}],
                "maxModels": 2,
                "imagePullSecrets": [{"name": "pull"}],
            },
        }
    )
    listed = (
        SourceImage("registry.test", "aim/qwen", "0.8.5"),
        SourceImage("registry.test", "aim/qwen", "0.9.0"),
        SourceImage("registry.test", "aim/llama", "1.0.0"),
    )
    made = source_models(source, SourceRecord("amd", "sha256:x", listed[:2], listed))  # type: ignore[arg-type]
    names = [m.metadata.name for m in made.models]
    assert names == [source_model_name(listed[0]), source_model_name(listed[1])]
    assert names[0] == derived_name(
        ["aim/qwen", "0.8.5"], ["registry.test", "aim/qwen", "0.8.5"], hash_length=6
    )
    assert len(names[0].rsplit("-", 1)[1]) == 6
    model = made.models[0]
    assert model.spec.image == IMAGE and model.metadata.labels["aim.eai.amd.com/model-source"] == "amd"
    assert model.metadata.annotations["aim.eai.amd.com/source-tag"] == "0.8.5"
    assert (
        made.status["discoveredModels"] == 2
        and made.status["availableModels"] == 3
        and made.status["modelsLimitReached"] is True
    )
    catalog = Catalog(
        [source],
        discovery=_Lockfile(
            {IMAGE: record(profile_file("Qwen/Qwen3-0.6B/a.yaml"))}
            | {"registry.test/aim/qwen:0.9.0": record()},
            {"amd": SourceRecord("amd", "sha256:x", listed[:2], listed)},
        ),
    )  # type: ignore[arg-type]
    assert catalog.model("ml", names[0]) is not None
    assert [m.metadata.name for m in catalog.models_with_image("ml", IMAGE)[1]] == [names[0]]
    assert [e.name for e in catalog.profile_pool("ml", model=names[0])] == [
        discovered_profile_name(names[0], "a")
    ]
