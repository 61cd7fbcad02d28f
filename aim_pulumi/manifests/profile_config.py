"""The profile ConfigMap mounted into the AIM runtime (behaviour §13.1)."""

from __future__ import annotations

from typing import Any

from aim_pulumi.manifests._common import metadata
from aim_pulumi.resolve.types import ProfileConfigPlan


def build_profile_config(
    plan: ProfileConfigPlan, namespace: str, *, skip_await: bool = False
) -> dict[str, Any]:
    """One data key, the profile file the runtime finds under `profiles/custom/<aimId>/`."""
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": metadata(plan.name, namespace, plan.labels, skip_await=skip_await),
        "data": {plan.file_name: plan.content},
    }
