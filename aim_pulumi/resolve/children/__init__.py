"""The shape of each child of a service, from plain specs: names, labels, annotations, the container
and its env, caches and their sizes, the HTTPRoute and its path, replicas and the KEDA ScaledObject."""
