"""Deploy-time settings from stack config and component arguments (behaviour "Settings")."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import Settings


def test_documented_defaults() -> None:
    assert Settings() == Settings(
        gateway_provider="none",
        keda_otel_scaler_address="keda-otel-scaler.keda.svc:4318",
        cooldown_seconds_per_gi_memory=5,
        download_image="ghcr.io/silogen/aim-artifact-downloader:0.2.0",
        download_timeout_seconds=3600,
        deployment_mode="Standard",
        ready_timeout_seconds=1800,
        skip_await=False,
        cache_access_mode="ReadWriteMany",
        system_namespace="aim-system",
        embed_default_runtime_config=True,
        inventory=None,
        strict=False,
        wait_for="condition=Ready",
        capacity="warn",
        capacity_kubeconfig=None,
        capacity_timeout_seconds=20,
        gpu_hour_price=(),
        cost_allocation_labels=(),
        read_back_status=True,
    )
    assert Settings.from_config({}) == Settings()


@pytest.mark.parametrize(
    ("config", "attribute", "expected"),
    [
        pytest.param(
            {"aim:gatewayProvider": "envoyGateway"}, "gateway_provider", "envoyGateway", id="gateway-provider"
        ),
        pytest.param(
            {"gatewayProvider": " kgateway "}, "gateway_provider", "kgateway", id="key-without-namespace"
        ),
        pytest.param(
            {"aim:kedaOtelScalerAddress": "otel.monitoring:4318"},
            "keda_otel_scaler_address",
            "otel.monitoring:4318",
            id="scaler-address",
        ),
        pytest.param(
            {"aim:cooldownSecondsPerGiMemory": "10"}, "cooldown_seconds_per_gi_memory", 10, id="cooldown"
        ),
        pytest.param(
            {"aim:cooldownSecondsPerGiMemory": "0"}, "cooldown_seconds_per_gi_memory", 0, id="cooldown-zero"
        ),
        pytest.param(
            {"aim:cooldownSecondsPerGiMemory": "-1"},
            "cooldown_seconds_per_gi_memory",
            5,
            id="cooldown-negative-default",
        ),
        pytest.param(
            {"aim:cooldownSecondsPerGiMemory": "fast"},
            "cooldown_seconds_per_gi_memory",
            5,
            id="cooldown-invalid-default",
        ),
        pytest.param(
            {"aim:downloadImage": "registry.example/downloader:1"},
            "download_image",
            "registry.example/downloader:1",
            id="download-image",
        ),
        pytest.param(
            {"aim:downloadTimeoutSeconds": "7200"}, "download_timeout_seconds", 7200, id="download-timeout"
        ),
        pytest.param(
            {"aim:deploymentMode": "RawDeployment"}, "deployment_mode", "RawDeployment", id="raw-deployment"
        ),
        pytest.param({"aim:readyTimeoutSeconds": 600}, "ready_timeout_seconds", 600, id="ready-timeout-int"),
        pytest.param({"aim:skipAwait": "true"}, "skip_await", True, id="skip-await-string"),
        pytest.param({"aim:skipAwait": "FALSE"}, "skip_await", False, id="skip-await-case-insensitive"),
        pytest.param({"aim:skipAwait": True}, "skip_await", True, id="skip-await-bool"),
        pytest.param(
            {"aim:cacheAccessMode": "ReadWriteOnce"}, "cache_access_mode", "ReadWriteOnce", id="access-mode"
        ),
        pytest.param(
            {"aim:systemNamespace": "aim-operators"}, "system_namespace", "aim-operators", id="system-ns"
        ),
        pytest.param(
            {"aim:embedDefaultRuntimeConfig": "false"},
            "embed_default_runtime_config",
            False,
            id="embed-default-off",
        ),
        pytest.param(
            {"aim:inventory": '[{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8}]'},
            "inventory",
            ({"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8},),
            id="inventory-json",
        ),
        pytest.param(
            {"aim:inventory": [{"vendor": "nvidia", "type": "gpu", "devices": 2}]},
            "inventory",
            ({"vendor": "nvidia", "type": "gpu", "devices": 2},),
            id="inventory-structured",
        ),
        pytest.param({"aim:inventory": "[]"}, "inventory", (), id="inventory-empty-list-means-no-hardware"),
        pytest.param({"aim:inventory": ""}, "inventory", None, id="inventory-empty-string-means-none"),
        pytest.param({"aim:strict": "true"}, "strict", True, id="strict"),
        pytest.param(
            {"aim:waitFor": "jsonpath={.status.url}"}, "wait_for", "jsonpath={.status.url}", id="wait-for"
        ),
        pytest.param({"aim:waitFor": ""}, "wait_for", None, id="wait-for-empty-removes"),
        pytest.param(
            {"aim:inventory": '[{"model": "MI300X", "devices": 8, "nodes": 4, "name": "mi300x"}]'},
            "inventory",
            ({"model": "MI300X", "devices": 8, "nodes": 4, "name": "mi300x"},),
            id="inventory-with-node-count",
        ),
        pytest.param({"aim:readBackStatus": "false"}, "read_back_status", False, id="read-back-status-off"),
        pytest.param({"aim:capacity": "enforce"}, "capacity", "enforce", id="capacity-enforce"),
        pytest.param({"aim:capacity": "off"}, "capacity", "off", id="capacity-off"),
        pytest.param(
            {"aim:capacityKubeconfig": "/etc/kube/ci"}, "capacity_kubeconfig", "/etc/kube/ci", id="kubeconfig"
        ),
        pytest.param(
            {"aim:capacityTimeoutSeconds": "5"}, "capacity_timeout_seconds", 5, id="capacity-timeout"
        ),
        pytest.param(
            {"aim:gpuHourPrice": '{"MI300X": 2.5, "nvidia.com/gpu": "3", "*": 1}'},
            "gpu_hour_price",
            (("*", Decimal(1)), ("MI300X", Decimal("2.5")), ("nvidia.com/gpu", Decimal(3))),
            id="gpu-hour-price",
        ),
        pytest.param(
            {"aim:costAllocationLabels": {"team": "ml", "example.com/cost-center": "4711"}},
            "cost_allocation_labels",
            (("example.com/cost-center", "4711"), ("team", "ml")),
            id="cost-allocation-labels",
        ),
        pytest.param(
            {"kubernetes:context": "kind", "aim:strict": "true"},
            "strict",
            True,
            id="other-namespaces-ignored",
        ),
    ],
)
def test_from_config(config: dict[str, Any], attribute: str, expected: Any) -> None:
    assert getattr(Settings.from_config(config), attribute) == expected


@pytest.mark.parametrize(
    ("config", "field", "message_part"),
    [
        pytest.param(
            {"aim:gatewayProvder": "kgateway"}, "aim:gatewayProvder", "unknown setting", id="typo-key"
        ),
        pytest.param({"aim:skipAwait": "yes"}, "aim:skipAwait", "true or false", id="bool-not-true-false"),
        pytest.param({"aim:strict": 1}, "aim:strict", "true or false", id="bool-from-int"),
        pytest.param(
            {"aim:downloadTimeoutSeconds": "1h"}, "aim:downloadTimeoutSeconds", "integer", id="int-unit"
        ),
        pytest.param(
            {"aim:readyTimeoutSeconds": "0"}, "aim:readyTimeoutSeconds", "at least 1", id="timeout-zero"
        ),
        pytest.param(
            {"aim:readyTimeoutSeconds": True}, "aim:readyTimeoutSeconds", "integer", id="int-from-bool"
        ),
        pytest.param(
            {"aim:deploymentMode": "Serverless"}, "aim:deploymentMode", "Standard", id="deployment-mode"
        ),
        pytest.param(
            {"aim:cacheAccessMode": "ReadOnlyMany"}, "aim:cacheAccessMode", "ReadWriteMany", id="access-mode"
        ),
        pytest.param(
            {"aim:systemNamespace": "AIM_System"}, "aim:systemNamespace", "RFC 1123", id="namespace"
        ),
        pytest.param({"aim:downloadImage": " "}, "aim:downloadImage", "non-empty", id="blank-image"),
        pytest.param({"aim:gatewayProvider": None}, "aim:gatewayProvider", "required", id="null-value"),
        pytest.param({"aim:inventory": "[{"}, "aim:inventory", "JSON", id="inventory-bad-json"),
        pytest.param(
            {"aim:inventory": '{"vendor": "amd"}'}, "aim:inventory", "list", id="inventory-not-a-list"
        ),
        pytest.param({"aim:inventory": '["amd"]'}, "aim:inventory", "object", id="inventory-pool-not-object"),
        pytest.param(
            {"aim:inventory": '[{"gpus": 8}]'}, "aim:inventory", "unknown keys", id="inventory-unknown-key"
        ),
        pytest.param(
            {"aim:inventory": '[{"devices": -1}]'}, "aim:inventory", "non-negative", id="inventory-devices"
        ),
        pytest.param(
            {"aim:inventory": '[{"vendor": 1}]'}, "aim:inventory", "string", id="inventory-vendor-type"
        ),
        pytest.param({"aim:waitFor": 5}, "aim:waitFor", "string", id="wait-for-not-string"),
        pytest.param(
            {"aim:inventory": '[{"nodes": 1.5}]'}, "aim:inventory", "non-negative", id="inventory-nodes"
        ),
        pytest.param({"aim:capacity": "strict"}, "aim:capacity", "warn, enforce, off", id="capacity-mode"),
        pytest.param({"aim:gpuHourPrice": "[1]"}, "aim:gpuHourPrice", "object", id="prices-not-a-map"),
        pytest.param(
            {"aim:gpuHourPrice": '{"MI300X": -1}'}, "aim:gpuHourPrice", "non-negative", id="negative-price"
        ),
        pytest.param(
            {"aim:gpuHourPrice": '{"MI300X": "cheap"}'}, "aim:gpuHourPrice", "number", id="price-text"
        ),
        pytest.param(
            {"aim:costAllocationLabels": '{"bad key!": "x"}'},
            "aim:costAllocationLabels",
            "label key",
            id="label-key",
        ),
        pytest.param(
            {"aim:costAllocationLabels": '{"team": "not a value"}'},
            "aim:costAllocationLabels",
            "label value",
            id="label-value",
        ),
    ],
)
def test_from_config_errors_name_the_key(config: dict[str, Any], field: str, message_part: str) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        Settings.from_config(config)
    assert caught.value.reason == "InvalidSetting"
    assert caught.value.field == field
    assert message_part in caught.value.message


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        pytest.param(
            {"gateway_provider": "kgateway"}, {"gateway_provider": "kgateway"}, id="gateway-provider"
        ),
        pytest.param({"wait_for": None}, {"wait_for": None}, id="wait-for-removed"),
        pytest.param(
            {"skip_await": True, "strict": "true"}, {"skip_await": True, "strict": True}, id="bools"
        ),
        pytest.param({}, {}, id="nothing"),
    ],
)
def test_with_overrides(overrides: dict[str, Any], expected: dict[str, Any]) -> None:
    base = Settings.from_config({"aim:gatewayProvider": "envoyGateway", "aim:readyTimeoutSeconds": "900"})
    updated = base.with_overrides(**overrides)
    for attribute, value in {
        "gateway_provider": "envoyGateway",
        "ready_timeout_seconds": 900,
        **expected,
    }.items():
        assert getattr(updated, attribute) == value
    assert base.gateway_provider == "envoyGateway"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        pytest.param({"strict": None}, "aim:strict", id="none-for-required"),
        pytest.param({"skip_await": "maybe"}, "aim:skipAwait", id="bad-bool"),
        pytest.param({"gatewayProvider": "kgateway"}, "gatewayProvider", id="camel-case-keyword-unknown"),
    ],
)
def test_with_overrides_errors(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        Settings().with_overrides(**overrides)
    assert (caught.value.reason, caught.value.field) == ("InvalidSetting", field)
