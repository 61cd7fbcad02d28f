"""Profile selection (behaviour §4): shapes, filters, passes, precedence, ranking, stickiness, errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.api import AIMClusterProfile, AIMProfile, AIMService
from aim_pulumi.resolve.catalog.inventory import Inventory
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.selection.candidate import ProfileEntry
from aim_pulumi.resolve.selection.filters import (
    effective_selector,
    first_failing_filter,
    partitioning_matches,
    passes_floor,
)
from aim_pulumi.resolve.selection.ranking import compare_candidates, rank_candidates
from aim_pulumi.resolve.selection.select import qualifying_profile_refs, select_profile
from aim_pulumi.resolve.selection.sticky import StickyDecision, sticky_decision
from aim_pulumi.resolve.selection.versions import VersionKey, compare_versions, image_tag_version
from tests.versions import Catalog, parse

G = "aim.eai.amd.com"
NS = "ml-team"


def profile(
    name: str,
    *,
    cluster: bool = False,
    ns: str = NS,
    model: str | None = None,
    model_scope: str | None = None,
    role: str | None = None,
    origin: str | None = None,
    overlay: str | None = None,
    status: dict[str, Any] | None = None,
    **spec: Any,
) -> AIMProfile | AIMClusterProfile:
    labels: dict[str, str] = {}
    if model is not None:
        labels[f"{G}/source-model"] = model
    if model_scope is not None:
        labels[f"{G}/source-model-scope"] = model_scope
    if role is not None:
        labels[f"{G}/profile-role"] = role
    if origin is not None:
        labels[f"{G}/profile-origin"] = origin
    metadata: dict[str, Any] = {"name": name, "labels": labels}
    if overlay is not None:
        metadata["annotations"] = {f"{G}/overlay-service": overlay}
    if not cluster:
        metadata["namespace"] = ns
    spec.setdefault("aimId", "qwen/qwen3-32b")
    spec.setdefault("image", "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5")
    manifest: dict[str, Any] = {
        "apiVersion": f"{G}/v1alpha2",
        "kind": "AIMClusterProfile" if cluster else "AIMProfile",
        "metadata": metadata,
        "spec": spec,
    }
    if status is not None:
        manifest["status"] = status
    obj = parse(manifest)
    assert isinstance(obj, AIMProfile | AIMClusterProfile)
    return obj


def service(
    name: str = "chat",
    *,
    ns: str = NS,
    model: str | None = None,
    image: str | None = None,
    profile_name: str | None = None,
    selector: dict[str, Any] | None = None,
    annotations: dict[str, str] | None = None,
    previous: dict[str, Any] | None = None,
) -> AIMService:
    spec: dict[str, Any] = {}
    if model is not None:
        spec["model"] = {"name": model}
    if image is not None:
        spec["model"] = {"image": image}
    prof: dict[str, Any] = {}
    if profile_name is not None:
        prof["name"] = profile_name
    if selector is not None:
        prof["selector"] = selector
    if prof:
        spec["profile"] = prof
    manifest: dict[str, Any] = {
        "apiVersion": f"{G}/v1alpha2",
        "kind": "AIMService",
        "metadata": {"name": name, "namespace": ns, "annotations": annotations or {}},
        "spec": spec,
    }
    if previous is not None:
        manifest["status"] = {"resolvedProfile": previous}
    obj = parse(manifest)
    assert isinstance(obj, AIMService)
    return obj


def model_obj(name: str, *, cluster: bool = False, ns: str = NS, **spec: Any) -> Any:
    metadata: dict[str, Any] = {"name": name}
    if not cluster:
        metadata["namespace"] = ns
    return parse(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMClusterModel" if cluster else "AIMModel",
            "metadata": metadata,
            "spec": spec,
        }
    )


def ref(name: str, *, cluster: bool = False, ns: str = NS) -> dict[str, Any]:
    if cluster:
        return {"kind": "AIMClusterProfile", "name": name, "namespace": "", "scope": "Cluster"}
    return {"kind": "AIMProfile", "name": name, "namespace": ns, "scope": "Namespace"}


# --------------------------------------------------------------------------------------------------
# The worked examples of behaviour §4.10


def worked_catalog(*extra: Any, p1_status: dict[str, Any] | None = None) -> Catalog:
    objects = [
        profile(
            "q-fp8-mi300x",
            model="q",
            type="optimized",
            primary=True,
            precision="fp8",
            acceleratorModel="MI300X",
            image="amdenterpriseai/aim-q:0.8.5",
            status=p1_status,
        ),
        profile(
            "q-fp16-mi300x",
            model="q",
            type="optimized",
            primary=False,
            precision="fp16",
            acceleratorModel="MI300X",
            image="amdenterpriseai/aim-q:0.8.5",
        ),
        profile(
            "q-fp8-mi325x",
            cluster=True,
            model="q",
            type="optimized",
            primary=True,
            precision="fp8",
            acceleratorModel="MI325X",
            image="amdenterpriseai/aim-q:0.9.0",
        ),
        profile(
            "llama-nvidia-vllm-1a2b3c4d",
            cluster=True,
            model="llama",
            type="unoptimized",
            autoSelectionPolicy="any",
            aimId="meta/llama",
        ),
        profile(
            "mistral-nvidia-vllm-5e6f7a8b",
            cluster=True,
            model="mistral",
            type="unoptimized",
            autoSelectionPolicy="optimized",
            aimId="mistral/mistral",
        ),
        *extra,
    ]
    return Catalog(objects, embed_default=False)


def versioned(name: str, version: str) -> AIMProfile | AIMClusterProfile:
    return profile(name, model="v", type="optimized", status={"version": version})


WORKED_EXAMPLES: list[Any] = [
    pytest.param(
        worked_catalog(),
        service(model="q"),
        "q-fp8-mi300x",
        None,
        id="1-namespace-beats-cluster-primary-beats-p2",
    ),
    pytest.param(
        worked_catalog(),
        service(model="q", selector={"precision": "fp16"}),
        "q-fp16-mi300x",
        None,
        id="2-precision-fp16-only-p2",
    ),
    pytest.param(
        worked_catalog(),
        service(model="q", selector={"acceleratorModel": "mi325x"}),
        "q-fp8-mi325x",
        None,
        id="3-no-namespace-candidate-caseless-model",
    ),
    pytest.param(
        worked_catalog(),
        service(model="llama"),
        "llama-nvidia-vllm-1a2b3c4d",
        None,
        id="4-second-pass-policy-any",
    ),
    pytest.param(
        worked_catalog(),
        service(model="llama", selector={"minimumType": "optimized"}),
        None,
        "ProfileNotFound",
        id="5-explicit-floor-excludes",
    ),
    pytest.param(
        worked_catalog(),
        service(model="mistral"),
        None,
        "ProfileNotFound",
        id="6-implicit-floor-policy-optimized",
    ),
    pytest.param(
        worked_catalog(),
        service(profile_name="q-fp16-mi300x"),
        "q-fp16-mi300x",
        None,
        id="7-by-name-no-filters",
    ),
    pytest.param(
        worked_catalog(p1_status={"status": "NotAvailable"}),
        service(model="q"),
        "q-fp16-mi300x",
        None,
        id="8-availability-first",
    ),
    pytest.param(
        Catalog([versioned("v-nine", "9.0.0"), versioned("v-ten", "10.0.0")], embed_default=False),
        service(model="v"),
        "v-ten",
        None,
        id="9-version-order-not-string-order",
    ),
    pytest.param(
        worked_catalog(),
        service(model="q", previous=ref("q-fp16-mi300x")),
        "q-fp16-mi300x",
        None,
        id="10-sticky-binding-kept",
    ),
    pytest.param(
        worked_catalog(),
        service(model="q", previous=ref("q-fp16-mi300x"), annotations={f"{G}/force-rebind": "now"}),
        "q-fp8-mi300x",
        None,
        id="11-force-rebind",
    ),
    pytest.param(
        worked_catalog(),
        service(model="q", selector={"precision": "fp8"}, previous=ref("q-fp16-mi300x")),
        "q-fp8-mi300x",
        None,
        id="12-no-longer-matches",
    ),
    pytest.param(
        Catalog(
            [profile("b-x", model="t", type="optimized"), profile("a-x", model="t", type="optimized")],
            embed_default=False,
        ),
        service(model="t"),
        "a-x",
        None,
        id="13-tie-name-order-ambiguous",
    ),
]


@pytest.mark.parametrize(("catalog", "svc", "expected", "error"), WORKED_EXAMPLES)
def test_worked_examples(catalog: Catalog, svc: AIMService, expected: str | None, error: str | None) -> None:
    if error is not None:
        with pytest.raises(AIMResolutionError) as info:
            select_profile(svc, catalog)
        assert info.value.reason == error
        return
    assert select_profile(svc, catalog).profile.metadata.name == expected


def test_worked_example_rebinds_report_old_and_reason() -> None:
    forced = select_profile(
        service(model="q", previous=ref("q-fp16-mi300x"), annotations={f"{G}/force-rebind": "now"}),
        worked_catalog(),
    )
    assert (forced.rebound_from, forced.rebound_reason) == ("q-fp16-mi300x", "force-rebind")
    changed = select_profile(
        service(model="q", selector={"precision": "fp8"}, previous=ref("q-fp16-mi300x")), worked_catalog()
    )
    assert (changed.rebound_from, changed.rebound_reason) == ("q-fp16-mi300x", "no-longer-matches")
    kept = select_profile(service(model="q", previous=ref("q-fp16-mi300x")), worked_catalog())
    assert (kept.rebound_from, kept.rebound_reason, kept.ambiguous) == (None, None, False)
    assert kept.explanation is not None and kept.explanation.sticky == "kept"


def test_worked_example_tie_reports_ambiguity() -> None:
    catalog = Catalog(
        [profile("b-x", model="t", type="optimized"), profile("a-x", model="t", type="optimized")],
        embed_default=False,
    )
    result = select_profile(service(model="t"), catalog)
    assert (result.ambiguous, result.tied) == (True, ("b-x",))
    (diagnostic,) = result.diagnostics()
    assert diagnostic.reason == "ProfileSelectorAmbiguous" and "a-x" in diagnostic.message
    assert "b-x" in diagnostic.message


# --------------------------------------------------------------------------------------------------
# Shapes (§4.1)


SHAPES = [
    pytest.param(service(profile_name="q-fp16-mi300x"), "Name", id="name"),
    pytest.param(
        service(model="q", selector={"precision": "fp8"}), "ModelAndSelector", id="model-and-selector"
    ),
    pytest.param(
        service(selector={"aimId": "qwen/qwen3-32b", "precision": "fp8"}), "Selector", id="selector-only"
    ),
    pytest.param(service(model="q"), "Model", id="model-only"),
    pytest.param(service(image="amdenterpriseai/aim-q:0.8.5"), "ModelImage", id="model-image"),
]


@pytest.mark.parametrize(("svc", "shape"), SHAPES)
def test_shape_is_reported(svc: AIMService, shape: str) -> None:
    catalog = worked_catalog(model_obj("q", image="amdenterpriseai/aim-q:0.8.5"))
    assert select_profile(svc, catalog).shape == shape


def test_selector_shape_anchors_on_aim_id() -> None:
    catalog = worked_catalog(
        profile("other-aim", model="q", aimId="other/aim", type="optimized", primary=True)
    )
    result = select_profile(service(selector={"aimId": "qwen/qwen3-32b", "precision": "fp16"}), catalog)
    assert result.profile.metadata.name == "q-fp16-mi300x"
    assert result.explanation is not None
    assert {c.name for c in result.explanation.candidates} == {
        "q-fp8-mi300x",
        "q-fp16-mi300x",
        "q-fp8-mi325x",
    }


def test_selector_model_ref_overrides_spec_model_name() -> None:
    result = select_profile(service(model="llama", selector={"modelRef": {"name": "q"}}), worked_catalog())
    assert result.profile.metadata.name == "q-fp8-mi300x"


IMAGE_CASES = [
    pytest.param(
        [model_obj("q", image="img:1.0.0")],
        "q",
        id="one-namespace-model",
    ),
    pytest.param(
        [model_obj("q", cluster=True, image="img:1.0.0")],
        "q",
        id="one-cluster-model",
    ),
    pytest.param(
        [model_obj("q", image="img:1.0.0"), model_obj("llama", cluster=True, image="img:1.0.0")],
        "q",
        id="namespace-model-beats-cluster-model",
    ),
]


@pytest.mark.parametrize(("models", "model_name"), IMAGE_CASES)
def test_model_image_shape_continues_as_model_name(models: list[Any], model_name: str) -> None:
    result = select_profile(service(image="img:1.0.0"), worked_catalog(*models))
    assert result.model is not None and result.model.metadata.name == model_name
    assert result.explanation is not None and result.explanation.model == model_name


def test_model_image_shape_keeps_the_selector() -> None:
    catalog = worked_catalog(model_obj("q", image="img:1.0.0"))
    svc = parse(
        {
            "apiVersion": f"{G}/v1alpha2",
            "kind": "AIMService",
            "metadata": {"name": "chat", "namespace": NS},
            "spec": {"model": {"image": "img:1.0.0"}, "profile": {"selector": {"precision": "fp16"}}},
        }
    )
    assert isinstance(svc, AIMService)
    assert select_profile(svc, catalog).profile.metadata.name == "q-fp16-mi300x"


def test_model_in_other_namespace_is_not_an_image_match() -> None:
    catalog = worked_catalog(model_obj("q", ns="elsewhere", image="img:1.0.0"))
    with pytest.raises(AIMResolutionError) as info:
        select_profile(service(image="img:1.0.0"), catalog)
    assert (info.value.reason, info.value.field) == ("ProfileNotFound", "spec.model.image")


# --------------------------------------------------------------------------------------------------
# Effective selector (§4.2) and filters (§4.3)


def test_effective_selector_forces_role_fills_model_ref_and_implicit_floor() -> None:
    sel = effective_selector({"precision": "fp8"}, "q")
    assert sel.fields["role"] == "deployable"
    assert sel.fields["modelRef"] == {"name": "q", "scope": "Auto"}
    assert (sel.floor, sel.floor_implicit, sel.model_name, sel.model_scope) == (
        "optimized",
        True,
        "q",
        "Auto",
    )
    explicit = effective_selector(
        {"minimumType": "optimized", "modelRef": {"name": "x", "scope": "Cluster"}}, "q"
    )
    assert (explicit.floor, explicit.floor_implicit, explicit.model_name, explicit.model_scope) == (
        "optimized",
        False,
        "x",
        "Cluster",
    )


def _entry(obj: AIMProfile | AIMClusterProfile) -> ProfileEntry:
    return ProfileEntry.build(obj, None)


FILTERS = [
    # scope
    pytest.param({}, profile("p", ns="other"), "scope", id="scope-auto-other-namespace-invisible"),
    pytest.param({}, profile("p", cluster=True), None, id="scope-auto-cluster-visible"),
    pytest.param(
        {"modelRef": {"name": "m", "scope": "Namespace"}},
        profile("p", model="m"),
        "scope",
        id="scope-namespace-needs-label",
    ),
    pytest.param(
        {"modelRef": {"name": "m", "scope": "Namespace"}},
        profile("p", model="m", model_scope="namespace"),
        None,
        id="scope-namespace-labelled",
    ),
    pytest.param(
        {"modelRef": {"name": "m", "scope": "Namespace"}},
        profile("p", cluster=True, model="m", model_scope="namespace"),
        "scope",
        id="scope-namespace-rejects-cluster-kind",
    ),
    pytest.param(
        {"modelRef": {"name": "m", "scope": "Cluster"}},
        profile("p", cluster=True, model="m", model_scope="cluster"),
        None,
        id="scope-cluster-labelled",
    ),
    pytest.param(
        {"modelRef": {"name": "m", "scope": "Cluster"}},
        profile("p", model="m", model_scope="cluster"),
        "scope",
        id="scope-cluster-rejects-namespace-kind",
    ),
    # role and overlay
    pytest.param({}, profile("p", role="base"), "role", id="role-base-label"),
    pytest.param({}, profile("p", status={"deployable": False}), "role", id="role-status-not-deployable"),
    pytest.param({}, profile("p"), None, id="role-unlabelled-is-deployable"),
    pytest.param({}, profile("p", overlay="svc"), "overlay", id="overlay-never-candidate"),
    # modelRef.name and origin
    pytest.param(
        {"modelRef": {"name": "m"}},
        profile("p", model="other"),
        "modelRef.name",
        id="model-ref-name-mismatch",
    ),
    pytest.param({"modelRef": {"name": "m"}}, profile("p", model="m"), None, id="model-ref-name-match"),
    pytest.param({"origin": "generated"}, profile("p"), "origin", id="origin-unlabelled-is-user-authored"),
    pytest.param({"origin": "user-authored"}, profile("p"), None, id="origin-user-authored"),
    pytest.param({"origin": "derived"}, profile("p", origin="derived"), None, id="origin-label-match"),
    # exact fields
    pytest.param({"aimId": "x/y"}, profile("p"), "aimId", id="aim-id-mismatch"),
    pytest.param({"modelId": "org/m"}, profile("p", modelId="org/m"), None, id="model-id-match"),
    pytest.param(
        {"modelId": "org/m"}, profile("p", modelId="org/M"), "modelId", id="model-id-is-case-sensitive"
    ),
    pytest.param({"profileId": "a"}, profile("p", profileId="b"), "profileId", id="profile-id-mismatch"),
    pytest.param({"engine": "vllm"}, profile("p", engine="sglang"), "engine", id="engine-mismatch"),
    pytest.param({"metric": "latency"}, profile("p", metric="throughput"), "metric", id="metric-mismatch"),
    pytest.param({"precision": "fp8"}, profile("p"), "precision", id="precision-unset-profile-fails"),
    pytest.param({"type": "general"}, profile("p", type="general"), None, id="type-match"),
    # case-insensitive accelerator fields
    pytest.param(
        {"acceleratorModel": "mi300x"},
        profile("p", acceleratorModel="MI300X"),
        None,
        id="accelerator-model-caseless",
    ),
    pytest.param(
        {"acceleratorModel": "MI325X"},
        profile("p", acceleratorModel="MI300X"),
        "acceleratorModel",
        id="accelerator-model-mismatch",
    ),
    pytest.param(
        {"acceleratorVendor": "AMD"},
        profile("p", acceleratorVendor="amd"),
        None,
        id="accelerator-vendor-caseless",
    ),
    pytest.param(
        {"acceleratorType": "GPU"}, profile("p", acceleratorType="gpu"), None, id="accelerator-type-caseless"
    ),
    pytest.param(
        {"acceleratorType": "cpu"},
        profile("p", acceleratorType="gpu"),
        "acceleratorType",
        id="accelerator-type-mismatch",
    ),
    # count
    pytest.param(
        {"acceleratorCount": 2}, profile("p", acceleratorCount=1), "acceleratorCount", id="count-mismatch"
    ),
    pytest.param({"acceleratorCount": 2}, profile("p", acceleratorCount=2), None, id="count-match"),
    pytest.param(
        {"acceleratorCount": 0}, profile("p", acceleratorCount=8), None, id="count-zero-does-not-filter"
    ),
    # engineArgs
    pytest.param(
        {"engineArgs": {"a": True}},
        profile("p", engineArgs={"a": 1}),
        "engineArgs",
        id="engine-args-true-is-not-one",
    ),
    pytest.param(
        {"engineArgs": {"a": {"b": [1, 2]}}},
        profile("p", engineArgs={"a": {"b": [1, 2]}, "c": 3}),
        None,
        id="engine-args-deep-equal-extra-keys-ok",
    ),
    pytest.param(
        {"engineArgs": {"a": 1}},
        profile("p", engineArgs={"b": 1}),
        "engineArgs",
        id="engine-args-missing-key",
    ),
    pytest.param(
        {"engineArgs": {"a": 1}}, profile("p", engineArgs={"a": 1.0}), None, id="engine-args-number-equality"
    ),
    # partitioning
    pytest.param(
        {"acceleratorPartitioningMode": "CPX"},
        profile("p", acceleratorPartitioningMode="SPX"),
        "acceleratorPartitioningMode",
        id="partitioning-mismatch",
    ),
]


@pytest.mark.parametrize(("selector", "obj", "failing"), FILTERS)
def test_filter(selector: dict[str, Any], obj: AIMProfile | AIMClusterProfile, failing: str | None) -> None:
    sel = effective_selector(selector, None)
    assert first_failing_filter(_entry(obj), sel, NS) == failing


PARTITIONING = [
    pytest.param("unpartitioned", "", True, id="unpartitioned-matches-unset"),
    pytest.param("unpartitioned", "Unpartitioned", True, id="unpartitioned-matches-unpartitioned"),
    pytest.param("unpartitioned", "CPX", False, id="unpartitioned-rejects-cpx"),
    pytest.param("partitioned", "CPX-NPS4", True, id="partitioned-matches-any-mode"),
    pytest.param("partitioned", "", False, id="partitioned-rejects-unset"),
    pytest.param("partitioned", "unpartitioned", False, id="partitioned-rejects-unpartitioned"),
    pytest.param("CPX", "cpx", True, id="prefix-matches-itself-caseless"),
    pytest.param("CPX", "CPX-NPS4", True, id="prefix-matches-dash-suffix"),
    pytest.param("CPX", "CPXY", False, id="prefix-needs-dash"),
    pytest.param("CPX-NPS4", "cpx-nps4", True, id="dashed-exact-caseless"),
    pytest.param("CPX-NPS4", "CPX-NPS1", False, id="dashed-rejects-other"),
    pytest.param("CPX-NPS4", "CPX", False, id="dashed-rejects-prefix"),
]


@pytest.mark.parametrize(("wanted", "have", "matches"), PARTITIONING)
def test_partitioning_mode(wanted: str, have: str, matches: bool) -> None:
    assert partitioning_matches(wanted, have) is matches


FLOORS = [
    pytest.param("optimized", "optimized", True, id="optimized-floor-admits-optimized"),
    pytest.param("optimized", "general", False, id="optimized-floor-rejects-general"),
    pytest.param("general", "general", True, id="general-floor-admits-general"),
    pytest.param("general", "preview", False, id="general-floor-rejects-preview"),
    pytest.param("preview", "preview", True, id="preview-floor-admits-preview"),
    pytest.param("unoptimized", "unoptimized", True, id="unoptimized-floor-admits-all"),
    pytest.param("unoptimized", None, True, id="unoptimized-floor-admits-unset"),
    pytest.param("optimized", None, False, id="unset-type-ranks-as-unoptimized"),
    pytest.param("any", "unoptimized", True, id="any-admits-all"),
]


@pytest.mark.parametrize(("floor", "ptype", "passes"), FLOORS)
def test_floor(floor: str, ptype: str | None, passes: bool) -> None:
    obj = profile("p", type=ptype) if ptype else profile("p")
    assert passes_floor(_entry(obj), floor) is passes


def test_every_filter_drops_in_an_end_to_end_selection() -> None:
    catalog = Catalog(
        [
            profile("keep", model="m", type="optimized", precision="fp8"),
            profile("wrong-precision", model="m", type="optimized", precision="fp16"),
            profile("base", model="m", type="optimized", precision="fp8", role="base"),
            profile("overlay", model="m", type="optimized", precision="fp8", overlay="x"),
            profile("low", model="m", type="preview", precision="fp8"),
            profile("elsewhere", ns="other", model="m", type="optimized", precision="fp8"),
        ],
        embed_default=False,
    )
    result = select_profile(service(model="m", selector={"precision": "fp8"}), catalog)
    assert result.profile.metadata.name == "keep"
    assert result.explanation is not None
    dropped = {c.name: c.dropped_by for c in result.explanation.candidates}
    assert dropped == {
        "keep": None,
        "wrong-precision": "precision",
        "base": "role",
        "overlay": "overlay",
        "low": "floor",
    }


# --------------------------------------------------------------------------------------------------
# Two passes (§4.4) and scope precedence (§4.5)


PASSES = [
    pytest.param(
        [profile("g", cluster=True, model="m", type="unoptimized", autoSelectionPolicy="any")],
        {},
        "g",
        2,
        id="implicit-floor-second-pass-admits-policy-any",
    ),
    pytest.param(
        [
            profile("g", cluster=True, model="m", type="unoptimized", autoSelectionPolicy="any"),
            profile("opt", cluster=True, model="m", type="optimized"),
        ],
        {},
        "opt",
        1,
        id="second-pass-only-when-first-pass-empty",
    ),
    pytest.param(
        [profile("u", model="m", type="unoptimized")],
        {"minimumType": "unoptimized"},
        "u",
        1,
        id="explicit-unoptimized-floor-admits-without-policy",
    ),
    pytest.param(
        [profile("p", model="m", type="preview", autoSelectionPolicy="optimized")],
        {"minimumType": "any"},
        "p",
        1,
        id="explicit-any-floor-admits-all",
    ),
    pytest.param(
        [
            profile("ns-any", model="m", type="preview", autoSelectionPolicy="any"),
            profile("cl-any", cluster=True, model="m", type="general", autoSelectionPolicy="any"),
        ],
        {},
        "ns-any",
        2,
        id="second-pass-keeps-namespace-precedence",
    ),
]


@pytest.mark.parametrize(("objects", "selector", "winner", "selection_pass"), PASSES)
def test_passes(objects: list[Any], selector: dict[str, Any], winner: str, selection_pass: int) -> None:
    svc = service(model="m", selector=selector) if selector else service(model="m")
    result = select_profile(svc, Catalog(objects, embed_default=False))
    assert result.profile.metadata.name == winner
    assert result.explanation is not None and result.explanation.selection_pass == selection_pass


def test_namespace_candidates_hide_better_cluster_candidates() -> None:
    catalog = Catalog(
        [
            profile("ns-general", model="m", type="general"),
            profile("cl-optimized", cluster=True, model="m", type="optimized", primary=True),
        ],
        embed_default=False,
    )
    result = select_profile(service(model="m", selector={"minimumType": "general"}), catalog)
    assert (result.profile.metadata.name, result.scope) == ("ns-general", "Namespace")
    assert result.explanation is not None
    rows = {c.name: c for c in result.explanation.candidates}
    assert rows["cl-optimized"].dropped_by == "namespace-precedence"
    assert rows["ns-general"].rank == 1


# --------------------------------------------------------------------------------------------------
# Ranking (§4.5, contract decision 4)


def _ranked(*objects: AIMProfile | AIMClusterProfile, inventory: Inventory | None = None) -> list[str]:
    return [e.name for e in rank_candidates([ProfileEntry.build(o, inventory) for o in objects])]


RANKING = [
    pytest.param(
        [profile("a", status={"status": "NotAvailable"}, primary=True), profile("b")],
        ["b", "a"],
        "availability",
        id="available-beats-primary",
    ),
    pytest.param(
        [profile("a", status={"status": "Failed"}), profile("b", status={"status": "Ready"})],
        ["b", "a"],
        "availability",
        id="failed-is-unavailable-ready-is-available",
    ),
    pytest.param(
        [profile("a", status={"status": "Pending"}), profile("b", status={"status": "Running"})],
        ["a", "b"],
        "name",
        id="other-status-values-count-as-available",
    ),
    pytest.param(
        [profile("a", type="general", primary=True), profile("b", type="optimized")],
        ["a", "b"],
        "primary",
        id="primary-beats-type",
    ),
    pytest.param(
        [profile("a", type="preview"), profile("b", type="general"), profile("c", type="optimized")],
        ["c", "b", "a"],
        "type",
        id="type-order",
    ),
    pytest.param(
        [profile("a", type="unoptimized"), profile("b")],
        ["a", "b"],
        "name",
        id="unset-type-equals-unoptimized",
    ),
    pytest.param(
        [profile("a", image="r/x:9.0.0"), profile("b", image="r/x:10.0.0")],
        ["b", "a"],
        "version",
        id="image-tag-version-numeric",
    ),
    pytest.param(
        [profile("a", image="r/x:latest"), profile("b", image="r/x:0.1")],
        ["b", "a"],
        "version",
        id="any-version-beats-none",
    ),
    pytest.param(
        [profile("a", image="r/x:9.0.0", status={"version": "11.0"}), profile("b", image="r/x:10.0.0")],
        ["a", "b"],
        "version",
        id="status-version-beats-image-tag",
    ),
    pytest.param(
        [
            profile("a", image="vllm/vllm-openai:v0.9.1-cu130"),
            profile("b", image="vllm/vllm-openai:v0.17.1-cu130"),
        ],
        ["b", "a"],
        "version",
        id="unparseable-tags-compare-by-tokens",
    ),
    pytest.param([profile("b"), profile("a")], ["a", "b"], "name", id="name-ascending-last"),
]


@pytest.mark.parametrize(("objects", "order", "tier"), RANKING)
def test_ranking(objects: list[Any], order: list[str], tier: str) -> None:
    assert _ranked(*objects) == order
    first, second = (
        ProfileEntry.build(o, None) for o in sorted(objects, key=lambda o: order.index(o.metadata.name))[:2]
    )
    assert compare_candidates(first, second) == (tier, -1)


def test_inventory_decides_availability_without_status() -> None:
    inventory = Inventory.from_config([{"vendor": "amd", "type": "gpu", "model": "MI300X", "devices": 8}])
    objects = [
        profile(
            "a-mi325x",
            acceleratorVendor="amd",
            acceleratorType="gpu",
            acceleratorModel="MI325X",
            acceleratorCount=1,
            primary=True,
        ),
        profile(
            "b-mi300x",
            acceleratorVendor="amd",
            acceleratorType="gpu",
            acceleratorModel="MI300X",
            acceleratorCount=8,
        ),
        profile(
            "c-mi300x-16",
            acceleratorVendor="amd",
            acceleratorType="gpu",
            acceleratorModel="mi300x",
            acceleratorCount=16,
            primary=True,
        ),
        profile("d-cpu", acceleratorType="cpu"),
    ]
    assert _ranked(*objects, inventory=inventory) == ["b-mi300x", "d-cpu", "a-mi325x", "c-mi300x-16"]
    assert _ranked(*objects) == ["a-mi325x", "c-mi300x-16", "b-mi300x", "d-cpu"]


VERSIONS = [
    pytest.param("amdenterpriseai/aim-qwen:0.8.5", "0.8.5", id="plain-tag"),
    pytest.param("vllm/vllm-openai:v0.17.1-cu130", "0.17.1-cu130", id="leading-v-dropped"),
    pytest.param("registry:5000/team/image", None, id="registry-port-is-not-a-tag"),
    pytest.param("registry:5000/team/image:1.2", "1.2", id="tag-after-registry-port"),
    pytest.param("image@sha256:abcdef", None, id="digest-has-no-version"),
    pytest.param("image:latest", None, id="non-numeric-tag"),
    pytest.param("image", None, id="no-tag"),
]


@pytest.mark.parametrize(("image", "version"), VERSIONS)
def test_image_tag_version(image: str, version: str | None) -> None:
    assert image_tag_version(image) == version


VERSION_ORDER = [
    pytest.param("10.0.0", "9.0.0", 1, id="numeric-not-string"),
    pytest.param("1.0.0", "1.0.0", 0, id="equal"),
    pytest.param("1.0", "1.0.0", 0, id="pep440-equal-padding"),
    pytest.param("1.0.0rc1", "1.0.0", -1, id="pre-release-older"),
    pytest.param("0.17.1-cu130", "0.9.1-cu130", 1, id="token-fallback-numeric-runs"),
    pytest.param("1.2.x", "1.2.3", -1, id="token-number-beats-text"),
    pytest.param("0.0.1", None, 1, id="version-beats-none"),
    pytest.param("0.17.1-cu130", "0.17.1", -1, id="operator-semver-pre-release-before-release"),
    pytest.param("0.8.5+build2", "0.8.5", 0, id="operator-semver-build-metadata-ignored"),
    pytest.param("0.8.5+build2", "0.8.5+build9", 0, id="operator-semver-build-metadata-never-ranks"),
    pytest.param("1.0.0-alpha.2", "1.0.0-alpha.10", -1, id="operator-semver-numeric-pre-release-ids"),
    pytest.param("1.0.0-alpha", "1.0.0-alpha.1", -1, id="operator-semver-shorter-pre-release-first"),
    pytest.param("1.0.0-beta", "1.0.0-alpha.9", 1, id="operator-semver-pre-release-ascii-order"),
    pytest.param("0.10.0", "0.9.9", 1, id="operator-semver-numeric-minor"),
    pytest.param("0.8", "0.8.0", 0, id="not-semver-falls-back-to-pep440"),
    pytest.param("2024.10-rocm", "2024.9-rocm", 1, id="not-semver-falls-back-to-numeric-runs"),
]


@pytest.mark.parametrize(("a", "b", "sign"), VERSION_ORDER)
def test_version_order(a: str, b: str | None, sign: int) -> None:
    assert compare_versions(VersionKey.of(a), VersionKey.of(b)) == sign
    assert compare_versions(VersionKey.of(b), VersionKey.of(a)) == -sign


# --------------------------------------------------------------------------------------------------
# Sticky binding (§4.7)


STICKY_RULE = [
    pytest.param(None, True, False, True, StickyDecision(False, None), id="no-previous-binding"),
    pytest.param("p", True, False, True, StickyDecision(True, None), id="still-qualifies-kept"),
    pytest.param("p", True, True, True, StickyDecision(False, "force-rebind"), id="force-rebind"),
    pytest.param("p", False, False, False, StickyDecision(False, "deleted"), id="deleted"),
    pytest.param("p", False, False, True, StickyDecision(False, "no-longer-matches"), id="no-longer-matches"),
    pytest.param(
        "p", False, True, False, StickyDecision(False, "force-rebind"), id="force-wins-over-deleted"
    ),
]


@pytest.mark.parametrize(("previous", "ok", "force", "exists", "decision"), STICKY_RULE)
def test_sticky_decision(
    previous: str | None, ok: bool, force: bool, exists: bool, decision: StickyDecision
) -> None:
    assert sticky_decision(previous, candidate_ok=ok, force_rebind=force, exists=exists) == decision


STICKY = [
    pytest.param(
        service(model="q", previous=ref("q-fp8-mi325x", cluster=True)),
        "q-fp8-mi325x",
        None,
        None,
        id="kept-cluster-binding-despite-namespace-candidates",
    ),
    pytest.param(
        service(model="q", previous=ref("gone")),
        "q-fp8-mi300x",
        "gone",
        "deleted",
        id="deleted-binding-rebinds",
    ),
    pytest.param(
        service(model="llama", previous=ref("llama-nvidia-vllm-1a2b3c4d", cluster=True)),
        "llama-nvidia-vllm-1a2b3c4d",
        None,
        None,
        id="kept-under-pass-two-relaxation",
    ),
    pytest.param(
        service(model="q", previous=ref("q-fp8-mi300x"), annotations={f"{G}/force-rebind": "yes"}),
        "q-fp8-mi300x",
        None,
        None,
        id="force-rebind-same-winner-is-silent",
    ),
    pytest.param(
        service(model="q", previous=ref("q-fp16-mi300x"), annotations={f"{G}/force-rebind": ""}),
        "q-fp16-mi300x",
        None,
        None,
        id="empty-force-rebind-annotation-is-ignored",
    ),
    pytest.param(
        service(model="q", previous=ref("q-fp16-mi300x", ns="other")),
        "q-fp8-mi300x",
        "q-fp16-mi300x",
        "deleted",
        id="binding-in-other-namespace-is-not-found",
    ),
    pytest.param(
        service(model="q", previous={"name": "q-fp16-mi300x"}),
        "q-fp16-mi300x",
        None,
        None,
        id="ref-without-kind-defaults-to-service-namespace-profile",
    ),
    pytest.param(
        service(model="q", previous={"kind": "AIMProfile", "name": "q-fp8-mi300x", "namespace": "other"}),
        "q-fp8-mi300x",
        "q-fp8-mi300x",
        "deleted",
        id="same-name-in-another-namespace-is-a-different-binding",
    ),
]


@pytest.mark.parametrize(("svc", "winner", "rebound_from", "reason"), STICKY)
def test_sticky_binding(svc: AIMService, winner: str, rebound_from: str | None, reason: str | None) -> None:
    result = select_profile(svc, worked_catalog())
    assert (result.profile.metadata.name, result.rebound_from, result.rebound_reason) == (
        winner,
        rebound_from,
        reason,
    )


def test_kindless_cluster_reference_is_compared_as_the_cluster_profile() -> None:
    catalog = Catalog(
        [
            profile("same", model="m", type="optimized", precision="fp16"),
            profile("same", cluster=True, model="m", type="optimized", precision="fp8"),
        ],
        embed_default=False,
    )
    result = select_profile(
        service(model="m", selector={"precision": "fp16"}, previous={"name": "same", "scope": "Cluster"}),
        catalog,
    )
    assert (result.profile.kind, result.rebound_from, result.rebound_reason) == (
        "AIMProfile",
        "same",
        "no-longer-matches",
    )
    assert result.explanation is not None and result.explanation.sticky == "rebound"


def test_binding_kept_under_pass_two_is_not_displaced_by_an_optimized_newcomer() -> None:
    catalog = worked_catalog(profile("llama-opt", model="llama", type="optimized", primary=True))
    assert select_profile(service(model="llama"), catalog).profile.metadata.name == "llama-opt"
    kept = select_profile(
        service(model="llama", previous=ref("llama-nvidia-vllm-1a2b3c4d", cluster=True)), catalog
    )
    assert (kept.profile.metadata.name, kept.rebound_from) == ("llama-nvidia-vllm-1a2b3c4d", None)


KEPT_EXPLANATIONS = [
    pytest.param(
        ref("q-fp16-mi300x"),
        [("q-fp16-mi300x", 1, None, None), ("q-fp8-mi300x", 2, None, "binding")],
        id="kept-below-a-better-namespace-candidate",
    ),
    pytest.param(
        ref("q-fp8-mi325x", cluster=True),
        [("q-fp8-mi325x", 1, None, None), ("q-fp8-mi300x", 2, None, "binding")],
        id="kept-cluster-profile-outside-the-ranked-scope",
    ),
]


@pytest.mark.parametrize(("previous", "expected"), KEPT_EXPLANATIONS)
def test_kept_binding_is_explained_as_the_selection(
    previous: dict[str, Any], expected: list[tuple[str, int, str | None, str | None]]
) -> None:
    result = select_profile(service(model="q", previous=previous), worked_catalog())
    explanation = result.explanation
    assert explanation is not None and explanation.sticky == "kept"
    assert explanation.winner == result.profile.metadata.name
    rows = {c.name: (c.name, c.rank, c.dropped_by, c.decided_by) for c in explanation.candidates}
    for row in expected:
        assert rows[row[0]] == row


def test_sticky_binding_drops_below_explicit_floor() -> None:
    svc = service(
        model="llama",
        selector={"minimumType": "unoptimized"},
        previous=ref("llama-nvidia-vllm-1a2b3c4d", cluster=True),
    )
    assert select_profile(svc, worked_catalog()).rebound_from is None
    tightened = service(
        model="llama",
        selector={"minimumType": "optimized"},
        previous=ref("llama-nvidia-vllm-1a2b3c4d", cluster=True),
    )
    with pytest.raises(AIMResolutionError):
        select_profile(tightened, worked_catalog())


def test_rebound_diagnostic_names_old_new_and_reason() -> None:
    result = select_profile(
        service(model="q", selector={"precision": "fp8"}, previous=ref("q-fp16-mi300x")), worked_catalog()
    )
    (diagnostic,) = result.diagnostics()
    assert diagnostic.reason == "ProfileRebound" and diagnostic.level == "info"
    for fragment in ("q-fp16-mi300x", "q-fp8-mi300x", "no-longer-matches"):
        assert fragment in diagnostic.message


def test_a_rebind_from_a_deleted_profile_is_a_warning() -> None:
    """Nobody asked for it: the service moves to another profile, possibly an older one."""
    result = select_profile(
        service(model="q", selector={"precision": "fp8"}, previous=ref("q-gone-mi300x")), worked_catalog()
    )
    (diagnostic,) = result.diagnostics()
    assert (diagnostic.reason, diagnostic.level) == ("ProfileRebound", "warn")
    assert "reason: deleted" in diagnostic.message


def test_name_shape_is_never_sticky() -> None:
    result = select_profile(
        service(profile_name="q-fp8-mi300x", previous=ref("q-fp16-mi300x")), worked_catalog()
    )
    assert (result.profile.metadata.name, result.rebound_from, result.rebound_reason) == (
        "q-fp8-mi300x",
        None,
        None,
    )


def _qualifying(svc: AIMService) -> list[tuple[str, str, str]]:
    return [(r.kind, r.namespace, r.name) for r in qualifying_profile_refs(svc, worked_catalog())]


def test_qualifying_profiles_cover_both_scopes_and_passes() -> None:
    assert _qualifying(service(model="q")) == [
        ("AIMClusterProfile", "", "q-fp8-mi325x"),
        ("AIMProfile", NS, "q-fp16-mi300x"),
        ("AIMProfile", NS, "q-fp8-mi300x"),
    ]
    assert _qualifying(service(model="llama")) == [("AIMClusterProfile", "", "llama-nvidia-vllm-1a2b3c4d")]
    assert _qualifying(service(model="mistral")) == []
    assert _qualifying(service(model="q", selector={"precision": "fp8"})) == [
        ("AIMClusterProfile", "", "q-fp8-mi325x"),
        ("AIMProfile", NS, "q-fp8-mi300x"),
    ]
    assert _qualifying(service(profile_name="q-fp16-mi300x")) == [("AIMProfile", NS, "q-fp16-mi300x")]


# --------------------------------------------------------------------------------------------------
# Errors (§4.8, §4.9)


def _error(svc: AIMService, catalog: Catalog) -> AIMResolutionError:
    with pytest.raises(AIMResolutionError) as info:
        select_profile(svc, catalog)
    return info.value


ERRORS = [
    pytest.param(
        service(profile_name="nope"),
        worked_catalog(),
        "ProfileNotFound",
        "spec.profile.name",
        ["nope", "AIMProfile", NS, "AIMClusterProfile"],
        id="by-name-missing",
    ),
    pytest.param(
        service(profile_name="base"),
        worked_catalog(profile("base", role="base")),
        "BaseProfile",
        "spec.profile.name",
        ["base"],
        id="by-name-base-label",
    ),
    pytest.param(
        service(profile_name="nd"),
        worked_catalog(profile("nd", cluster=True, status={"deployable": False})),
        "BaseProfile",
        "spec.profile.name",
        ["nd"],
        id="by-name-status-not-deployable",
    ),
    pytest.param(
        service(profile_name="skeleton"),
        worked_catalog(profile("skeleton", aimId=None)),
        "BaseProfile",
        "spec.profile.name",
        ["skeleton", "base profile"],
        id="operator-marks-a-profile-without-aim-id-and-model-sources-base",
    ),
    pytest.param(
        service(image="img:2.0"),
        worked_catalog(),
        "ProfileNotFound",
        "spec.model.image",
        ["img:2.0", "AIMModel", "AIMClusterModel", "spec.model.name", "auto-created"],
        id="image-no-model",
    ),
    pytest.param(
        service(image="img:2.0"),
        worked_catalog(model_obj("b", image="img:2.0"), model_obj("a", image="img:2.0")),
        "ProfileNotFound",
        "spec.model.image",
        ["img:2.0", f"{NS}/a (namespace)", f"{NS}/b (namespace)", "spec.model.name"],
        id="image-several-namespace-models",
    ),
    pytest.param(
        service(image="img:2.0"),
        worked_catalog(
            model_obj("b", cluster=True, image="img:2.0"), model_obj("a", cluster=True, image="img:2.0")
        ),
        "ProfileNotFound",
        "spec.model.image",
        ["a (cluster)", "b (cluster)"],
        id="image-several-cluster-models",
    ),
    pytest.param(
        service(model="ghost"),
        worked_catalog(),
        "ProfileNotFound",
        "spec.model.name",
        ["ghost", "AIMModel", "AIMClusterModel", f"{G}/source-model=ghost"],
        id="model-name-unknown",
    ),
    pytest.param(
        service(selector={"modelRef": {"name": "ghost"}}),
        worked_catalog(),
        "ProfileNotFound",
        "spec.profile.selector.modelRef.name",
        ["ghost"],
        id="selector-model-ref-unknown",
    ),
    pytest.param(
        service(model="llama", selector={"minimumType": "optimized"}),
        worked_catalog(),
        "ProfileNotFound",
        "spec.profile.selector",
        ['"optimized"', "1 candidate", "unoptimized", "any"],
        id="explicit-floor-excluded",
    ),
    pytest.param(
        service(model="mistral"),
        worked_catalog(),
        "ProfileNotFound",
        "spec.model.name",
        ['"optimized"', "1 candidate", "implicit", "autoSelectionPolicy"],
        id="implicit-floor-excluded",
    ),
    pytest.param(
        service(model="q", selector={"precision": "int4"}),
        worked_catalog(),
        "ProfileNotFound",
        "spec.profile.selector",
        ["either scope"],
        id="nothing-matched",
    ),
    pytest.param(
        service(model="lonely"),
        worked_catalog(model_obj("lonely", image="img:9")),
        "ProfileNotFound",
        "spec.model.name",
        ["either scope", "AIMModel lonely has no profiles", f"{G}/source-model=lonely"],
        id="image-backed-model-without-declared-profiles",
    ),
    pytest.param(
        service(model="id-backed"),
        worked_catalog(model_obj("id-backed", modelId="org/m", accelerator={"vendor": "amd"})),
        "ProfileNotFound",
        "spec.model.name",
        ["either scope", "AIMModel id-backed is declared by modelId", "profile-generation fallback"],
        id="id-backed-model-without-matching-fallback",
    ),
    pytest.param(
        service(model="q", selector={"precision": "int4"}),
        worked_catalog(model_obj("q", image="img:1")),
        "ProfileNotFound",
        "spec.profile.selector",
        ["either scope"],
        id="known-model-nothing-matched",
    ),
    pytest.param(
        service(profile_name="q-fp8-mi300"),
        worked_catalog(),
        "ProfileNotFound",
        "spec.profile.name",
        ['did you mean "q-fp8-mi300x"'],
        id="mistyped-profile-name-gets-the-close-one",
    ),
    pytest.param(
        service(profile_name="elsewhere"),
        worked_catalog(profile("elsewhere", ns="other-team")),
        "ProfileNotFound",
        "spec.profile.name",
        ['AIMProfile of that name exists in namespace "other-team"', "AIMClusterProfile"],
        id="profile-of-another-namespace-is-named",
    ),
    pytest.param(
        service(model="lonley"),
        worked_catalog(model_obj("lonely", image="img:9")),
        "ProfileNotFound",
        "spec.model.name",
        ['did you mean "lonely"?'],
        id="mistyped-model-name-gets-the-close-one",
    ),
    pytest.param(
        service(model="shared"),
        worked_catalog(model_obj("shared", ns="platform", image="img:9")),
        "ProfileNotFound",
        "spec.model.name",
        ['AIMModel of that name exists in namespace "platform"'],
        id="model-of-another-namespace-is-named",
    ),
    pytest.param(
        service(model="q", selector={"precision": "int4"}),
        worked_catalog(),
        "ProfileNotFound",
        "spec.profile.selector",
        ["either scope", "aim-pulumi explain PROGRAM --service ml-team/chat"],
        id="a-selector-that-drops-every-candidate-says-how-to-see-why",
    ),
]


@pytest.mark.parametrize(("svc", "catalog", "reason", "field", "fragments"), ERRORS)
def test_errors(svc: AIMService, catalog: Catalog, reason: str, field: str, fragments: list[str]) -> None:
    err = _error(svc, catalog)
    assert (err.reason, err.field, err.object_ref) == (reason, field, f"AIMService/{NS}/chat")
    for fragment in fragments:
        assert fragment in err.message


@pytest.mark.parametrize(
    "svc",
    [
        pytest.param(service(model="m"), id="by-model"),
        pytest.param(service(selector={"aimId": "qwen/qwen3-32b"}), id="by-selector"),
    ],
)
def test_a_base_profile_is_catalogued_and_never_fails_the_plan(svc: AIMService) -> None:
    skeleton = profile("skeleton", model="m", type="optimized", primary=True, aimId=None)
    catalog = Catalog([skeleton, profile("real", model="m", type="optimized")], embed_default=False)
    entry = catalog.profile_entry("AIMProfile", NS, "skeleton")
    assert entry is not None and entry.role == "base"
    assert select_profile(svc, catalog).profile.metadata.name == "real"


def test_floor_count_excludes_overlays_and_other_filters() -> None:
    catalog = Catalog(
        [
            profile("low-a", model="m", type="preview"),
            profile("low-b", cluster=True, model="m", type="general"),
            profile("low-overlay", model="m", type="preview", overlay="x"),
            profile("low-fp16", model="m", type="preview", precision="fp16"),
        ],
        embed_default=False,
    )
    err = _error(service(model="m", selector={"precision": "fp8", "minimumType": "optimized"}), catalog)
    assert "no profile matched" in err.message
    err = _error(service(model="m", selector={"minimumType": "optimized"}), catalog)
    assert "3 candidate(s)" in err.message


# --------------------------------------------------------------------------------------------------
# Properties


def _catalog_objects() -> list[Any]:
    return [
        profile("a-opt", model="m", type="optimized"),
        profile("b-opt", model="m", type="optimized", image="r/x:1.2.0"),
        profile("c-gen", model="m", type="general", primary=True),
        profile("d-opt", cluster=True, model="m", type="optimized", primary=True),
        profile("e-any", cluster=True, model="m", type="unoptimized", autoSelectionPolicy="any"),
        profile("f-other", ns="other", model="m", type="optimized", primary=True),
        profile("g-fp8", model="m", type="optimized", precision="fp8", status={"status": "NotAvailable"}),
        profile("h-base", model="m", type="optimized", role="base", primary=True),
    ]


SERVICES = [
    service(model="m"),
    service(model="m", selector={"minimumType": "general"}),
    service(model="m", selector={"precision": "fp8"}),
    service(model="m", ns="other"),
    service(model="m", ns="third"),
    service(model="m", previous=ref("b-opt")),
]


@settings(max_examples=60, deadline=None)
@given(order=st.permutations(range(len(_catalog_objects()))))
def test_selection_does_not_depend_on_insertion_order(order: list[int]) -> None:
    objects = _catalog_objects()
    baseline = Catalog(objects, embed_default=False)
    shuffled = Catalog([objects[i] for i in order], embed_default=False)
    for svc in SERVICES:
        a, b = select_profile(svc, baseline), select_profile(svc, shuffled)
        assert (a.profile.metadata.name, a.scope, a.tied, a.explanation) == (
            b.profile.metadata.name,
            b.scope,
            b.tied,
            b.explanation,
        )
        assert qualifying_profile_refs(svc, baseline) == qualifying_profile_refs(svc, shuffled)


NAMESPACES = ["ml-team", "other", "third"]


@settings(max_examples=80, deadline=None)
@given(
    placements=st.lists(
        st.tuples(
            st.sampled_from([*NAMESPACES, None]), st.sampled_from(["optimized", "general"]), st.booleans()
        ),
        min_size=1,
        max_size=8,
    ),
    service_ns=st.sampled_from(NAMESPACES),
)
def test_namespace_profiles_are_never_used_across_namespaces(
    placements: list[tuple[str | None, str, bool]], service_ns: str
) -> None:
    objects = [
        profile(f"p{i}", cluster=ns is None, ns=ns or NS, model="m", type=ptype, primary=primary)
        for i, (ns, ptype, primary) in enumerate(placements)
    ]
    catalog = Catalog(objects, embed_default=False)
    visible = [o for o in objects if isinstance(o, AIMClusterProfile) or o.metadata.namespace == service_ns]
    svc = service(model="m", ns=service_ns, selector={"minimumType": "any"})
    if not visible:
        with pytest.raises(AIMResolutionError):
            select_profile(svc, catalog)
        return
    result = select_profile(svc, catalog)
    chosen = result.profile
    assert isinstance(chosen, AIMClusterProfile) or chosen.metadata.namespace == service_ns
    assert result.explanation is not None
    assert all(c.scope == "Cluster" or c.namespace == service_ns for c in result.explanation.candidates)
    for ref in qualifying_profile_refs(svc, catalog):
        assert ref.scope == "Cluster" or ref.namespace == service_ns
        assert any(o.kind == ref.kind and o.metadata.name == ref.name for o in visible)
