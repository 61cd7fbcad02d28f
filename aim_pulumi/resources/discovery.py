"""Where a program's discoveries come from: its lock file, and the registries when it lacks one.

The lock file is `aim.lock.yaml` in the program's root: the Pulumi project directory (where
`Pulumi.yaml` is, `pulumi.get_root_directory()`) under the Pulumi CLI, the directory `aim-pulumi
plan` or `discover` was given (for AIM YAML, the YAML directory, or the file's directory), and the
working directory when neither says. `aim-pulumi discover` sets its own discoveries for the run
(`using_discoveries`); every other run builds them from the stack settings (`discoveries_for`):
`aim:discovery` (live or locked), `aim:insecureRegistries` and `aim:registryAuth`, with the
user's Docker config for logins the program was not given.

Reading the lock is cheap and happens once per run; no registry is contacted unless the lock
lacks something the program names (and `aim:discovery` is not `locked`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

import pulumi

from aim_pulumi.discovery.credentials import Credentials, default_docker_config, docker_config_logins
from aim_pulumi.discovery.lock import LOCK_FILE, read_lock
from aim_pulumi.discovery.session import Discoveries, Mode, Readers, registry_readers
from aim_pulumi.resolve.settings import Settings

__all__ = ["discoveries_for", "lock_path", "using_discoveries", "using_root"]

_ROOT: ContextVar[Path | None] = ContextVar("aim_discovery_root", default=None)
_SESSION: ContextVar[Discoveries | None] = ContextVar("aim_discoveries", default=None)


@contextlib.contextmanager
def using_root(root: Path) -> Iterator[None]:
    """Runs inside read the lock of `root` (the CLI's PROGRAM directory)."""
    token = _ROOT.set(root)
    try:
        yield
    finally:
        _ROOT.reset(token)


@contextlib.contextmanager
def using_discoveries(discoveries: Discoveries) -> Iterator[None]:
    """Runs inside use these discoveries (`aim-pulumi discover` refreshes every entry through one)."""
    token = _SESSION.set(discoveries)
    try:
        yield
    finally:
        _SESSION.reset(token)


def lock_path() -> Path:
    root = _ROOT.get()
    if root is None:
        configured = pulumi.get_root_directory()
        # Outside an engine (or under mocks) the SDK's placeholder is not a directory.
        root = Path(configured) if configured and Path(configured).is_dir() else Path(os.getcwd())
    return root / LOCK_FILE


def readers_for(settings: Settings) -> Readers:
    credentials = Credentials(
        given=dict(settings.registry_auth), docker=docker_config_logins(default_docker_config())
    )
    return registry_readers(credentials=credentials, insecure=settings.insecure_registries)


def discoveries_for(settings: Settings) -> Discoveries:
    """This run's discoveries: the CLI's, or the lock beside the program read per `settings`."""
    given = _SESSION.get()
    if given is not None:
        return given
    path = lock_path()
    mode: Mode = "locked" if settings.discovery == "locked" else "live"
    return Discoveries(read_lock(path), mode=mode, readers=lambda: readers_for(settings), where=str(path))
