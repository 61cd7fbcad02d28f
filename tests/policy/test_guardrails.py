"""The AIM guardrails judge what the components declared: each on a program that breaks it and on one
that does not, under the offline engine, as the policy pack sees the stack (components' outputs,
children's planned objects)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pulumi
import pytest

from aim_pulumi import AIMModel, AIMProfile, AIMService
from aim_pulumi.cli.policies import stack_resources
from aim_pulumi.policy import GUARDRAILS, Resource, StackView
from aim_pulumi.policy.guardrails import image_reference, model_size, service_gpus

NS = "ml-team"
GATEWAY = {"name": "inference-gateway", "namespace": "gateway-system"}
PROFILE_PIPELINE = {"aim.eai.amd.com/reconciler-pipeline": "profile"}
RUNNING = {
    "metrics": [
        {
            "type": "PodMetric",
            "podmetric": {
                "metric": {"backend": "opentelemetry", "metricNames": ["vllm:num_requests_running"]},
                "target": {"type": "Value", "value": "8"},
            },
        }
    ]
}


def guardrail(name: str) -> Any:
    return next(g for g in GUARDRAILS if g.name == name)


def service_program(
    *,
    gpus: int = 1,
    size: str = "17Gi",
    spec: Mapping[str, Any] | None = None,
    opts: pulumi.ResourceOptions | None = None,
    name: str = "chat",
    namespace: str = NS,
    caching: bool = True,
) -> Callable[[], None]:
    """A model by Hugging Face id (its profile generated from the embedded NVIDIA fallback) and a
    service on it, routed and cached unless `spec` says otherwise."""

    def program() -> None:
        AIMModel(
            f"{name}-model",
            {
                "namespace": namespace,
                "spec": {
                    "modelId": "Qwen/Qwen3-8B",
                    "accelerator": {"vendor": "nvidia", "count": gpus},
                    "source": {"size": size},
                },
            },
        )
        AIMService(
            name,
            {
                "namespace": namespace,
                "annotations": PROFILE_PIPELINE,
                "spec": {
                    "model": {"name": f"{name}-model"},
                    "routing": {"enabled": True, "gatewayRef": GATEWAY},
                    **({"caching": {"mode": "Shared"}} if caching else {}),
                    **(spec or {}),
                },
            },
            opts=opts,
        )

    return program


def view_of(recording: Any, *programs: Callable[[], None]) -> StackView:
    def program() -> None:
        for each in programs:
            each()

    return StackView(stack_resources(recording(program)))


def messages(name: str, view: StackView, config: Mapping[str, Any] | None = None) -> list[str]:
    return [v.message for v in guardrail(name).run(view, config)]


@pytest.mark.parametrize(
    ("image", "registry", "repository", "tag", "digest"),
    [
        ("vllm/vllm-openai:v0.17.1-cu130", "docker.io", "vllm/vllm-openai", "v0.17.1-cu130", None),
        (
            "ghcr.io/silogen/aim-artifact-downloader:0.2.0",
            "ghcr.io",
            "silogen/aim-artifact-downloader",
            "0.2.0",
            None,
        ),
        ("localhost:5000/team/model", "localhost:5000", "team/model", None, None),
        ("registry.local/m@sha256:abc", "registry.local", "m", None, "sha256:abc"),
        ("busybox", "docker.io", "busybox", None, None),
        ("reg.io:443/a/b:1.0@sha256:ff", "reg.io:443", "a/b", "1.0", "sha256:ff"),
    ],
)
def test_an_image_reference_splits_as_the_runtime_reads_it(
    image: str, registry: str, repository: str, tag: str | None, digest: str | None
) -> None:
    ref = image_reference(image)
    assert (ref.registry, ref.repository, ref.tag, ref.digest) == (registry, repository, tag, digest)


def test_the_stack_view_finds_each_service_with_its_children_caches_and_model(recording: Any) -> None:
    view = view_of(recording, service_program())
    (service,) = view.services()
    assert service.label == "AIMService ml-team/chat"
    assert [r.type.rsplit(":", 1)[-1] for r in service.inference_services + service.routes] == [
        "InferenceService",
        "HTTPRoute",
    ]
    # The Shared cache is a component of its own, found by the PVC the service's status names.
    assert [c.type for c in service.caches] == ["aim:index:AIMSharedCache"]
    assert [j.props["metadata"]["name"] for j in service.download_jobs] == ["qwen-qwen3-8b-download-e71feca1"]
    assert service.model is not None and service.model.name == "chat-model"
    assert model_size(service) == 17 * 2**30
    assert [c.image for c in service.containers()] == [
        "vllm/vllm-openai:v0.17.1-cu130",
        "ghcr.io/silogen/aim-artifact-downloader:0.2.0",
    ]


def test_allowed_images_names_the_service_the_child_and_the_registry(recording: Any) -> None:
    view = view_of(recording, service_program())
    assert messages("aim-allowed-images", view) == []  # defaults: any registry, no `latest`
    assert messages("aim-allowed-images", view, {"registries": ["docker.io/vllm", "ghcr.io/silogen"]}) == []
    assert messages("aim-allowed-images", view, {"registries": ["ghcr.io"]}) == [
        "AIMService ml-team/chat: InferenceService ml-team/chat-eb86896a spec.predictor.containers[0]: image "
        "vllm/vllm-openai:v0.17.1-cu130 is not from an allowed registry (ghcr.io)"
    ]
    assert messages("aim-allowed-images", view, {"tagPatterns": [r"v\d+\.\d+\.\d+.*"]}) == [
        "AIMService ml-team/chat: Job ml-team/qwen-qwen3-8b-download-e71feca1 "
        "spec.template.spec.containers[0]: image ghcr.io/silogen/aim-artifact-downloader:0.2.0: "
        r"tag '0.2.0' matches none of v\d+\.\d+\.\d+.*"
    ]
    assert messages("aim-allowed-images", view, {"forbiddenTags": ["0.2.0"]}) == [
        "AIMService ml-team/chat: Job ml-team/qwen-qwen3-8b-download-e71feca1 "
        "spec.template.spec.containers[0]: image ghcr.io/silogen/aim-artifact-downloader:0.2.0 uses the "
        "tag '0.2.0', which is not allowed"
    ]


def test_an_image_without_a_tag_counts_as_latest_and_a_digest_pins_it(recording: Any) -> None:
    def profile_program(image: str) -> Callable[[], None]:
        def program() -> None:
            AIMProfile(
                "custom",
                {
                    "namespace": NS,
                    "spec": {
                        "aimId": "qwen/qwen3-32b",
                        "image": image,
                        "acceleratorVendor": "amd",
                        "acceleratorModel": "MI300X",
                        "acceleratorCount": 1,
                    },
                },
            )
            AIMService("svc", {"namespace": NS, "spec": {"profile": {"name": "custom"}}})

        return program

    untagged = view_of(recording, profile_program("registry.local/aim/qwen"))
    assert messages("aim-allowed-images", untagged) == [
        "AIMService ml-team/svc: InferenceService ml-team/svc-8d7ca50c spec.predictor.containers[0]: image "
        "registry.local/aim/qwen uses the tag 'latest', which is not allowed"
    ]
    assert len(messages("aim-images-pinned-by-digest", untagged)) == 1
    digest = "registry.local/aim/qwen@sha256:" + "a" * 64
    pinned = view_of(recording, profile_program(digest))
    assert messages("aim-allowed-images", pinned) == []
    assert messages("aim-images-pinned-by-digest", pinned) == []
    assert messages("aim-images-pinned-by-digest", untagged, {"exemptRegistries": ["registry.local"]}) == []


def test_images_pinned_by_digest_checks_the_predictor_and_the_download_job(recording: Any) -> None:
    view = view_of(recording, service_program())
    found = messages("aim-images-pinned-by-digest", view)
    assert [m.split(": image ")[1] for m in found] == [
        "vllm/vllm-openai:v0.17.1-cu130 is not pinned by digest (@sha256:...)",
        "ghcr.io/silogen/aim-artifact-downloader:0.2.0 is not pinned by digest (@sha256:...)",
    ]
    exempt = {"exemptRegistries": ["docker.io", "ghcr.io"]}
    assert messages("aim-images-pinned-by-digest", view, exempt) == []


def test_gpu_quota_counts_gpus_per_replica_times_the_replicas_a_service_may_reach(
    recording: Any,
) -> None:
    view = view_of(
        recording,
        service_program(gpus=2, spec={"minReplicas": 1, "maxReplicas": 3, "autoScaling": RUNNING}),
        service_program(gpus=1, name="small"),
        service_program(gpus=4, name="other", namespace="research"),
    )
    by_label = {s.label: s for s in view.services()}
    assert service_gpus(by_label["AIMService ml-team/chat"]) == 6
    assert service_gpus(by_label["AIMService ml-team/chat"], "min") == 2
    assert service_gpus(by_label["AIMService ml-team/small"]) == 1
    assert messages("aim-gpu-quota", view) == []  # no limit configured
    assert messages("aim-gpu-quota", view, {"maxPerService": 4}) == [
        "AIMService ml-team/chat: asks for 6 GPUs (max replicas), more than the 4 a service may have"
    ]
    assert messages("aim-gpu-quota", view, {"maxPerService": 4, "count": "min"}) == []
    assert messages(
        "aim-gpu-quota", view, {"maxPerNamespace": {"ml-team": 6}, "defaultMaxPerNamespace": 2}
    ) == [
        "namespace ml-team: its services ask for 7 GPUs (max replicas), more than its 6 "
        "(AIMService ml-team/chat, AIMService ml-team/small)",
        "namespace research: its services ask for 4 GPUs (max replicas), more than its 2 "
        "(AIMService research/other)",
    ]


def test_caching_is_required_above_the_configured_model_size(recording: Any) -> None:
    cached = view_of(recording, service_program(size="30Gi"))
    bare = view_of(recording, service_program(size="30Gi", caching=False))
    small = view_of(recording, service_program(size="19Gi", caching=False))
    assert messages("aim-cache-required-above-size", cached) == []
    assert messages("aim-cache-required-above-size", small) == []
    assert messages("aim-cache-required-above-size", bare) == [
        "AIMService ml-team/chat: its model is 30Gi (at least 20Gi) and it has no cache: set "
        "spec.caching.mode to Shared or Dedicated"
    ]
    assert messages("aim-cache-required-above-size", bare, {"minSize": "31Gi"}) == []


def test_scale_to_zero_needs_a_route_even_when_a_transform_changes_the_children(recording: Any) -> None:
    routed = view_of(recording, service_program(spec={"minReplicas": 0, "maxReplicas": 2}))
    assert messages("aim-scale-to-zero-needs-routing", routed) == []

    # Admission refuses minReplicas 0 without routing; a transform can still edit the child.
    def to_zero(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
        if not args.type_.endswith(":InferenceService"):
            return None
        spec = dict(args.props["spec"])
        spec["predictor"] = {**spec["predictor"], "minReplicas": 0}
        return pulumi.ResourceTransformResult({**args.props, "spec": spec}, args.opts)

    edited = view_of(
        recording,
        service_program(
            spec={"routing": {"enabled": False}}, opts=pulumi.ResourceOptions(transforms=[to_zero])
        ),
    )
    assert messages("aim-scale-to-zero-needs-routing", edited) == [
        "AIMService ml-team/chat: scales to zero replicas without routing: nothing would wake it (set "
        "spec.routing.enabled and a gatewayRef, or minReplicas >= 1)"
    ]


def test_a_credential_in_a_plain_env_value_is_refused_and_a_secret_is_not(recording: Any) -> None:
    plain = view_of(recording, service_program(spec={"env": [{"name": "HF_TOKEN", "value": "hf_abc"}]}))
    assert messages("aim-no-plain-credential-env", plain) == [
        "AIMService ml-team/chat: InferenceService ml-team/chat-eb86896a spec.predictor.containers[0]: env "
        "HF_TOKEN holds a credential as a plain value: pass it as a Pulumi secret (it then goes to a Secret) "
        "or valueFrom.secretKeyRef"
    ]
    assert messages("aim-no-plain-credential-env", plain, {"allowedNames": ["HF_TOKEN"]}) == []
    secret = view_of(
        recording,
        service_program(spec={"env": [{"name": "HF_TOKEN", "value": pulumi.Output.secret("hf_abc")}]}),
    )
    assert messages("aim-no-plain-credential-env", secret) == []


def test_the_guardrails_read_no_value_a_preview_does_not_know() -> None:
    unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
    service = Resource("aim:index:AIMService", "urn:svc", "svc", {"status": unknown})
    isvc = Resource(
        "kubernetes:serving.kserve.io/v1beta1:InferenceService",
        "urn:isvc",
        "svc-isvc",
        {"metadata": unknown, "spec": {"predictor": {"containers": [{"image": unknown, "env": unknown}]}}},
        parent="urn:svc",
    )
    view = StackView([service, isvc])
    config = {"registries": ["ghcr.io"], "maxPerService": 0, "minSize": "0"}
    assert {g.name: g.run(view, config) for g in GUARDRAILS} == {g.name: [] for g in GUARDRAILS}


def test_the_pack_reads_the_policy_sdks_proxied_properties_as_the_offline_plan_does(
    recording: Any,
) -> None:
    # Under the engine, pulumi-policy hands a stack policy each resource's properties behind a proxy
    # (Mapping and Sequence, not dict and list) that raises on a value the preview does not know.
    from pulumi_policy import PolicyCustomTimeouts, PolicyResource, PolicyResourceOptions
    from pulumi_policy.proxy import unknown_checking_proxy

    from aim_pulumi.policy.pack import stack_view

    offline = view_of(recording, service_program(spec={"env": [{"name": "API_KEY", "value": "k"}]}))
    unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
    by_urn: dict[str, PolicyResource] = {}
    for r in offline.resources:
        props = json.loads(json.dumps(r.props))
        if r.type.endswith(":InferenceService"):  # a value known only after `up`, read by a guardrail
            props["spec"]["predictor"]["containers"][0]["env"].append({"name": "POD_IP", "value": unknown})
        by_urn[r.urn] = PolicyResource(
            r.type,
            unknown_checking_proxy(props),
            r.urn,
            r.name,
            PolicyResourceOptions(False, [], None, [], PolicyCustomTimeouts(0, 0, 0), [], None),
            None,
            by_urn.get(r.parent),
            [],
            {},
        )
    engine = stack_view(list(by_urn.values()))
    config = {"registries": ["ghcr.io"], "maxPerService": 0}
    found = {g.name: [v.message for v in g.run(engine, config)] for g in GUARDRAILS}
    assert found == {g.name: [v.message for v in g.run(offline, config)] for g in GUARDRAILS}
    assert all(found[name] for name in ("aim-allowed-images", "aim-gpu-quota", "aim-no-plain-credential-env"))
