"""Every registration of the package sends the user's frames as its stack trace.

The engine stores each resource's source position and stack trace in the state (written whole
after every step of an update); the SDK's own trace of a child the round registers is a dozen
frames of the package, the SDK and asyncio. This runs a whole program from a file of its own under
`pulumi.runtime.set_mocks`, as the language host runs one (`run_in_stack`), records what each
registration sends to the monitor, and checks that every trace is made of the program's frames
only: a component's, where it was constructed; its children's, where their component was
declared. It also checks that the collector's thresholds are raised from the first declaration
until the engine has answered the round's last registration, and put back then.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PROGRAM = """
import gc, json
import pulumi
from pulumi.runtime import Mocks, set_mocks
from pulumi.runtime import mocks as sdk_mocks
from pulumi.runtime import resource as sdk_resource
from pulumi.runtime import settings
from pulumi.runtime.stack import run_in_stack
from pulumi.runtime.sync_await import _sync_await
from aim_pulumi.resources.binding import BindingProvider
from aim_pulumi.resources.collector import RAISED_THRESHOLDS

RAISED = RAISED_THRESHOLDS[0]

raised = []
sent = []

class Echo(Mocks):
    def new_resource(self, args):
        raised.append(gc.get_threshold()[0] >= RAISED)
        if args.typ.startswith("pulumi-python:dynamic"):
            return args.name + "-id", BindingProvider().check({}, args.inputs).inputs
        return args.name + "-id", args.inputs

    def call(self, args):
        return {}

register = sdk_mocks.MockMonitor.RegisterResource

def recording(self, request):
    frames = [(f.pc.uri, f.pc.line) if f.HasField("pc") else None for f in request.stackTrace.frames]
    position = None
    if request.HasField("sourcePosition"):
        position = (request.sourcePosition.uri, request.sourcePosition.line)
    sent.append({"type": request.type, "name": request.name, "position": position, "frames": frames})
    return register(self, request)

sdk_mocks.MockMonitor.RegisterResource = recording
sdk_trace = sdk_resource._get_stack_trace
set_mocks(Echo(), preview=True)
settings.ROOT.set(None)
thresholds = gc.get_threshold()

def profile(aim):
    spec = {
        "aimId": "a/b", "image": "i:1", "type": "optimized", "caching": {"enabled": True},
        "acceleratorType": "gpu", "acceleratorVendor": "amd", "acceleratorModel": "MI300X",
        "acceleratorCount": 1, "modelSources": [{"modelId": "a/b", "sourceUri": "hf://a/b", "size": "1Gi"}],
    }
    labels = {"aim.eai.amd.com/source-model": "b"}
    aim.AIMProfile("p", {"namespace": "ml", "labels": labels, "spec": spec})  # PROFILE

def main():
    import aim_pulumi as aim
    body = [gc.get_threshold()[0] >= RAISED]
    profile(aim)
    body.append(gc.get_threshold()[0] >= RAISED)
    raised.append(body)
    pipeline = {"aim.eai.amd.com/reconciler-pipeline": "profile"}
    spec = {"model": {"name": "b"}}
    aim.AIMService("chat", {"namespace": "ml", "annotations": pipeline, "spec": spec})  # SERVICE

_sync_await(run_in_stack(main))
print(json.dumps({"sent": sent, "thresholds_kept": gc.get_threshold() == thresholds,
                  "raised": raised, "restored": sdk_resource._get_stack_trace is sdk_trace}))
