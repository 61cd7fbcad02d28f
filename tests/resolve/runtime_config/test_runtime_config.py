"""Runtime-config lookup (behaviour §3 table) and the seed's resolution examples."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.resolve.catalog.embedded import embedded_default_runtime_config
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.runtime_config.lookup import resolve_runtime_config, runtime_config_condition
from aim_pulumi.resolve.types import ObjectRef
from tests.versions import Catalog, parse

G = "aim.eai.amd.com"
NS = "ml-team"


def rc(
    name: str, spec: dict[str, Any], *, cluster: bool = False, ns: str = NS, uid: str | None = None
) -> Any:
    metadata: dict[str, Any] = {"name": name}
    if not cluster:
        metadata["namespace"] = ns
    if uid:
        metadata["uid"] = uid
    return parse(
        {
            "apiVersion": f"{G}/v1alpha1",
            "kind": "AIMClusterRuntimeConfig" if cluster else "AIMRuntimeConfig",
            "metadata": metadata,
            "spec": spec,
        }
    )


CLUSTER = rc(
    "team", {"storage": {"defaultStorageClassName": "fast-nvme"}, "routing": {"enabled": True}}, cluster=True
)
NAMESPACED = rc("team", {"storage": {"defaultStorageClassName": "team-ssd"}})

TABLE = [
    pytest.param(
        [CLUSTER, NAMESPACED],
        "team",
        ("AIMRuntimeConfig", NS, "Namespace"),
        {"storage": {"defaultStorageClassName": "team-ssd"}, "routing": {"enabled": True}},
        id="both-merged-namespace-ref",
    ),
    pytest.param(
        [NAMESPACED],
        "team",
        ("AIMRuntimeConfig", NS, "Namespace"),
        {"storage": {"defaultStorageClassName": "team-ssd"}},
        id="namespace-only",
    ),
    pytest.param(
        [CLUSTER],
        "team",
        ("AIMClusterRuntimeConfig", "", "Cluster"),
        {"storage": {"defaultStorageClassName": "fast-nvme"}, "routing": {"enabled": True}},
        id="cluster-only-empty-namespace",
    ),
    pytest.param([rc("team", {}, ns="other")], "default", None, None, id="missing-default-is-none"),
]


@pytest.mark.parametrize(("objects", "name", "ref", "spec"), TABLE)
def test_lookup_table(
    objects: list[Any], name: str, ref: tuple[str, str, str] | None, spec: dict[str, Any] | None
) -> None:
    result = resolve_runtime_config(Catalog(objects, embed_default=False), NS, name)
    if ref is None:
        assert result is None
        return
    assert result is not None
    assert (result.ref.kind, result.ref.namespace, result.ref.scope, result.ref.name) == (*ref, name)
    assert dict(result.spec) == spec


@pytest.mark.parametrize("name", ["missing", "Default"], ids=["explicit-name", "name-is-case-sensitive"])
def test_explicit_missing_name_is_reference_not_found(name: str) -> None:
    catalog = Catalog([rc("team", {}, ns="other"), rc("default", {})], embed_default=False)
    with pytest.raises(AIMResolutionError) as info:
        resolve_runtime_config(catalog, NS, name)
    assert (info.value.reason, info.value.field) == ("ReferenceNotFound", "spec.runtimeConfigName")
    assert name in info.value.message and NS in info.value.message


@pytest.mark.parametrize("name", [None, ""], ids=["absent", "empty-string"])
def test_absent_or_empty_name_means_default(name: str | None) -> None:
    catalog = Catalog([rc("default", {"routing": {"enabled": True}})], embed_default=False)
    result = resolve_runtime_config(catalog, NS, name)
    assert result is not None and result.ref.name == "default"


def test_namespace_config_is_invisible_in_other_namespaces() -> None:
    catalog = Catalog([rc("default", {"routing": {"enabled": True}})], embed_default=False)
    assert resolve_runtime_config(catalog, "other") is None


def test_reference_carries_the_object_uid() -> None:
    adopted = rc("default", {}, uid="abc123-def456")
    result = resolve_runtime_config(Catalog([adopted], embed_default=False), NS)
    assert result is not None
    assert result.ref == ObjectRef("AIMRuntimeConfig", "default", NS, "Namespace", "abc123-def456")
    derived = resolve_runtime_config(Catalog([rc("default", {}, cluster=True)], embed_default=False), NS)
    assert derived is not None and derived.ref.uid == rc("default", {}, cluster=True).effective_uid


def test_embedded_default_is_the_cluster_default() -> None:
    result = resolve_runtime_config(Catalog(), NS)
    assert result is not None
    embedded = embedded_default_runtime_config()
    assert result.ref == ObjectRef(
        "AIMClusterRuntimeConfig", "default", "", "Cluster", embedded.effective_uid
    )
    fallbacks = result.spec["model"]["profileGeneration"]["fallbacks"]
    assert [f["name"] for f in fallbacks] == ["nvidia-vllm"]


def test_namespace_default_merges_over_embedded_default() -> None:
    catalog = Catalog([rc("default", {"routing": {"enabled": True}})])
    result = resolve_runtime_config(catalog, NS)
    assert result is not None and result.ref.kind == "AIMRuntimeConfig"
    assert result.spec["routing"] == {"enabled": True}
    assert result.spec["model"]["profileGeneration"]["fallbacks"][0]["name"] == "nvidia-vllm"


SEED_EXAMPLES = [
    pytest.param(
        rc("default", {"defaultStorageClassName": "fast-nvme"}, cluster=True),
        rc("default", {"defaultStorageClassName": "team-ssd"}),
        ("storage", "defaultStorageClassName"),
        "team-ssd",
        id="deprecated-storage-class-namespace-override",
    ),
    pytest.param(
        rc("default", {"env": [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP,XET"}]}, cluster=True),
        rc("default", {"env": [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP"}]}),
        ("env",),
        [{"name": "AIM_DOWNLOADER_PROTOCOL", "value": "HTTP"}],
        id="downloader-protocol-namespace-override",
    ),
    pytest.param(
        rc("default", {"routing": {"enabled": True}}, cluster=True),
        rc("default", {"routing": {"enabled": False}}),
        ("routing", "enabled"),
        False,
        id="namespace-false-wins",
    ),
]


@pytest.mark.parametrize(("cluster", "namespaced", "path", "value"), SEED_EXAMPLES)
def test_seed_merge_examples(cluster: Any, namespaced: Any, path: tuple[str, ...], value: Any) -> None:
    result = resolve_runtime_config(Catalog([cluster, namespaced], embed_default=False), NS)
    assert result is not None
    found: Any = result.spec
    for key in path:
        found = found[key]
    assert found == value


def test_contributions_name_the_scope_of_each_field() -> None:
    cluster = rc(
        "default",
        {"routing": {"enabled": True, "pathTemplate": "/a"}, "env": [{"name": "A", "value": "1"}]},
        cluster=True,
    )
    namespaced = rc("default", {"routing": {"pathTemplate": "/b"}, "env": [{"name": "B", "value": "2"}]})
    result = resolve_runtime_config(Catalog([cluster, namespaced], embed_default=False), NS)
    assert result is not None
    assert dict(result.contributions) == {
        "env[A]": "Cluster",
        "env[B]": "Namespace",
        "routing.enabled": "Cluster",
        "routing.pathTemplate": "Namespace",
    }


CONDITIONS = [
    pytest.param([], "DefaultConfigNotFound", id="no-config"),
    pytest.param([rc("default", {})], "RuntimeConfigResolved", id="resolved"),
]


@pytest.mark.parametrize(("objects", "reason"), CONDITIONS)
def test_runtime_config_condition(objects: list[Any], reason: str) -> None:
    result = resolve_runtime_config(Catalog(objects, embed_default=False), NS)
    condition = runtime_config_condition(result)
    assert (condition.type, condition.status, condition.reason) == ("RuntimeConfigReady", "True", reason)
