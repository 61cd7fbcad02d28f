"""Everything that exists only for v1alpha1 and the bridge window: the pipeline dispatch, the template
pipeline, and the v1alpha1 -> v1alpha2 migration; removing v1alpha1 is deleting this folder."""
