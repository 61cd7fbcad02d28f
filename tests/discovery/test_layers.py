"""One layer's effect on the profile tree, read from its bytes: whiteouts, compression, bounds."""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import pytest
from oci import ROOT, Entry, compress, digest_of, file, opaque, profile, tar_bytes, whiteout

from aim_pulumi.discovery.client import Limits
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.layers import LayerDelta, merge, read_layer

LIMITS = Limits(max_profile_bytes=1024, max_profile_files=5, max_layer_entries=50)


def chunks(data: bytes, size: int = 7) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


def read(
    blob: bytes, *, limits: Limits = LIMITS, digest: str | None = None, size: int | None = None
) -> LayerDelta:
    return read_layer(
        chunks(blob),
        digest=digest or digest_of(blob),
        size=len(blob) if size is None else size,
        image="registry.test/aim:1",
        limits=limits,
    )


@pytest.mark.parametrize("compression", ["gzip", "zstd", "none"])
def test_profile_files_are_read_from_every_compression(compression: str) -> None:
    entries = [
        Entry("workspace/", kind="dir"),
        profile("general/a.yaml", "a: 1\n"),
        profile("Q/M/b.yaml", "b: 2\n"),
        profile("general/readme.txt", "not a profile"),
        file("usr/bin/tool", b"\x7fELF"),
    ]
    delta = read(compress(tar_bytes(entries), compression))  # type: ignore[arg-type]
    assert dict(delta.files) == {"general/a.yaml": "a: 1\n", "Q/M/b.yaml": "b: 2\n"}
    assert "general/readme.txt" in delta.removed  # a non-profile file still shadows lower layers
    assert not delta.root_removed


def test_whiteouts_and_opaque_directories_are_recorded() -> None:
    blob = compress(
        tar_bytes(
            [whiteout(f"{ROOT}/general/old.yaml"), opaque(f"{ROOT}/Q"), file(f"./{ROOT}/x.yaml", "x: 1")]
        ),
        "gzip",
    )
    delta = read(blob)
    assert delta.removed == {"general/old.yaml", "x.yaml"}
    assert delta.opaque == {"Q"}
    assert delta.files == {"x.yaml": "x: 1"}


@pytest.mark.parametrize(
    "entry",
    [whiteout("workspace/aim-runtime"), opaque("workspace/aim-runtime"), whiteout(ROOT), file(ROOT, b"")],
)
def test_removing_the_root_or_an_ancestor_hides_every_lower_layer(entry: Entry) -> None:
    assert read(compress(tar_bytes([entry]), "gzip")).root_removed


def test_merge_takes_the_highest_layer_and_honours_whiteouts() -> None:
    base = LayerDelta(
        "sha256:base", {"general/a.yaml": "base a", "general/b.yaml": "base b", "Q/c.yaml": "base c"}
    )
    middle = LayerDelta("sha256:mid", {"general/a.yaml": "mid a"}, removed=frozenset({"general/b.yaml"}))
    top = LayerDelta("sha256:top", {"Q/d.yaml": "top d"}, opaque=frozenset({"Q"}))
    found, consulted = merge([top, middle, base])
    assert {p: (f.content, f.layer) for p, f in found.items()} == {
        "Q/d.yaml": ("top d", "sha256:top"),
        "general/a.yaml": ("mid a", "sha256:mid"),
    }
    assert consulted == 3


def test_merge_stops_at_a_layer_that_hides_the_root() -> None:
    read_below: list[str] = []

    def lazily() -> Iterator[LayerDelta]:
        yield LayerDelta("sha256:top", {"general/a.yaml": "top"})
        yield LayerDelta("sha256:reset", {"general/b.yaml": "reset"}, opaque=frozenset({""}))
        read_below.append("base")
        yield LayerDelta("sha256:base", {"general/c.yaml": "base"})

    found, consulted = merge(lazily())
    assert sorted(found) == ["general/a.yaml", "general/b.yaml"]
    assert consulted == 2 and read_below == []


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (Entry("/etc/passwd", b"x"), "absolute path"),
        (Entry("workspace/../../etc/x", b"x"), "`..` path"),
        (Entry(f"{ROOT}/general/a.yaml", kind="symlink", target="/etc/passwd"), "link in the profile tree"),
        (Entry(f"{ROOT}/general/a.yaml", kind="hardlink", target="usr/x"), "link in the profile tree"),
        (Entry(f"{ROOT}/general/dev.yaml", kind="device"), "device, FIFO"),
        (Entry(f"{ROOT}/general/fifo.yaml", kind="fifo"), "device, FIFO"),
        (
            Entry("workspace/aim-runtime", kind="symlink", target="/opt/aim"),
            "in place of the profile directory",
        ),
    ],
)
def test_unsafe_entries_stop_discovery(entry: Entry, words: str) -> None:
    with pytest.raises(DiscoveryError) as failed:
        read(compress(tar_bytes([entry]), "gzip"))
    assert failed.value.reason == "UnsafeLayer"
    assert words in failed.value.message and "registry.test/aim:1" in str(failed.value)


