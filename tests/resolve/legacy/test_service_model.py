"""Which class reads an AIMService: the folder's for v1alpha1's version or fields, the core's otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from aim_pulumi.api import AIMValidationError, to_manifest
from aim_pulumi.api import service as core
from aim_pulumi.resolve.legacy import service as legacy
from tests.versions import KINDS, parse

V1 = "aim.eai.amd.com/v1alpha1"
V2 = "aim.eai.amd.com/v1alpha2"


def manifest(spec: dict[str, Any], api_version: str = V2) -> dict[str, Any]:
    return {"apiVersion": api_version, "kind": "AIMService", "metadata": {"name": "s"}, "spec": spec}


def test_the_kinds_serve_the_class_that_reads_both_versions() -> None:
    assert KINDS["AIMService"] is legacy.AIMServiceV1Alpha1
    assert issubclass(legacy.AIMServiceV1Alpha1, core.AIMServiceObject)
    assert core.AIMServiceObject.SERVED_VERSIONS == ("v1alpha2",)


@pytest.mark.parametrize(
    ("doc", "reader"),
    [
        pytest.param(manifest({"model": {"name": "m"}}), core.AIMServiceObject, id="v1alpha2"),
        pytest.param(manifest({"model": {"name": "m"}}, V1), legacy.AIMServiceV1Alpha1, id="v1alpha1"),
        pytest.param(
            manifest({"model": {"name": "m"}, "templateName": "t"}, V1),
            legacy.AIMServiceV1Alpha1,
            id="templateName",
        ),
    ],
)
def test_a_manifest_is_read_by_the_narrowest_class(doc: dict[str, Any], reader: type) -> None:
    obj = parse(doc)
    assert type(obj) is reader
    assert parse(to_manifest(obj)) == obj


def test_the_v1alpha1_fields_read_typed_and_write_canonically() -> None:
    spec = {"model": {"name": "m"}, "templateName": "t", "overrides": {"metric": "latency"}}
    obj = parse(manifest(spec, V1))
    assert isinstance(obj, legacy.AIMServiceV1Alpha1)
    assert obj.spec.template is not None and obj.spec.template.name == "t"
    assert obj.spec.overrides is not None and obj.spec.overrides.metric == "latency"
    assert to_manifest(obj)["spec"]["template"] == {"name": "t"}


@pytest.mark.parametrize("field", ["template", "overrides"])
def test_v1alpha1_fields_on_v1alpha2_are_refused_with_the_aim_reason(field: str) -> None:
    with pytest.raises(AIMValidationError) as info:
        parse(manifest({"model": {"name": "m"}, field: {}}))
    assert (info.value.field, info.value.reason) == (f"spec.{field}", "InvalidSpec")
    assert "not accepted on v1alpha2" in info.value.message
