"""The catalog (behaviour §1 visibility, §6.4 embedded default): indexes, scopes, duplicates, inventory."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from aim_pulumi.api import AIMClusterRuntimeConfig, AIMObject, to_manifest
from aim_pulumi.resolve.catalog.embedded import embedded_default_runtime_config
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.objects import object_ref
from tests.versions import Catalog, parse

G = "aim.eai.amd.com"
NS = "ml-team"


def obj(
    kind: str, name: str, spec: dict[str, Any], *, ns: str | None = NS, labels: dict[str, str] | None = None
) -> Any:
    version = (
        "v1alpha1"
        if kind in ("AIMRuntimeConfig", "AIMClusterRuntimeConfig") or "Template" in kind
        else "v1alpha2"
    )
    metadata: dict[str, Any] = {"name": name, "labels": labels or {}}
    if not kind.startswith("AIMCluster"):
        metadata["namespace"] = ns
    return parse({"apiVersion": f"{G}/{version}", "kind": kind, "metadata": metadata, "spec": spec})


def profile(name: str, *, cluster: bool = False, ns: str = NS, model: str | None = None, **spec: Any) -> Any:
    spec.setdefault("aimId", "org/model")
    spec.setdefault("image", "img:1.0")
    labels = {f"{G}/source-model": model} if model else {}
    return obj("AIMClusterProfile" if cluster else "AIMProfile", name, spec, ns=ns, labels=labels)


def model(name: str, *, cluster: bool = False, ns: str = NS, **spec: Any) -> Any:
    return obj("AIMClusterModel" if cluster else "AIMModel", name, spec, ns=ns)


# --------------------------------------------------------------------------------------------------
# Inventory


def test_inventory_from_config_accepts_list_and_json() -> None:
    pools = [{"vendor": "amd", "type": "gpu", "model": "MI300X", "partitioningMode": "CPX", "devices": 8}]
    assert Inventory.from_config(pools) == Inventory.from_config(
        '[{"vendor": "amd", "type": "gpu", "model": "MI300X", "partitioningMode": "CPX", "devices": 8}]'
    )
    assert Inventory.from_config(pools).pools[0].partitioning_mode == "CPX"


@pytest.mark.parametrize(
    "config",
    [
        pytest.param([{"vendor": "amd", "gpus": 8}], id="unknown-key"),
        pytest.param([{"vendor": "amd", "devices": -1}], id="negative-devices"),
        pytest.param({"vendor": "amd"}, id="not-a-list"),
    ],
)
def test_inventory_rejects_malformed_config(config: Any) -> None:
    with pytest.raises(ValidationError):
        Inventory.from_config(config)


POOLS = Inventory.from_config(
    [
        {"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8},
        {"vendor": "amd", "type": "gpu", "model": "MI325X", "partitioningMode": "CPX", "devices": 64},
        {"vendor": "nvidia", "type": "gpu", "devices": 4},
    ]
)

HAS = [
    pytest.param(("amd", "gpu", "MI300X", "", 8), True, id="exact-pool-full-count"),
    pytest.param(
        ("amd", "gpu", "mi300x", "unpartitioned", 1), True, id="caseless-model-unpartitioned-is-unset"
    ),
    pytest.param(("amd", "gpu", "MI300X", "", 9), False, id="too-many-devices"),
    pytest.param(("amd", "gpu", "MI325X", "", 1), False, id="partitioned-pool-not-unpartitioned"),
    pytest.param(("amd", "gpu", "MI325X", "cpx", 16), True, id="caseless-partitioning"),
    pytest.param(("amd", "gpu", "MI355X", "", 1), False, id="absent-model"),
    pytest.param(("nvidia", "gpu", "H100", "", 4), True, id="pool-without-model-is-wildcard"),
    pytest.param(("nvidia", "gpu", "", "", 5), False, id="nvidia-count"),
    pytest.param(("intel", "cpu", "", "", 64), True, id="cpu-always-matches"),
    pytest.param(("", "", "", "", None), True, id="unconstrained-request"),
]


@pytest.mark.parametrize(("args", "expected"), HAS)
def test_inventory_has(args: tuple[Any, ...], expected: bool) -> None:
    assert POOLS.has(*args) is expected


def test_empty_inventory_has_only_cpu() -> None:
    empty = Inventory()
    assert empty.has("amd", "gpu", "MI300X", "", 1) is False
    assert empty.has(None, "cpu", None, None, None) is True


# --------------------------------------------------------------------------------------------------
# Visibility and by-name lookups


def test_namespace_object_wins_by_name_and_is_invisible_elsewhere() -> None:
    catalog = Catalog(
        [
            profile("shared", model="m"),
            profile("shared", cluster=True, model="m"),
            profile("local-only", ns="other", model="m"),
        ],
        embed_default=False,
    )
    found = catalog.profile(NS, "shared")
    assert found is not None and found.kind == "AIMProfile"
    from_other = catalog.profile("third", "shared")
    assert from_other is not None and from_other.kind == "AIMClusterProfile"
    assert catalog.profile(NS, "local-only") is None
    assert catalog.profile("other", "local-only") is not None


def test_model_and_template_lookups_prefer_namespace() -> None:
    from aim_pulumi.resolve.legacy.index import template_index  # v1alpha1's own: not imported without it

    catalog = Catalog(
        [
            model("m", image="img:1"),
            model("m", cluster=True, image="img:2"),
            obj("AIMServiceTemplate", "t", {"modelName": "m"}),
            obj("AIMClusterServiceTemplate", "t", {"modelName": "m"}),
            obj("AIMClusterServiceTemplate", "u", {"modelName": "m"}),
        ],
        embed_default=False,
    )
    assert catalog.model(NS, "m").kind == "AIMModel"  # type: ignore[union-attr]
    assert catalog.model("other", "m").kind == "AIMClusterModel"  # type: ignore[union-attr]
    templates = template_index(catalog)
    assert templates.template(NS, "t").kind == "AIMServiceTemplate"  # type: ignore[union-attr]
    assert templates.template("other", "t").kind == "AIMClusterServiceTemplate"  # type: ignore[union-attr]
    assert [(t.kind, t.metadata.name) for t in templates.templates_for_model(NS, "m")] == [
        ("AIMServiceTemplate", "t"),
        ("AIMClusterServiceTemplate", "t"),
        ("AIMClusterServiceTemplate", "u"),
    ]
    assert [t.metadata.name for t in templates.templates_for_model("other", "m")] == ["t", "u"]


def test_models_with_image_are_split_by_scope() -> None:
    catalog = Catalog(
        [
            model("b", image="img:1"),
            model("a", image="img:1"),
            model("c", ns="other", image="img:1"),
            model("d", cluster=True, image="img:1"),
            model("e", image="img:2"),
        ],
        embed_default=False,
    )
    local, cluster = catalog.models_with_image(NS, "img:1")
    assert [m.metadata.name for m in local] == ["a", "b"]
    assert [m.metadata.name for m in cluster] == ["d"]
    assert catalog.models_with_image("nowhere", "img:3") == ([], [])


POOLS_BY_ANCHOR = [
    pytest.param(
        {"model": "m"}, ["AIMProfile/a", "AIMProfile/b", "AIMClusterProfile/c"], id="by-source-model-label"
    ),
    pytest.param({"aim_id": "org/other"}, ["AIMProfile/x"], id="by-aim-id"),
    pytest.param(
        {}, ["AIMProfile/a", "AIMProfile/b", "AIMProfile/x", "AIMClusterProfile/c"], id="unanchored-visible"
    ),
]


@pytest.mark.parametrize(("anchor", "expected"), POOLS_BY_ANCHOR)
def test_profile_pool(anchor: dict[str, str], expected: list[str]) -> None:
    catalog = Catalog(
        [
            profile("c", cluster=True, model="m"),
            profile("b", model="m"),
            profile("a", model="m"),
            profile("x", model="n", aimId="org/other"),
            profile("hidden", ns="other", model="m", aimId="org/other"),
        ],
        embed_default=False,
    )
    pool = catalog.profile_pool(NS, **anchor)
    assert [f"{e.kind}/{e.name}" for e in pool] == expected


def test_has_model_or_profiles() -> None:
    catalog = Catalog([model("known", image="img:1"), profile("p", model="labelled")], embed_default=False)
    assert catalog.has_model_or_profiles(NS, "known")
    assert catalog.has_model_or_profiles(NS, "labelled")
    assert not catalog.has_model_or_profiles("other", "labelled")
    assert not catalog.has_model_or_profiles(NS, "ghost")


# --------------------------------------------------------------------------------------------------
# Duplicates


def test_identical_duplicate_is_a_no_op() -> None:
    catalog = Catalog([profile("p"), profile("p")], embed_default=False)
    assert len(catalog) == 1
    assert profile("p") in catalog
    assert profile("p", ns="other") not in catalog
    assert "p" not in catalog


@pytest.mark.parametrize("first", [0, 1], ids=["original-first", "changed-first"])
def test_conflicting_duplicate_is_an_error_in_either_order(first: int) -> None:
    pair = [profile("p", image="img:1"), profile("p", image="img:2")]
    with pytest.raises(AIMResolutionError) as info:
        Catalog([pair[first], pair[1 - first]], embed_default=False)
    assert info.value.reason == "DuplicateObject"
    assert info.value.object_ref == f"AIMProfile/{NS}/p"


def test_same_name_in_other_scope_or_namespace_is_not_a_duplicate() -> None:
    catalog = Catalog(
        [profile("p"), profile("p", ns="other"), profile("p", cluster=True)], embed_default=False
    )
    assert len(catalog) == 3
    assert [object_ref(o).as_dict()["namespace"] for o in catalog.objects()] == ["", NS, "other"]


# --------------------------------------------------------------------------------------------------
# Embedded default runtime config (§6.4)


EMBEDDED_SPEC = {
    "model": {
        "profileGeneration": {
            "fallbacks": [
                {
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
            ]
        }
    }
}


def test_embedded_default_is_the_seed_config() -> None:
    embedded = embedded_default_runtime_config()
    assert isinstance(embedded, AIMClusterRuntimeConfig)
    manifest = to_manifest(embedded)
    assert manifest["metadata"]["name"] == "default"
    assert manifest["spec"] == EMBEDDED_SPEC


EMBEDDED = [
    pytest.param([], True, "embedded", id="used-when-no-cluster-default"),
    pytest.param([], False, None, id="opt-out-removes-it"),
    pytest.param(
        [obj("AIMClusterRuntimeConfig", "default", {"routing": {"enabled": True}})],
        True,
        "declared",
        id="declared-replaces-it",
    ),
    pytest.param(
        [obj("AIMRuntimeConfig", "default", {})], True, "embedded", id="namespace-default-does-not-replace-it"
    ),
]


@pytest.mark.parametrize(("objects", "embed", "expected"), EMBEDDED)
def test_embedded_default_lookup(objects: list[AIMObject], embed: bool, expected: str | None) -> None:
    catalog = Catalog(objects, embed_default=embed)
    found = catalog.get("AIMClusterRuntimeConfig", None, "default")
    if expected is None:
        assert found is None
    elif expected == "embedded":
        assert found is embedded_default_runtime_config()
    else:
        assert found is objects[0]
    assert catalog.get("AIMClusterRuntimeConfig", None, "other") is None
    assert embedded_default_runtime_config() not in catalog.objects()


# --------------------------------------------------------------------------------------------------
# Generated profiles exposed to selection


def test_generated_profiles_are_indexed_and_recomputed_after_add() -> None:
    nvidia = model("small", modelId="org/small", accelerator={"vendor": "nvidia"})
    catalog = Catalog([nvidia])
    (generated,) = catalog.generated_profiles_of(nvidia)
    assert [e.name for e in catalog.profile_pool(NS, model="small")] == [generated.metadata.name]
    assert catalog.profile(NS, generated.metadata.name) is generated
    catalog.add(
        obj(
            "AIMRuntimeConfig",
            "default",
            {
                "model": {
                    "profileGeneration": {
                        "fallbacks": [
                            {
                                "name": "extra",
                                "match": {"acceleratorVendor": "nvidia", "acceleratorType": "gpu"},
                                "runtime": {"image": "extra:1", "engine": "vllm"},
                            }
                        ]
                    }
                }
            },
        )
    )
    assert [p.spec.profile_id for p in catalog.generated_profiles_of(nvidia)] == ["nvidia-vllm", "extra"]
    assert len(catalog.profile_pool(NS, model="small")) == 2


def test_declared_profile_wins_over_generated_profile_of_same_name() -> None:
    nvidia = model("small", modelId="org/small")
    generated_name = Catalog([nvidia]).generated_profiles_of(nvidia)[0].metadata.name
    declared = profile(generated_name, model="small", image="mine:1")
    catalog = Catalog([nvidia, declared])
    assert catalog.profile(NS, generated_name) is declared
    assert [e.obj for e in catalog.profile_pool(NS, model="small")] == [declared]


def test_cluster_model_resolves_its_runtime_config_in_the_system_namespace() -> None:
    cluster_model = model("big", cluster=True, modelId="org/big", runtimeConfigName="gen")
    rc = obj(
        "AIMRuntimeConfig",
        "gen",
        {
            "model": {
                "profileGeneration": {
                    "fallbacks": [
                        {
                            "name": "amd-vllm",
                            "match": {"acceleratorVendor": "amd", "acceleratorType": "gpu"},
                            "runtime": {"image": "rocm/vllm:1", "engine": "vllm"},
                        }
                    ]
                }
            }
        },
        ns="platform",
    )
    catalog = Catalog([cluster_model, rc], system_namespace="platform")
    (generated,) = catalog.generated_profiles_of(cluster_model)
    assert generated.kind == "AIMClusterProfile" and generated.spec.profile_id == "amd-vllm"
    assert catalog.generation_error(cluster_model) is None

    elsewhere = Catalog([cluster_model, rc])
    assert elsewhere.generated_profiles_of(cluster_model) == ()
    err = elsewhere.generation_error(cluster_model)
    assert err is not None and (err.reason, err.field) == ("ReferenceNotFound", "spec.runtimeConfigName")


def test_generated_profiles_are_visible_only_in_their_model_namespace() -> None:
    nvidia = model("small", modelId="org/small")
    catalog = Catalog([nvidia])
    assert catalog.profile_pool("other", model="small") == []
    assert catalog.has_model_or_profiles("other", "small") is False


# --------------------------------------------------------------------------------------------------
# Insertion order


def _objects() -> list[Any]:
    return [
        profile("a", model="m"),
        profile("b", model="m", aimId="org/other"),
        profile("c", cluster=True, model="m"),
        profile("a", cluster=True, model="n"),
        model("m", image="img:1"),
        model("k", cluster=True, image="img:1"),
        model("small", modelId="org/small"),
        obj("AIMRuntimeConfig", "default", {"routing": {"enabled": True}}),
    ]


@settings(max_examples=50, deadline=None)
@given(order=st.permutations(range(len(_objects()))))
def test_lookups_do_not_depend_on_insertion_order(order: list[int]) -> None:
    objects = _objects()
    a, b = Catalog(objects), Catalog([objects[i] for i in order])
    assert a.objects() == b.objects()
    for namespace in (NS, "other"):
        for anchor in ({"model": "m"}, {"aim_id": "org/other"}, {}, {"model": "small"}):
            assert [e.key for e in a.profile_pool(namespace, **anchor)] == [
                e.key for e in b.profile_pool(namespace, **anchor)
            ]
        assert a.models_with_image(namespace, "img:1") == b.models_with_image(namespace, "img:1")
