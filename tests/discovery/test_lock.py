"""The lock file: deterministic text, a faithful round trip, atomic replacement, clear damage."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.lock import Lock, read_lock, render_lock, write_lock
from aim_pulumi.discovery.records import ImageRecord, LockedProfile, SourceImage, SourceRecord

ODD = "a: 1  \n\tb: 'x'\n# trailing spaces, a tab and no final newline"


def sample() -> Lock:
    images = {
        "r:5000/aim/b:2": ImageRecord(
            "r:5000/aim/b:2",
            "sha256:" + "b" * 64,
            "sha256:" + "c" * 64,
            {"AIM_ID": "Q/M", "AIM_BASE_IMAGE_REF": "base:1"},
            {"com.amd.aim.model.recommendedDeployments": '[{"profileId": "p"}]'},
            (
                LockedProfile("Q/M/p.yaml", "sha256:" + "d" * 64, "aim_id: Q/M\nmodel_id: Q/M\n"),
                LockedProfile("general/odd.yaml", "sha256:" + "e" * 64, ODD),
            ),
        ),
        "r:5000/aim/a:1": ImageRecord("r:5000/aim/a:1", "sha256:" + "a" * 64),
    }
    sources = {"src": SourceRecord("src", "sha256:" + "f" * 64, (SourceImage("r:5000", "aim/a", "1"),), ())}
    return Lock(images, sources)


def test_the_same_lock_renders_the_same_bytes_whatever_the_insertion_order() -> None:
    lock = sample()
    reversed_lock = Lock(dict(reversed(list(lock.images.items()))), lock.sources)
    assert render_lock(lock) == render_lock(reversed_lock)
    text = render_lock(lock)
    assert text.index("r:5000/aim/a:1") < text.index("r:5000/aim/b:2")


def test_round_trip_keeps_profile_text_verbatim(tmp_path: Path) -> None:
    path = tmp_path / "aim.lock.yaml"
    assert write_lock(path, sample())
    again = read_lock(path)
    assert again == Lock({k: v for k, v in sample().images.items()}, sample().sources)
    assert again.images["r:5000/aim/b:2"].profiles[1].content == ODD
    assert not write_lock(path, again)  # unchanged content is not written again


def test_a_failed_write_leaves_the_old_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "aim.lock.yaml"
    write_lock(path, Lock())
    before = path.read_bytes()

    def broken(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_lock(path, sample())
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["aim.lock.yaml"]  # no temporary left behind


def test_a_missing_lock_is_empty_and_a_damaged_one_is_named(tmp_path: Path) -> None:
    assert read_lock(tmp_path / "aim.lock.yaml") == Lock()
    damaged = tmp_path / "aim.lock.yaml"
    damaged.write_text("version: 1\nimages: {x: {profiles: 3}}\n")
    with pytest.raises(DiscoveryError) as failed:
        read_lock(damaged)
    assert failed.value.reason == "InvalidLock" and str(damaged) in failed.value.message
    damaged.write_text("version: 7\n")
    with pytest.raises(DiscoveryError, match="version 7"):
        read_lock(damaged)
