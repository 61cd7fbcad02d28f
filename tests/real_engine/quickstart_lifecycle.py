"""The quickstart's lifecycle under the real engine, the same in every language through the provider.

A language's test module defines the `stack` (its quickstart, installed) and `python_plan` (what
the Python quickstart plans offline) fixtures and binds these tests to names of its own, in the
order they run: what the program renders, its outputs and binding, a second preview and a destroy
must be those of the Python quickstart, whatever language declared it.
"""

from __future__ import annotations

from typing import Any

from harness import PROVIDER_BINDING, RealStack, manifest_key, preview_parents, program_resources

from aim_pulumi.schemas import validate_manifest


def test_preview_plans_the_python_quickstarts_resources(
    stack: RealStack, python_plan: tuple[dict[str, Any], Any]
) -> None:
    shown = program_resources(preview_parents(stack.preview()))
    planned = program_resources({r["urn"]: r.get("parentUrn") for r in python_plan[0]["resources"]})

    assert shown == planned
    assert (PROVIDER_BINDING, "qwen-chat-binding", "aim:index:AIMService") in shown


def test_up_renders_what_the_python_quickstart_plans_offline(
    stack: RealStack, python_plan: tuple[Any, dict[tuple[str, str, str, str], dict[str, Any]]]
) -> None:
    stack.up()
    rendered = stack.rendered()

    assert [key for key in rendered if key[1] == "InferenceService"] != []
    assert rendered == python_plan[1]
    for key, manifest in rendered.items():
        assert validate_manifest(manifest) == [], key


def test_stack_outputs_and_the_sticky_binding(stack: RealStack) -> None:
    stack.ensure_up()
    outputs = stack.stack_outputs()
    [binding] = [r for r in stack.state_resources() if r["type"] == PROVIDER_BINDING]

    assert outputs["inferenceService"] == "qwen-chat-faa5534a"
    assert outputs["endpoint"] == outputs["routePath"] == outputs["status"]["routing"]["path"]
    profile = outputs["status"]["resolvedProfile"]
    assert binding["outputs"]["bound"] == f"AIMProfile/{profile['namespace']}/{profile['name']}"
    assert binding["id"] == "ml-team/qwen-chat"


def test_second_preview_expects_no_changes(stack: RealStack) -> None:
    stack.ensure_up()
    stack.pulumi("preview", "--expect-no-changes")


def test_destroy_keeps_only_what_the_offline_plan_retains(
    stack: RealStack, python_plan: tuple[dict[str, Any], Any]
) -> None:
    stack.ensure_up()
    retained = {
        manifest_key(r["inputs"]) for r in python_plan[0]["resources"] if r["options"]["retainOnDelete"]
    }
    assert sorted(key[1] for key in retained) == ["Job", "PersistentVolumeClaim"]

    stack.destroy()

    assert not [r for r in stack.state_resources() if not r["type"].startswith("pulumi:")]
    assert set(stack.rendered()) == retained
