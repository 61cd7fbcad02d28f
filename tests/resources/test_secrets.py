"""Outputs in arguments: hidden from the pure layers, restored in the children, never deciding structure."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from aim_pulumi.api import AIMValidationError
from aim_pulumi.resources.secrets import (
    OUTPUT_NOT_ALLOWED,
    build_independent_of_outputs,
    mask_outputs,
    redact,
    restore_outputs,
)


def _args() -> dict[str, Any]:
    return {
        "metadata": {"name": "chat"},
        "spec": {
            "env": [
                {"name": "PLAIN", "value": "visible"},
                {"name": "TOKEN", "value": pulumi.Output.secret("hush")},
            ],
            "replicas": 1,
        },
    }


def test_every_output_becomes_a_placeholder_with_its_field_path() -> None:
    masked = mask_outputs(_args())

    placeholder = masked.value["spec"]["env"][1]["value"]
    assert isinstance(placeholder, str) and placeholder.startswith("__AIM_OUTPUT_0_")
    assert masked.paths == {placeholder: "spec.env[1].value"}
    assert masked.value["spec"]["env"][0] == {"name": "PLAIN", "value": "visible"}


def test_plain_arguments_are_returned_unchanged() -> None:
    args = {"spec": {"replicas": 2, "env": [{"name": "A", "value": "b"}]}}

    masked = mask_outputs(args)

    assert masked.value == args and masked.outputs == {}
    assert restore_outputs({"x": "y"}, masked) == {"x": "y"}


@pytest.mark.parametrize(
    ("built", "expected_kind"),
    [
        pytest.param("{p}", "output", id="whole-string-is-the-output"),
        pytest.param("Bearer {p}", "concat", id="inside-a-longer-string"),
        pytest.param("no placeholder", "text", id="untouched-text"),
    ],
)
def test_restore_puts_the_output_back_where_its_placeholder_landed(built: str, expected_kind: str) -> None:
    masked = mask_outputs(_args())
    placeholder = masked.value["spec"]["env"][1]["value"]

    restored = restore_outputs({"env": [{"value": built.format(p=placeholder)}]}, masked)["env"][0]["value"]

    if expected_kind == "output":
        assert restored is masked.outputs[placeholder]
    elif expected_kind == "concat":
        assert isinstance(restored, pulumi.Output)
    else:
        assert restored == built


def test_a_placeholder_as_a_map_key_is_refused() -> None:
    masked = mask_outputs(_args())
    placeholder = masked.value["spec"]["env"][1]["value"]

    with pytest.raises(AIMValidationError) as caught:
        restore_outputs({"labels": {placeholder: "x"}}, masked)
    assert caught.value.reason == OUTPUT_NOT_ALLOWED and caught.value.field == "spec.env[1].value"


def test_redact_hides_placeholders_in_messages() -> None:
    masked = mask_outputs(_args())
    placeholder = masked.value["spec"]["env"][1]["value"]

    assert redact(f"env TOKEN={placeholder} ignored") == "env TOKEN=[output] ignored"


def _render(doc: Any) -> Any:
    return doc


@pytest.mark.parametrize(
    ("build", "error_field"),
    [
        pytest.param(lambda doc: {"env": doc["spec"]["env"]}, None, id="value-only-flows-into-a-child"),
        pytest.param(lambda doc: {"drop": "the output is unused"}, None, id="unused-output"),
        pytest.param(
            lambda doc: {"name": doc["spec"]["env"][1]["value"].lower()},
            "spec.env[1].value",
            id="transformed-into-a-name",
        ),
        pytest.param(
            lambda doc: {"children": ["x"] * len(doc["spec"]["env"][1]["value"])},
            "spec.env[1].value",
            id="decides-how-many-children",
        ),
    ],
)
def test_an_output_that_changes_structure_is_an_error(build: Any, error_field: str | None) -> None:
    if error_field is None:
        result, masked = build_independent_of_outputs(_args(), build, _render)
        assert result is not None and len(masked.outputs) == 1
        return
    with pytest.raises(AIMValidationError) as caught:
        build_independent_of_outputs(_args(), build, _render)
    assert caught.value.reason == OUTPUT_NOT_ALLOWED
    assert caught.value.field == error_field


def test_a_validation_error_caused_by_an_output_names_the_output() -> None:
    args = {"spec": {"replicas": pulumi.Output.from_input(3)}}

    def build(doc: Any) -> Any:
        if not isinstance(doc["spec"]["replicas"], int):
            raise AIMValidationError("spec.replicas", "InvalidSpec", "Input should be a valid integer")
        return doc

    with pytest.raises(AIMValidationError) as caught:
        build_independent_of_outputs(args, build, _render)
    assert caught.value.reason == OUTPUT_NOT_ALLOWED
    assert caught.value.field == "spec.replicas"
    assert "plain value" in caught.value.message


def test_an_unrelated_validation_error_is_passed_through() -> None:
    def build(doc: Any) -> Any:
        raise AIMValidationError("spec.model", "InvalidSpec", "model missing")

    with pytest.raises(AIMValidationError) as caught:
        build_independent_of_outputs(_args(), build, _render)
    assert caught.value.reason == "InvalidSpec" and caught.value.field == "spec.model"
