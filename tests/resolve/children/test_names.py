"""Child names (behaviour §14) and label-value sanitising (§11)."""

from __future__ import annotations

import hashlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.children.names import (
    cache_job_name,
    cache_pvc_name,
    derived_name,
    generated_profile_name,
    go_json_string,
    hash_suffix,
    http_route_name,
    inference_service_name,
    name_hash,
    overlay_profile_name,
    predictor_name,
    profile_configmap_name,
    sanitize_label_value,
    sanitize_name_part,
    source_short_name,
)
from aim_pulumi.resolve.errors import AIMResolutionError

RFC1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        pytest.param("qwen-chat", "qwen-chat", id="already-clean"),
        pytest.param("Qwen_Chat", "qwen-chat", id="lowercase-and-underscore"),
        pytest.param("Qwen/Qwen3.5-0.8B", "qwen-qwen3-5-0-8b", id="slash-and-dots"),
        pytest.param("a..b", "a--b", id="runs-not-collapsed"),
        pytest.param("--edge--", "edge", id="dashes-stripped"),
        pytest.param("", "part", id="empty-becomes-part"),
        pytest.param("___", "part", id="only-invalid-becomes-part"),
        pytest.param("x" * 70, "x" * 63, id="cut-to-63"),
        pytest.param("a" * 62 + "_b", "a" * 62, id="cut-then-trailing-dash-stripped"),
        pytest.param("é", "part", id="non-ascii-replaced"),
    ],
)
def test_sanitize_name_part(part: str, expected: str) -> None:
    assert sanitize_name_part(part) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("ml-team", '"ml-team"', id="plain"),
        pytest.param("a<b>&c", '"a\\u003cb\\u003e\\u0026c"', id="html-characters-escaped"),
        pytest.param("\u2028\u2029", '"\\u2028\\u2029"', id="line-separators-escaped"),
        pytest.param('q"b\\', '"q\\"b\\\\"', id="quote-and-backslash"),
        pytest.param("\n\t\r", '"\\n\\t\\r"', id="short-escapes"),
        pytest.param("\x01\x1f", '"\\u0001\\u001f"', id="control-characters-lowercase-hex"),
        pytest.param("é€😀", '"é€😀"', id="non-ascii-kept-raw"),
        pytest.param("\ud800", '"\ufffd"', id="lone-surrogate-as-replacement-character"),
    ],
)
def test_go_json_string(value: str, expected: str) -> None:
    assert go_json_string(value) == expected


def test_name_hash_is_sha256_of_go_strings_joined_with_bar() -> None:
    expected = hashlib.sha256(b'"ml-team"|"qwen-chat"').hexdigest()[:8]
    assert name_hash(["ml-team", "qwen-chat"]) == expected


@pytest.mark.parametrize(
    ("parts", "hash_inputs", "max_length", "expected"),
    [
        pytest.param(["svc"], [], 63, "svc", id="no-hash-no-suffix"),
        pytest.param(["a", "b"], [], 63, "a-b", id="parts-joined"),
        pytest.param(["svc"], ["x"], 63, f"svc-{name_hash(['x'])}", id="hash-suffix"),
        pytest.param(
            ["a" * 70, "b" * 40],
            ["x"],
            63,
            f"{'a' * 26}-{'b' * 27}-{name_hash(['x'])}",
            id="longest-first-tie-first",
        ),
        pytest.param(["abc-d", "e"], [], 4, "ab-e", id="shortened-part-loses-trailing-dash"),
        pytest.param(["abcdef", "gh"], [], 5, "ab-gh", id="longest-shrinks-until-fit"),
        pytest.param(
            ["abc", "def"], ["h"], 12, f"a-d-{name_hash(['h'])}", id="shrinks-to-one-character-to-fit"
        ),
        pytest.param(
            ["abc", "def"], ["h"], 9, f"a-d-{name_hash(['h'])}", id="cannot-shrink-below-one-character"
        ),
    ],
)
def test_derived_name(parts: list[str], hash_inputs: list[str], max_length: int, expected: str) -> None:
    assert derived_name(parts, hash_inputs, max_length) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param(inference_service_name("qwen-chat", "ml-team"), "qwen-chat-faa5534a", id="isvc"),
        pytest.param(http_route_name("qwen-chat", "ml-team"), "qwen-chat-a04542d9", id="http-route"),
        pytest.param(predictor_name("qwen-chat-faa5534a"), "qwen-chat-faa5534a-predictor", id="predictor"),
        pytest.param(
            profile_configmap_name("qwen-chat"), "qwen-chat-profile-1e27bbb7", id="profile-configmap"
        ),
        pytest.param(
            overlay_profile_name(
                "qwen-qwen3-32b-mi300x-fp8-latency", "qwen-finetune", "0b6f7d9e-1c2a-5f1e-9d55-3b8f2f0c7a11"
            ),
            "qwen-qwen3-32b-mi300x-fp8-latenc-qwen-finetune-overlay-e92ecc39",
            id="overlay-profile-shortened",
        ),
        pytest.param(
            generated_profile_name("qwen-qwen3-5-0-8b", "nvidia-vllm", "Qwen/Qwen3.5-0.8B"),
            "qwen-qwen3-5-0-8b-nvidia-vllm-78d25f96",
            id="generated-profile",
        ),
        pytest.param(
            inference_service_name("x" * 80, "ml-team"),
            "x" * 36 + "-808cb947",
            id="isvc-within-predictor-budget",
        ),
        pytest.param(
            inference_service_name("a-service", "n" * 42),
            "a-" + name_hash(["n" * 42, "a-service"]),
            id="isvc-minimum-budget",
        ),
    ],
)
def test_pinned_child_names(name: str, expected: str) -> None:
    assert name == expected


