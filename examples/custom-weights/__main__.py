"""Custom weights: a published profile, your fine-tuned model, no new profile to maintain.

`spec.profileOverrides` copies the named seed profile into an internal overlay with the fields
given replaced: here the model source (a fine-tune on Hugging Face), two GPUs instead of one and
one extra engine argument. The overlay drives the InferenceService, its profile ConfigMap and the
cache; `status.resolvedProfile` still names the seed, the overlay is in `status.profileOverlay`.
"""

import pulumi

from aim_pulumi import AIMProfile, AIMService

NAMESPACE = "support"

AIMProfile(
    "qwen3-32b-mi300x-fp16",
    {
        "namespace": NAMESPACE,
        "labels": {"aim.eai.amd.com/source-model": "qwen3-32b"},
        "spec": {
            "aimId": "qwen/qwen3-32b",
            "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
            "type": "optimized",
            "precision": "fp16",
            "metric": "latency",
            "acceleratorVendor": "amd",
            "acceleratorType": "gpu",
            "acceleratorModel": "MI300X",
            "acceleratorCount": 1,
            "engineArgs": {"max-model-len": 32768},
            "modelSources": [
                {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B", "size": "66Gi"}
            ],
        },
    },
)

service = AIMService(
    "support-bot",
    {
        "namespace": NAMESPACE,
        "spec": {
            "profile": {"name": "qwen3-32b-mi300x-fp16"},
            "profileOverrides": {
                "modelSources": [
                    {
                        "modelId": "example-org/qwen3-32b-support-ft",
                        "sourceUri": "hf://example-org/qwen3-32b-support-ft",
                        "size": "66Gi",
                    }
                ],
                "acceleratorCount": 2,
                "engineArgs": {"enable-prefix-caching": True},
            },
            "caching": {"mode": "Dedicated"},
            "env": [
                {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token", "key": "token"}}}
            ],
        },
    },
)

pulumi.export("status", service.status)
