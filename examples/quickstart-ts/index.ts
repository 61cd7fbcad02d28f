// Quickstart: deploy Qwen3-8B on an NVIDIA GPU with nothing else configured (see ../quickstart).
//
// The model is ID-backed, so its profile is generated from the NVIDIA vLLM fallback of the embedded
// default runtime config. The service is routed through an existing Gateway and mounts a Shared cache.
import * as aim from "@pulumi/aim";

const namespace = "ml-team"; // must exist: the components create no namespace

const model = new aim.AIMModel("qwen3-8b", {
    namespace,
    spec: {
        modelId: "Qwen/Qwen3-8B",
        accelerator: { vendor: "nvidia", count: 1 },
        // The cache PVC is sized from this (plus headroom): no download happens at plan time.
        source: { size: "17Gi" },
    },
});

const chat = new aim.AIMService(
    "qwen-chat",
    {
        namespace,
        // During the v1alpha1 -> v1alpha2 bridge window a service named by model alone takes the
        // legacy template pipeline; this marker opts it into profile resolution.
        annotations: { "aim.eai.amd.com/reconciler-pipeline": "profile" },
        spec: {
            model: { name: "qwen3-8b" },
            routing: {
                enabled: true,
                gatewayRef: { name: "inference-gateway", namespace: "gateway-system" },
            },
            caching: { mode: "Shared" },
        },
    },
    // The provider resolves a service against what was constructed before it: depend on its model.
    { dependsOn: [model] },
);

export const inferenceService = chat.inferenceServiceName;
export const routePath = chat.routePath;
// The route has no hostnames, so this is the path alone: a client calls it on the Gateway's address.
export const endpoint = chat.endpoint;
export const status = chat.status;
