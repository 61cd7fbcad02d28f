"""Runtime-config merge (contract decision 3, behaviour §3 rules 1-9, inline layers)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.runtime_config.merge import (
    Layer,
    inline_runtime_config_layer,
    merge_env,
    merge_layers,
    merge_layers_with_provenance,
    merge_runtime_config_specs,
    normalize_runtime_config_spec,
    service_inline_layer,
)

NVIDIA_FALLBACK = {
    "name": "nvidia-vllm",
    "priority": 10,
    "type": "unoptimized",
    "autoSelectionPolicy": "any",
    "match": {"acceleratorVendor": "nvidia", "acceleratorType": "gpu"},
    "runtime": {
        "image": "vllm/vllm-openai:v0.17.1-cu130",
        "engine": "vllm",
        "engineArgs": {"max-model-len": 8192, "gpu-memory-utilization": 0.9},
    },
}
AMD_FALLBACK = {
    "name": "amd-vllm",
    "match": {"acceleratorVendor": "amd", "acceleratorType": "gpu"},
    "runtime": {"image": "rocm/vllm:latest", "engine": "vllm"},
}
TEAM_NVIDIA_FALLBACK = {
    "name": "nvidia-vllm",
    "match": {"acceleratorVendor": "nvidia", "acceleratorType": "gpu", "acceleratorModel": "H100"},
    "runtime": {"image": "registry.example/vllm:team", "engine": "vllm"},
}
TEAM_ONLY_FALLBACK = {
    "name": "team-sglang",
    "match": {"acceleratorVendor": "nvidia", "acceleratorType": "gpu"},
    "runtime": {"image": "lmsys/sglang:latest", "engine": "sglang"},
}
S3_CLUSTER = {
    "endpoint": "https://s3.cluster.example",
    "region": "eu-west-1",
    "auth": {"mode": "static", "credentialsSecretRef": {"name": "cluster-creds"}},
}
S3_NAMESPACE = {"endpoint": "https://minio.team.example", "auth": {"mode": "anonymous"}}


def engine_args_env(value: dict[str, Any]) -> dict[str, str]:
    return {"name": "AIM_ENGINE_ARGS", "value": json.dumps(value)}


MERGE_TABLE = [
    # rule 1: deprecated top-level storage keys
    pytest.param(
        {"defaultStorageClassName": "fast-nvme"},
        {"defaultStorageClassName": "team-ssd"},
        {"storage": {"defaultStorageClassName": "team-ssd"}},
        id="seed-storage-class-deprecated-keys-namespace-wins",
    ),
    pytest.param(
        {"defaultStorageClassName": "fast-nvme"},
        None,
        {"storage": {"defaultStorageClassName": "fast-nvme"}},
        id="seed-storage-class-cluster-only",
    ),
    pytest.param(
        {"defaultStorageClassName": "fast-nvme"},
        {"storage": {"defaultStorageClassName": "team-ssd"}},
        {"storage": {"defaultStorageClassName": "team-ssd"}},
        id="deprecated-cluster-new-namespace",
    ),
    pytest.param(
        {"defaultStorageClassName": "old", "storage": {"defaultStorageClassName": "new"}},
        None,
        {"storage": {"defaultStorageClassName": "new"}},
        id="deprecated-ignored-when-storage-key-set-in-same-scope",
    ),
    pytest.param(
        {"defaultStorageClassName": "fast-nvme"},
        {"defaultStorageClassName": ""},
        {"storage": {"defaultStorageClassName": "fast-nvme"}},
        id="deprecated-empty-string-migrates-nothing",
    ),
    pytest.param(
        {"pvcHeadroomPercent": 20},
        {"pvcHeadroomPercent": 0},
        {"storage": {"pvcHeadroomPercent": 0}},
        id="deprecated-headroom-zero-migrates-and-wins",
    ),
    # rule 2: scalars with presence semantics
    pytest.param(
        {"routing": {"enabled": True, "pathTemplate": "/a/{.metadata.name}", "requestTimeout": "60s"}},
        {"routing": {"enabled": False, "pathTemplate": ""}},
        {"routing": {"enabled": False, "pathTemplate": "", "requestTimeout": "60s"}},
        id="false-and-empty-string-override",
    ),
    pytest.param(
        {"storage": {"pvcHeadroomPercent": 25}},
        {"storage": {"pvcHeadroomPercent": 0}},
        {"storage": {"pvcHeadroomPercent": 0}},
        id="zero-overrides",
    ),
    pytest.param(
        {"routing": {"enabled": True}},
        {"routing": {}},
        {"routing": {"enabled": True}},
        id="unset-inherits",
    ),
    # rule 3: objects merge recursively
    pytest.param(
        {"routing": {"gatewayRef": {"name": "inference-gateway", "namespace": "gateways"}}},
        {"routing": {"gatewayRef": {"sectionName": "https"}}},
        {
            "routing": {
                "gatewayRef": {"name": "inference-gateway", "namespace": "gateways", "sectionName": "https"}
            }
        },
        id="gateway-ref-merges-recursively-between-runtime-configs",
    ),
    pytest.param(
        {"storage": {"downloadFilter": {"include": ["*.safetensors"], "exclude": ["*/*"]}}},
        {"storage": {"downloadFilter": {"exclude": []}}},
        {"storage": {"downloadFilter": {"include": ["*.safetensors"], "exclude": []}}},
        id="nested-object-with-list-cleared",
    ),
    # rule 4: env by name
    pytest.param(
        {"env": [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP,XET"}]},
        {"env": [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP"}]},
        {"env": [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP"}]},
        id="seed-downloader-protocol-namespace-wins",
    ),
    pytest.param(
        {"env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}, {"name": "C", "value": "3"}]},
        {
            "env": [
                {"name": "D", "value": "4"},
                {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
            ]
        },
        {
            "env": [
                {"name": "A", "value": "1"},
                {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}},
                {"name": "C", "value": "3"},
                {"name": "D", "value": "4"},
            ]
        },
        id="env-cluster-order-kept-replaced-in-place-new-appended",
    ),
    pytest.param(
        {"env": [engine_args_env({"max-model-len": 8192, "compilation": {"level": 3, "cudagraph": True}})]},
        {
            "env": [
                engine_args_env({"max-model-len": 4096, "compilation": {"level": 1}, "enforce-eager": True})
            ]
        },
        {
            "env": [
                {
                    "name": "AIM_ENGINE_ARGS",
                    "value": (
                        '{"compilation":{"cudagraph":true,"level":1},"enforce-eager":true,"max-model-len":4096}'
                    ),
                }
            ]
        },
        id="engine-args-json-deep-merged-sorted-compact",
    ),
    pytest.param(
        {"env": [engine_args_env({"max-model-len": 8192})]},
        {"env": [{"name": "AIM_ENGINE_ARGS", "value": "--max-model-len 4096"}]},
        {"env": [{"name": "AIM_ENGINE_ARGS", "value": "--max-model-len 4096"}]},
        id="engine-args-not-json-replaced-verbatim",
    ),
    pytest.param(
        {"env": [engine_args_env({"max-model-len": 8192})]},
        {"env": [{"name": "AIM_ENGINE_ARGS", "valueFrom": {"configMapKeyRef": {"name": "c", "key": "k"}}}]},
        {"env": [{"name": "AIM_ENGINE_ARGS", "valueFrom": {"configMapKeyRef": {"name": "c", "key": "k"}}}]},
        id="engine-args-value-from-replaced-verbatim",
    ),
    pytest.param(
        {"env": [engine_args_env({"a": 1})]},
        {"env": [{"name": "AIM_ENGINE_ARGS", "value": "[1, 2]"}]},
        {"env": [{"name": "AIM_ENGINE_ARGS", "value": "[1, 2]"}]},
        id="engine-args-json-list-replaced-verbatim",
    ),
    pytest.param(
        {"env": [{"name": "A", "value": "1"}]},
        {"env": []},
        {"env": [{"name": "A", "value": "1"}]},
        id="env-empty-namespace-list-adds-nothing",
    ),
    # rule 5: maps per key
    pytest.param(
        {"routing": {"annotations": {"a.example/x": "1", "a.example/y": "2"}}},
        {"routing": {"annotations": {"a.example/y": "3", "a.example/z": "4"}}},
        {"routing": {"annotations": {"a.example/x": "1", "a.example/y": "3", "a.example/z": "4"}}},
        id="annotations-per-key",
    ),
    # rule 6: artifact.s3 atomic
    pytest.param(
        {"artifact": {"modelDownloadImage": "img:1", "s3": S3_CLUSTER}},
        {"artifact": {"s3": S3_NAMESPACE}},
        {"artifact": {"modelDownloadImage": "img:1", "s3": S3_NAMESPACE}},
        id="artifact-s3-replaced-whole",
    ),
    pytest.param(
        {"artifact": {"s3": S3_CLUSTER}},
        {"artifact": {"modelDownloadImage": "img:2"}},
        {"artifact": {"modelDownloadImage": "img:2", "s3": S3_CLUSTER}},
        id="artifact-s3-inherited-when-absent",
    ),
    # rule 7: fallbacks by name
    pytest.param(
        {"model": {"profileGeneration": {"fallbacks": [NVIDIA_FALLBACK, AMD_FALLBACK]}}},
        {"model": {"profileGeneration": {"fallbacks": [TEAM_ONLY_FALLBACK, TEAM_NVIDIA_FALLBACK]}}},
        {
            "model": {
                "profileGeneration": {"fallbacks": [TEAM_NVIDIA_FALLBACK, AMD_FALLBACK, TEAM_ONLY_FALLBACK]}
            }
        },
        id="seed-fallbacks-merge-by-name",
    ),
    # rule 8: other lists replaced whole
    pytest.param(
        {"labelPropagation": {"enabled": True, "match": ["org.example/*"]}},
        {"labelPropagation": {"match": ["team.example/*"]}},
        {"labelPropagation": {"enabled": True, "match": ["team.example/*"]}},
        id="match-list-replaced",
    ),
    pytest.param(
        {"routing": {"hostnames": ["a.example", "b.example"]}},
        {"routing": {"hostnames": []}},
        {"routing": {"hostnames": []}},
        id="explicit-empty-list-clears",
    ),
    # rule 9: null is absent
    pytest.param(
        {
            "routing": {"enabled": True, "hostnames": ["a.example"]},
            "scaleFromZero": {"activationMetricQueryTemplate": "q"},
        },
        {"routing": {"enabled": None, "hostnames": None}, "scaleFromZero": None},
        {
            "routing": {"enabled": True, "hostnames": ["a.example"]},
            "scaleFromZero": {"activationMetricQueryTemplate": "q"},
        },
        id="nulls-count-as-absent",
    ),
    pytest.param(None, None, {}, id="nothing-to-merge"),
    pytest.param(
        {"routing": {"enabled": True}},
        {"routing": "disabled-by-mistake"},
        {"routing": "disabled-by-mistake"},
        id="type-mismatch-namespace-replaces",
    ),
]


@pytest.mark.parametrize(("cluster", "namespace", "expected"), MERGE_TABLE)
def test_merge_runtime_config_specs(
    cluster: dict[str, Any] | None, namespace: dict[str, Any] | None, expected: dict[str, Any]
) -> None:
    cluster_before = copy.deepcopy(cluster)
    namespace_before = copy.deepcopy(namespace)
    assert merge_runtime_config_specs(cluster, namespace) == expected
    assert cluster == cluster_before
    assert namespace == namespace_before


def test_result_shares_no_objects_with_inputs() -> None:
    cluster = {"routing": {"hostnames": ["a"]}, "artifact": {"s3": copy.deepcopy(S3_CLUSTER)}}
    merged = merge_runtime_config_specs(cluster, None)
    merged["routing"]["hostnames"].append("b")
    merged["artifact"]["s3"]["region"] = "changed"
    assert cluster == {"routing": {"hostnames": ["a"]}, "artifact": {"s3": S3_CLUSTER}}


@pytest.mark.parametrize(
    ("layers", "expected"),
    [
        pytest.param(
            [
                [
                    {"name": "AIM_DOWNLOADER_PROTOCOL", "value": "XET,HF_TRANSFER"},
                    {"name": "TMPDIR", "value": "/tmp/"},
                ],
                [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP,XET"}],
                [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP"}, {"name": "HF_TOKEN", "value": "t"}],
            ],
            [
                {"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP"},
                {"name": "TMPDIR", "value": "/tmp/"},
                {"name": "HF_TOKEN", "value": "t"},
            ],
            id="seed-precedence-defaults-cluster-namespace",
        ),
        pytest.param(
            [
                [engine_args_env({"a": 1, "n": {"x": 1}})],
                [engine_args_env({"b": 2, "n": {"y": 2}})],
                [engine_args_env({"a": 3, "n": {"x": None}})],
            ],
            [{"name": "AIM_ENGINE_ARGS", "value": '{"a":3,"b":2,"n":{"x":null,"y":2}}'}],
            id="engine-args-deep-merged-across-three-layers",
        ),
        pytest.param(
            [[{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]],
            [{"name": "A", "value": "2"}],
            id="duplicate-name-in-one-layer-last-wins",
        ),
        pytest.param(
            [
                [{"name": "A", "value": None, "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                None,
                [],
            ],
            [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
            id="null-fields-dropped-and-missing-layers-skipped",
        ),
        pytest.param([], [], id="no-layers"),
    ],
)
def test_merge_env(layers: list[list[dict[str, Any]] | None], expected: list[dict[str, Any]]) -> None:
    before = copy.deepcopy(layers)
    assert merge_env(*layers) == expected
    assert layers == before


def test_merge_layers_stacks_inline_runtime_config_on_top() -> None:
    cluster = {"routing": {"enabled": True, "pathTemplate": "/c"}, "env": [{"name": "A", "value": "cluster"}]}
    namespace = {"routing": {"pathTemplate": "/n"}, "env": [{"name": "B", "value": "namespace"}]}
    inline = {"routing": {"enabled": False}, "env": [{"name": "A", "value": "inline"}]}
    assert merge_layers(cluster, namespace, inline) == {
        "routing": {"enabled": False, "pathTemplate": "/n"},
        "env": [{"name": "A", "value": "inline"}, {"name": "B", "value": "namespace"}],
    }


def test_merge_with_provenance_names_the_winning_layer_per_field() -> None:
    merged, contributions = merge_layers_with_provenance(
        [
            (
                "Cluster",
                {
                    "routing": {
                        "enabled": True,
                        "gatewayRef": {"name": "gw"},
                        "annotations": {"a.example/x": "1"},
                    },
                    "env": [{"name": "A", "value": "1"}],
                    "artifact": {"s3": {"endpoint": "https://a.example", "region": "r"}},
                    "model": {"profileGeneration": {"fallbacks": [NVIDIA_FALLBACK]}},
                },
            ),
            (
                "Namespace",
                {
                    "routing": {"enabled": False},
                    "env": [{"name": "B", "value": "2"}],
                    "artifact": {"s3": {"endpoint": "https://b.example"}},
                    "defaultStorageClassName": "ssd",
                },
            ),
        ]
    )
    assert merged["artifact"]["s3"] == {"endpoint": "https://b.example"}
    assert contributions == {
        "artifact.s3": "Namespace",
        "env[A]": "Cluster",
        "env[B]": "Namespace",
        "model.profileGeneration.fallbacks[nvidia-vllm]": "Cluster",
        "routing.annotations[a.example/x]": "Cluster",
        "routing.enabled": "Namespace",
        "routing.gatewayRef.name": "Cluster",
        "storage.defaultStorageClassName": "Namespace",
    }


@pytest.mark.parametrize(
    ("rc", "service_spec", "expected_routing", "expected_scale_from_zero"),
    [
        pytest.param(
            {
                "routing": {
                    "enabled": True,
                    "gatewayRef": {"name": "gw", "namespace": "gateways", "sectionName": "s"},
                }
            },
            {"routing": {"gatewayRef": {"name": "team-gw"}}},
            {"enabled": True, "gatewayRef": {"name": "team-gw"}},
            None,
            id="service-gateway-ref-replaces-whole",
        ),
        pytest.param(
            {"routing": {"annotations": {"x/a": "1"}}},
            {"routing": {"annotations": {"x/b": "2"}, "enabled": True}},
            {"annotations": {"x/a": "1", "x/b": "2"}, "enabled": True},
            None,
            id="service-annotations-per-key",
        ),
        pytest.param(
            {"scaleFromZero": {"activationMetricQueryTemplate": "sum(rc)"}},
            {"scaleFromZero": {"activationMetricQueryTemplate": "   "}},
            None,
            {"activationMetricQueryTemplate": "sum(rc)"},
            id="blank-service-activation-template-does-not-count",
        ),
        pytest.param(
            {"scaleFromZero": {"activationMetricQueryTemplate": "sum(rc)"}},
            {"scaleFromZero": {"activationMetricQueryTemplate": "sum(svc)"}},
            None,
            {"activationMetricQueryTemplate": "sum(svc)"},
            id="service-activation-template-wins",
        ),
    ],
)
def test_service_inline_layer(
    rc: dict[str, Any],
    service_spec: dict[str, Any],
    expected_routing: dict[str, Any] | None,
    expected_scale_from_zero: dict[str, Any] | None,
) -> None:
    merged, _ = merge_layers_with_provenance([Layer("RuntimeConfig", rc), service_inline_layer(service_spec)])
    assert merged.get("routing") == expected_routing
    assert merged.get("scaleFromZero") == expected_scale_from_zero


@pytest.mark.parametrize(
    ("include_env", "expected_env"),
    [
        pytest.param(True, [{"name": "A", "value": "rc"}, {"name": "S", "value": "svc"}], id="env-included"),
        pytest.param(False, [{"name": "A", "value": "rc"}], id="env-left-to-caller"),
    ],
)
def test_service_inline_layer_env(include_env: bool, expected_env: list[dict[str, str]]) -> None:
    spec = {
        "env": [{"name": "S", "value": "svc"}],
        "model": {"name": "m"},
        "storage": {"pvcHeadroomPercent": 5},
    }
    layer = service_inline_layer(spec, include_env=include_env)
    merged = merge_layers_with_provenance([("RC", {"env": [{"name": "A", "value": "rc"}]}), layer])[0]
    assert merged == {"env": expected_env, "storage": {"pvcHeadroomPercent": 5}}


@pytest.mark.parametrize(
    ("service_spec", "expected"),
    [
        pytest.param(
            {"runtimeConfig": {"routing": {"enabled": True}}}, {"routing": {"enabled": True}}, id="block"
        ),
        pytest.param(
            {"runtimeConfig": {"pvcHeadroomPercent": 7}}, {"storage": {"pvcHeadroomPercent": 7}}, id="legacy"
        ),
        pytest.param({}, {}, id="absent"),
    ],
)
def test_inline_runtime_config_layer(service_spec: dict[str, Any], expected: dict[str, Any]) -> None:
    assert merge_layers_with_provenance([inline_runtime_config_layer(service_spec)])[0] == expected


# --- properties ----------------------------------------------------------------------------------

_scalars = st.one_of(st.booleans(), st.integers(-5, 500), st.text(max_size=8))
_env = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["A", "B", "C", "D"]), "value": st.text(max_size=5)}),
    max_size=4,
    unique_by=lambda entry: entry["name"],
)
_rc_specs = st.fixed_dictionaries(
    {},
    optional={
        "defaultStorageClassName": st.text(max_size=6),
        "pvcHeadroomPercent": st.integers(0, 50),
        "storage": st.fixed_dictionaries(
            {},
            optional={
                "defaultStorageClassName": st.one_of(st.none(), st.text(max_size=6)),
                "pvcHeadroomPercent": st.integers(0, 50),
                "downloadFilter": st.fixed_dictionaries(
                    {}, optional={"include": st.lists(st.text(max_size=4), max_size=2)}
                ),
            },
        ),
        "routing": st.fixed_dictionaries(
            {},
            optional={
                "enabled": st.one_of(st.none(), st.booleans()),
                "pathTemplate": _scalars,
                "hostnames": st.lists(st.text(max_size=5), max_size=2),
                "annotations": st.dictionaries(st.sampled_from(["x/a", "x/b"]), st.text(max_size=3)),
                "gatewayRef": st.fixed_dictionaries(
                    {}, optional={"name": st.text(max_size=4), "port": st.integers(1, 9)}
                ),
            },
        ),
        "labelPropagation": st.fixed_dictionaries(
            {}, optional={"enabled": st.booleans(), "match": st.lists(st.text(max_size=4), max_size=2)}
        ),
        "artifact": st.fixed_dictionaries(
            {}, optional={"s3": st.dictionaries(st.sampled_from(["endpoint", "region"]), st.text(max_size=4))}
        ),
        "env": _env,
    },
)


def _leaves(value: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    if isinstance(value, dict) and path not in {("artifact", "s3")}:
        found: list[tuple[tuple[str, ...], Any]] = []
        for key, item in value.items():
            found.extend(_leaves(item, (*path, key)))
        return found
    return [(path, value)]


def _at(value: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


@settings(max_examples=200)
@given(_rc_specs, _rc_specs)
def test_a_present_namespace_value_always_wins(cluster: dict[str, Any], namespace: dict[str, Any]) -> None:
    merged = merge_runtime_config_specs(cluster, namespace)
    for path, value in _leaves(normalize_runtime_config_spec(namespace)):
        if path == ("env",):
            for entry in value:
                assert entry in merged["env"]
        else:
            assert _at(merged, path) == value


@settings(max_examples=200)
@given(_rc_specs)
def test_merging_with_empty_is_identity_on_normalised_input(spec: dict[str, Any]) -> None:
    normalized = normalize_runtime_config_spec(spec)
    assert merge_runtime_config_specs(spec, {}) == normalized
    assert merge_runtime_config_specs({}, spec) == normalized
    assert merge_runtime_config_specs(spec, None) == normalized


@settings(max_examples=100)
@given(_rc_specs, _rc_specs, _rc_specs)
def test_merge_layers_is_left_fold_of_pairwise_merges(
    a: dict[str, Any], b: dict[str, Any], c: dict[str, Any]
) -> None:
    assert merge_layers(a, b, c) == merge_runtime_config_specs(merge_runtime_config_specs(a, b), c)


def test_merge_env_with_sources_names_every_layer_that_set_a_variable() -> None:
    from aim_pulumi.resolve.runtime_config.merge import merge_env_with_sources

    layers = [
        ("cluster", [{"name": "A", "value": "1"}, {"name": "B", "value": "1"}]),
        ("namespace", [{"name": "A", "value": "2"}]),
        ("service", [{"name": "C", "value": "3"}, {"name": "A", "value": "3"}]),
    ]
    env, sources = merge_env_with_sources(layers)
    assert env == merge_env(*(entries for _, entries in layers))
    assert sources == {"A": ("cluster", "namespace", "service"), "B": ("cluster",), "C": ("service",)}


def test_field_sources_name_the_winner_and_the_layers_it_overrode() -> None:
    from aim_pulumi.resolve.runtime_config.merge import field_sources

    layers = [
        Layer("cluster", {"routing": {"enabled": True, "annotations": {"a": "1"}}, "env": [{"name": "X"}]}),
        Layer("namespace", {"routing": {"annotations": {"a": "2"}}}),
        Layer("service", {"routing": {"gatewayRef": {"name": "gw"}}}, frozenset({"routing.gatewayRef"})),
    ]
    rows = {f.path: (f.value, f.set_by, f.overridden) for f in field_sources(layers)}
    assert rows == {
        "env[X]": ({"name": "X"}, "cluster", ()),
        "routing.annotations.a": ("2", "namespace", ("cluster",)),
        "routing.enabled": (True, "cluster", ()),
        "routing.gatewayRef": ({"name": "gw"}, "service", ()),  # replaced whole, so one field
    }
