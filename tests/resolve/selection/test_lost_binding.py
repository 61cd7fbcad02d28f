"""A binding lost from the state: warned only when the live InferenceService runs another profile."""

from __future__ import annotations

from typing import Any

from aim_pulumi.resolve.selection.lost_binding import (
    LOST_BINDING_REASON,
    Chosen,
    Live,
    live_of,
    lost_binding_warning,
)

CHOSEN = Chosen(
    service="ml-team/chat",
    isvc_name="chat-1234abcd",
    profile_name="qwen-optimized",
    profile_label="qwen-optimized",
    image="docker.io/aim/qwen:0.9",
    caches=("qwen-cache-new",),
)


def isvc(
    profile: str | None, image: str = "docker.io/aim/qwen:0.8", claims: tuple[str, ...] = ()
) -> dict[str, Any]:
    labels = {"aim.eai.amd.com/service": "chat"}
    if profile is not None:
        labels["aim.eai.amd.com/profile"] = profile
    return {
        "metadata": {"name": "chat-1234abcd", "labels": labels},
        "spec": {
            "predictor": {
                "containers": [{"name": "kserve-container", "image": image}],
                "volumes": [
                    {"name": "dshm", "emptyDir": {"medium": "Memory"}},
                    *({"name": c, "persistentVolumeClaim": {"claimName": c}} for c in claims),
                ],
            }
        },
    }


def test_the_live_facts_are_its_profile_label_image_and_claims() -> None:
    live = live_of(isvc("qwen-general", claims=("b", "a")))
    assert live == Live("qwen-general", "docker.io/aim/qwen:0.8", ("a", "b"))
    assert live_of({"metadata": {}}) == Live(None, None, ())


def test_a_first_deploy_says_nothing() -> None:
    assert lost_binding_warning(CHOSEN, None, live_declared=False) is None


def test_the_same_profile_running_says_nothing() -> None:
    live = live_of(isvc("qwen-optimized", image="docker.io/aim/qwen:0.9", claims=("qwen-cache-new",)))
    assert lost_binding_warning(CHOSEN, live, live_declared=True) is None


def test_a_live_object_with_no_profile_label_says_nothing() -> None:
    assert lost_binding_warning(CHOSEN, live_of(isvc(None)), live_declared=False) is None


def test_another_profile_running_is_warned_with_both_profiles_the_rollout_and_the_pin() -> None:
    live = live_of(isvc("qwen-general", claims=("qwen-cache-old",)))
    message = lost_binding_warning(CHOSEN, live, live_declared=True)
    assert message is not None
    assert message.startswith(f"{LOST_BINDING_REASON}: ")
    assert "AIMService ml-team/chat" in message and "InferenceService chat-1234abcd" in message
    assert 'runs profile "qwen-general"' in message and 'binds "qwen-optimized"' in message
    assert "image docker.io/aim/qwen:0.8 -> docker.io/aim/qwen:0.9" in message
    assert "a new cache to download: qwen-cache-new" in message
    assert "spec.profile.name: qwen-general" in message


def test_the_same_image_and_cache_are_not_announced_as_changes() -> None:
    live = live_of(isvc("qwen-general", image="docker.io/aim/qwen:0.9", claims=("qwen-cache-new",)))
    message = lost_binding_warning(CHOSEN, live, live_declared=True)
    assert message is not None
    assert "image" not in message and "new cache" not in message
    assert "rolls the predictor to it;" in message


def test_a_live_profile_no_longer_declared_cannot_be_pinned() -> None:
    message = lost_binding_warning(CHOSEN, live_of(isvc("qwen-general")), live_declared=False)
    assert message is not None
    assert "spec.profile.name" not in message
    assert '"qwen-general" is not a profile the program declares any more' in message
