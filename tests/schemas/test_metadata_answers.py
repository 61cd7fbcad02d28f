"""ObjectMeta's per-string answers are remembered; callers still get their own lists."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from aim_pulumi.schemas.metadata import (
    dns1123_label_errors,
    dns1123_subdomain_errors,
    label_value_errors,
    qualified_name_errors,
)


@pytest.mark.parametrize(
    ("check", "value"),
    [
        pytest.param(qualified_name_errors, "a/b/c", id="qualified-name"),
        pytest.param(label_value_errors, "-x", id="label-value"),
        pytest.param(dns1123_label_errors, "A.b", id="dns1123-label"),
        pytest.param(dns1123_subdomain_errors, "A_b", id="dns1123-subdomain"),
    ],
)
def test_a_remembered_answer_is_not_shared_between_callers(
    check: Callable[[str], list[str]], value: str
) -> None:
    first = check(value)
    assert first
    first.append("changed by the caller")
    assert check(value) == first[:-1]
