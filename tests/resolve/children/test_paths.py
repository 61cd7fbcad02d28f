"""Path templates (contract decision 1, behaviour §8 "Path")."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aim_pulumi.resolve.children.paths import render_path
from aim_pulumi.resolve.errors import AIMResolutionError


def service(labels: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "aim.eai.amd.com/v1alpha2",
        "kind": "AIMService",
        "metadata": {
            "name": "qwen-chat",
            "namespace": "ml-team",
            "uid": "0B6F7D9E-1c2a-5f1e-9d55-3b8f2f0c7a11",
            "labels": labels if labels is not None else {"project": "conversational-ai", "team": "A B"},
            "annotations": {"example.com/owner": "Ops Team"},
        },
        "spec": {"model": {"name": "qwen-qwen3-32b"}, **spec},
        "status": {},
    }


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        pytest.param(
            "/ml/{.metadata.namespace}/{.metadata.labels['project']}",
            "/ml/ml-team/conversational-ai",
            id="seed-runtime-config-template",
        ),
        pytest.param("/custom/{.metadata.name}", "/custom/qwen-chat", id="seed-service-template"),
        pytest.param(
            "/team/{.metadata.labels['team']}/chat", "/team/a%20b/chat", id="seed-space-encoded-lowercase"
        ),
        pytest.param(None, "/ml-team/0b6f7d9e-1c2a-5f1e-9d55-3b8f2f0c7a11", id="default-when-none"),
        pytest.param("", "/ml-team/0b6f7d9e-1c2a-5f1e-9d55-3b8f2f0c7a11", id="default-when-empty"),
        pytest.param("/{$.metadata.name}", "/qwen-chat", id="dollar-expression-as-is"),
        pytest.param("/{metadata.name}", "/qwen-chat", id="bare-expression-gets-root"),
        pytest.param("/{  .metadata.name  }", "/qwen-chat", id="placeholder-trimmed"),
        pytest.param(
            "/a/{.metadata.annotations['example.com/owner']}", "/a/ops%20team", id="dotted-key-in-brackets"
        ),
        pytest.param("/{.spec.model.name}/v1", "/qwen-qwen3-32b/v1", id="spec-field"),
        pytest.param("//a///b//", "/a/b", id="slashes-collapse-trailing-removed"),
        pytest.param("a/b", "/a/b", id="leading-slash-ensured"),
        pytest.param("/A/B", "/a/b", id="literal-text-lowercased"),
        pytest.param("/x/{.metadata.labels.slashy}", "/x/p/q", id="value-slash-splits-segments"),
        pytest.param("/{.metadata.labels.unicode}", "/caf%C3%A9", id="utf8-bytes-uppercase-hex"),
        pytest.param("/{.metadata.labels.reserved}", "/a%23b%3Fc%25d%26e", id="reserved-characters-encoded"),
        pytest.param("/{.metadata.labels.unreserved}", "/a-b.c_d~e", id="unreserved-kept"),
        pytest.param("/{.spec.replicas}/{.spec.enabled}", "/3/true", id="number-and-boolean"),
        pytest.param("/{.spec.ratio}", "/0.5", id="float-as-json"),
        pytest.param("/a/{.metadata.labels.empty}/b", "/a/b", id="empty-value-drops-segment"),
        pytest.param(
            r"/{.metadata.labels.app\.kubernetes\.io/name}",
            "/qwen",
            id="kubectl-jsonpath-escaped-dots-in-label-key",
        ),
        pytest.param(
            "/{.metadata.labels['app.kubernetes.io/name']}",
            "/qwen",
            id="kubectl-jsonpath-bracket-form-same-label",
        ),
        pytest.param(
            r"/{$.metadata.labels.app\.kubernetes\.io/name}/{.metadata.name}",
            "/qwen/qwen-chat",
            id="kubectl-jsonpath-escaped-dots-after-dollar-root",
        ),
        pytest.param(
            r"/{.metadata.annotations.example\.com/owner}",
            "/ops%20team",
            id="kubectl-jsonpath-escaped-dots-in-annotation-key",
        ),
    ],
)
def test_render_path(template: str | None, expected: str) -> None:
    svc = service(
        {
            "project": "conversational-ai",
            "team": "A B",
            "slashy": "P/Q",
            "unicode": "Café",
            "reserved": "a#b?c%d&e",
            "unreserved": "A-B.c_d~e",
            "empty": "",
            "app.kubernetes.io/name": "Qwen",
        },
        replicas=3,
        enabled=True,
        ratio=0.5,
    )
    assert render_path(template, svc) == expected


@pytest.mark.parametrize(
    ("template", "why"),
    [
        pytest.param("/{.metadata.labels['missing']}", "matches no field", id="missing-label"),
        pytest.param("/{.spec.nothing.here}", "matches no field", id="missing-field"),
        pytest.param("/{.metadata.labels[[}", "not a valid JSONPath", id="invalid-expression"),
        pytest.param("/{.spec.hostnames[*]}", "matches 2 values", id="multiple-values"),
        pytest.param("/{.metadata.labels}", "not a string", id="object-value"),
        pytest.param("/{.spec.hostnames}", "not a string", id="list-value"),
        pytest.param("/{.spec.nullable}", "is null", id="null-value"),
        pytest.param("/a}/{.metadata.name}", "unmatched brace", id="stray-closing-brace"),
        pytest.param("/{.metadata.name}/{", "unmatched brace", id="stray-opening-brace"),
        pytest.param("/{{.metadata.name}}", "unmatched brace", id="doubled-braces"),
        pytest.param("/", "no segment", id="no-segment"),
        pytest.param("/{.metadata.labels.empty}", "no segment", id="only-empty-segment"),
        pytest.param("/a/../b", "relative path segment", id="dot-dot-segment"),
        pytest.param("/a/{.metadata.labels.dot}", "relative path segment", id="dot-segment-from-value"),
        pytest.param("/" + "a" * 200, "at most 200", id="too-long"),
    ],
)
def test_render_path_errors(template: str, why: str) -> None:
    svc = service({"empty": "", "dot": "."}, hostnames=["a", "b"], nullable=None)
    with pytest.raises(AIMResolutionError) as caught:
        render_path(template, svc)
    assert caught.value.reason == "PathTemplateInvalid"
    assert caught.value.field == "spec.routing.pathTemplate"
    assert why in caught.value.message


@pytest.mark.parametrize(
    ("template", "ok"),
    [
        pytest.param("/" + "a" * 199, True, id="exactly-200"),
        pytest.param("/" + "a" * 199 + "/", False, id="200-plus-trailing-slash-checked-before-removal"),
        pytest.param("/" + "a" * 198 + "/", True, id="199-plus-trailing-slash"),
    ],
)
def test_length_is_checked_before_trailing_slash_removal(template: str, ok: bool) -> None:
    if ok:
        assert render_path(template, service()) == template.rstrip("/")
    else:
        with pytest.raises(AIMResolutionError):
            render_path(template, service())


def test_error_field_can_name_the_runtime_config() -> None:
    with pytest.raises(AIMResolutionError) as caught:
        render_path("/{.nope}", service(), field="routing.pathTemplate")
    assert caught.value.field == "routing.pathTemplate"


GATEWAY_PATH_CHARS = re.compile(r"^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$")


def assert_valid_httproute_path(path: str) -> None:
    assert path.startswith("/")
    assert len(path) <= 200
    for forbidden in ("//", "/./", "/../", "%2f", "%2F", "#"):
        assert forbidden not in path
    assert not path.endswith("/..")
    assert not path.endswith("/.")
    assert GATEWAY_PATH_CHARS.match(path)


@settings(max_examples=200)
@given(
    st.text(max_size=60),
    st.text(max_size=60),
    st.sampled_from(
        [
            "/{.metadata.labels.a}/{.metadata.labels.b}",
            "{.metadata.labels.a}{.metadata.labels.b}/",
            "/x/{.metadata.labels.a}//{.metadata.name}/{.metadata.labels.b}/",
            None,
        ]
    ),
)
def test_rendered_paths_satisfy_gateway_api_rules(a: str, b: str, template: str | None) -> None:
    svc = service({"a": a, "b": b})
    try:
        path = render_path(template, svc)
    except AIMResolutionError as error:
        assert error.reason == "PathTemplateInvalid"
        return
    assert_valid_httproute_path(path)
    decoded = unquote(path)
    assert decoded == decoded.lower()


FIELD_DOCUMENTS: list[Any] = [
    {"metadata": {"name": "chat", "namespace": "ml", "labels": {"team": "a"}, "len": "x"}},
    {"metadata": {"name": None, "namespace": ["a", "b"], "labels": "not-a-map"}},
    {"metadata": "scalar", "spec": {"model": {"name": 7}}},
    {"metadata": {"labels": {"app.kubernetes.io/name": "n", "": "empty"}}, "spec": []},
    {},
]


@pytest.mark.parametrize(
    "expression",
    [
        "$.metadata.name",
        "$.metadata.namespace",
        "$.metadata.labels.team",
        "$.metadata.labels['team']",
        "$.metadata.len",
        "$.metadata.missing.deeper",
        "$.spec.model.name",
        "$.metadata.namespace[0]",
        "$.metadata.labels['app.kubernetes.io/name']",
        "$.metadata.*",
        "$.spec[*]",
        "$",
    ],
)
def test_plain_field_access_finds_what_the_jsonpath_parser_finds(expression: str) -> None:
    """Plain field chains skip the parser's match objects; every document must give the same values."""
    from aim_pulumi.resolve.children import paths

    compiled = paths._compile(expression)
    chain = paths._field_chain(expression)
    for document in FIELD_DOCUMENTS:
        expected = [match.value for match in compiled.find(document)]
        if chain is not None:
            assert paths._field_chain_values(chain, document) == expected, (expression, document)
    if expression in ("$.metadata.*", "$.spec[*]", "$.metadata.namespace[0]"):
        assert chain is None  # anything but field access stays with the parser
    elif expression != "$":
        assert chain is not None
