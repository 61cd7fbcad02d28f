"""docs/custom-models.md is a user's path: each of its examples is admitted and does what the page says.

Every YAML block is admitted as the package reads it; each recipe, given the source profiles it
names (a published model's, a base image's), deploys as its section says (the image, the weights,
the hardware and env); the Python block is a program the offline engine runs; the page's image
example is the image rule's answer; the legacy inline model plans and migrates to the same children.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.manifests import build_cache_pvc, build_download_job, build_service_manifests
from aim_pulumi.resolve import plan_service
from aim_pulumi.resolve.derivation.images import derived_image
from aim_pulumi.resolve.legacy.migration import migrate_objects
from aim_pulumi.resolve.plan.result import ServicePlan
from aim_pulumi.resources import AIMStack
from tests.versions import Catalog, parse

PAGE = Path(__file__).resolve().parents[2] / "docs" / "custom-models.md"
ISVC = "kubernetes:serving.kserve.io/v1beta1:InferenceService"
G = "aim.eai.amd.com"


def _section(heading: str) -> str:
    return PAGE.read_text().split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _blocks(language: str, text: str | None = None) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text() if text is None else text, flags=re.S)


def _yaml_block(heading: str) -> str:
    [block] = _blocks("yaml", _section(heading))
    return block


def _published(name: str, labels: dict[str, str], spec: dict[str, Any], base_image: str = "") -> str:
    """A source profile as the operator leaves it: copyable, labelled with its model."""
    annotations = {f"{G}/profile-copyable": "true"}
    if base_image:
        annotations[f"{G}/base-image"] = base_image
    return yaml.safe_dump(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMProfile",
            "metadata": {"name": name, "namespace": "ml-team", "labels": labels, "annotations": annotations},
            "spec": spec,
        }
    )


def _deployed(recording: Any, tmp_path: Path, *documents: str) -> tuple[Any, dict[str, Any]]:
    """Plan the documents as an AIMStack: the recording and the one InferenceService's container."""
    (tmp_path / "objects.yaml").write_text("\n---\n".join(documents))
    rec = recording(lambda: AIMStack("docs", {"path": str(tmp_path)}))
    [isvc] = rec.of_type(ISVC)
    container: dict[str, Any] = isvc.manifest["spec"]["predictor"]["containers"][0]
    return rec, container


