"""One table per admission rule family (behaviour §2): each row names its rule and the side it covers."""

from __future__ import annotations

from typing import Any

import pytest
from api_builders import (
    METRIC,
    V1,
    fallback,
    fallbacks_rc,
    model,
    profile,
    runtime_config,
    s3_rc,
    service,
    template,
)

from aim_pulumi.api import AIMValidationError
from tests.versions import KINDS, admission_problems, parse

MODEL = {"name": "qwen-qwen3-32b"}
BY_NAME = {"profile": {"name": "qwen-fp8"}}

# (id, manifest, field, reason)
INVALID: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "A1-template-on-v1alpha2",
        service({"model": MODEL, "template": {"name": "t"}}),
        "spec.template",
        "InvalidSpec",
    ),
    (
        "A1-templateName-alias-on-v1alpha2",
        service({"model": MODEL, "templateName": "t"}),
        "spec.template",
        "InvalidSpec",
    ),
    (
        "A2-overrides-on-v1alpha2",
        service({"model": MODEL, "overrides": {"metric": "latency"}}),
        "spec.overrides",
        "InvalidSpec",
    ),
    ("A3-neither-model-nor-profile", service({"replicas": 1}), "spec", "InvalidSpec"),
    ("A3-empty-spec", service({}), "spec", "InvalidSpec"),
    ("A3-empty-profile-block", service({"profile": {}}), "spec.profile", "InvalidSpec"),
    (
        "crd-profile-block-beside-model-must-set-name-or-selector",
        service({"model": MODEL, "profile": {}}),
        "spec.profile",
        "InvalidSpec",
    ),
    (
        "crd-quantity-pattern-refuses-surrounding-space",
        profile({"modelSources": [{"modelId": "org/m", "sourceUri": "hf://org/m", "size": " 17Gi "}]}),
        "spec.modelSources[0].size",
        "InvalidSpec",
    ),
    (
        "crd-quantity-go-parser-refuses-fractional-exponent",
        profile({"modelSources": [{"modelId": "org/m", "sourceUri": "hf://org/m", "size": "1e1.5"}]}),
        "spec.modelSources[0].size",
        "InvalidSpec",
    ),
    (
        "crd-model-source-needs-model-id",
        service({**BY_NAME, "profileOverrides": {"modelSources": [{"sourceUri": "s3://bucket/weights"}]}}),
        "spec.profileOverrides.modelSources[0].modelId",
        "InvalidSpec",
    ),
    (
        "crd-model-source-uri-must-be-hf-or-s3",
        profile({"modelSources": [{"modelId": "org/m", "sourceUri": "gs://b/m"}]}),
        "spec.modelSources[0].sourceUri",
        "InvalidSpec",
    ),
    (
        "crd-template-cpu-needs-requests",
        template({"hardware": {"cpu": {"cores": 8}}}),
        "spec.hardware.cpu.cores",
        "UnknownField",
    ),
    ("A3-profile-with-empty-name-only", service({"profile": {"name": ""}}), "spec.profile", "InvalidSpec"),
    (
        "A4-profile-and-template-v1alpha1",
        service({"profile": {"name": "p"}, "template": {"name": "t"}}, version=V1),
        "spec.template",
        "InvalidSpec",
    ),
    (
        "A5-overrides-without-profile-name",
        service({"model": MODEL, "profileOverrides": {"acceleratorCount": 2}}),
        "spec.profileOverrides",
        "InvalidSpec",
    ),
    (
        "A5-overrides-with-selector",
        service({"profile": {"selector": {"aimId": "q"}}, "profileOverrides": {}}),
        "spec.profileOverrides",
        "InvalidSpec",
    ),
    (
        "A5-overrides-with-empty-name-crd-profile-needs-name-or-selector",
        service({"model": MODEL, "profile": {"name": ""}, "profileOverrides": {}}),
        "spec.profile",
        "InvalidSpec",
    ),
    (
        "A6-role-base",
        service({"model": MODEL, "profile": {"selector": {"role": "base"}}}),
        "spec.profile.selector.role",
        "InvalidSpec",
    ),
    (
        "A6-role-other",
        service({"model": MODEL, "profile": {"selector": {"role": "Deployable"}}}),
        "spec.profile.selector.role",
        "InvalidSpec",
    ),
    (
        "A7-unanchored-selector",
        service({"profile": {"selector": {"precision": "fp8"}}}),
        "spec.profile.selector",
        "InvalidSpec",
    ),
    (
        "A7-modelref-without-name",
        service({"profile": {"selector": {"modelRef": {"scope": "Cluster"}}}}),
        "spec.profile.selector",
        "InvalidSpec",
    ),
    (
        "A8-name-and-selector",
        service({"profile": {"name": "p", "selector": {"aimId": "q"}}}),
        "spec.profile.selector",
        "InvalidSpec",
    ),
    ("A9-name-and-image", service({"model": {"name": "q", "image": "i:1"}}), "spec.model", "InvalidSpec"),
    ("A9-empty-model", service({"model": {}}), "spec.model", "InvalidSpec"),
    (
        "A10-custom-model",
        service({"model": {"custom": {"baseImage": "i:1"}}}),
        "spec.model.custom",
        "Unsupported",
    ),
    (
        "A11-min-negative",
        service({"model": MODEL, "minReplicas": -1, "autoScaling": {"metrics": [METRIC]}}),
        "spec.minReplicas",
        "InvalidSpec",
    ),
    ("A11-max-zero", service({"model": MODEL, "maxReplicas": 0}), "spec.maxReplicas", "InvalidSpec"),
    (
        "A11-min-above-max",
        service({"model": MODEL, "minReplicas": 3, "maxReplicas": 2, "autoScaling": {"metrics": [METRIC]}}),
        "spec.minReplicas",
        "InvalidSpec",
    ),
    (
        "A11-bounds-without-metrics",
        service({"model": MODEL, "minReplicas": 1, "maxReplicas": 3}),
        "spec.autoScaling.metrics",
        "AutoscalingRequiresMetrics",
    ),
    (
        "A11-max-only-without-metrics",
        service({"model": MODEL, "maxReplicas": 3}),
        "spec.autoScaling.metrics",
        "AutoscalingRequiresMetrics",
    ),
    (
        "A11-autoscaling-block-without-metrics",
        service({"model": MODEL, "autoScaling": {"pollingInterval": 5}}),
        "spec.autoScaling.metrics",
        "AutoscalingRequiresMetrics",
    ),
    ("A12-replicas-negative", service({"model": MODEL, "replicas": -1}), "spec.replicas", "InvalidSpec"),
    (
        "A13-partitioning-without-count",
        service({**BY_NAME, "profileOverrides": {"acceleratorPartitioningMode": "CPX"}}),
        "spec.profileOverrides.acceleratorPartitioningMode",
        "InvalidSpec",
    ),
    (
        "A14-unknown-cache-mode",
        service({"model": MODEL, "caching": {"mode": "Sometimes"}}),
        "spec.caching.mode",
        "InvalidSpec",
    ),
    (
        "A14-cacheModel-not-bool",
        service({"model": MODEL, "cacheModel": "yes"}, version=V1),
        "spec.cacheModel",
        "InvalidSpec",
    ),
    (
        "A15-unknown-minimum-type",
        service({"model": MODEL, "profile": {"selector": {"minimumType": "best"}}}),
        "spec.profile.selector.minimumType",
        "InvalidSpec",
    ),
    (
        "A16-unknown-model-ref-scope",
        service({"profile": {"selector": {"modelRef": {"name": "q", "scope": "Global"}}}}),
        "spec.profile.selector.modelRef.scope",
        "InvalidSpec",
    ),
    (
        "A17-request-timeout-words",
        service({"model": MODEL, "routing": {"requestTimeout": "30 seconds"}}),
        "spec.routing.requestTimeout",
        "InvalidSpec",
    ),
    (
        "A17-request-timeout-too-many-parts",
        service({"model": MODEL, "routing": {"requestTimeout": "1h1m1s1ms1h"}}),
        "spec.routing.requestTimeout",
        "InvalidSpec",
    ),
    (
        "A17-request-timeout-inline-rc",
        service({"model": MODEL, "runtimeConfig": {"routing": {"requestTimeout": "5"}}}),
        "spec.runtimeConfig.routing.requestTimeout",
        "InvalidSpec",
    ),
    (
        "A18-gateway-ref-without-name",
        service({"model": MODEL, "routing": {"gatewayRef": {"namespace": "gw"}}}),
        "spec.routing.gatewayRef.name",
        "InvalidSpec",
    ),
    (
        "A18-gateway-ref-empty-name-rc",
        runtime_config({"routing": {"gatewayRef": {"name": ""}}}),
        "spec.routing.gatewayRef.name",
        "InvalidSpec",
    ),
    (
        "A19-empty-activation-query",
        service({"model": MODEL, "scaleFromZero": {"activationMetricQueryTemplate": ""}}),
        "spec.scaleFromZero.activationMetricQueryTemplate",
        "InvalidSpec",
    ),
    (
        "A19-long-activation-query-rc",
        runtime_config({"scaleFromZero": {"activationMetricQueryTemplate": "x" * 4097}}, cluster=True),
        "spec.scaleFromZero.activationMetricQueryTemplate",
        "InvalidSpec",
    ),
    (
        "A20-metric-type-not-podmetric",
        service({"model": MODEL, "autoScaling": {"metrics": [{"type": "Resource"}]}}),
        "spec.autoScaling.metrics[0].type",
        "InvalidSpec",
    ),
    (
        "A20-metric-without-podmetric",
        service({"model": MODEL, "autoScaling": {"metrics": [{"type": "PodMetric"}]}}),
        "spec.autoScaling.metrics[0].podmetric",
        "InvalidSpec",
    ),
    (
        "A20-metric-without-names-or-query",
        service(
            {
                "model": MODEL,
                "autoScaling": {
                    "metrics": [
                        {
                            "type": "PodMetric",
                            "podmetric": {
                                "metric": {"backend": "opentelemetry"},
                                "target": {"type": "Value"},
                            },
                        }
                    ]
                },
            }
        ),
        "spec.autoScaling.metrics[0].podmetric.metric",
        "InvalidSpec",
    ),
    (
        "A20-target-without-type",
        service(
            {
                "model": MODEL,
                "autoScaling": {
                    "metrics": [
                        {
                            "type": "PodMetric",
                            "podmetric": {"metric": {"query": "q"}, "target": {"value": "1"}},
                        }
                    ]
                },
            }
        ),
        "spec.autoScaling.metrics[0].podmetric.target.type",
        "InvalidSpec",
    ),
    (
        "A20-target-type-unknown",
        service(
            {
                "model": MODEL,
                "autoScaling": {
                    "metrics": [
                        METRIC,
                        {
                            "type": "PodMetric",
                            "podmetric": {"metric": {"query": "q"}, "target": {"type": "Percent"}},
                        },
                    ]
                },
            }
        ),
        "spec.autoScaling.metrics[1].podmetric.target.type",
        "InvalidSpec",
    ),
    (
        "A21-adapters",
        service({"model": MODEL, "adapters": [{"name": "lora"}]}),
        "spec.adapters",
        "Unsupported",
    ),
    ("A22-namespace-too-long", service(namespace="n" * 43), "metadata.namespace", "NameTooLong"),
    ("A23-name-not-dns1123", service(name="Qwen_Chat"), "metadata.name", "InvalidSpec"),
    ("A23-name-too-long", profile(name="a" * 254), "metadata.name", "InvalidSpec"),
    (
        "A23-namespace-not-dns1123-label",
        runtime_config() | {"metadata": {"name": "default", "namespace": "ml.team"}},
        "metadata.namespace",
        "InvalidSpec",
    ),
    ("A23-name-missing", service() | {"metadata": {"namespace": "ml-team"}}, "metadata.name", "InvalidSpec"),
    (
        "A23-namespace-too-long",
        runtime_config() | {"metadata": {"name": "default", "namespace": "n" * 64}},
        "metadata.namespace",
        "InvalidSpec",
    ),
    (
        "A23-cluster-kind-with-namespace",
        profile(cluster=True) | {"metadata": {"name": "p", "namespace": "ml-team"}},
        "metadata.namespace",
        "InvalidSpec",
    ),
    (
        "A24-env-without-name",
        service({"model": MODEL, "env": [{"value": "x"}]}),
        "spec.env[0].name",
        "InvalidSpec",
    ),
    (
        "A24-env-value-and-value-from",
        service(
            {
                "model": MODEL,
                "env": [
                    {"name": "A", "value": "1"},
                    {"name": "B", "value": "x", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
                ],
            }
        ),
        "spec.env[1]",
        "InvalidSpec",
    ),
    ("A24-rc-env", runtime_config({"env": [{"name": ""}]}), "spec.env[0].name", "InvalidSpec"),
    (
        "A24-profile-container-env",
        profile(
            {
                "containerEnv": [
                    {"name": "A", "value": "1", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}
                ]
            }
        ),
        "spec.containerEnv[0]",
        "InvalidSpec",
    ),
    (
        "A24-model-source-env",
        profile({"modelSources": [{"modelId": "org/m", "sourceUri": "hf://org/m", "env": [{"value": "1"}]}]}),
        "spec.modelSources[0].env[0].name",
        "InvalidSpec",
    ),
    (
        "A24-overrides-container-env",
        service({**BY_NAME, "profileOverrides": {"containerEnv": [{"value": "1"}]}}),
        "spec.profileOverrides.containerEnv[0].name",
        "InvalidSpec",
    ),
    ("P1-blank-aim-id", profile({"aimId": " "}), "spec.aimId", "InvalidSpec"),
    (
        "P1-operator-model-sources-need-an-aim-id",
        profile()
        | {"spec": {"image": "i:1", "modelSources": [{"modelId": "org/m", "sourceUri": "hf://org/m"}]}},
        "spec.aimId",
        "InvalidSpec",
    ),
    ("P1-empty-image", profile({"image": ""}), "spec.image", "InvalidSpec"),
    (
        "P2-accelerator-model-bad-char",
        profile({"acceleratorModel": "MI300X!"}),
        "spec.acceleratorModel",
        "InvalidSpec",
    ),
    (
        "P2-accelerator-model-too-long",
        profile({"acceleratorModel": "M" * 64}),
        "spec.acceleratorModel",
        "InvalidSpec",
    ),
    ("P3-metric", profile({"metric": "fast"}), "spec.metric", "InvalidSpec"),
    ("P3-precision", profile({"precision": "fp6"}), "spec.precision", "InvalidSpec"),
    ("P3-type", profile({"type": "best"}, cluster=True), "spec.type", "InvalidSpec"),
    ("P3-accelerator-type", profile({"acceleratorType": "tpu"}), "spec.acceleratorType", "InvalidSpec"),
    (
        "P3-accelerator-vendor",
        profile({"acceleratorVendor": "intel"}),
        "spec.acceleratorVendor",
        "InvalidSpec",
    ),
    (
        "P3-auto-selection-policy",
        profile({"autoSelectionPolicy": "all"}),
        "spec.autoSelectionPolicy",
        "InvalidSpec",
    ),
    (
        "P3-accelerator-count-negative",
        profile({"acceleratorCount": -1}),
        "spec.acceleratorCount",
        "InvalidSpec",
    ),
    ("P4-engine-args-not-object", profile({"engineArgs": ["--port=1"]}), "spec.engineArgs", "InvalidSpec"),
    ("P4-engine-args-yaml-set", profile({"engineArgs": {"x": {1, 2}}}), "spec.engineArgs.x", "InvalidSpec"),
    (
        "P4-engine-args-nested-nan",
        profile({"engineArgs": {"a": [1, {"b": float("nan")}]}}),
        "spec.engineArgs.a[1].b",
        "InvalidSpec",
    ),
    (
        "P4-engine-args-nested-int-key",
        profile({"engineArgs": {"a": {1: "x"}}}, cluster=True),
        "spec.engineArgs.a.1",
        "InvalidSpec",
    ),
    (
        "P4-selector-engine-args-binary",
        service({"model": MODEL, "profile": {"selector": {"engineArgs": {"x": b"\x00"}}}}),
        "spec.profile.selector.engineArgs.x",
        "InvalidSpec",
    ),
    (
        "P4-overrides-engine-args-infinite",
        service({**BY_NAME, "profileOverrides": {"engineArgs": {"x": float("inf")}}}),
        "spec.profileOverrides.engineArgs.x",
        "InvalidSpec",
    ),
    (
        "P4-fallback-engine-args-tuple",
        fallbacks_rc(fallback(runtime={"image": "i:1", "engine": "vllm", "engineArgs": {"x": (1, 2)}})),
        "spec.model.profileGeneration.fallbacks[0].runtime.engineArgs.x",
        "InvalidSpec",
    ),
    (
        "P4-direct-vllm-managed-port",
        profile({"acceleratorVendor": "nvidia", "engine": "vllm", "engineArgs": {"--port": 8001}}),
        "spec.engineArgs",
        "InvalidSpec",
    ),
    (
        "P4-direct-vllm-managed-model",
        profile({"acceleratorVendor": "nvidia", "engine": "vllm", "engineArgs": {"model": "x"}}),
        "spec.engineArgs",
        "InvalidSpec",
    ),
    (
        "P4-direct-vllm-duplicate-flag",
        profile(
            {
                "acceleratorVendor": "nvidia",
                "engine": "vllm",
                "engineArgs": {"max_model_len": 1, "max-model-len": 2},
            }
        ),
        "spec.engineArgs",
        "InvalidSpec",
    ),
    (
        "P5-cluster-profile-caching",
        profile({"caching": {"enabled": True}}, cluster=True),
        "spec.caching",
        "InvalidSpec",
    ),
    (
        "P6-unknown-role-label",
        profile(labels={"aim.eai.amd.com/profile-role": "primary"}),
        "metadata.labels.aim.eai.amd.com/profile-role",
        "InvalidSpec",
    ),
    (
        "M1-image-and-model-id",
        model({"image": "i:1", "modelId": "Qwen/Qwen3-32B"}),
        "spec.modelId",
        "InvalidSpec",
    ),
    (
        "M1-neither-image-nor-model-id",
        model({"aimId": "qwen/qwen3-32b"}, cluster=True),
        "spec.image",
        "InvalidSpec",
    ),
    (
        "M2-profiles-beside-model-id",
        model(
            {"modelId": "org/m", "profiles": {"derivedFrom": {"selector": {"aimId": "a/b"}}, "version": "1"}}
        ),
        "spec.profiles",
        "InvalidSpec",
    ),
    (
        "M3-accelerator-count-zero",
        model({"modelId": "org/m", "accelerator": {"count": 0}}),
        "spec.accelerator.count",
        "InvalidSpec",
    ),
    (
        "M3-accelerator-vendor",
        model({"modelId": "org/m", "accelerator": {"vendor": "intel"}}, version=V1),
        "spec.accelerator.vendor",
        "InvalidSpec",
    ),
    (
        "R1-fallback-without-name",
        fallbacks_rc({k: v for k, v in fallback().items() if k != "name"}),
        "spec.model.profileGeneration.fallbacks[0].name",
        "InvalidSpec",
    ),
    (
        "R1-fallback-without-vendor",
        fallbacks_rc(fallback(match={"acceleratorType": "gpu"})),
        "spec.model.profileGeneration.fallbacks[0].match.acceleratorVendor",
        "InvalidSpec",
    ),
    (
        "R1-fallback-without-type",
        fallbacks_rc(fallback(match={"acceleratorVendor": "amd"})),
        "spec.model.profileGeneration.fallbacks[0].match.acceleratorType",
        "InvalidSpec",
    ),
    (
        "R1-fallback-without-image",
        fallbacks_rc(fallback(runtime={"engine": "vllm"})),
        "spec.model.profileGeneration.fallbacks[0].runtime.image",
        "InvalidSpec",
    ),
    (
        "R1-fallback-without-engine",
        fallbacks_rc(fallback(runtime={"image": "i:1"})),
        "spec.model.profileGeneration.fallbacks[0].runtime.engine",
        "InvalidSpec",
    ),
    (
        "R1-fallback-without-match",
        fallbacks_rc({k: v for k, v in fallback().items() if k != "match"}),
        "spec.model.profileGeneration.fallbacks[0].match",
        "InvalidSpec",
    ),
    (
        "R1-duplicate-fallback-names",
        fallbacks_rc(fallback(), fallback(name="amd"), fallback()),
        "spec.model.profileGeneration.fallbacks[2].name",
        "InvalidSpec",
    ),
    (
        "R1-fallback-type",
        fallbacks_rc(fallback(type="cheap")),
        "spec.model.profileGeneration.fallbacks[0].type",
        "InvalidSpec",
    ),
    (
        "R1-fallback-policy",
        fallbacks_rc(fallback(autoSelectionPolicy="all")),
        "spec.model.profileGeneration.fallbacks[0].autoSelectionPolicy",
        "InvalidSpec",
    ),
    (
        "R2-storage-headroom-negative",
        runtime_config({"storage": {"pvcHeadroomPercent": -1}}),
        "spec.storage.pvcHeadroomPercent",
        "InvalidSpec",
    ),
    (
        "R2-deprecated-headroom-negative",
        runtime_config({"pvcHeadroomPercent": -5}, cluster=True),
        "spec.pvcHeadroomPercent",
        "InvalidSpec",
    ),
    (
        "R2-service-storage-headroom",
        service({"model": MODEL, "storage": {"pvcHeadroomPercent": -1}}),
        "spec.storage.pvcHeadroomPercent",
        "InvalidSpec",
    ),
    (
        "R3-endpoint-without-scheme",
        s3_rc({"endpoint": "minio:9000"}),
        "spec.artifact.s3.endpoint",
        "InvalidSpec",
    ),
    (
        "R3-endpoint-with-space",
        s3_rc({"endpoint": "http://minio 9000"}),
        "spec.artifact.s3.endpoint",
        "InvalidSpec",
    ),
    (
        "R3-inline-endpoint",
        service({"model": MODEL, "runtimeConfig": {"artifact": {"s3": {"endpoint": "s3.local"}}}}),
        "spec.runtimeConfig.artifact.s3.endpoint",
        "InvalidSpec",
    ),
    ("R4-static-without-secret", s3_rc({"auth": {"mode": "static"}}), "spec.artifact.s3.auth", "InvalidSpec"),
    (
        "R4-secret-without-static",
        s3_rc({"auth": {"mode": "chain", "credentialsSecretRef": {"name": "s3"}}}),
        "spec.artifact.s3.auth",
        "InvalidSpec",
    ),
    (
        "R4-secret-without-mode",
        s3_rc({"auth": {"credentialsSecretRef": {"name": "s3"}}}),
        "spec.artifact.s3.auth",
        "InvalidSpec",
    ),
    ("R4-unknown-mode", s3_rc({"auth": {"mode": "iam"}}), "spec.artifact.s3.auth.mode", "InvalidSpec"),
    (
        "R5-ca-bundle-and-insecure",
        s3_rc({"tls": {"caBundleRef": {"kind": "Secret", "name": "ca"}, "insecureSkipVerify": True}}),
        "spec.artifact.s3.tls",
        "InvalidSpec",
    ),
    (
        "R5-ca-bundle-kind",
        s3_rc({"tls": {"caBundleRef": {"kind": "Pod", "name": "ca"}}}),
        "spec.artifact.s3.tls.caBundleRef.kind",
        "InvalidSpec",
    ),
    ("T1-missing-model-name", template() | {"spec": {"metric": "latency"}}, "spec.modelName", "InvalidSpec"),
    ("T1-blank-model-name", template({"modelName": "  "}), "spec.modelName", "InvalidSpec"),
    ("T2-metric", template({"metric": "fast"}), "spec.metric", "InvalidSpec"),
    ("T2-precision", template({"precision": "fp6"}, cluster=True), "spec.precision", "InvalidSpec"),
    (
        "T3-cluster-template-env",
        template({"env": [{"name": "A", "value": "1"}]}, cluster=True),
        "spec.env",
        "InvalidSpec",
    ),
    ("T3-cluster-template-empty-env", template({"env": []}, cluster=True), "spec.env", "InvalidSpec"),
    (
        "T3-cluster-template-caching",
        template({"caching": {"enabled": True}}, cluster=True),
        "spec.caching",
        "InvalidSpec",
    ),
    (
        "T4-gpu-and-cpu",
        template({"hardware": {"gpu": {"requests": 1}, "cpu": {"requests": 8}}}),
        "spec.hardware",
        "InvalidSpec",
    ),
    # Child-level Go rules (pod_rules.py), refused at the AIM field, before any plan.
    (
        "env-name-relaxed-rule",
        service({**BY_NAME, "env": [{"name": "a=b", "value": "1"}]}),
        "spec.env[0].name",
        "InvalidSpec",
    ),
    (
        "env-value-nul",
        runtime_config({"env": [{"name": "TOKEN", "value": "a\x00b"}]}),
        "spec.env[0].value",
        "InvalidSpec",
    ),
    (
        "profile-env-name-non-ascii",
        profile({"containerEnv": [{"name": "é", "value": "1"}]}),
        "spec.containerEnv[0].name",
        "InvalidSpec",
    ),
    (
        "secret-key-ref-key",
        service(
            {
                **BY_NAME,
                "env": [{"name": "T", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "k/../x"}}}],
            }
        ),
        "spec.env[0].valueFrom.secretKeyRef.key",
        "InvalidSpec",
    ),
    (
        "secret-key-ref-name",
        service(
            {
                **BY_NAME,
                "env": [{"name": "T", "valueFrom": {"secretKeyRef": {"name": "UPPER_bad", "key": "k"}}}],
            }
        ),
        "spec.env[0].valueFrom.secretKeyRef.name",
        "InvalidSpec",
    ),
    (
        "negative-memory",
        service({**BY_NAME, "resources": {"requests": {"memory": "-1"}}}),
        "spec.resources.requests.memory",
        "InvalidSpec",
    ),
    (
        "fractional-gpu",
        profile({"resources": {"limits": {"amd.com/gpu": ".5"}}}),
        "spec.resources.limits.amd.com/gpu",
        "InvalidSpec",
    ),
]

