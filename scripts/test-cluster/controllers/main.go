// Command controllers runs the few kube-controller-manager controllers the cluster tests need, wired as
// kube-controller-manager wires them: the namespace controller (a deleted Namespace is emptied and goes
// away instead of staying Terminating), the garbage collector (ownerReferences and foreground deletion
// are honoured) and the PVC protection controller (a deleted PVC that no pod uses loses its finalizer).
// Nothing else runs: no kubelet, no scheduler, no Job or volume controller.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/controller-manager/pkg/informerfactory"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/garbagecollector"
	namespacecontroller "k8s.io/kubernetes/pkg/controller/namespace"
	"k8s.io/kubernetes/pkg/controller/volume/pvcprotection"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the API server")
	klog.InitFlags(nil)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := klog.FromContext(ctx)

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.Fatalf("kubeconfig: %v", err)
	}
	// As kube-controller-manager does for the namespace controller: it lists and deletes a lot.
	config.QPS, config.Burst = 100, 500
	client := clientset.NewForConfigOrDie(config)
	metadataClient := metadata.NewForConfigOrDie(config)

	const resync = 30 * time.Second
	typed := informers.NewSharedInformerFactory(client, resync)
	metadataInformers := metadatainformer.NewSharedInformerFactory(metadataClient, resync)
	objectOrMetadata := informerfactory.NewInformerFactory(typed, metadataInformers)
	started := make(chan struct{})

	namespaces := namespacecontroller.NewNamespaceController(
		ctx, client, metadataClient, client.Discovery().ServerPreferredNamespacedResources,
		typed.Core().V1().Namespaces(), 5*time.Minute, v1.FinalizerKubernetes,
	)

	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	gc, err := garbagecollector.NewGarbageCollector(
		ctx, client, metadataClient, mapper, garbagecollector.DefaultIgnoredResources(), objectOrMetadata, started,
	)
	if err != nil {
		klog.Fatalf("garbage collector: %v", err)
	}

	pvcs, err := pvcprotection.NewPVCProtectionController(
		logger, typed.Core().V1().PersistentVolumeClaims(), typed.Core().V1().Pods(), client,
	)
	if err != nil {
		klog.Fatalf("pvc protection: %v", err)
	}

	go namespaces.Run(ctx, 5)
	go gc.Run(ctx, 5, resync)
	go gc.Sync(ctx, client.Discovery(), 5*time.Second)
	go pvcs.Run(ctx, 1)

	typed.Start(ctx.Done())
	objectOrMetadata.Start(ctx.Done())
	close(started)
	logger.Info("controllers running", "controllers", []string{"namespace", "garbagecollector", "pvc-protection"})
	<-ctx.Done()
}
