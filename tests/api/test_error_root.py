"""Every AIM error has one root that says the same things, whichever layer raised it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from aim_pulumi import AIMError, AIMResolutionError, AIMValidationError


@dataclass(frozen=True)
class _Line:
    filename: str
    line: int


@pytest.mark.parametrize(
    "error",
    [
        AIMValidationError("spec.model.name", "InvalidSpec", "must be set"),
        AIMResolutionError("spec.model.name", "ProfileNotFound", "no profile matches"),
    ],
)
def test_one_root_says_reason_message_field_and_object(error: AIMError) -> None:
    with pytest.raises(AIMError) as caught:
        raise error
    assert caught.value.field == "spec.model.name"
    assert caught.value.reason in ("InvalidSpec", "ProfileNotFound")
    assert caught.value.message
    assert not caught.value.object_ref
    located = error.located(object_ref="AIMService/team/chat")
    assert located.object_ref == "AIMService/team/chat"
    assert located.located(object_ref="AIMService/team/other").object_ref == "AIMService/team/chat"
    assert str(located).startswith("AIMService/team/chat: spec.model.name: ")


def test_the_first_declaration_is_kept() -> None:
    error = AIMResolutionError("", "ProfileNotFound", "no profile matches")
    assert (error.declared_at, error.declared_by) == (None, None)
    first, second = _Line("main.py", 3), _Line("main.py", 9)
    assert error.declared(first, "AIMService/team/chat") is error
    error.declared(second, "AIMService/team/other")
    assert (error.declared_at, error.declared_by) == (first, "AIMService/team/chat")


def test_a_resolution_error_keeps_its_object_when_located_again() -> None:
    error = AIMResolutionError("", "ProfileNotFound", "no profile", object_ref="AIMProfile/team/p")
    assert error.located(object_ref="AIMService/team/chat") is error
