"""Stack config (`aim:*`) to Settings; component arguments are applied on top by each component.

The key names and their parsing live in `aim_pulumi.resolve.settings`; this module only collects
what the stack sets. `aim:waitForReady: false` (the spelling of the issue that introduced stack
config) is read as "no readiness wait", the same as an empty `aim:waitFor`.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pulumi
import yaml
from pulumi.runtime import config as pulumi_config

from aim_pulumi.api.locations import config_key_line
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import CONFIG_NAMESPACE, Settings
from aim_pulumi.resources import _sdk
from aim_pulumi.resources.sites import DeclarationSite, declare

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
    try:
        return Settings.from_config(values)
    except AIMResolutionError as error:
        # A setting is written in a stack file, not at the line of the program that first read it.
        raise declare(error, setting_site(error.field)) from None


def setting_site(field: str) -> DeclarationSite | None:
    """`Pulumi.<stack>.yaml:<line>` (or `Pulumi.yaml:<line>`, where a project sets its defaults) of
    the stack setting `field` (`aim:<key>`); None when no file of the project writes it (it came
    from the environment, an ESC environment, or the file cannot be read)."""
    root_directory = pulumi.runtime.get_root_directory()
    if not root_directory:
        return None
    root = Path(root_directory)
    project = _project_file(root)
    config_dir = root
    if project is not None:
        with contextlib.suppress(OSError, UnicodeDecodeError, yaml.YAMLError):
            data = yaml.safe_load(project.read_text(encoding="utf-8"))
            if isinstance(data, dict) and isinstance(data.get("stackConfigDir"), str):
                config_dir = root / data["stackConfigDir"]
    stack = pulumi.get_stack()
    candidates = [config_dir / f"Pulumi.{stack}.yaml", config_dir / f"Pulumi.{stack}.yml", project]
    for candidate in candidates:
        if candidate is None:
            continue
        with contextlib.suppress(OSError, UnicodeDecodeError):
            line = config_key_line(candidate.read_text(encoding="utf-8"), field)
            if line is not None:
                return DeclarationSite(str(candidate), line)
    return None


def _project_file(root: Path) -> Path | None:
    return next((root / name for name in ("Pulumi.yaml", "Pulumi.yml") if (root / name).is_file()), None)


def _truthy(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise AIMResolutionError(
            f"{_PREFIX}{WAIT_FOR_READY_KEY}", "InvalidSetting", f"expected true or false, got {value!r}"
        )
    return text == "true"
