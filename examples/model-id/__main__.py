"""Models by id: no profile is written by hand, the runtime config's fallbacks generate them.

An ID-backed model (`modelId` + `accelerator`) gets one generated profile per matching fallback
of its runtime config. The cluster fallbacks come from the embedded default (`nvidia-vllm`);
the namespace `AIMRuntimeConfig/default` in `research` merges its fallbacks over them by name:
it pins another vLLM image for `nvidia-vllm` and adds `amd-vllm` for AMD Instinct GPUs.
"""

import pulumi

from aim_pulumi import AIMModel, AIMRuntimeConfig, AIMService

NAMESPACE = "research"

AIMRuntimeConfig(
    "research-default",
    {
        "name": "default",
        "namespace": NAMESPACE,
        "spec": {
            "model": {
                "profileGeneration": {
                    "fallbacks": [
                        {
                            # Same name as the embedded fallback: replaces it whole in this namespace.
                            "name": "nvidia-vllm",
                            "priority": 10,
                            "type": "unoptimized",
                            "autoSelectionPolicy": "any",
                            "match": {"acceleratorVendor": "nvidia", "acceleratorType": "gpu"},
                            "runtime": {
                                "image": "vllm/vllm-openai:v0.18.0",
                                "engine": "vllm",
                                "engineArgs": {"max-model-len": 16384},
                            },
                        },
                        {
                            "name": "amd-vllm",
                            "priority": 5,
                            "type": "general",
                            "match": {"acceleratorVendor": "amd", "acceleratorType": "gpu"},
                            "runtime": {
                                "image": "rocm/vllm:rocm6.4.1_vllm_0.9.1",
                                "engine": "vllm",
                                "engineArgs": {"max-model-len": 16384},
                            },
                        },
                    ]
                }
            },
        },
    },
)

AIMModel(
    "mistral-7b-nvidia",
    {
        "namespace": NAMESPACE,
        "spec": {
            "modelId": "mistralai/Mistral-7B-Instruct-v0.3",
            "accelerator": {"vendor": "nvidia", "count": 1},
            "source": {"size": "15Gi"},
        },
    },
)

AIMModel(
    "mistral-7b-amd",
    {
        "namespace": NAMESPACE,
        "spec": {
            "modelId": "mistralai/Mistral-7B-Instruct-v0.3",
            "accelerator": {"vendor": "amd", "model": "MI300X", "count": 1},
            "source": {"size": "15Gi", "precision": "bf16"},
        },
    },
)

services = {
    # The generated nvidia-vllm profile is `unoptimized`, below the implicit `optimized` floor; its
    # `autoSelectionPolicy: any` lets the second selection pass admit it.
    "mistral-7b-nvidia": AIMService(
        "mistral-7b-nvidia",
        {
            "namespace": NAMESPACE,
            "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
            "spec": {"model": {"name": "mistral-7b-nvidia"}},
        },
    ),
    # The amd-vllm profile is `general` with the default policy: the service lowers the floor itself.
    "mistral-7b-amd": AIMService(
        "mistral-7b-amd",
        {
            "namespace": NAMESPACE,
            "spec": {
                "model": {"name": "mistral-7b-amd"},
                "profile": {"selector": {"minimumType": "general"}},
            },
        },
    ),
}

for model, service in services.items():
    pulumi.export(model, service.resolved_profile)
