"""Every YAML example of the five seed documents parses and round-trips to the same dict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from aim_pulumi.api import AIMValidationError, to_manifest
from tests.versions import load_manifests, parse

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"


def _examples() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for file in sorted(SEEDS.glob("*.yaml")):
        for index, doc in enumerate(yaml.safe_load_all(file.read_text(encoding="utf-8")), start=1):
            if doc is not None:
                out.append((f"{file.stem}:{index}", doc))
    return out


EXAMPLES = _examples()


def test_every_seed_document_has_a_fixture_file() -> None:
    assert len(sorted(SEEDS.glob("*.yaml"))) == 5
    assert len(EXAMPLES) >= 40


@pytest.mark.parametrize("doc", [d for _, d in EXAMPLES], ids=[i for i, _ in EXAMPLES])
def test_seed_example_round_trips(doc: dict[str, Any]) -> None:
    obj = parse(doc)
    assert to_manifest(obj) == doc
    assert parse(to_manifest(obj)) == obj


def test_seed_directory_loads_in_file_order() -> None:
    objects = load_manifests(SEEDS)
    assert [to_manifest(o) for o in objects] == [d for _, d in EXAMPLES]


def test_seed_values_are_typed() -> None:
    by_id = dict(EXAMPLES)
    svc = parse(by_id["001_services:10"])
    assert svc.kind == "AIMService"
    assert svc.spec.min_replicas == 1
    assert svc.spec.auto_scaling is not None
    metric = svc.spec.auto_scaling.metrics[0].podmetric
    assert metric is not None and metric.metric is not None and metric.target is not None
    assert metric.metric.metric_names == ["vllm:num_requests_running"]
    assert metric.target.value == "1"

    default_rc = parse(by_id["000_runtime_configuration:3"])
    assert default_rc.kind == "AIMClusterRuntimeConfig"
    generation = default_rc.spec.model
    assert generation is not None and generation.profile_generation is not None
    fallback = generation.profile_generation.fallbacks[0]
    assert (fallback.priority, fallback.auto_selection_policy) == (10, "any")
    assert fallback.runtime.engine_args == {"max-model-len": 8192, "gpu-memory-utilization": 0.9}

    status_svc = parse(by_id["000_runtime_configuration:1"])
    assert status_svc.status is not None and status_svc.status.resolved_runtime_config is not None
    assert status_svc.status.resolved_runtime_config.scope == "Namespace"

    tpl = parse(by_id["003_service_templates:2"])
    assert tpl.kind == "AIMServiceTemplate"
    assert tpl.spec.model_sources[0].source_uri == "hf://Qwen/Qwen3-32B"
    assert to_manifest(tpl)["spec"]["modelSources"][0]["sourceURI"] == "hf://Qwen/Qwen3-32B"


def test_a_template_source_in_the_crd_spelling_reads_as_the_documented_one() -> None:
    """The operator writes `modelId`/`sourceUri` (its CRD); the documentation `name`/`sourceURI`."""
    documented = {"name": "Qwen/Qwen3-32B", "sourceURI": "hf://Qwen/Qwen3-32B", "size": "16Gi"}
    crd = {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "16Gi"}

    def template(source: dict[str, str]) -> dict[str, object]:
        return {
            "apiVersion": "aim.eai.amd.com/v1alpha1",
            "kind": "AIMServiceTemplate",
            "metadata": {"name": "qwen", "namespace": "team"},
            "spec": {"modelName": "qwen3-32b", "modelSources": [source]},
        }

    assert to_manifest(parse(template(crd))) == to_manifest(parse(template(documented)))
    with pytest.raises(AIMValidationError, match="modelId"):
        parse(template({**documented, "modelId": "Other/Model"}))