@pytest.mark.parametrize(
    ("namespace_length", "ok"),
    [pytest.param(42, True, id="budget-10-ok"), pytest.param(43, False, id="budget-9-name-too-long")],
)
def test_inference_service_name_budget(namespace_length: int, ok: bool) -> None:
    namespace = "n" * namespace_length
    if ok:
        assert len(inference_service_name("svc", namespace)) <= 63 - 11 - namespace_length
    else:
        with pytest.raises(AIMResolutionError) as caught:
            inference_service_name("svc", namespace)
        assert caught.value.reason == "NameTooLong"
        assert caught.value.field == "metadata.namespace"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}, "Qwen/Qwen3-32B", id="model-id"
        ),
        pytest.param(
            {"sourceUri": "s3://bucket/models/llama"}, "bucket/models/llama", id="uri-without-scheme"
        ),
        pytest.param({"sourceURI": "hf://org/repo"}, "org/repo", id="legacy-uri-spelling"),
        pytest.param({"modelId": "", "sourceUri": "plain-path"}, "plain-path", id="uri-without-scheme-kept"),
    ],
)
def test_source_short_name(source: dict[str, str], expected: str) -> None:
    assert source_short_name(source) == expected


SOURCE = {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param(
            cache_pvc_name(SOURCE, mode="Shared", namespace="ml-team", profile="qwen-fp8"),
            "qwen-qwen3-32b-cache-" + name_hash(["shared", "ml-team", "qwen-fp8", "hf://Qwen/Qwen3-32B"]),
            id="shared-pvc",
        ),
        pytest.param(
            cache_job_name(SOURCE, mode="Shared", namespace="ml-team", profile="qwen-fp8"),
            "qwen-qwen3-32b-download-" + name_hash(["shared", "ml-team", "qwen-fp8", "hf://Qwen/Qwen3-32B"]),
            id="shared-job",
        ),
        pytest.param(
            cache_pvc_name(SOURCE, mode="Dedicated", namespace="ml-team", service="chat", service_uid="u1"),
            "chat-qwen-qwen3-32b-cache-" + name_hash(["dedicated", "ml-team", "u1", "hf://Qwen/Qwen3-32B"]),
            id="dedicated-pvc",
        ),
        pytest.param(
            cache_job_name(SOURCE, mode="Dedicated", namespace="ml-team", service="chat", service_uid="u1"),
            "chat-qwen-qwen3-32b-download-"
            + name_hash(["dedicated", "ml-team", "u1", "hf://Qwen/Qwen3-32B"]),
            id="dedicated-job",
        ),
    ],
)
def test_cache_names(name: str, expected: str) -> None:
    assert name == expected


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"mode": "Shared", "namespace": "ns"}, id="shared-without-profile"),
        pytest.param({"mode": "Dedicated", "namespace": "ns", "service": "s"}, id="dedicated-without-uid"),
        pytest.param({"mode": "Auto", "namespace": "ns", "profile": "p"}, id="unknown-mode"),
    ],
)
def test_cache_name_needs_its_identity(kwargs: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        cache_pvc_name(SOURCE, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("qwen-qwen3-32b-cache-2761ef90", "2761ef90", id="derived"),
        pytest.param("x-deadbeef", "deadbeef", id="short"),
    ],
)
def test_hash_suffix(name: str, expected: str) -> None:
    assert hash_suffix(name) == expected


@pytest.mark.parametrize(
    "name",
    [pytest.param("plain-name", id="no-suffix"), pytest.param("x-DEADBEEF", id="uppercase-not-a-hash")],
)
def test_hash_suffix_rejects_underived_names(name: str) -> None:
    with pytest.raises(ValueError):
        hash_suffix(name)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("qwen-chat", "qwen-chat", id="clean"),
        pytest.param("Qwen Chat", "qwen_chat", id="space-to-underscore"),
        pytest.param("a  /  b", "a_b", id="runs-to-one-underscore"),
        pytest.param("v1.2_rc-3", "v1.2_rc-3", id="dot-underscore-dash-kept"),
        pytest.param("._-x-_.", "x", id="trimmed"),
        pytest.param("Qwen/Qwen3-32B", "qwen_qwen3-32b", id="slash"),
        pytest.param("a" * 62 + ".b", "a" * 62, id="cut-then-trimmed-again"),
        pytest.param("", "", id="empty"),
        pytest.param("///", "", id="nothing-left"),
    ],
)
def test_sanitize_label_value(value: str, expected: str) -> None:
    assert sanitize_label_value(value) == expected


@settings(max_examples=200)
@given(
    st.lists(st.text(max_size=80), min_size=1, max_size=3),
    st.lists(st.text(max_size=40), max_size=4),
)
def test_derived_names_are_deterministic_rfc1123_labels(parts: list[str], hash_inputs: list[str]) -> None:
    name = derived_name(parts, hash_inputs)
    assert len(name) <= 63
    assert RFC1123_LABEL.match(name)
    assert derived_name(list(parts), list(hash_inputs)) == name


@settings(max_examples=150)
@given(
    st.from_regex(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?", fullmatch=True),
    st.from_regex(r"[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?", fullmatch=True),
)
def test_inference_service_names_fit_the_predictor_host(service: str, namespace: str) -> None:
    name = inference_service_name(service, namespace)
    assert RFC1123_LABEL.match(name)
    assert len(f"{name}-predictor-{namespace}") <= 63
