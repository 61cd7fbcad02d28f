"""What a failed CLI step says in a test's assertion: which resources changed, not only how many.

A refresh that was expected to change nothing once failed with `~ 2 updated` and a tail that held
only the stack outputs; the report names the changed resources first and leaves the outputs out.
"""

from __future__ import annotations

import subprocess

from harness import changed_in_output, failure_report

# The shape `pulumi refresh --diff --non-interactive` prints (3.274), cut down.
REFRESH = """Previewing refresh (dev):
  pulumi:pulumi:Stack: (same)
    [urn=urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev]
        ~ kubernetes:gateway.networking.k8s.io/v1:HTTPRoute: (update)
            [id=inference/qwen-busy-a2f79b15]
            [urn=urn:pulumi:dev::p::aim:index:AIMService$kubernetes:gateway.networking.k8s.io/v1:HTTPRoute::qwen-busy-route-status]
          ~ metadata  : {
              ~ resourceVersion  : "255" => "265"
            }
          + status    : {
            }
        ~ kubernetes:keda.sh/v1alpha1:ScaledObject: (update)
            [id=inference/qwen-busy-656d64c9-predictor]
            [urn=urn:pulumi:dev::p::aim:index:AIMService$kubernetes:keda.sh/v1alpha1:ScaledObject::qwen-busy-scaledobject-status]
          + status    : {
            }
        - kubernetes:core/v1:ConfigMap: (delete)
            [urn=urn:pulumi:dev::p::aim:index:AIMService$kubernetes:core/v1:ConfigMap::qwen-busy-profile-config]
Outputs:
    busy: {
        "status": "Running"
    }

Resources:
    ~ 2 updated
    - 1 deleted
    14 unchanged
"""


def test_the_changed_steps_are_named_in_order() -> None:
    assert changed_in_output(REFRESH) == [
        ("qwen-busy-route-status", "update"),
        ("qwen-busy-scaledobject-status", "update"),
        ("qwen-busy-profile-config", "delete"),
    ]


def test_the_report_names_them_first_keeps_the_diff_and_summary_and_leaves_the_outputs_out() -> None:
    done = subprocess.CompletedProcess(
        ["pulumi"], 7, REFRESH + "x" * 50_000, "error: no changes were expected"
    )
    report = failure_report(("pulumi", "refresh", "--expect-no-changes"), done)
    head = report.splitlines()[:4]
    assert head == [
        "pulumi refresh --expect-no-changes exited 7",
        "changed:",
        "  qwen-busy-route-status (update)",
        "  qwen-busy-scaledobject-status (update)",
    ]
    assert '~ resourceVersion  : "255" => "265"' in report
    assert '"status": "Running"' not in report
    assert "characters left out" in report
    assert report.endswith("error: no changes were expected")