# (id, manifest): the admitted side of each rule.
VALID: list[tuple[str, dict[str, Any]]] = [
    ("A1-template-on-v1alpha1", service({"model": MODEL, "template": {"name": "t"}}, version=V1)),
    (
        "A2-overrides-on-v1alpha1",
        service({"model": MODEL, "template": {"name": "t"}, "overrides": {"metric": "latency"}}, version=V1),
    ),
    ("A3-profile-only", service(BY_NAME)),
    ("A3-model-only", service({"model": MODEL})),
    ("A4-profile-only-v1alpha1", service({"profile": {"name": "p"}}, version=V1)),
    ("A5-overrides-with-profile-name", service({**BY_NAME, "profileOverrides": {"acceleratorCount": 2}})),
    ("A6-role-deployable", service({"model": MODEL, "profile": {"selector": {"role": "deployable"}}})),
    ("A7-selector-with-aim-id", service({"profile": {"selector": {"aimId": "qwen/qwen3-32b"}}})),
    ("A7-selector-with-model-ref", service({"profile": {"selector": {"modelRef": {"name": "q"}}}})),
    ("A7-selector-with-model", service({"model": MODEL, "profile": {"selector": {"precision": "fp8"}}})),
    ("A8-empty-name-is-unset", service({"profile": {"name": "", "selector": {"aimId": "q"}}})),
    ("A9-image-only", service({"model": {"image": "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5"}})),
    ("A11-scale-from-zero-without-metrics", service({"model": MODEL, "minReplicas": 0, "maxReplicas": 3})),
    (
        "A11-min-equals-max",
        service({"model": MODEL, "minReplicas": 2, "maxReplicas": 2, "autoScaling": {"metrics": [METRIC]}}),
    ),
    ("A12-replicas-zero", service({"model": MODEL, "replicas": 0})),
    (
        "A13-partitioning-with-count",
        service(
            {**BY_NAME, "profileOverrides": {"acceleratorPartitioningMode": "CPX", "acceleratorCount": 8}}
        ),
    ),
    ("A14-dedicated", service({"model": MODEL, "caching": {"mode": "Dedicated"}})),
    ("A15-minimum-type-any", service({"model": MODEL, "profile": {"selector": {"minimumType": "any"}}})),
    (
        "A16-model-ref-scope-cluster",
        service({"profile": {"selector": {"modelRef": {"name": "q", "scope": "Cluster"}}}}),
    ),
    ("A17-request-timeout-compound", service({"model": MODEL, "routing": {"requestTimeout": "1m30s"}})),
    ("A17-request-timeout-ms", runtime_config({"routing": {"requestTimeout": "500ms"}})),
    (
        "A18-gateway-ref-with-name",
        service({"model": MODEL, "routing": {"enabled": True, "gatewayRef": {"name": "gw", "port": 443}}}),
    ),
    (
        "A19-activation-query-max-length",
        service({"model": MODEL, "scaleFromZero": {"activationMetricQueryTemplate": "x" * 4096}}),
    ),
    (
        "A19-activation-query-one-char",
        runtime_config({"scaleFromZero": {"activationMetricQueryTemplate": "x"}}),
    ),
    (
        "A20-metric-with-query-only",
        service(
            {
                "model": MODEL,
                "minReplicas": 1,
                "autoScaling": {
                    "metrics": [
                        {
                            "type": "PodMetric",
                            "podmetric": {
                                "metric": {"query": "sum(x)"},
                                "target": {"type": "AverageValue", "averageValue": "10"},
                            },
                        }
                    ]
                },
            }
        ),
    ),
    ("A22-namespace-at-limit", service(namespace="n" * 42)),
    ("A23-dotted-name", profile(name="qwen.fp8-v1")),
    ("A23-namespace-at-limit", runtime_config() | {"metadata": {"name": "default", "namespace": "n" * 63}}),
    (
        "A24-env-value-from",
        service(
            {"model": MODEL, "env": [{"name": "T", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}]}
        ),
    ),
    ("A24-env-name-only", runtime_config({"env": [{"name": "EMPTY"}]})),
    ("P2-accelerator-model-at-limit", profile({"acceleratorModel": "MI300X.v2_" + "a-" * 26 + "z"})),
    (
        "P3-every-enum",
        profile(
            {
                "metric": "throughput",
                "precision": "bf16",
                "type": "preview",
                "acceleratorType": "cpu",
                "acceleratorVendor": "amd",
                "autoSelectionPolicy": "any",
                "acceleratorCount": 0,
            }
        ),
    ),
    (
        "P4-engine-args-nested-json",
        profile({"engineArgs": {"a": [1, 2.5, None, {"b": True, "": "x"}], "c": {"d": []}}}),
    ),
    (
        "P4-amd-profile-may-set-port",
        profile({"acceleratorVendor": "amd", "engine": "vllm", "engineArgs": {"port": 1}}),
    ),
    (
        "P4-direct-vllm-plain-args",
        profile(
            {
                "acceleratorVendor": "nvidia",
                "engine": "vllm",
                "engineArgs": {"max-model-len": 8192, "enforce_eager": None},
            }
        ),
    ),
    (
        "P5-namespace-profile-caching",
        profile({"caching": {"enabled": True, "env": [{"name": "HF_TOKEN", "value": "x"}]}}),
    ),
    ("P6-role-base", profile(labels={"aim.eai.amd.com/profile-role": "base"})),
    ("M1-image-only-v1alpha1", model({"image": "i:1"}, version=V1)),
    ("M1-model-id-only-cluster", model({"modelId": "Qwen/Qwen3-32B"}, cluster=True)),
    (
        "M3-accelerator-shape",
        model({"modelId": "org/m", "accelerator": {"count": 4, "vendor": "nvidia", "model": "H100"}}),
    ),
    (
        "R1-two-fallbacks",
        fallbacks_rc(
            fallback(), fallback(name="amd", type="preview", autoSelectionPolicy="any", priority=-1)
        ),
    ),
    ("R2-zero-headroom", runtime_config({"storage": {"pvcHeadroomPercent": 0}, "pvcHeadroomPercent": 0})),
    ("R3-https-endpoint", s3_rc({"endpoint": "https://s3.example.com:9000/path", "region": "eu-1"})),
    (
        "R4-static-with-secret",
        s3_rc({"auth": {"mode": "static", "credentialsSecretRef": {"name": "s3", "sessionTokenKey": "t"}}}),
    ),
    ("R4-anonymous", s3_rc({"auth": {"mode": "anonymous"}})),
    (
        "R5-ca-bundle-only",
        s3_rc(
            {
                "tls": {
                    "caBundleRef": {"kind": "ConfigMap", "name": "ca", "key": "ca.crt"},
                    "insecureSkipVerify": False,
                }
            }
        ),
    ),
    ("R5-insecure-only", s3_rc({"tls": {"insecureSkipVerify": True}})),
    (
        "RC-cluster-artifact-storage-quota",
        runtime_config({"artifactStorageQuota": {"clusterLimit": "1Ti"}}, cluster=True),
    ),
    ("T2-precision-auto", template({"precision": "auto", "metric": "latency"})),
    (
        "T3-namespace-template-env-and-caching",
        template({"env": [{"name": "A", "value": "1"}], "caching": {"enabled": True}}),
    ),
    ("P1-operator-base-profile-without-aim-id-and-model-sources", profile() | {"spec": {"image": "i:1"}}),
    ("T4-cpu-only", template({"hardware": {"cpu": {"requests": 8}}}, cluster=True)),
]


