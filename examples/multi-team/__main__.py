"""Two teams, one platform: cluster defaults, a namespace override, labels that follow the service.

- `AIMClusterRuntimeConfig/default` (replacing the embedded one) turns routing on for everyone,
  through the platform gateway, under `/{namespace}/{name}`, and propagates `org.example/*` labels
  from each service to everything it creates.
- `AIMRuntimeConfig/default` in `team-a` overrides only the path template (by project label) and
  adds one env variable; every other field is inherited from the cluster config.
- `team-b` has no runtime config of its own and gets the cluster defaults.
- One cluster-wide profile serves both teams' services.
"""

import pulumi

from aim_pulumi import (
    AIMClusterProfile,
    AIMClusterRuntimeConfig,
    AIMRuntimeConfig,
    AIMService,
)

AIMClusterRuntimeConfig(
    "default",
    {
        "spec": {
            "routing": {
                "enabled": True,
                "gatewayRef": {"name": "platform-gateway", "namespace": "gateway-system"},
                "pathTemplate": "/{.metadata.namespace}/{.metadata.name}",
                "requestTimeout": "300s",
            },
            "labelPropagation": {"enabled": True, "match": ["org.example/*"]},
            "env": [{"name": "VLLM_LOGGING_LEVEL", "value": "INFO"}],
        }
    },
)

AIMRuntimeConfig(
    "team-a-default",
    {
        "name": "default",
        "namespace": "team-a",
        "spec": {
            "routing": {"pathTemplate": "/team-a/{.metadata.labels['org.example/project']}"},
            "env": [{"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"}],
        },
    },
)

AIMClusterProfile(
    "llama-3-1-8b-mi300x-fp8",
    {
        "labels": {
            "aim.eai.amd.com/source-model": "llama-3-1-8b",
            "aim.eai.amd.com/source-model-scope": "cluster",
        },
        "spec": {
            "aimId": "meta-llama/llama-3.1-8b-instruct",
            "image": "amdenterpriseai/aim-meta-llama-llama-3-1-8b-instruct:0.8.5",
            "modelId": "meta-llama/Llama-3.1-8B-Instruct",
            "type": "optimized",
            "primary": True,
            "metric": "latency",
            "precision": "fp8",
            "acceleratorVendor": "amd",
            "acceleratorType": "gpu",
            "acceleratorModel": "MI300X",
            "acceleratorCount": 1,
        },
    },
)

services = {}
for namespace, project in (("team-a", "support-bot"), ("team-b", "code-review")):
    services[namespace] = AIMService(
        f"{namespace}-assistant",
        {
            "name": "assistant",
            "namespace": namespace,
            "labels": {
                "org.example/team": namespace,
                "org.example/project": project,
                "internal.example/cost-center": "ml-platform",  # not matched: stays on the service
            },
            "spec": {"profile": {"selector": {"modelRef": {"name": "llama-3-1-8b"}}}},
        },
    )

for namespace, service in services.items():
    pulumi.export(f"{namespace}-route", service.route_path)
