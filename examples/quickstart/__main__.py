"""Quickstart: deploy Qwen3-8B on an NVIDIA GPU with nothing else configured.

The model is ID-backed (a Hugging Face model id and an accelerator), so its profile is generated
from the NVIDIA vLLM fallback of the embedded default runtime config. The service is routed
through an existing Gateway and mounts a Shared cache that a download Job fills once.
"""

import pulumi

from aim_pulumi import AIMModel, AIMService

NAMESPACE = "ml-team"  # must exist in the cluster: the components create no namespace

AIMModel(
    "qwen3-8b",
    {
        "namespace": NAMESPACE,
        "spec": {
            "modelId": "Qwen/Qwen3-8B",
            "accelerator": {"vendor": "nvidia", "count": 1},
            # The cache PVC is sized from this (plus headroom): no download happens at plan time.
            "source": {"size": "17Gi"},
        },
    },
)

chat = AIMService(
    "qwen-chat",
    {
        "namespace": NAMESPACE,
        # During the v1alpha1 -> v1alpha2 bridge window a service named by model alone takes the
        # legacy template pipeline; this marker opts it into profile resolution.
        "annotations": {"aim.eai.amd.com/reconciler-pipeline": "profile"},
        "spec": {
            "model": {"name": "qwen3-8b"},
            "routing": {
                "enabled": True,
                "gatewayRef": {"name": "inference-gateway", "namespace": "gateway-system"},
            },
            "caching": {"mode": "Shared"},
        },
    },
)

pulumi.export("inferenceService", chat.inference_service_name)
pulumi.export("routePath", chat.route_path)
# The route has no hostnames, so this is the path alone: a client calls it on the Gateway's address.
pulumi.export("endpoint", chat.endpoint)
pulumi.export("status", chat.status)