@pytest.mark.parametrize(
    ("manifest", "field", "reason"), [r[1:] for r in INVALID], ids=[r[0] for r in INVALID]
)
def test_rule_rejects(manifest: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(AIMValidationError) as info:
        parse(manifest)
    assert (info.value.field, info.value.reason) == (field, reason), info.value.message
    assert info.value.message


@pytest.mark.parametrize(
    ("manifest", "field", "reason"), [r[1:] for r in INVALID], ids=[r[0] for r in INVALID]
)
def test_rule_is_listed_by_admission_problems(manifest: dict[str, Any], field: str, reason: str) -> None:
    problems = admission_problems(manifest)
    assert (field, reason) in [(p.field, p.reason) for p in problems]


@pytest.mark.parametrize(
    ("manifest", "field", "reason"), [r[1:] for r in INVALID], ids=[r[0] for r in INVALID]
)
def test_rule_applies_to_python_construction(manifest: dict[str, Any], field: str, reason: str) -> None:
    cls = KINDS[manifest["kind"]]
    body = {k: v for k, v in manifest.items() if k != "kind"}
    if field in ("apiVersion", "kind"):
        pytest.fail("construction rows need a known kind")
    with pytest.raises(AIMValidationError) as info:
        cls(**body)
    assert (info.value.field, info.value.reason) == (field, reason)


@pytest.mark.parametrize("manifest", [r[1] for r in VALID], ids=[r[0] for r in VALID])
def test_rule_admits(manifest: dict[str, Any]) -> None:
    assert admission_problems(manifest) == []
    obj = parse(manifest)
    assert obj.admission_problems() == []


def test_admission_problems_reports_every_problem() -> None:
    manifest = service(
        {"profile": {"name": "p", "selector": {"role": "base"}}, "template": {"name": "t"}, "replicas": 1},
        name="Bad_Name",
    )
    found = [(p.field, p.reason) for p in admission_problems(manifest)]
    assert found == [
        ("metadata.name", "InvalidSpec"),
        ("spec.template", "InvalidSpec"),
        ("spec.template", "InvalidSpec"),
        ("spec.profile.selector.role", "InvalidSpec"),
        ("spec.profile.selector", "InvalidSpec"),
        ("spec.profile.selector", "InvalidSpec"),
    ]


def test_admission_problems_lists_every_structural_error() -> None:
    manifest = service({"model": MODEL, "replicas": "2", "routng": {}, "env": [{"value": "x"}]})
    found = sorted((p.field, p.reason) for p in admission_problems(manifest))
    assert found == [
        ("spec.env[0].name", "InvalidSpec"),
        ("spec.replicas", "InvalidSpec"),
        ("spec.routng", "UnknownField"),
    ]


@pytest.mark.parametrize(
    ("mode", "version", "expected"),
    [
        ({"caching": {"mode": "Auto"}}, "v1alpha2", "Shared"),
        ({"caching": {"mode": "Always"}}, "v1alpha2", "Shared"),
        ({"caching": {"mode": "Never"}}, "v1alpha2", "Dedicated"),
        ({"cacheModel": True}, "v1alpha1", "Shared"),
        ({"cacheModel": False}, "v1alpha1", "Dedicated"),
        ({"cacheModel": False, "caching": {"env": [{"name": "A", "value": "1"}]}}, "v1alpha1", "Dedicated"),
        ({"cacheModel": False, "caching": {"mode": "Shared"}}, "v1alpha1", "Shared"),
    ],
    ids=[
        "A14-auto",
        "A14-always",
        "A14-never",
        "A14-cacheModel-true",
        "A14-cacheModel-false",
        "A14-cacheModel-fills-mode",
        "A14-explicit-mode-wins",
    ],
)
def test_legacy_cache_modes_are_normalised(mode: dict[str, Any], version: str, expected: str) -> None:
    svc = parse(service({"model": MODEL, **mode}, version=f"aim.eai.amd.com/{version}"))
    assert svc.spec.caching is not None
    assert svc.spec.caching.mode == expected
    assert "cacheModel" not in svc.model_dump(by_alias=True)["spec"]
