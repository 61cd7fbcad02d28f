"""Under the SDK's own runtime every registration of the package still sends the SDK's stack trace.

The package computes it itself (`_sdk.cheaper_source_positions`), so this checks, on a whole
program under `pulumi.runtime.set_mocks` run as the language host runs one (`run_in_stack`), that
each trace is the one the SDK's own function returns at the same point, and that the collector's
thresholds are raised from the first declaration until the engine has answered the round's last
registration, and put back then.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

PROGRAM = """
import gc, json
import pulumi
from pulumi.runtime import Mocks, set_mocks
from pulumi.runtime import resource as sdk_resource
from pulumi.runtime import settings
from pulumi.runtime.stack import run_in_stack
from pulumi.runtime.sync_await import _sync_await
from aim_pulumi.resources import _sdk
from aim_pulumi.resources.binding import BindingProvider
from aim_pulumi.resources.collector import RAISED_THRESHOLDS

RAISED = RAISED_THRESHOLDS[0]

raised = []

class Echo(Mocks):
    def new_resource(self, args):
        raised.append(gc.get_threshold()[0] >= RAISED)
        if args.typ.startswith("pulumi-python:dynamic"):
            return args.name + "-id", BindingProvider().check({}, args.inputs).inputs
        return args.name + "-id", args.inputs

    def call(self, args):
        return {}

sdk_trace = sdk_resource._get_stack_trace
cheaper = _sdk.stack_trace
seen = []

def both():
    ours, theirs = cheaper(), sdk_trace()
    seen.append((ours == theirs, len(ours.frames), ours.frames[0].pc.uri if ours.frames else ""))
    return ours

_sdk.stack_trace = both
set_mocks(Echo(), preview=True)
settings.ROOT.set(None)
thresholds = gc.get_threshold()

def main():
    import aim_pulumi as aim
    profile = {
        "aimId": "a/b", "image": "i:1", "type": "optimized", "caching": {"enabled": True},
        "acceleratorType": "gpu", "acceleratorVendor": "amd", "acceleratorModel": "MI300X",
        "acceleratorCount": 1, "modelSources": [{"modelId": "a/b", "sourceUri": "hf://a/b", "size": "1Gi"}],
    }
    labels = {"aim.eai.amd.com/source-model": "b"}
    body = [gc.get_threshold()[0] >= RAISED]
    aim.AIMProfile("p", {"namespace": "ml", "labels": labels, "spec": profile})
    body.append(gc.get_threshold()[0] >= RAISED)
    raised.append(body)
    pipeline = {"aim.eai.amd.com/reconciler-pipeline": "profile"}
    aim.AIMService("chat", {"namespace": "ml", "annotations": pipeline, "spec": {"model": {"name": "b"}}})

_sync_await(run_in_stack(main))
print(json.dumps({"seen": seen, "thresholds_kept": gc.get_threshold() == thresholds, "raised": raised,
                  "restored": sdk_resource._get_stack_trace is sdk_trace}))
"""


def test_every_registration_sends_the_sdks_stack_trace() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=180, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    seen = result["seen"]
    # The profile and the service, the binding, and the service's children and shared cache.
    assert len(seen) >= 6
    assert all(same for same, _, _ in seen)
    assert all(frames > 0 for _, frames, _ in seen)
    # Children registered by the round point into the package, as the SDK's own trace does.
    assert any("aim_pulumi/resources/" in uri for _, _, uri in seen)
    assert result["thresholds_kept"] and result["restored"]
    # Raised by the first declaration, not before it; and while the engine answers every registration.
    body, *registrations = result["raised"]
    assert body == [False, True]
    assert len(registrations) >= 6 and all(registrations)
