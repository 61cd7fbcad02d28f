"""Stack config (`aim:*`) to Settings; component arguments are applied on top by each component.

The key names and their parsing live in `aim_pulumi.resolve.settings`; this module only collects
what the stack sets. `aim:waitForReady: false` (the spelling of the issue that introduced stack
config) is read as "no readiness wait", the same as an empty `aim:waitFor`.
"""

from __future__ import annotations

from typing import Any

import pulumi
from pulumi.runtime import config as pulumi_config

from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import CONFIG_NAMESPACE, Settings
from aim_pulumi.resources import _sdk

__all__ = ["WAIT_FOR_READY_KEY", "stack_config", "stack_settings"]

WAIT_FOR_READY_KEY = "waitForReady"
_PREFIX = f"{CONFIG_NAMESPACE}:"


def stack_config() -> dict[str, Any]:
    """Every `aim:*` value the stack sets, keyed without the prefix (explicit config beats env)."""
    keys: set[str] = set()
    for source in (pulumi_config.get_config_env(), _sdk.stack_config_values()):
        keys.update(k[len(_PREFIX) :] for k in source if isinstance(k, str) and k.startswith(_PREFIX))
    config = pulumi.Config(CONFIG_NAMESPACE)
    return {key: config.get(key) for key in sorted(keys)}


def stack_settings() -> Settings:
    """The stack's Settings; unknown `aim:*` keys and bad values fail with the key's name."""
    values = stack_config()
    wait_for_ready = values.pop(WAIT_FOR_READY_KEY, None)
    if wait_for_ready is not None and "waitFor" not in values and not _truthy(wait_for_ready):
        values["waitFor"] = ""
    return Settings.from_config(values)


def _truthy(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise AIMResolutionError(
            f"{_PREFIX}{WAIT_FOR_READY_KEY}", "InvalidSetting", f"expected true or false, got {value!r}"
        )
    return text == "true"
