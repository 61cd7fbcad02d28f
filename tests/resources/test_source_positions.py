"""Every registration of the package sends the user's line as its source position, and no trace.

The engine stores each resource's source position and stack trace in the state (written whole
after every step of an update); the SDK's own trace of a child the round registers is a dozen
frames of the package, the SDK and asyncio. This runs a whole program from a file of its own under
`pulumi.runtime.set_mocks`, as the language host runs one (`run_in_stack`), records what each
registration sends to the monitor, and checks that every position is the program's line and no
frame is sent: a component's, where it was constructed; its children's, where their component was
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

# Which lane each registration is made in: the SDK's mocks have none, so `rpcs_on` is recorded.
import contextlib, contextvars
from aim_pulumi.resources import _sdk
LANE = contextvars.ContextVar("lane", default=None)

@contextlib.contextmanager
def rpcs_on(executor):
    token = LANE.set(executor._thread_name_prefix)
    try:
        yield
    finally:
        LANE.reset(token)

_sdk.rpcs_on = rpcs_on

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
    sent.append({"type": request.type, "name": request.name, "position": position, "frames": frames,
                 "lane": LANE.get()})
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


def test_every_registration_sends_the_users_line_only(tmp_path: Path) -> None:
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
        # Nothing of the package, the SDK, asyncio or the interpreter, nor the user's outer frames.
        assert registration["frames"] == [], registration
        assert registration["position"] is not None and registration["position"][0] == uri, registration
    by_name = {r["name"]: r for r in package}
    # profile() called from main(): the innermost of the user's frames, the line that declared it.
    assert by_name["p"]["position"] == [uri, lines["PROFILE"]]
    service_line = [uri, lines["SERVICE"]]
    assert by_name["chat"]["position"] == service_line
    children = [r for r in package if r["name"] not in ("p", "chat")]
    kinds = {r["type"] for r in children}
    assert "pulumi-python:dynamic/aim:Binding" in kinds
    assert "kubernetes:serving.kserve.io/v1beta1:InferenceService" in kinds
    assert "kubernetes:batch/v1:Job" in kinds
    # Every child, the shared cache and its PVC and Job included, points at the service's line.
    wrong = [(r["name"], r["position"]) for r in children if r["position"] != service_line]
    assert not wrong
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

def sent(trace):
    position = sdk_resource._get_source_position(trace)
    return {"frames": len(trace.frames), "position": position and [position.uri, position.line]}

site = declare()  # OUTER
exec_site = eval("declare()")  # a frame of no file between the user's: the innermost file's is taken
with levers.registering():
    in_round = sent(sdk_resource._get_stack_trace())  # ROUND
    with levers.declared_at(site):
        declared = sent(sdk_resource._get_stack_trace())
        with levers.constructing():  # a component the round constructs: still the declaration's
            constructed = sent(sdk_resource._get_stack_trace())
    with levers.declared_at(None):
        unknown = sent(sdk_resource._get_stack_trace())  # UNKNOWN
print(json.dumps({"site": [site.filename, site.line], "exec": [exec_site.filename, exec_site.line],
                  "in_round": in_round, "declared": declared, "constructed": constructed,
                  "unknown": unknown}))
"""


def test_a_declaration_site_is_the_users_line_and_the_round_sends_it(tmp_path: Path) -> None:
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
    # The innermost of the user's frames is the site; the package's own frame is not it.
    assert result["site"] == [path, inner]
    assert result["exec"] == [path, inner]
    # Where the user's code is on the stack and no declaration is known, its line is sent.
    assert result["in_round"] == {"frames": 0, "position": [uri, in_round]}
    assert result["unknown"] == {"frames": 0, "position": [uri, unknown]}
    declared = {"frames": 0, "position": [uri, inner]}
    assert result["declared"] == declared and result["constructed"] == declared
    assert outer != inner


def test_the_round_sends_each_binding_on_the_bindings_lane_and_nothing_else(tmp_path: Path) -> None:
    program, _ = _program(tmp_path)
    done = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, timeout=180, check=False, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    sent = json.loads(done.stdout.strip().splitlines()[-1])["sent"]
    lanes = {(r["type"], r["name"]): r["lane"] for r in sent}
    assert lanes.pop(("pulumi-python:dynamic/aim:Binding", "chat-binding")) == "aim-binding-lane"
    # The components and the children: the SDK's own pool.
    assert len(lanes) >= 5 and set(lanes.values()) == {None}, lanes