"""


def _program(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    lines = PROGRAM.splitlines()
    found = {
        marker: next(i for i, text in enumerate(lines, 1) if text.endswith(f"# {marker}"))
        for marker in ("PROFILE", "SERVICE")
    }
    source = PROGRAM.replace("PROFILE_LINE", str(found["PROFILE"])).replace(
        "SERVICE_LINE", str(found["SERVICE"])
    )
    path = tmp_path / "program.py"
    path.write_text(source, encoding="utf-8")
    return path, found


def test_every_registration_sends_the_users_frames_only(tmp_path: Path) -> None:
    program, lines = _program(tmp_path)
    done = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, timeout=180, check=False, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    uri = program.resolve().as_uri()
    package = [r for r in result["sent"] if r["type"] != "pulumi:pulumi:Stack"]
    # The profile and the service, the binding, and the service's children and shared cache.
    assert len(package) >= 6
    for registration in package:
        frames = registration["frames"]
        assert frames, registration
        # Nothing of the package, the SDK, asyncio or the interpreter: the program's file only.
        assert all(frame is not None and frame[0] == uri for frame in frames), registration
        assert registration["position"] == frames[0]
    by_name = {r["name"]: r for r in package}
    profile = by_name["p"]
    assert profile["position"] == [uri, lines["PROFILE"]]
    # profile() called from main(): both of the user's frames, innermost first.
    assert len(profile["frames"]) == 2
    service_line = [uri, lines["SERVICE"]]
    assert by_name["chat"]["position"] == service_line
    children = [r for r in package if r["name"] not in ("p", "chat")]
    kinds = {r["type"] for r in children}
    assert "pulumi-python:dynamic/aim:Binding" in kinds
    assert "kubernetes:serving.kserve.io/v1beta1:InferenceService" in kinds
    assert "kubernetes:batch/v1:Job" in kinds
    # Every child, the shared cache and its PVC and Job included, points at the service's line.
    assert all(
        r["position"] == service_line and r["frames"] == by_name["chat"]["frames"] for r in children
    ), [(r["name"], r["position"], len(r["frames"])) for r in children]
    assert result["thresholds_kept"] and result["restored"]
    # Raised by the first declaration, not before it; and while the engine answers every registration.
    body, *registrations = result["raised"]
    assert body == [False, True]
    assert len(registrations) >= 6 and all(registrations)


SITE_PROGRAM = """
import json, sys
from aim_pulumi.resources import levers
from aim_pulumi.resources.sites import declaration_site
from pulumi.runtime import resource as sdk_resource

def declare():
    return declaration_site()  # INNER

site = declare()  # OUTER
exec_site = eval("declare()")  # a frame of no file between the user's: the run ends there
with levers.registering():
    in_round = sdk_resource._get_stack_trace()  # ROUND
    with levers.declared_at(site):
        declared = sdk_resource._get_stack_trace()
        with levers.constructing():  # a component the round constructs: still the declaration's
            constructed = sdk_resource._get_stack_trace()
    with levers.declared_at(None):
        unknown = sdk_resource._get_stack_trace()  # UNKNOWN
frames = lambda t: [[f.pc.uri, f.pc.line] for f in t.frames]
print(json.dumps({"site": [site.filename, site.line], "frames": site.frames, "exec": exec_site.frames,
                  "in_round": frames(in_round), "declared": frames(declared),
                  "constructed": frames(constructed), "unknown": frames(unknown)}))
"""


def test_a_declaration_site_holds_the_users_frames_and_the_round_sends_them(tmp_path: Path) -> None:
    program = tmp_path / "site.py"
    program.write_text(SITE_PROGRAM, encoding="utf-8")
    lines = SITE_PROGRAM.splitlines()
    inner, outer, in_round, unknown = (
        next(i for i, text in enumerate(lines, 1) if text.endswith(f"# {marker}"))
        for marker in ("INNER", "OUTER", "ROUND", "UNKNOWN")
    )
    done = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    path, uri = str(program), program.resolve().as_uri()
    # The innermost of the user's frames is the site; the package's own frame is not among them.
    assert result["site"] == [path, inner]
    assert result["frames"] == [[path, inner], [path, outer]]
    assert result["exec"] == [[path, inner]]
    # Where the user's code is on the stack and no declaration is known, its frames are sent.
    assert result["in_round"] == [[uri, in_round]]
    assert result["unknown"] == [[uri, unknown]]
    declared = [[uri, inner], [uri, outer]]
    assert result["declared"] == declared and result["constructed"] == declared
