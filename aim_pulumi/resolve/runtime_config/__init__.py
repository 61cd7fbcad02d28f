"""Runtime configuration: which AIMRuntimeConfig / AIMClusterRuntimeConfig a consumer names, and the
field-by-field merge (with presence semantics and provenance) of every runtime-config-shaped layer."""
