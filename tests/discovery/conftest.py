"""Fixtures of the discovery tests: real registries on 127.0.0.1 and readers with short bounds.

Tests marked `registry` start Debian's `docker-registry` (distribution 2.8) themselves, once per
session: `registry` is open, `auth_registry` wants the htpasswd login of `registry_server.py`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oci import Pusher
from registry_server import PASSWORD, USERNAME, RegistryServer

from aim_pulumi.discovery.cache import DiscoveryCache
from aim_pulumi.discovery.client import Limits, RegistryClient
from aim_pulumi.discovery.credentials import Credentials, Login, Secret
from aim_pulumi.discovery.reader import ImageReader

# Short bounds: a fault test must end in well under a second, not after real back-off.
FAST = Limits(connect_timeout=2.0, read_timeout=5.0, attempts=3, backoff_seconds=0.0, max_backoff_seconds=0.0)


@pytest.fixture(scope="session")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RegistryServer]:
    server = RegistryServer(tmp_path_factory.mktemp("registry")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def auth_registry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RegistryServer]:
    server = RegistryServer(tmp_path_factory.mktemp("auth-registry"), auth=True).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pusher(registry: RegistryServer) -> Pusher:
    return Pusher(registry.base)


@pytest.fixture
def auth_pusher(auth_registry: RegistryServer) -> Pusher:
    return Pusher(auth_registry.base, USERNAME, PASSWORD)


def login(username: str = USERNAME, password: str = PASSWORD, origin: str = "test") -> Login:
    return Login(username, Secret(password), origin)


def make_reader(
    cache: Path | None, *, credentials: Credentials | None = None, limits: Limits = FAST, **client: object
) -> ImageReader:
    return ImageReader(
        RegistryClient(credentials, limits=limits, sleep=lambda _s: None, **client),  # type: ignore[arg-type]
        DiscoveryCache(cache),
    )


@pytest.fixture
def reader(tmp_path: Path) -> ImageReader:
    return make_reader(tmp_path / "cache")
