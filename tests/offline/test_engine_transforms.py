"""The offline engine runs transforms where the Pulumi engine runs them, in the same order."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pulumi
import pulumi_kubernetes as k8s

if TYPE_CHECKING:
    from tests.conftest import Recorder


def _label(tag: str) -> pulumi.ResourceTransform:
    def transform(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
        if not args.type_.startswith("kubernetes:"):
            return None
        metadata = dict(args.props.get("metadata") or {})
        labels = dict(metadata.get("labels") or {})
        labels["order"] = f"{labels['order']},{tag}" if "order" in labels else tag
        metadata["labels"] = labels
        return pulumi.ResourceTransformResult({**args.props, "metadata": metadata}, args.opts)

    return transform


def _retain(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult:
    return pulumi.ResourceTransformResult(
        args.props, pulumi.ResourceOptions.merge(args.opts, pulumi.ResourceOptions(retain_on_delete=True))
    )


def program() -> None:
    pulumi.runtime.register_resource_transform(_label("stack"))
    group = pulumi.ComponentResource(
        "test:index:Group", "group", None, pulumi.ResourceOptions(transforms=[_label("parent"), _retain])
    )
    k8s.core.v1.ConfigMap(
        "inside",
        metadata={"name": "inside"},
        data={"a": "1"},
        opts=pulumi.ResourceOptions(parent=group, transforms=[_label("own")]),
    )
    k8s.core.v1.ConfigMap("outside", metadata={"name": "outside"}, data={"a": "1"})


def test_own_then_parent_then_stack_transforms_change_inputs_and_options(recording: Recorder) -> None:
    plan = recording(program)
    inside, outside = plan.by_name("inside"), plan.by_name("outside")
    assert inside.manifest["metadata"]["labels"] == {"order": "own,parent,stack"}
    assert inside.retain_on_delete is True
    assert outside.manifest["metadata"]["labels"] == {"order": "stack"}
    assert outside.retain_on_delete is False
    assert inside.manifest["data"] == {"a": "1"}
