"""Registry credentials: given to the program as a secret, or the user's Docker config.

Where a registry needs a login, discovery asks, in order: the credentials the program was given
(stack config `aim:registryAuth`, a Pulumi secret: `{"registry.example.com": {"username": ...,
"password": ...}}`), then the `auths` of the Docker config (`$DOCKER_CONFIG/config.json`, else
`~/.docker/config.json`), as `docker login` writes them (`auth` base64 `user:password`, or
`username` and `password`). Credential helpers (`credsStore`, `credHelpers`) are not run: they
may prompt or open a keychain, which a deploy-time tool must not.

A password is held in a `Secret`, whose text never appears in a repr, an error, a log or the lock.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aim_pulumi.discovery.reference import DOCKER_HUB

__all__ = ["Credentials", "Login", "Secret", "docker_config_logins"]

# `docker login` (no server) writes Docker Hub's login under this key.
_DOCKER_HUB_KEYS = ("https://index.docker.io/v1/", "index.docker.io", "docker.io", "registry-1.docker.io")


class Secret:
    """A string that shows as `***` everywhere but `reveal()`."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("a registry secret is not pickled")


@dataclass(frozen=True)
class Login:
    """A user name and password for one registry, and where they came from (for error messages)."""

    username: str
    password: Secret
    origin: str


@dataclass(frozen=True)
class Credentials:
    """Logins by registry host: the program's own first, then the Docker config's."""

    given: Mapping[str, Login] = field(default_factory=dict)
    docker: Mapping[str, Login] = field(default_factory=dict)

    def for_registry(self, registry: str) -> Login | None:
        keys = _DOCKER_HUB_KEYS if registry == DOCKER_HUB else (registry,)
        for source in (self.given, self.docker):
            for key in keys:
                found = source.get(key)
                if found is not None:
                    return found
            for key, login in source.items():
                if _host_of(key) in keys:
                    return login
        return None

    @classmethod
    def from_config(cls, value: Any, *, docker_config: Path | None = None) -> Credentials:
        """From the decoded `aim:registryAuth` value (or None) and the Docker config file."""
        path = docker_config if docker_config is not None else default_docker_config()
        return cls(given=given_logins(value), docker=docker_config_logins(path))


def given_logins(value: Any) -> dict[str, Login]:
    """The logins of an `aim:registryAuth` value (JSON text or a mapping); ValueError says what is wrong."""
    given: dict[str, Login] = {}
    if not value:
        return given
    if isinstance(value, str):
        value = json.loads(value)
    if not isinstance(value, Mapping):
        raise ValueError("expected a mapping of registry host to {username, password}")
    for host, entry in value.items():
        if not isinstance(entry, Mapping):
            raise ValueError(f"{host}: expected {{username, password}}")
        username, password = entry.get("username"), entry.get("password")
        if not isinstance(username, str) or not isinstance(password, str):
            raise ValueError(f"{host}: username and password must be strings")
        given[_host_of(str(host))] = Login(username, Secret(password), "aim:registryAuth")
    return given


def default_docker_config() -> Path:
    configured = os.environ.get("DOCKER_CONFIG")
    base = Path(configured) if configured else Path.home() / ".docker"
    return base / "config.json"


def docker_config_logins(path: Path) -> dict[str, Login]:
    """The usable `auths` entries of a Docker config file; a missing or unreadable file has none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    auths = data.get("auths") if isinstance(data, Mapping) else None
    if not isinstance(auths, Mapping):
        return {}
    out: dict[str, Login] = {}
    for key, entry in auths.items():
        if not isinstance(entry, Mapping):
            continue
        username, password = entry.get("username"), entry.get("password")
        encoded = entry.get("auth")
        if isinstance(encoded, str) and encoded:
            try:
                decoded = base64.b64decode(encoded, validate=True).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError):
                continue
            username, _, password = decoded.partition(":")
        if isinstance(username, str) and isinstance(password, str) and username:
            out[str(key)] = Login(username, Secret(password), str(path))
    return out


def _host_of(key: str) -> str:
    """`https://host:5000/v1/` and `host:5000` both name `host:5000`."""
    text = key.split("://", 1)[-1]
    return text.split("/", 1)[0]