def _env(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value") for e in container["env"]}


GPU = {
    "acceleratorVendor": "amd",
    "acceleratorType": "gpu",
    "acceleratorModel": "MI300X",
    "resources": {"requests": {"memory": "32Gi"}, "limits": {"memory": "32Gi"}},
}


def test_every_yaml_block_is_admitted() -> None:
    found = _blocks("yaml")
    assert len(found) == 5
    for block in found:
        for document in yaml.safe_load_all(block):
            parse(document)  # raises the admission error a user would see


def test_the_fine_tune_runs_the_base_runtime_of_the_published_image_with_the_new_weights(
    recording: Any, tmp_path: Path
) -> None:
    source = _published(
        "qwen3-32b-fp8",
        {f"{G}/source-model": "qwen-qwen3-32b", f"{G}/source-model-scope": "namespace"},
        {
            "aimId": "qwen/qwen3-32b",
            "modelId": "Qwen/Qwen3-32B",
            "profileId": "vllm-mi300x-fp8-tp1-latency",
            "image": "docker.io/amdenterpriseai/aim-qwen-qwen3-32b:0.11.2",
            "type": "optimized",
            "precision": "fp8",
            "acceleratorCount": 1,
            "modelSources": [{"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}],
            **GPU,
        },
        base_image="docker.io/amdenterpriseai/aim-base:0.11-rc21",
    )
    _, container = _deployed(recording, tmp_path, source, _yaml_block("Fine-tune a published model"))
    assert container["image"] == "docker.io/amdenterpriseai/aim-base:0.11"
    assert _env(container)["AIM_MODEL_ID"] == "acme/qwen3-32b-support"


def test_the_python_fine_tune_is_a_program_declaring_the_derived_model(recording: Any) -> None:
    [program] = _blocks("python")
    rec = recording(lambda: exec(compile(program, str(PAGE), "exec"), {"__name__": "__main__"}))
    status = rec.outputs_of("support")["status"]
    assert (status["kind"], status["source"]) == ("Derived", "profiles")
    assert status["profileSetRef"]["name"].startswith("support-profiles-")


def test_a_base_derivation_runs_the_base_image_with_your_identity_and_weights(
    recording: Any, tmp_path: Path
) -> None:
    base = _published(
        "aim-base-general-tp2",
        {f"{G}/source-model": "aim-base", f"{G}/source-model-scope": "namespace"},
        {
            "profileId": "vllm-mi300x-fp16-tp2-latency",
            "image": "ghcr.io/silogen/aim-base:0.11",
            "type": "general",
            "precision": "fp16",
            "acceleratorCount": 2,
            **GPU,
        },
    )
    rec, container = _deployed(recording, tmp_path, base, _yaml_block("Bring your own model on a base image"))
    assert container["image"] == "ghcr.io/silogen/aim-base:0.11"
    assert _env(container)["AIM_MODEL_ID"] == "Qwen/Qwen3-0.6B"
    assert str(container["resources"]["limits"]["amd.com/gpu"]) == "2"
    model = rec.outputs_of("docs-aimmodel-ml-team-custom-transformer")["status"]
    assert model["kind"] == "Custom"


def test_the_remix_keeps_the_image_and_a_service_selects_it_as_the_page_says(
    recording: Any, tmp_path: Path
) -> None:
    source = _published(
        "qwen3-8b-tp1",
        {f"{G}/source-model": "qwen-qwen3-8b", f"{G}/source-model-scope": "namespace"},
        {
            "aimId": "qwen/qwen3-8b",
            "modelId": "Qwen/Qwen3-8B",
            "profileId": "vllm-mi300x-fp16-tp1-latency",
            "image": "docker.io/amdenterpriseai/aim-qwen-qwen3-8b:0.11.2",
            "type": "optimized",
            "precision": "fp16",
            "acceleratorCount": 1,
            "engineArgs": {"tensor-parallel-size": 1},
            "modelSources": [{"modelId": "Qwen/Qwen3-8B", "sourceUri": "hf://Qwen/Qwen3-8B"}],
            **GPU,
        },
    )
    shown = re.search(r"`spec\.profile\.selector: (\{[^`]*\})`", _section("Remix a profile"))
    assert shown is not None
    service = yaml.safe_dump(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMService",
            "metadata": {"name": "remix-bot", "namespace": "ml-team"},
            "spec": {"profile": {"selector": yaml.safe_load(shown.group(1))}},
        }
    )
    rec, container = _deployed(recording, tmp_path, source, _yaml_block("Remix a profile"), service)
    assert container["image"] == "docker.io/amdenterpriseai/aim-qwen-qwen3-8b:0.11.2"
    assert _env(container)["VLLM_USE_TRITON_FLASH_ATTN"] == "0"
    assert str(container["resources"]["limits"]["amd.com/gpu"]) == "2"
    [profile_file] = [r.manifest for r in rec.of_type("kubernetes:core/v1:ConfigMap")]
    [content] = profile_file["data"].values()
    assert "tensor-parallel-size: 2" in content
    served = rec.outputs_of("docs-aimservice-ml-team-remix-bot")["status"]["resolvedProfile"]["name"]
    assert served.startswith("qwen3-8b-tp2-vllm-mi300x-fp16-tp1-latency-")


def test_the_image_example_is_what_the_rule_decides() -> None:
    text = _section("What a derived profile is")
    assert "(`ghcr.io/silogen/qwen3:0.11` with base `docker.io/amdenterpriseai/aim-base:0.11-rc21`" in text
    assert "runs `ghcr.io/silogen/aim-base:0.11`)" in text
    decision = derived_image(
        "",
        "docker.io/amdenterpriseai/aim-base:0.11-rc21",
        "ghcr.io/silogen/qwen3:0.11",
        source_deployable=True,
        weights_changed=True,
    )
    assert decision.image == "ghcr.io/silogen/aim-base:0.11"


def _children(planned: ServicePlan) -> str:
    docs = build_service_manifests(planned)
    for cache in planned.caches:
        docs += [build_cache_pvc(cache), build_download_job(cache)]
    return yaml.safe_dump(docs)


@pytest.mark.parametrize("caching", [None, {"mode": "Shared"}, {"mode": "Dedicated"}])
def test_the_legacy_inline_model_plans_on_its_base_image_and_migrates_to_the_same_children(
    caching: dict[str, str] | None,
) -> None:
    [legacy] = yaml.safe_load_all(_blocks("yaml", _section("The legacy inline custom model (v1alpha1)"))[0])
    if caching:
        legacy["spec"]["caching"] = caching
    planned = plan_service(parse(legacy), Catalog())  # type: ignore[arg-type]
    assert planned.container.image == "ghcr.io/silogen/aim-base:0.11"
    assert planned.resolved_model is not None
    assert re.fullmatch(r"acme-support-model-[0-9a-f]{8}", planned.resolved_model.name)
    [source] = planned.profile_spec["modelSources"]
    assert source["env"] == [{"name": "AWS_ENDPOINT_URL", "value": "https://minio.example.com"}]
    result = migrate_objects([legacy])
    assert result.ok
    migrated = plan_service(
        parse(result.objects[0]),  # type: ignore[arg-type]
        Catalog([parse(extra) for extra in result.added[0]]),  # type: ignore[misc]
    )
    assert _children(migrated) == _children(planned)


def test_the_legacy_inline_model_migrates_to_the_page_s_base_derivation() -> None:
    """`--custom-models derivation` writes exactly the page's documents for its example, and over the
    base image's general profiles they deploy the weights on the base image with the same GPUs."""
    legacy_block, derivation_block = _blocks("yaml", _section("The legacy inline custom model (v1alpha1)"))
    [legacy] = yaml.safe_load_all(legacy_block)
    result = migrate_objects([legacy], custom_models="derivation")
    assert result.ok and len(result.notices) == 1
    assert [result.objects[0], *result.added[0]] == list(yaml.safe_load_all(derivation_block))
    service, base, model = yaml.safe_load_all(derivation_block)
    profile = _published(
        "aim-base-vllm-mi300x-bf16-tp1",
        {
            f"{G}/profile-role": "base",
            f"{G}/profile-origin": "discovered",
            f"{G}/source-model": base["metadata"]["name"],
            f"{G}/source-model-scope": "namespace",
        },
        {
            "profileId": "vllm-mi300x-bf16-tp1-latency",
            "image": "ghcr.io/silogen/aim-base:0.11",
            "type": "general",
            "precision": "bf16",
            "acceleratorCount": 1,
            **GPU,
        },
    )
    catalog = Catalog([parse(base), parse(model), parse(yaml.safe_load(profile))])
    after = plan_service(parse(service), catalog)  # type: ignore[arg-type]
    before = plan_service(parse(legacy), Catalog())  # type: ignore[arg-type]
    for planned in (after, before):
        assert planned.container.image == "ghcr.io/silogen/aim-base:0.11"
        assert [s["sourceUri"] for s in planned.profile_spec["modelSources"]] == ["s3://models/support-model"]
        assert planned.profile_spec["acceleratorCount"] == 1
        assert planned.container.resources["limits"]["amd.com/gpu"] == 1
    assert after.profile_name != before.profile_name
    assert before.profile_name in result.notices[0].message
