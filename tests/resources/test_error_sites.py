"""Errors are located one way: an AIM error holds its declaration, any other exception is left untouched."""

from __future__ import annotations

from aim_pulumi import AIMResolutionError
from aim_pulumi.resources.sites import DeclarationSite, declaration_of, declare


def test_a_foreign_error_is_located_without_an_attribute_added() -> None:
    error = TypeError("something unexpected")
    site = DeclarationSite("main.py", 12)
    assert declaration_of(error) == (None, None)
    assert declare(error, site, "AIMService/team/chat") is error
    assert declaration_of(error) == (site, "AIMService/team/chat")
    assert not vars(error), "nothing is patched onto an exception that is not ours"
    declare(error, DeclarationSite("main.py", 40), "AIMService/team/other")
    assert declaration_of(error) == (site, "AIMService/team/chat")


def test_an_aim_error_holds_its_declaration_itself() -> None:
    error = AIMResolutionError("", "ProfileNotFound", "no profile")
    site = DeclarationSite("main.py", 7)
    declare(error, site, "AIMService/team/chat")
    assert (error.declared_at, error.declared_by) == (site, "AIMService/team/chat")
    assert declaration_of(error) == (site, "AIMService/team/chat")
