"""The schema the real CLI reads from this checkout's plugin is the committed `schema.json`.

`pulumi package get-schema` starts the plugin as `pulumi package add` does (PulumiPlugin.yaml,
the Python language host, the manifest's virtualenv) and prints what it serves; SDKs of every
language are generated from it, so it must be the file in the repository, descriptions and all.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from harness import REPO, plugin_directory, toolchain_dir

pytestmark = pytest.mark.real_engine


def _walk(node: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(node, dict):
        return [(path, node), *[p for key, item in node.items() for p in _walk(item, f"{path}.{key}")]]
    if isinstance(node, list):
        return [p for index, item in enumerate(node) for p in _walk(item, f"{path}[{index}]")]
    return []


def test_get_schema_is_the_committed_schema(tmp_path: Path) -> None:
    plugin = plugin_directory(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": f"{toolchain_dir()}:/usr/bin:/bin",
        "HOME": str(home),
        "PULUMI_HOME": str(home / ".pulumi"),
        "PULUMI_SKIP_UPDATE_CHECK": "1",
        "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
    }
    done = subprocess.run(
        ["pulumi", "package", "get-schema", str(plugin)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    served = json.loads(done.stdout)
    assert served == json.loads((REPO / "schema.json").read_text())
    descriptions = [(p, n["description"]) for p, n in _walk(served) if isinstance(n.get("description"), str)]
    assert descriptions and all(text == text.strip() and "\n    " not in text for _, text in descriptions)
    for token, resource in served["resources"].items():
        undescribed = [name for name, prop in resource["properties"].items() if not prop.get("description")]
        assert undescribed == [], token
