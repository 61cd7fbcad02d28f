// Quickstart: deploy Qwen3-8B on an NVIDIA GPU with nothing else configured (see ../quickstart).
//
// The model is ID-backed, so its profile is generated from the NVIDIA vLLM fallback of the embedded
// default runtime config. The service is routed through an existing Gateway and mounts a Shared cache.
package main

import (
	"example.com/pulumi-aim/sdk/go/aim"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		namespace := pulumi.String("ml-team") // must exist: the components create no namespace

		model, err := aim.NewAIMModel(ctx, "qwen3-8b", &aim.AIMModelArgs{
			Namespace: namespace,
			Spec: &aim.AIMModelSpecArgs{
				ModelId: pulumi.String("Qwen/Qwen3-8B"),
				Accelerator: &aim.ModelAcceleratorArgs{
					Vendor: aim.AcceleratorVendorNVIDIA,
					Count:  pulumi.Int(1),
				},
				// The cache PVC is sized from this (plus headroom): no download happens at plan time.
				Source: &aim.ModelSourceSpecArgs{Size: pulumi.String("17Gi")},
			},
		})
		if err != nil {
			return err
		}

		chat, err := aim.NewAIMService(ctx, "qwen-chat", &aim.AIMServiceArgs{
			Namespace: namespace,
			// During the v1alpha1 -> v1alpha2 bridge window a service named by model alone takes the
			// legacy template pipeline; this marker opts it into profile resolution.
			Annotations: map[string]string{"aim.eai.amd.com/reconciler-pipeline": "profile"},
			Spec: &aim.AIMServiceSpecArgs{
				Model: &aim.ServiceModelArgs{Name: pulumi.String("qwen3-8b")},
				Routing: &aim.RoutingArgs{
					Enabled: pulumi.Bool(true),
					GatewayRef: &aim.GatewayRefArgs{
						Name:      pulumi.String("inference-gateway"),
						Namespace: pulumi.String("gateway-system"),
					},
				},
				Caching: &aim.ServiceCachingArgs{Mode: aim.ServiceCachingModeSHARED},
			},
			// The provider resolves a service against what was constructed before it: depend on its model.
		}, pulumi.DependsOn([]pulumi.Resource{model}))
		if err != nil {
			return err
		}

		ctx.Export("inferenceService", chat.InferenceServiceName)
		ctx.Export("routePath", chat.RoutePath)
		// The route has no hostnames, so this is the path alone: a client calls it on the Gateway's address.
		ctx.Export("endpoint", chat.Endpoint)
		ctx.Export("status", chat.Status)
		return nil
	})
}
