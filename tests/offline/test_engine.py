"""The recording engine: what a program declares is written down faithfully, and runs stay apart."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest
from pulumi.runtime import rpc
from resources.catalog import BINDING

from aim_pulumi.api import AIMValidationError
from aim_pulumi.offline.engine import run_program
from aim_pulumi.offline.recording import DynamicCheckFailed, plain
from aim_pulumi.resources.binding import Binding
from aim_pulumi.resources.registry import current_registry


def _component_with_children() -> None:
    parent = pulumi.ComponentResource("aim:index:Probe", "probe", None)
    config_map = k8s.core.v1.ConfigMap(
        "probe-config",
        metadata={"name": "probe", "namespace": "ns", "labels": {"app.kubernetes.io/name": "probe"}},
        data={"key": "value"},
        opts=pulumi.ResourceOptions(parent=parent),
    )
    spec: Any = {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "3Gi"}}}
    k8s.core.v1.PersistentVolumeClaim(
        "probe-pvc",
        metadata={"name": "probe", "namespace": "ns"},
        spec=spec,
        opts=pulumi.ResourceOptions(
            parent=parent,
            depends_on=[config_map],
            retain_on_delete=True,
            protect=True,
            delete_before_replace=True,
            ignore_changes=["spec"],
            replace_on_changes=["metadata"],
            custom_timeouts=pulumi.CustomTimeouts(create="5m"),
        ),
    )
    parent.register_outputs({"count": 2, "ratio": 0.5})
    pulumi.log.info("probe declared", resource=parent)
    pulumi.log.warn("unattached warning")
    pulumi.export("exported", "yes")


def test_registrations_are_recorded_in_order_with_parent_inputs_and_options(recording: Any) -> None:
    rec = recording(_component_with_children)

    assert rec.names() == ["probe", "probe-config", "probe-pvc"]
    probe, config_map, pvc = rec.resources
    assert probe.type == "aim:index:Probe" and not probe.custom
    assert config_map.type == "kubernetes:core/v1:ConfigMap" and config_map.parent == probe.urn
    assert config_map.inputs == {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "probe", "namespace": "ns", "labels": {"app.kubernetes.io/name": "probe"}},
        "data": {"key": "value"},
    }
    assert pvc.dependencies == (config_map.urn,)
    assert (pvc.retain_on_delete, pvc.protect, pvc.delete_before_replace) == (True, True, True)
    assert pvc.ignore_changes == ("spec",) and pvc.replace_on_changes == ("metadata",)
    assert pvc.custom_timeouts == {"create": "5m"}
    assert config_map.retain_on_delete is False and config_map.dependencies == ()


def test_outputs_ids_logs_and_stack_exports_are_recorded(recording: Any) -> None:
    rec = recording(_component_with_children)

    assert rec.outputs_of("probe") == {"count": 2, "ratio": 0.5}, "integral numbers come back as int"
    assert rec.by_name("probe-config").id == "ns/probe"
    assert rec.by_name("probe-config").outputs["data"] == {"key": "value"}, "inputs are echoed as outputs"
    assert rec.stack_outputs() == {"exported": "yes"}
    assert rec.messages("info", urn=rec.by_name("probe").urn) == ["probe declared"]
    assert rec.messages("warning", urn="") == ["unattached warning"]


def test_secret_inputs_stay_wrapped_and_plain_unwraps_them(recording: Any) -> None:
    def program() -> None:
        k8s.core.v1.ConfigMap(
            "secretive", metadata={"name": "s"}, data={"token": pulumi.Output.secret("hush")}
        )

    data = recording(program).by_name("secretive").inputs["data"]

    assert rpc.is_rpc_secret(data)
    assert plain(data) == {"token": "hush"}


def test_each_run_has_its_own_config_and_catalog(recording: Any) -> None:
    seen: list[tuple[str | None, int]] = []

    def program() -> None:
        seen.append((pulumi.Config("aim").get("strict"), len(current_registry().catalog)))
        current_registry().catalog.extend([])

    recording(program, config={"aim:strict": "true"})
    recording(program)

    assert seen == [("true", 0), (None, 0)]


def test_a_program_exception_propagates_with_its_type_and_the_next_run_is_clean(recording: Any) -> None:
    def failing() -> None:
        pulumi.ComponentResource("aim:index:Probe", "before-failure", None)
        raise AIMValidationError("spec.replicas", "InvalidSpec", "replicas must be >= 0")

    with pytest.raises(AIMValidationError) as caught:
        recording(failing)
    assert caught.value.field == "spec.replicas"

    assert recording(_component_with_children).names()[0] == "probe"


def test_an_exception_raised_inside_an_apply_propagates(recording: Any) -> None:
    def program() -> None:
        pulumi.Output.from_input(1).apply(lambda _: (_ for _ in ()).throw(KeyError("inside apply")))

    with pytest.raises(KeyError, match="inside apply"):
        recording(program)


def test_a_program_directory_runs_its_main_module(tmp_path: Path) -> None:
    (tmp_path / "naming.py").write_text("NAME = 'from-local-module'\n")
    (tmp_path / "__main__.py").write_text(
        textwrap.dedent(
            """
            import pulumi
            import naming
            pulumi.ComponentResource("aim:index:Probe", naming.NAME, None)
            pulumi.export("project", pulumi.get_project())
            """
        )
    )

    rec = run_program(tmp_path, project="demo", stack="prod")

    assert rec.names() == ["from-local-module"]
    assert rec.stack_outputs() == {"project": "demo"}
    assert rec.resources[0].urn.startswith("urn:pulumi:prod::demo::")


def test_a_virtualenv_inside_the_program_directory_stays_imported(tmp_path: Path) -> None:
    """`pulumi new python` puts `venv/` in the project: its packages are not the program's own, and
    a package whose submodules are imported lazily (as pulumi_kubernetes's are) must survive a run."""
    app = tmp_path / "app"
    site = app / "venv" / "lib" / "python3.11" / "site-packages" / "lazypkg_for_test"
    site.mkdir(parents=True)
    (site / "__init__.py").write_text(
        "def meta():\n    from lazypkg_for_test import _meta\n    return _meta.VALUE\n"
    )
    (site / "_meta.py").write_text("VALUE = 'meta'\n")
    sibling = tmp_path / "app-copy"
    sibling.mkdir()
    (sibling / "sibling_mod_for_test.py").write_text("NAME = 'sibling'\n")
    (app / "own_mod_for_test.py").write_text("NAME = 'own'\n")
    (app / "__main__.py").write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.append({str(site.parent)!r})
            sys.path.append({str(sibling)!r})
            import pulumi
            import lazypkg_for_test, own_mod_for_test, sibling_mod_for_test
            name = lazypkg_for_test.meta() + "-" + own_mod_for_test.NAME + "-" + sibling_mod_for_test.NAME
            pulumi.ComponentResource("aim:index:Probe", name, None)
            """
        )
    )
    try:
        for _ in range(2):  # the second run reuses what the first one imported
            assert run_program(app).names() == ["meta-own-sibling"]
            assert {"lazypkg_for_test", "lazypkg_for_test._meta", "sibling_mod_for_test"} <= set(sys.modules)
            assert "own_mod_for_test" not in sys.modules
    finally:
        for name in ("lazypkg_for_test", "lazypkg_for_test._meta", "sibling_mod_for_test"):
            sys.modules.pop(name, None)
        for entry in (str(site.parent), str(sibling)):
            while entry in sys.path:
                sys.path.remove(entry)


def test_a_directory_without_main_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"__main__\.py"):
        run_program(tmp_path)


def _binding_program() -> None:
    Binding(
        "svc-binding",
        service="ns/svc",
        winner="AIMProfile/ns/new",
        qualifying=["AIMProfile/ns/new", "AIMProfile/ns/old"],
        force=False,
        cache_mode="Dedicated",
        cache_sizes={},
    )


@pytest.mark.parametrize(
    ("previous", "bound"),
    [
        pytest.param(None, "AIMProfile/ns/new", id="first-run-takes-the-winner"),
        pytest.param({"bound": "AIMProfile/ns/old"}, "AIMProfile/ns/old", id="previous-state-runs-check"),
    ],
)
def test_dynamic_resources_see_their_previous_state_through_check(
    recording: Any, previous: dict[str, Any] | None, bound: str
) -> None:
    rec = recording(_binding_program, previous={"svc-binding": previous} if previous else None)

    binding = rec.by_name("svc-binding")
    assert binding.type == BINDING
    assert binding.outputs["bound"] == bound


def test_a_failed_dynamic_check_fails_the_program(recording: Any) -> None:
    with pytest.raises(DynamicCheckFailed, match="cacheMode"):
        recording(_binding_program, previous={"svc-binding": {"bound": "x", "cacheMode": "Shared"}})


def test_debug_messages_reach_the_logger_but_not_the_recording(recording: Any, caplog: Any) -> None:
    def program() -> None:
        parent = pulumi.ComponentResource("aim:index:Probe", "probe", None)
        pulumi.log.debug("program debug", resource=parent)
        pulumi.log.info("program info", resource=parent)

    with caplog.at_level("DEBUG", logger="aim_pulumi.engine"):
        rec = recording(program)

    assert rec.messages() == ["program info"]
    assert {r.severity for r in rec.logs} == {"info"}
    assert "program debug" in [r.getMessage() for r in caplog.records]


def test_a_run_leaves_the_garbage_collector_as_it_found_it() -> None:
    import gc

    seen: list[tuple[tuple[int, int, int], int]] = []
    before = (gc.get_threshold(), gc.get_freeze_count())

    def program() -> None:
        seen.append((gc.get_threshold(), gc.get_freeze_count()))

    def failing() -> None:
        raise RuntimeError("boom")

    run_program(program)
    with pytest.raises(RuntimeError, match="boom"):
        run_program(failing)

    assert (gc.get_threshold(), gc.get_freeze_count()) == before
    assert seen[0][0] != before[0], "the program ran with its own thresholds"
    assert seen[0][1] > 0, "the heap from before the run is left out of collections"


def test_a_failed_runs_unfinished_work_never_reaches_a_later_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a failed run still had in flight when it ended is abandoned with it, not resumed later.

    Registrations of catalog components are still in the monitor's worker when the program's round
    fails; resumed by a later run on the same loop, they would register there.
    """
    import asyncio
    import time

    from aim_pulumi import AIMProfile, AIMService
    from aim_pulumi.offline.engine import RecordingMonitor
    from aim_pulumi.resources import _sdk

    original = RecordingMonitor.RegisterResource
    seen: list[str] = []

    def watched(self: RecordingMonitor, request: Any) -> Any:
        seen.append(request.name)
        time.sleep(0.01)  # a busy monitor: registrations queue up behind each other
        return original(self, request)

    monkeypatch.setattr(RecordingMonitor, "RegisterResource", watched)

    def failing() -> None:
        for index in range(20):
            AIMProfile(f"p{index}", {"namespace": "team-a", "spec": {"aimId": "a/b", "image": "i:1"}})
        AIMService("chat", {"namespace": "team-a", "spec": {"profile": {"name": "missing"}}})

    loop = _sdk.event_loop()
    before = set(asyncio.all_tasks(loop))
    with pytest.raises(Exception, match="ProfileNotFound"):
        run_program(failing, project="p", stack="s")
    assert [task for task in asyncio.all_tasks(loop) if not task.done() and task not in before] == []
    seen.clear()
    later = run_program(
        lambda: pulumi.CustomResource("test:index:Thing", "next", {"c": 1}), project="p", stack="s"
    )
    assert [r.name for r in later.resources] == ["next"]
    assert seen == ["p-s", "next"]
