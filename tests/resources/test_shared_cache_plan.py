"""A Shared cache is built from the same plan whichever of its services declares it first."""

from __future__ import annotations

import dataclasses
import itertools

from aim_pulumi.resolve.children.caching import CacheProfile, shared_cache_plans
from aim_pulumi.resources.secrets import mask_outputs
from aim_pulumi.resources.shared_cache import shared_plan, with_users_labels

SOURCES = [{"modelId": "org/m", "sourceUri": "hf://org/m", "size": "10Gi"}]


def test_the_cache_plan_does_not_depend_on_which_service_declares_it() -> None:
    (plan,) = shared_cache_plans(CacheProfile("ml", "p", {"modelSources": SOURCES}), rc_spec=None)
    kept = {"Job": {"fields": {"spec.completions": 1}, "plan": "digest"}}
    per_service = {
        ("ml", "chat"): dataclasses.replace(plan, pvc_labels={**plan.pvc_labels, "team": "a"}),
        ("ml", "chat-adopted"): dataclasses.replace(
            plan, adopted=kept, pvc_labels={**plan.pvc_labels, "team": "b"}
        ),
        ("ml", "chat-z"): dataclasses.replace(plan, job_env=({"name": "ONLY_Z", "value": "1"},)),
    }
    built = set()
    for order in itertools.permutations(per_service):
        users = {user: (per_service[user], mask_outputs({})) for user in order}
        shared = shared_plan(users)
        labelled, _ = with_users_labels(shared, users)
        built.add(repr(labelled))
        assert labelled.adopted == kept, "the service adopted from the operator says what the cache keeps"
        assert labelled.pvc_labels["team"] == "a", "the first service in (namespace, name) order wins"
        assert labelled.job_env == plan.job_env
    assert len(built) == 1