def test_links_elsewhere_in_the_image_are_left_alone() -> None:
    delta = read(
        compress(
            tar_bytes([Entry("bin", kind="symlink", target="usr/bin"), profile("general/a.yaml", "a: 1")]),
            "gzip",
        )
    )
    assert delta.files == {"general/a.yaml": "a: 1"}


def test_a_profile_file_over_the_limit() -> None:
    with pytest.raises(DiscoveryError) as failed:
        read(compress(tar_bytes([profile("general/big.yaml", "x" * 2000)]), "gzip"))
    assert (
        failed.value.reason == "ProfileTooLarge" and "general/big.yaml is 2000 bytes" in failed.value.message
    )


def test_too_many_profile_files_and_too_many_entries() -> None:
    many = [profile(f"general/p{i}.yaml", "a: 1") for i in range(6)]
    with pytest.raises(DiscoveryError) as failed:
        read(compress(tar_bytes(many), "gzip"))
    assert failed.value.reason == "TooManyFiles"
    crowd = [file(f"usr/share/f{i}", b"") for i in range(60)]
    with pytest.raises(DiscoveryError) as failed:
        read(compress(tar_bytes(crowd), "gzip"))
    assert failed.value.reason == "TooManyFiles" and "entries" in failed.value.message


def test_bytes_that_hash_to_another_digest() -> None:
    blob = compress(tar_bytes([profile("general/a.yaml", "a: 1")]), "gzip")
    with pytest.raises(DiscoveryError) as failed:
        read(blob, digest=digest_of(b"something else"))
    assert failed.value.reason == "DigestMismatch"


def test_a_short_blob_is_truncated() -> None:
    blob = compress(tar_bytes([profile("general/a.yaml", "a: 1")]), "gzip")
    with pytest.raises(DiscoveryError) as failed:
        read(blob[:-10], digest=digest_of(blob), size=len(blob))
    # Cut inside the gzip stream: the bytes are not the layer's (wrong digest), said as such.
    assert failed.value.reason in ("DigestMismatch", "TruncatedBlob")


def test_corrupt_gzip_with_the_right_digest_is_a_corrupt_layer() -> None:
    good = gzip.compress(tar_bytes([profile("general/a.yaml", "a: 1")]))
    broken = good[:20] + bytes(b ^ 0x55 for b in good[20:40]) + good[40:]
    with pytest.raises(DiscoveryError) as failed:
        read(broken)  # its own digest: the registry served what the manifest names, and it is broken
    assert failed.value.reason == "CorruptLayer"


def test_corrupt_gzip_with_a_wrong_digest_is_a_digest_mismatch() -> None:
    good = gzip.compress(tar_bytes([profile("general/a.yaml", "a: 1")]))
    broken = good[:20] + bytes(b ^ 0x55 for b in good[20:40]) + good[40:]
    with pytest.raises(DiscoveryError) as failed:
        read(broken, digest=digest_of(good))
    assert failed.value.reason == "DigestMismatch"


def test_more_bytes_than_announced() -> None:
    blob = compress(tar_bytes([profile("general/a.yaml", "a: 1")]), "gzip")
    with pytest.raises(DiscoveryError) as failed:
        read(blob, size=len(blob) - 5)
    assert failed.value.reason == "DigestMismatch" and "more bytes" in failed.value.message


def test_a_non_utf8_profile() -> None:
    with pytest.raises(DiscoveryError) as failed:
        read(compress(tar_bytes([Entry(f"{ROOT}/general/a.yaml", b"\xff\xfe")]), "gzip"))
    assert failed.value.reason == "InvalidProfile"


def test_a_delta_survives_the_cache_format() -> None:
    delta = LayerDelta("sha256:x", {"a.yaml": "a"}, frozenset({"b"}), frozenset({"c"}), True)
    assert LayerDelta.from_json(delta.to_json()) == delta
