"""An AIM error leaves a component as a Pulumi `RunError` that wraps it, and nothing changes its class."""

from __future__ import annotations

import ast
from pathlib import Path

import pulumi

import aim_pulumi
from aim_pulumi.api import AIMValidationError
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resources.reported import (
    ReportedResolutionError,
    ReportedValidationError,
    plain_text,
    reported,
    reported_text,
)
from aim_pulumi.resources.sites import DeclarationSite


def test_a_validation_error_is_wrapped_and_keeps_its_class_fields_and_text() -> None:
    error = AIMValidationError("spec.model.name", "InvalidSpec", "is required", object_ref="AIMService/ns/a")
    error.declared(DeclarationSite("/elsewhere/__main__.py", 7))
    wrapped = reported(error)
    assert isinstance(wrapped, ReportedValidationError) and isinstance(wrapped, pulumi.RunError)
    assert isinstance(wrapped, AIMValidationError) and wrapped.error is error
    assert type(error) is AIMValidationError  # the AIM error itself is left as it was
    assert (wrapped.field, wrapped.reason, wrapped.message) == (error.field, error.reason, error.message)
    assert str(wrapped) == reported_text(error) == f"/elsewhere/__main__.py:7: {error}"
    assert plain_text(wrapped) == str(error)
    assert reported(wrapped) is wrapped


def test_a_resolution_error_is_wrapped_with_its_traceback() -> None:
    try:
        raise AIMResolutionError("spec.profile", "ProfileNotFound", "no profile")
    except AIMResolutionError as caught:
        error = caught
    wrapped = reported(error)
    assert isinstance(wrapped, ReportedResolutionError) and isinstance(wrapped, pulumi.RunError)
    assert wrapped.__traceback__ is error.__traceback__
    assert str(wrapped) == str(error) == "spec.profile: ProfileNotFound: no profile"


def test_other_errors_are_left_alone() -> None:
    error = ValueError("x")
    assert reported(error) is error


def test_no_module_assigns_an_object_its_class() -> None:
    root = Path(aim_pulumi.__file__).parent
    found = [
        f"{path.relative_to(root)}:{node.lineno}"
        for path in sorted(root.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute) and target.attr == "__class__"
    ]
    assert found == []
