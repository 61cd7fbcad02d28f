"""Image references as Docker reads them, and model-source filters as the operator applies them."""

from __future__ import annotations

import pytest

from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.model_source import (
    matches_filter,
    matches_versions,
    parse_filter,
    select_images,
    source_spec_hash,
)
from aim_pulumi.discovery.records import SourceImage, SourceRecord
from aim_pulumi.discovery.reference import is_loopback, parse_reference


@pytest.mark.parametrize(
    ("text", "registry", "repository", "tag", "digest"),
    [
        (
            "amdenterpriseai/aim-qwen-qwen3-32b:0.8.5",
            "docker.io",
            "amdenterpriseai/aim-qwen-qwen3-32b",
            "0.8.5",
            None,
        ),
        ("ubuntu", "docker.io", "library/ubuntu", "latest", None),
        ("docker.io/library/ubuntu:22.04", "docker.io", "library/ubuntu", "22.04", None),
        ("ghcr.io/silogen/aim-llama:1.0.0", "ghcr.io", "silogen/aim-llama", "1.0.0", None),
        ("localhost:5000/aim/x", "localhost:5000", "aim/x", "latest", None),
        ("127.0.0.1:5000/aim/x:1@sha256:" + "a" * 64, "127.0.0.1:5000", "aim/x", "1", "sha256:" + "a" * 64),
        (
            "registry.example.com/x@sha256:" + "b" * 64,
            "registry.example.com",
            "x",
            None,
            "sha256:" + "b" * 64,
        ),
    ],
)
def test_references(text: str, registry: str, repository: str, tag: str | None, digest: str | None) -> None:
    ref = parse_reference(text)
    assert (ref.registry, ref.repository, ref.tag, ref.digest) == (registry, repository, tag, digest)


@pytest.mark.parametrize("text", ["", "aim/UPPER", "a b", "x:tag:more", "repo@sha256:zz", "-x/y"])
def test_bad_references(text: str) -> None:
    with pytest.raises(DiscoveryError) as failed:
        parse_reference(text)
    assert failed.value.reason == "InvalidReference"


def test_docker_hub_api_host_and_version_tag() -> None:
    ref = parse_reference("amdenterpriseai/aim-x:0.8.5")
    assert ref.api_host == "registry-1.docker.io" and ref.version_tag == "0.8.5"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost:5000", True),
        ("127.0.0.1:5000", True),
        ("[::1]:5000", True),
        ("10.0.0.1:5000", False),
        ("ghcr.io", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("tag", "constraints", "expected"),
    [
        ("0.8.5", [">=0.8.0"], True),
        ("v0.8.5", [">=0.8"], True),  # a leading v is dropped; >=0.8 is >=0.8.0
        ("0.8.1-rc1", [">=0.8.0"], True),
        ("0.7.9", [">=0.8.0"], False),
        ("latest", [">=0.8.0"], False),  # not semver: never matches a constraint
        ("1.2.3", [">=1.0.0 <2.0.0"], True),
        ("2.0.0", [">=1.0.0 <2.0.0"], False),
        ("2.0.0", ["<1.0.0 || >=2.0.0"], True),
        ("1.4.0", ["1.x.x"], True),
        ("2.0.0", ["1.x.x"], False),
        ("1.2.7", [">=1.2.x"], True),
        ("1.2.9", ["~1.2.0"], True),  # blang cannot parse ~: the operator skips the constraint
        ("1.2.3", [">=1.0.0", "!=1.2.3"], False),
    ],
)
def test_version_constraints_as_the_operator_reads_them(
    tag: str, constraints: list[str], expected: bool
) -> None:
    assert matches_versions(tag, constraints) is expected


def test_filters() -> None:
    image = SourceImage("ghcr.io", "silogen/aim-llama", "1.0.0")
    assert matches_filter(image, parse_filter("ghcr.io/silogen/aim-*"), ())
    assert not matches_filter(image, parse_filter("quay.io/silogen/aim-*"), ())
    # docker.io in a filter is the default registry, which (as the operator) checks nothing.
    assert matches_filter(image, parse_filter("docker.io/silogen/aim-*"), ())
    assert not matches_filter(image, parse_filter("ghcr.io/silogen/aim-*", exclude=["silogen/aim-llama"]), ())
    assert matches_filter(image, parse_filter("ghcr.io/silogen/aim-llama:1.0.0", versions=[">=2.0.0"]), ())
    assert not matches_filter(image, parse_filter("ghcr.io/silogen/aim-*"), (">=2.0.0",))
    assert matches_filter(image, parse_filter("ghcr.io/silogen/aim-*", versions=[">=1.0.0"]), (">=2.0.0",))
    assert parse_filter("ubuntu").repository == "library/ubuntu"


def test_max_models_keeps_earlier_images_and_never_drops_one() -> None:
    listed = [SourceImage("r:5000", "aim/a", t) for t in ("1.0.0", "1.1.0", "1.2.0")]
    first = select_images("src", {"maxModels": 2}, listed, None)
    assert first.images == tuple(listed[:2]) and first.listed == tuple(listed)
    # The registry now lists only 1.2.0 and 1.3.0: 1.0.0 and 1.1.0 stay, the limit is reached.
    later = [listed[2], SourceImage("r:5000", "aim/a", "1.3.0")]
    second = select_images("src", {"maxModels": 2}, later, first)
    assert second.images == tuple(listed[:2])
    third = select_images("src", {"maxModels": 4}, later, second)
    assert third.images == (*listed[:2], *later)


def test_the_spec_hash_follows_listing_inputs_only() -> None:
    one = source_spec_hash({"registry": "r", "filters": [{"image": "a/*"}]})
    assert one == source_spec_hash({"registry": "r", "filters": [{"image": "a/*"}], "syncInterval": "2h"})
    assert one != source_spec_hash({"registry": "r", "filters": [{"image": "b/*"}]})
    assert isinstance(SourceRecord("s", one), SourceRecord)
