"""A Namespace the program declares never takes a retained Shared cache with it: the stack remembers
the caches in it and protects a ConfigMap that depends on it, so `pulumi destroy` (or removing the
Namespace) stops before anything is deleted; `aim:namespaceDeletion: allow` lifts that."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.resources.namespace_guard import remember_caches

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = ROOT / "tests" / "fixtures" / "programs" / "namespace-cache"


def plan_json(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> dict[str, dict[str, Any]]:
    target = tmp_path / f"plan-{len(list(tmp_path.iterdir()))}.json"
    code = main(["plan", str(PROGRAM), "-c", "namespace-cache:namespace=ml", "--json", str(target), *argv])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return {r["name"]: r for r in json.loads(target.read_text())["resources"]}


def test_a_shared_cache_in_a_declared_namespace_is_guarded_by_a_protected_config_map(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    resources = plan_json(capsys, tmp_path)
    namespace, guard, kept = resources["ml"], resources["ml-cache-guard"], resources["ml-retained-caches"]
    pvc = next(r for r in resources.values() if r["type"] == "kubernetes:core/v1:PersistentVolumeClaim")
    assert pvc["options"]["retainOnDelete"] is True
    assert guard["state"]["retained"] == [f"ml/{pvc['inputs']['metadata']['name']}"]
    assert kept["options"]["protect"] is True
    assert kept["inputs"]["metadata"]["namespace"] == "ml"
    assert kept["inputs"]["data"]["caches"] == pvc["inputs"]["metadata"]["name"] + "\n"
    # Pulumi deletes the ConfigMap before the Namespace, and refuses to delete it while protected.
    assert namespace["urn"] in kept["dependsOn"] and namespace["urn"] in guard["dependsOn"]


def test_removing_the_service_keeps_the_memory_and_the_protection(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = tmp_path / "first.json"
    assert main(["plan", str(PROGRAM), "-c", "namespace-cache:namespace=ml", "--json", str(first)]) == 0
    capsys.readouterr()
    resources = plan_json(capsys, tmp_path, "-c", "namespace-cache:service=false", "--diff", str(first))
    assert not [r for r in resources.values() if r["type"] == "kubernetes:core/v1:PersistentVolumeClaim"]
    # The cache is still in the cluster (retained), and the stack still guards it.
    assert resources["ml-cache-guard"]["state"]["retained"][0].startswith("ml/qwen-qwen3-0-6b-cache-")
    assert resources["ml-retained-caches"]["options"]["protect"] is True


def test_deletion_is_allowed_only_when_asked_for(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    resources = plan_json(capsys, tmp_path, "-c", "aim:namespaceDeletion=allow")
    assert resources["ml-retained-caches"]["options"]["protect"] is False
    target = tmp_path / "plan.json"
    code = main(
        ["plan", str(PROGRAM), "-c", "namespace-cache:namespace=ml", "-c", "aim:namespaceDeletion=maybe"]
    )
    err = capsys.readouterr().err
    assert code == 1 and not target.exists()
    assert "aim:namespaceDeletion: InvalidSetting: expected one of refuse, allow, got 'maybe'" in err


def test_a_namespace_without_a_shared_cache_is_guarded_but_not_protected(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    resources = plan_json(capsys, tmp_path, "-c", "namespace-cache:service=false")
    assert resources["ml-cache-guard"]["state"]["retained"] == []
    assert "ml-retained-caches" not in resources


def test_the_guard_remembers_every_cache_of_its_namespace() -> None:
    first = remember_caches({}, {"namespace": "ml", "caches": ["ml/a", "other/b"]})
    assert first["retained"] == ["ml/a"]
    later = remember_caches(first, {"namespace": "ml", "caches": ["ml/c"]})
    assert later["retained"] == ["ml/a", "ml/c"]
    assert remember_caches(later, {"namespace": "ml", "caches": []})["retained"] == ["ml/a", "ml/c"]
    # Another Namespace under the same resource name starts afresh.
    assert remember_caches(later, {"namespace": "ml2", "caches": []})["retained"] == []
