"""Plan time of a large stack through the AIM components, as a ratio to plain pulumi-kubernetes.

Both programs run under the same recording mock engine (what `aim-pulumi plan` uses). The baseline
declares exactly the Kubernetes children the components emitted, with `register_child` and no AIM
logic, so the ratio is the cost of resolving, planning and building at deploy time.

    python bench/bench_plan.py [SERVICES]
"""

from __future__ import annotations

import sys
import time
from typing import Any

from aim_pulumi import AIMProfile, AIMRuntimeConfig, AIMService
from aim_pulumi.cli.engine import PlanRecording, run_program
from aim_pulumi.resources.children import register_child

NAMESPACES = ("team-a", "team-b", "team-c", "team-d")
MODELS = ("qwen", "llama", "mistral", "gemma", "phi")


def _source(model: str) -> dict[str, str]:
    return {"modelId": f"example/{model}", "sourceUri": f"hf://example/{model}", "size": "16Gi"}


def aim_program(services: int) -> None:
    for namespace in NAMESPACES:
        AIMRuntimeConfig(
            f"{namespace}-default",
            {
                "name": "default",
                "namespace": namespace,
                "spec": {
                    "routing": {
                        "enabled": True,
                        "gatewayRef": {"name": "inference-gateway", "namespace": "gateways"},
                        "pathTemplate": "/{.metadata.namespace}/{.metadata.name}",
                    },
                    "labelPropagation": {"enabled": True, "match": ["org.example/*"]},
                },
            },
        )
        for model in MODELS:
            for precision, primary in (("fp8", True), ("fp16", False)):
                AIMProfile(
                    f"{namespace}-{model}-{precision}",
                    {
                        "name": f"{model}-{precision}-mi300x",
                        "namespace": namespace,
                        "labels": {"aim.eai.amd.com/source-model": model},
                        "spec": {
                            "aimId": f"example/{model}",
                            "image": f"amdenterpriseai/aim-{model}:0.8.5",
                            "type": "optimized",
                            "primary": primary,
                            "precision": precision,
                            "acceleratorType": "gpu",
                            "acceleratorVendor": "amd",
                            "acceleratorModel": "MI300X",
                            "acceleratorCount": 1,
                            "caching": {"enabled": True},
                            "modelSources": [_source(model)],
                        },
                    },
                )
    for index in range(services):
        namespace = NAMESPACES[index % len(NAMESPACES)]
        AIMService(
            f"svc-{index}",
            {
                "namespace": namespace,
                "labels": {"org.example/team": namespace},
                "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
                "spec": {"model": {"name": MODELS[index % len(MODELS)]}},
            },
        )


def baseline_program(recorded: PlanRecording) -> None:
    for resource in recorded.kubernetes():
        register_child(resource.name, dict(resource.inputs))


def timed(program: Any) -> tuple[float, PlanRecording]:
    start = time.perf_counter()
    recording = run_program(program, project="bench", stack="bench")
    return time.perf_counter() - start, recording


def main() -> None:
    services = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    aim_seconds, recorded = timed(lambda: aim_program(services))
    children = recorded.kubernetes()
    base_seconds, _ = timed(lambda: baseline_program(recorded))
    print(f"services: {services}, Kubernetes children: {len(children)}, resources: {len(recorded.resources)}")
    print(f"AIM components:          {aim_seconds:.2f} s")
    print(f"plain pulumi-kubernetes: {base_seconds:.2f} s")
    print(f"ratio:                   {aim_seconds / base_seconds:.2f}x")


if __name__ == "__main__":
    main()
