"""Discovery against a real registry (distribution 2.8 on 127.0.0.1), with faults injected by a proxy."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest
from conftest import FAST, login, make_reader
from fault_proxy import FaultProxy, Rule
from oci import (
    ROOT,
    Image,
    Layer,
    Pusher,
    aim_profile,
    config_blob,
    file,
    layer,
    opaque,
    profile,
    random_bytes,
    tar_bytes,
    whiteout,
)
from registry_server import PASSWORD, USERNAME, RegistryServer

from aim_pulumi.discovery.client import Limits, RegistryClient
from aim_pulumi.discovery.credentials import Credentials
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.listing import RegistryLister
from aim_pulumi.discovery.model_source import parse_filter
from aim_pulumi.discovery.reader import ImageReader

pytestmark = pytest.mark.registry

AIM_ID = "Qwen/Qwen3-0.6B"
ENV = {"AIM_ID": AIM_ID, "AIM_BASE_IMAGE_REF": "amdenterpriseai/aim-base:0.8", "PATH": "/usr/bin"}
LABELS = {"com.amd.aim.model.recommendedDeployments": '[{"gpuModel": "MI300X"}]', "maintainer": "x"}


def aim_image(flavour: str = "oci", compression: str = "zstd", *, big: int = 200_000) -> Image:
    """A base layer (filler and a general/ profile), the model's profile layer, then a fix-up layer
    that removes a bound file with a whiteout and leaks a general/ file, as real builds do."""
    base = layer(
        [
            file("usr/lib/libbig.so", random_bytes(big)),
            profile("general/vllm-cpu-bf16.yaml", aim_profile(None, None, gpu="", count=0)),
        ],
        "gzip",
        flavour,  # type: ignore[arg-type]
    )
    model = layer(
        [
            profile(f"{AIM_ID}/vllm-mi300x-fp8-tp1-latency.yaml", aim_profile(primary=True)),
            profile(
                f"{AIM_ID}/vllm-mi300x-fp16-tp1-throughput.yaml",
                aim_profile(precision="fp16", metric="throughput"),
            ),
            profile(f"{AIM_ID}/old.yaml", aim_profile()),
            profile("custom/ignored.yaml", "x: 1\n"),
        ],
        compression,  # type: ignore[arg-type]
        flavour,  # type: ignore[arg-type]
    )
    fixup = layer(
        [whiteout(f"{ROOT}/{AIM_ID}/old.yaml"), profile("general/leak.yaml", aim_profile(None, None))],
        "gzip",
        flavour,
    )  # type: ignore[arg-type]
    return Image([base, model, fixup], config_blob(ENV, LABELS), flavour)  # type: ignore[arg-type]


def test_an_oci_index_gives_its_linux_amd64_image(
    pusher: Pusher, registry: RegistryServer, reader: ImageReader
) -> None:
    amd64 = aim_image()
    arm64 = Image([layer([profile("general/arm.yaml", "a: 1\n")])], config_blob({"AIM_ID": "other"}))
    index = pusher.index("aim/qwen", "0.8.5", {("linux", "arm64"): arm64, ("linux", "amd64"): amd64})
    record, stats = reader.discover(f"{registry.host}/aim/qwen:0.8.5")
    assert record.digest == index and record.platform_digest is not None
    assert record.env == {"AIM_BASE_IMAGE_REF": "amdenterpriseai/aim-base:0.8", "AIM_ID": AIM_ID}
    assert record.labels == {"com.amd.aim.model.recommendedDeployments": '[{"gpuModel": "MI300X"}]'}
    assert [p.path for p in record.profiles] == [
        f"{AIM_ID}/vllm-mi300x-fp16-tp1-throughput.yaml",
        f"{AIM_ID}/vllm-mi300x-fp8-tp1-latency.yaml",
        "general/leak.yaml",
        "general/vllm-cpu-bf16.yaml",
    ]
    assert record.profiles[1].content == aim_profile(primary=True)  # verbatim
    assert record.profiles[1].layer == amd64.layers[1].digest
    # Read once: the manifests, the config and the layers, no byte twice.
    assert stats.layers_read == 3 and amd64.size <= stats.bytes_read <= amd64.size + 4096


def test_a_docker_v2_list_with_gzip_layers(
    pusher: Pusher, registry: RegistryServer, reader: ImageReader
) -> None:
    image = aim_image("docker", "gzip")
    pusher.index("aim/qwen-docker", "1.0.0", {("linux", "amd64"): image}, flavour="docker")
    record, _ = reader.discover(f"{registry.host}/aim/qwen-docker:1.0.0")
    assert len(record.profiles) == 4


def test_a_base_image_keeps_its_general_profiles(
    pusher: Pusher, registry: RegistryServer, reader: ImageReader
) -> None:
    base = Image(
        [
            layer(
                [
                    profile("general/vllm-cpu.yaml", aim_profile(None, None, gpu="", count=0)),
                    profile("Q/M/x.yaml", "a: 1\n"),
                ]
            )
        ],
        config_blob({"AIM_BASE_IMAGE_REF": "x"}),
    )
    pusher.image("aim/base", "0.8", base)
    record, _ = reader.discover(f"{registry.host}/aim/base:0.8")
    assert record.aim_id == "" and [p.path for p in record.profiles] == ["general/vllm-cpu.yaml"]


def test_the_cache_answers_a_second_discovery_and_shares_layers(
    pusher: Pusher, registry: RegistryServer, tmp_path: Path
) -> None:
    image = aim_image(big=2_000_000)
    pusher.image("aim/cached", "1", image)
    reader = make_reader(tmp_path / "cache")
    _, first = reader.discover(f"{registry.host}/aim/cached:1")
    assert first.bytes_read >= 2_000_000
    started = time.monotonic()
    again, second = make_reader(tmp_path / "cache").discover(f"{registry.host}/aim/cached:1")
    elapsed = time.monotonic() - started
    assert second.from_cache and second.bytes_read == 0 and elapsed < 1.0
    # Another image on the same base: only its own top layer is read.
    sibling = Image([*image.layers[:2], layer([profile("general/extra.yaml", "a: 1\n")])], config_blob(ENV))
    pusher.image("aim/cached", "2", sibling)
    _, third = make_reader(tmp_path / "cache").discover(f"{registry.host}/aim/cached:2")
    assert (third.layers_read, third.layers_cached) == (1, 2) and third.bytes_read < 10_000
    assert again.profiles


def test_layers_below_a_reset_of_the_profile_root_are_not_read(
    pusher: Pusher, registry: RegistryServer, reader: ImageReader
) -> None:
    big = layer([file("usr/lib/huge.bin", random_bytes(3_000_000)), profile("general/hidden.yaml", "a: 1\n")])
    top = layer([opaque(ROOT), profile("general/only.yaml", aim_profile(None, None))])
    image = Image([big, top], config_blob({}))
    pusher.image("aim/reset", "1", image)
    record, stats = reader.discover(f"{registry.host}/aim/reset:1")
    assert [p.path for p in record.profiles] == ["general/only.yaml"]
    assert stats.layers_read == 1 and stats.bytes_read < 10_000 and stats.image_bytes > 3_000_000


def test_unknown_repository_tag_and_platform(
    pusher: Pusher, registry: RegistryServer, reader: ImageReader
) -> None:
    with pytest.raises(DiscoveryError) as failed:
        reader.discover(f"{registry.host}/aim/nothing-here:1.0")
    assert failed.value.reason == "ImageNotFound" and "has no 1.0 of repository aim/nothing-here" in str(
        failed.value
    )
    pusher.image("aim/tagged", "1", aim_image())
    with pytest.raises(DiscoveryError) as failed:
        reader.discover(f"{registry.host}/aim/tagged:2")
    assert failed.value.reason == "ImageNotFound"
    pusher.index("aim/armonly", "1", {("linux", "arm64"): aim_image()})
    with pytest.raises(DiscoveryError) as failed:
        reader.discover(f"{registry.host}/aim/armonly:1")
    assert failed.value.reason == "PlatformNotFound" and "linux/arm64" in failed.value.message


def test_invalid_profile_yaml_is_named_by_image_layer_and_path(
    pusher: Pusher, registry: RegistryServer, reader: ImageReader
) -> None:
    bad = layer([profile(f"{AIM_ID}/broken.yaml", "metadata: [unclosed\n")])
    pusher.image("aim/badyaml", "1", Image([bad], config_blob(ENV)))
    with pytest.raises(DiscoveryError) as failed:
        reader.discover(f"{registry.host}/aim/badyaml:1")
    error = failed.value
    assert error.reason == "InvalidProfile" and error.image == f"{registry.host}/aim/badyaml:1"
    assert bad.digest in error.message and f"{AIM_ID}/broken.yaml" in error.message


def test_a_corrupt_gzip_layer_the_registry_serves_faithfully(
    pusher: Pusher, registry: RegistryServer, reader: ImageReader
) -> None:
    good = gzip.compress(tar_bytes([profile("general/a.yaml", "a: 1\n")]))
    broken = Layer(
        good[:20] + bytes(b ^ 0x55 for b in good[20:40]) + good[40:],
        "application/vnd.oci.image.layer.v1.tar+gzip",
    )
    pusher.image("aim/corrupt", "1", Image([broken], config_blob({})))
    with pytest.raises(DiscoveryError) as failed:
        reader.discover(f"{registry.host}/aim/corrupt:1")
    assert failed.value.reason == "CorruptLayer" and broken.digest in failed.value.message


# -------------------------------------------------------------------------------- authentication


def test_htpasswd_registry_without_with_wrong_and_with_credentials(
    auth_pusher: Pusher, auth_registry: RegistryServer, tmp_path: Path
) -> None:
    auth_pusher.image("aim/private", "1", aim_image())
    image = f"{auth_registry.host}/aim/private:1"
    with pytest.raises(DiscoveryError) as failed:
        make_reader(None, credentials=Credentials()).discover(image)
    assert (
        failed.value.reason == "Unauthorized" and "asks for a login and none is known" in failed.value.message
    )
    wrong = Credentials(given={auth_registry.host: login(password="nope", origin="aim:registryAuth")})
    with pytest.raises(DiscoveryError) as failed:
        make_reader(None, credentials=wrong).discover(image)
    assert (
        failed.value.reason == "Unauthorized"
        and "refused the login of user 'aim-tester' (from aim:registryAuth)" in failed.value.message
    )
    assert "nope" not in str(failed.value)
    docker_config = tmp_path / "config.json"
    import base64

    encoded = base64.b64encode(f"{USERNAME}:{PASSWORD}".encode()).decode()
    docker_config.write_text(json.dumps({"auths": {f"http://{auth_registry.host}": {"auth": encoded}}}))
    record, _ = make_reader(
        None, credentials=Credentials.from_config(None, docker_config=docker_config)
    ).discover(image)
    assert len(record.profiles) == 4
    given = Credentials(given={auth_registry.host: login()})
    assert make_reader(None, credentials=given).discover(image)[0] == record


def test_anonymous_and_logged_in_bearer_tokens(pusher: Pusher, registry: RegistryServer) -> None:
    pusher.image("aim/bearer", "1", aim_image())
    with FaultProxy(registry.base, bearer=True) as proxy:
        record, _ = make_reader(None).discover(f"{proxy.host}/aim/bearer:1")
        assert len(record.profiles) == 4
        assert any(path.startswith("/token?") for _, path, _ in proxy.requests)
        assert all(auth == "" for _, path, auth in proxy.requests if path.startswith("/token"))
    with FaultProxy(registry.base, bearer=True, login=(USERNAME, PASSWORD)) as proxy:
        with pytest.raises(DiscoveryError) as failed:
            make_reader(None).discover(f"{proxy.host}/aim/bearer:1")
        assert failed.value.reason == "Unauthorized"
        credentials = Credentials(given={proxy.host: login()})
        assert make_reader(None, credentials=credentials).discover(f"{proxy.host}/aim/bearer:1")[0].profiles


def test_forbidden(pusher: Pusher, registry: RegistryServer) -> None:
    pusher.image("aim/forbidden", "1", aim_image())
    with FaultProxy(registry.base) as proxy:
        proxy.add(Rule(r"/manifests/", "status", status=403))
        with pytest.raises(DiscoveryError) as failed:
            make_reader(None).discover(f"{proxy.host}/aim/forbidden:1")
    assert (
        failed.value.reason == "Forbidden"
        and "denies anonymous access to aim/forbidden" in failed.value.message
    )


# -------------------------------------------------------------------------------- faults


@pytest.mark.parametrize(
    ("status", "reason"), [(429, "RateLimited"), (503, "RegistryUnavailable"), (502, "RegistryUnavailable")]
)
def test_busy_registries_are_retried_then_given_up_on(
    pusher: Pusher, registry: RegistryServer, status: int, reason: str
) -> None:
    pusher.image("aim/busy", "1", aim_image())
    with FaultProxy(registry.base) as proxy:
        pauses: list[float] = []
        proxy.add(Rule(r"/manifests/", "status", status=status, times=2, headers={"Retry-After": "7"}))
        reader = ImageReader(
            RegistryClient(limits=Limits(attempts=3, max_backoff_seconds=5), sleep=pauses.append), _no_cache()
        )
        assert reader.discover(f"{proxy.host}/aim/busy:1")[0].profiles
        assert pauses == [5, 5]  # Retry-After, capped
        proxy.add(Rule(r"/blobs/", "status", status=status))
        with pytest.raises(DiscoveryError) as failed:
            make_reader(None).discover(f"{proxy.host}/aim/busy:1")
    assert failed.value.reason == reason and "3 times in a row" in failed.value.message


def test_a_truncated_layer_is_read_again_then_reported(pusher: Pusher, registry: RegistryServer) -> None:
    image = aim_image()
    pusher.image("aim/cut", "1", image)
    with FaultProxy(registry.base) as proxy:
        rule = proxy.add(Rule(image.layers[0].digest, "truncate", keep=1000, times=1))
        assert make_reader(None).discover(f"{proxy.host}/aim/cut:1")[0].profiles
        assert rule.hits == 1
        proxy.add(Rule(image.layers[0].digest, "truncate", keep=1000))
        with pytest.raises(DiscoveryError) as failed:
            make_reader(None).discover(f"{proxy.host}/aim/cut:1")
    assert failed.value.reason == "TruncatedBlob" and image.layers[0].digest in failed.value.message


@pytest.mark.parametrize("what", ["manifests", "layer", "config"])
def test_content_that_does_not_match_its_digest(pusher: Pusher, registry: RegistryServer, what: str) -> None:
    image = aim_image()
    pusher.image("aim/tampered", "1", image)
    path = {
        "manifests": "/manifests/sha256",
        "layer": image.layers[1].digest,
        "config": image.manifest and _config_digest(image),
    }[what]
    with FaultProxy(registry.base) as proxy:
        proxy.add(Rule(path, "corrupt"))
        with pytest.raises(DiscoveryError) as failed:
            make_reader(None).discover(f"{proxy.host}/aim/tampered:1")
    assert failed.value.reason == "DigestMismatch"


def test_a_stalled_registry_times_out(pusher: Pusher, registry: RegistryServer) -> None:
    pusher.image("aim/slow", "1", aim_image())
    with FaultProxy(registry.base) as proxy:
        proxy.add(Rule(r"/manifests/", "stall", keep=3))
        limits = Limits(connect_timeout=1, read_timeout=0.5, attempts=2, backoff_seconds=0)
        started = time.monotonic()
        with pytest.raises(DiscoveryError) as failed:
            make_reader(None, limits=limits).discover(f"{proxy.host}/aim/slow:1")
    assert failed.value.reason == "RegistryTimeout" and time.monotonic() - started < 3


def test_plain_http_only_to_this_machine(pusher: Pusher, registry: RegistryServer) -> None:
    pusher.image("aim/redirected", "1", aim_image())
    with FaultProxy(registry.base) as proxy:
        proxy.add(Rule(r"/blobs/", "status", status=307, headers={"Location": "http://blobs.example.com/x"}))
        with pytest.raises(DiscoveryError) as failed:
            make_reader(None).discover(f"{proxy.host}/aim/redirected:1")
    assert failed.value.reason == "InsecureRegistry" and "http://blobs.example.com" in failed.value.message


# -------------------------------------------------------------------------------- listing


def test_catalog_and_tags_are_listed_page_by_page(pusher: Pusher, registry: RegistryServer) -> None:
    small = Image([layer([profile("general/a.yaml", "a: 1\n")])], config_blob({}))
    for repository, tags in (
        ("list/aim-a", ["1.0.0", "1.1.0", "latest", "2.0.0"]),
        ("list/aim-b", ["0.1.0"]),
        ("list/base", ["1.0.0"]),
    ):
        for tag in tags:
            pusher.image(repository, tag, small)
    client = RegistryClient(limits=Limits(listing_page_size=1, attempts=1))
    lister = RegistryLister(client)
    found = lister.images(
        parse_filter("list/aim-*", exclude=["list/aim-b"]), registry.host, (">=1.0.0 <2.0.0",), "source s"
    )
    assert [(i.repository, i.tag) for i in found] == [("list/aim-a", "1.0.0"), ("list/aim-a", "1.1.0")]
    exact = lister.images(parse_filter("list/aim-b"), registry.host, (), "source s")
    assert [i.tag for i in exact] == ["0.1.0"]
    pinned = lister.images(parse_filter("list/aim-a:latest"), registry.host, (), "source s")
    assert [i.tag for i in pinned] == ["latest"]


def test_docker_hub_is_listed_through_its_repository_api(pusher: Pusher, registry: RegistryServer) -> None:
    small = Image([layer([profile("general/a.yaml", "a: 1\n")])], config_blob({}))
    for repository in ("amdenterpriseai/aim-one", "amdenterpriseai/aim-two", "amdenterpriseai/other"):
        pusher.image(repository, "0.8.5", small)
    with FaultProxy(registry.base) as proxy:
        proxy.hub_repositories["amdenterpriseai"] = ["aim-one", "aim-two", "other"]
        client = RegistryClient(limits=FAST, mirrors={"registry-1.docker.io": registry.host})
        lister = RegistryLister(client, hub=f"http://{proxy.host}/hub")
        found = lister.images(parse_filter("amdenterpriseai/aim-*"), "docker.io", (), "source hub")
    assert [i.uri for i in found] == ["amdenterpriseai/aim-one:0.8.5", "amdenterpriseai/aim-two:0.8.5"]
    assert sum(1 for _, path, _ in proxy.requests if path.startswith("/hub/")) == 2  # two pages


def _no_cache() -> object:
    from aim_pulumi.discovery.cache import DiscoveryCache

    return DiscoveryCache(None)


def _config_digest(image: Image) -> str:
    return json.loads(image.manifest())["config"]["digest"]
