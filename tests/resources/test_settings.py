"""Stack config `aim:*` becomes Settings; component arguments override it."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import Settings
from aim_pulumi.resources.registry import current_registry
from aim_pulumi.resources.settings import stack_settings


def _settings_under(recording: Any, config: dict[str, str]) -> Settings:
    seen: list[Settings] = []
    recording(lambda: seen.append(stack_settings()), config=config)
    return seen[0]


@pytest.mark.parametrize(
    ("config", "attribute", "expected"),
    [
        pytest.param({}, "gateway_provider", "none", id="defaults"),
        pytest.param(
            {"aim:gatewayProvider": "kgateway"}, "gateway_provider", "kgateway", id="gateway-provider"
        ),
        pytest.param({"aim:strict": "true"}, "strict", True, id="strict"),
        pytest.param({"aim:skipAwait": "true"}, "skip_await", True, id="skip-await"),
        pytest.param(
            {"aim:waitFor": "condition=Available"}, "wait_for", "condition=Available", id="wait-for"
        ),
        pytest.param({"aim:waitForReady": "false"}, "wait_for", None, id="wait-for-ready-false"),
        pytest.param({"aim:waitForReady": "true"}, "wait_for", "condition=Ready", id="wait-for-ready-true"),
        pytest.param({"aim:readyTimeoutSeconds": "600"}, "ready_timeout_seconds", 600, id="ready-timeout"),
        pytest.param(
            {"aim:downloadImage": "registry/dl:1"}, "download_image", "registry/dl:1", id="download-image"
        ),
        pytest.param(
            {"aim:inventory": '[{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8}]'},
            "inventory",
            ({"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8},),
            id="inventory-json",
        ),
        pytest.param(
            {"aim:embedDefaultRuntimeConfig": "false"}, "embed_default_runtime_config", False, id="no-default"
        ),
        pytest.param({"other:strict": "true"}, "strict", False, id="other-namespaces-ignored"),
    ],
)
def test_stack_config_maps_to_settings(
    recording: Any, config: dict[str, str], attribute: str, expected: Any
) -> None:
    assert getattr(_settings_under(recording, config), attribute) == expected


@pytest.mark.parametrize(
    ("config", "field"),
    [
        pytest.param({"aim:strictt": "true"}, "aim:strictt", id="unknown-key"),
        pytest.param({"aim:strict": "yes"}, "aim:strict", id="bad-bool"),
        pytest.param({"aim:waitForReady": "maybe"}, "aim:waitForReady", id="bad-wait-for-ready"),
    ],
)
def test_bad_stack_config_names_the_key(recording: Any, config: dict[str, str], field: str) -> None:
    with pytest.raises(AIMResolutionError) as caught:
        _settings_under(recording, config)
    assert caught.value.field == field


def test_the_stack_catalog_is_built_from_the_settings(recording: Any) -> None:
    seen: list[Any] = []

    def program() -> None:
        catalog = current_registry().catalog
        seen.append((catalog.embed_default, catalog.system_namespace, catalog.inventory is not None))

    recording(
        program,
        config={
            "aim:embedDefaultRuntimeConfig": "false",
            "aim:systemNamespace": "platform",
            "aim:inventory": "[]",
        },
    )

    assert seen == [(False, "platform", True)]
