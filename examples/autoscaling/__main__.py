"""Autoscaling with KEDA: one service scaled on a vLLM metric, one that scales to zero.

`aim:gatewayProvider` comes from `Pulumi.dev.yaml`: with `envoyGateway` the scale-to-zero
service gets an activation trigger counting the requests Envoy Gateway received for its route,
so KEDA wakes the predictor on the first request. Scale-to-zero needs routing (requests must
arrive somewhere while no pod runs).
"""

import pulumi

from aim_pulumi import AIMProfile, AIMService, inputs

NAMESPACE = "inference"
GATEWAY: inputs.GatewayRefArgsDict = {"name": "inference-gateway", "namespace": "gateway-system"}

AIMProfile(
    "qwen3-32b-mi300x-fp8",
    {
        "namespace": NAMESPACE,
        "labels": {"aim.eai.amd.com/source-model": "qwen3-32b"},
        "spec": {
            "aimId": "qwen/qwen3-32b",
            "image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
            "type": "optimized",
            "primary": True,
            "precision": "fp8",
            "metric": "throughput",
            "acceleratorVendor": "amd",
            "acceleratorType": "gpu",
            "acceleratorModel": "MI300X",
            "acceleratorCount": 1,
            "resources": {"requests": {"memory": "64Gi"}, "limits": {"memory": "64Gi"}},
        },
    },
)

busy = AIMService(
    "qwen-busy",
    {
        "namespace": NAMESPACE,
        "spec": {
            "model": {"name": "qwen3-32b"},
            "profile": {"selector": {"precision": "fp8"}},
            "minReplicas": 1,
            "maxReplicas": 4,
            "autoScaling": {
                "metrics": [
                    {
                        "type": "PodMetric",
                        "podmetric": {
                            "metric": {
                                "backend": "opentelemetry",
                                "metricNames": ["vllm:num_requests_running"],
                            },
                            "target": {"type": "Value", "value": "8"},
                        },
                    }
                ]
            },
            "routing": {"enabled": True, "gatewayRef": GATEWAY},
        },
    },
)

idle = AIMService(
    "qwen-on-demand",
    {
        "namespace": NAMESPACE,
        "spec": {
            "model": {"name": "qwen3-32b"},
            "profile": {"selector": {"precision": "fp8"}},
            "minReplicas": 0,
            "maxReplicas": 2,
            "routing": {"enabled": True, "gatewayRef": GATEWAY},
        },
    },
)

pulumi.export("busy", busy.status)
pulumi.export("onDemand", idle.status)
