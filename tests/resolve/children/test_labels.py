"""Label propagation (behaviour §11): Go filepath.Match patterns, no-overwrite copying, standard labels."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.children.labels import (
    label_key_matches,
    label_propagation_match,
    propagate_labels,
    standard_labels,
)

# Expected values are those of Go's path/filepath.Match (nil error and true), the operator's matcher.
GO_FILEPATH_MATCH_TABLE = [
    # the seed's pattern table
    ("org.example/team", "org.example/team", True, "seed-exact-key"),
    ("org.example/team", "org.example/teams", False, "seed-exact-key-is-not-a-prefix"),
    ("org.example/*", "org.example/team", True, "seed-prefix-star"),
    ("compliance.*/severity", "compliance.sec/severity", True, "seed-star-in-prefix-sec"),
    ("compliance.*/severity", "compliance.audit/severity", True, "seed-star-in-prefix-audit"),
    # star never crosses a slash
    ("org.example/*", "org.example/team/x", False, "star-stops-at-slash"),
    ("org.example/*", "org.other/team", False, "prefix-differs"),
    ("compliance.*/severity", "compliance.a/b/severity", False, "star-in-prefix-stops-at-slash"),
    ("*", "team", True, "lone-star-unprefixed-key"),
    ("*", "org.example/team", False, "lone-star-never-matches-prefixed-key"),
    ("*/*", "org.example/team", True, "star-slash-star"),
    ("*/team", "org.example/team", True, "any-prefix-fixed-name"),
    ("*.example.com/*", "team.example.com/cost", True, "star-both-sides"),
    ("a*b*c", "axxbyyc", True, "several-stars"),
    ("a*", "abc", True, "trailing-star"),
    ("a*", "ab/c", False, "trailing-star-stops-at-slash"),
    # question mark
    ("team?", "teams", True, "question-one-char"),
    ("team?", "team", False, "question-needs-a-char"),
    ("a?b", "a/b", False, "question-not-slash"),
    # classes and escapes
    ("[a-c]x", "bx", True, "class-range-in"),
    ("[a-c]x", "dx", False, "class-range-out"),
    ("[^a-c]x", "dx", True, "negated-class-in"),
    ("[^a-c]x", "ax", False, "negated-class-out"),
    ("[!a]x", "!x", True, "bang-is-a-literal-not-negation"),
    ("[\\]]", "]", True, "escaped-bracket-in-class"),
    ("[\\-]", "-", True, "escaped-dash-in-class"),
    ("\\*", "*", True, "escaped-star-literal"),
    ("\\*", "a", False, "escaped-star-is-not-wildcard"),
    ("Team", "team", False, "case-sensitive"),
    ("", "", True, "empty-pattern-empty-key"),
    ("", "a", False, "empty-pattern-other-key"),
    # malformed patterns match nothing
    ("a\\", "a", False, "malformed-trailing-backslash"),
    ("[", "[", False, "malformed-open-class"),
    ("[a", "a", False, "malformed-unclosed-class"),
    ("[a-", "a", False, "malformed-unclosed-range"),
    ("[]a]", "a", False, "malformed-empty-class"),
    ("[-a]", "a", False, "malformed-leading-dash"),
    ("[a-]", "a", False, "malformed-trailing-dash"),
    ("x[", "y", False, "malformed-after-mismatch"),
    ("*[", "a", False, "malformed-after-star"),
    ("org.example/*[", "org.example/team", False, "malformed-suffix-on-good-prefix"),
]


@pytest.mark.parametrize(
    ("pattern", "key", "expected"),
    [pytest.param(p, k, e, id=case) for p, k, e, case in GO_FILEPATH_MATCH_TABLE],
)
def test_label_key_matches_follows_go_filepath_match(pattern: str, key: str, expected: bool) -> None:
    assert label_key_matches(pattern, key) is expected


SERVICE_LABELS = {
    "org.example/cost-center": "eng-ml",
    "org.example/department": "engineering",
    "org.example/project": "chatbot-v2",
    "aim.eai.amd.com/tier": "gold",
    "team": "a",
}


@pytest.mark.parametrize(
    ("parent", "child", "match", "expected"),
    [
        pytest.param(
            SERVICE_LABELS,
            None,
            ["org.example/cost-center", "org.example/department", "org.example/project"],
            {
                "org.example/cost-center": "eng-ml",
                "org.example/department": "engineering",
                "org.example/project": "chatbot-v2",
                "aim.eai.amd.com/tier": "gold",
            },
            id="seed-cost-tracking-example",
        ),
        pytest.param(
            SERVICE_LABELS, {}, None, {"aim.eai.amd.com/tier": "gold"}, id="disabled-copies-aim-keys-only"
        ),
        pytest.param(
            SERVICE_LABELS, {}, [], {"aim.eai.amd.com/tier": "gold"}, id="enabled-empty-match-aim-only"
        ),
        pytest.param(
            SERVICE_LABELS,
            {},
            ["org.example/*"],
            {
                "org.example/cost-center": "eng-ml",
                "org.example/department": "engineering",
                "org.example/project": "chatbot-v2",
                "aim.eai.amd.com/tier": "gold",
            },
            id="prefix-pattern",
        ),
        pytest.param(
            SERVICE_LABELS,
            {"org.example/project": "child-value", "aim.eai.amd.com/tier": "child-tier"},
            ["org.example/*"],
            {
                "org.example/cost-center": "eng-ml",
                "org.example/department": "engineering",
                "org.example/project": "child-value",
                "aim.eai.amd.com/tier": "child-tier",
            },
            id="child-values-never-overwritten",
        ),
        pytest.param(
            SERVICE_LABELS, {}, ["*"], {"aim.eai.amd.com/tier": "gold", "team": "a"}, id="star-unprefixed"
        ),
        pytest.param(
            SERVICE_LABELS, {}, ["["], {"aim.eai.amd.com/tier": "gold"}, id="malformed-pattern-ignored"
        ),
        pytest.param({}, {"x": "y"}, ["*"], {"x": "y"}, id="no-parent-labels"),
    ],
)
def test_propagate_labels(
    parent: dict[str, str], child: dict[str, str] | None, match: list[str] | None, expected: dict[str, str]
) -> None:
    before = dict(child) if child is not None else None
    assert propagate_labels(parent, child, match) == expected
    assert child == before


@pytest.mark.parametrize(
    ("rc_spec", "expected"),
    [
        pytest.param(None, None, id="no-runtime-config"),
        pytest.param({}, None, id="no-label-propagation"),
        pytest.param({"labelPropagation": {"match": ["a/*"]}}, None, id="enabled-absent-means-off"),
        pytest.param({"labelPropagation": {"enabled": False, "match": ["a/*"]}}, None, id="disabled"),
        pytest.param({"labelPropagation": {"enabled": True}}, [], id="enabled-no-match"),
        pytest.param(
            {"labelPropagation": {"enabled": True, "match": ["a/*", "b"]}}, ["a/*", "b"], id="enabled"
        ),
    ],
)
def test_label_propagation_match(rc_spec: dict[str, object] | None, expected: list[str] | None) -> None:
    assert label_propagation_match(rc_spec) == expected


@pytest.mark.parametrize(
    ("component", "service", "extra", "expected"),
    [
        pytest.param(
            "routing",
            None,
            None,
            {"app.kubernetes.io/managed-by": "aim-pulumi", "app.kubernetes.io/component": "routing"},
            id="component-only",
        ),
        pytest.param(
            "inference",
            "Qwen Chat",
            {"aim.eai.amd.com/metric": "latency", "aim.eai.amd.com/precision": None},
            {
                "app.kubernetes.io/managed-by": "aim-pulumi",
                "app.kubernetes.io/component": "inference",
                "aim.eai.amd.com/service": "qwen_chat",
                "aim.eai.amd.com/metric": "latency",
            },
            id="service-sanitised-unset-extra-dropped",
        ),
        pytest.param(
            "cache",
            "svc",
            {"aim.eai.amd.com/cache-mode": "Shared", "aim.eai.amd.com/profile": "///"},
            {
                "app.kubernetes.io/managed-by": "aim-pulumi",
                "app.kubernetes.io/component": "cache",
                "aim.eai.amd.com/service": "svc",
                "aim.eai.amd.com/cache-mode": "shared",
            },
            id="extra-sanitising-to-nothing-dropped",
        ),
    ],
)
def test_standard_labels(
    component: str, service: str | None, extra: dict[str, str | None] | None, expected: dict[str, str]
) -> None:
    assert standard_labels(component, service, extra) == expected


_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")


@settings(max_examples=150)
@given(st.text(max_size=100), st.text(max_size=80))
def test_standard_label_values_are_valid(service: str, value: str) -> None:
    labels = standard_labels("inference", service, {"aim.eai.amd.com/profile": value})
    for label_value in labels.values():
        assert len(label_value) <= 63
        assert _LABEL_VALUE.match(label_value)


@settings(max_examples=150)
@given(
    st.dictionaries(
        st.sampled_from(["a/x", "a/y", "b/x", "aim.eai.amd.com/k", "plain"]), st.text(max_size=5)
    ),
    st.dictionaries(st.sampled_from(["a/x", "b/x", "aim.eai.amd.com/k", "other"]), st.text(max_size=5)),
    st.one_of(st.none(), st.lists(st.sampled_from(["a/*", "*", "b/x", "["]), max_size=3)),
)
def test_propagation_keeps_child_and_only_adds_parent_values(
    parent: dict[str, str], child: dict[str, str], match: list[str] | None
) -> None:
    result = propagate_labels(parent, child, match)
    for key, value in child.items():
        assert result[key] == value
    for key in set(result) - set(child):
        assert result[key] == parent[key]
    for key in parent:
        if key.startswith("aim.eai.amd.com/"):
            assert key in result
