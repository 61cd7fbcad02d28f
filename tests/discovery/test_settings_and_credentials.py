"""Discovery's stack config and credentials: parsed strictly, and a password never shown."""

from __future__ import annotations

import base64
import json
import pickle
from pathlib import Path

import pytest

from aim_pulumi.discovery.credentials import Credentials, Secret, docker_config_logins
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.settings import Settings

SECRET = "s3cr3t-value"


def test_discovery_settings() -> None:
    settings = Settings.from_config(
        {
            "aim:discovery": "locked",
            "aim:insecureRegistries": "registry.lan:5000, mirror.lan",
            "aim:registryAuth": json.dumps({"registry.lan:5000": {"username": "bot", "password": SECRET}}),
        }
    )
    assert settings.discovery == "locked"
    assert settings.insecure_registries == ("mirror.lan", "registry.lan:5000")
    ((host, login),) = settings.registry_auth
    assert (host, login.username, login.password.reveal()) == ("registry.lan:5000", "bot", SECRET)
    assert SECRET not in repr(settings) and SECRET not in str(settings)
    assert Settings().discovery == "live"


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("aim:discovery", "sometimes", "expected one of live, locked"),
        ("aim:registryAuth", "{not json " + SECRET, "expected JSON"),
        ("aim:registryAuth", json.dumps({"r": {"username": "u"}}), "username and password must be strings"),
        ("aim:insecureRegistries", "[1]", "expected a list of registry hosts"),
    ],
)
def test_bad_discovery_settings_name_the_key_and_never_the_secret(key: str, value: str, words: str) -> None:
    with pytest.raises(AIMResolutionError) as failed:
        Settings.from_config({key: value})
    assert failed.value.field == key and words in failed.value.message
    assert SECRET not in str(failed.value)


def test_a_secret_is_never_shown_nor_pickled() -> None:
    secret = Secret(SECRET)
    assert SECRET not in repr(secret) and SECRET not in f"{secret}" and secret.reveal() == SECRET
    with pytest.raises(TypeError):
        pickle.dumps(secret)


def test_docker_config_logins_and_lookup_order(tmp_path: Path) -> None:
    encoded = base64.b64encode(f"hub-user:{SECRET}".encode()).decode()
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps(
            {
                "auths": {
                    "https://index.docker.io/v1/": {"auth": encoded},
                    "registry.lan:5000": {"username": "lan", "password": "pw"},
                    "broken.example": {"auth": "***not base64***"},
                },
                "credsStore": "desktop",
            }
        )
    )
    logins = docker_config_logins(config)
    assert sorted(logins) == ["https://index.docker.io/v1/", "registry.lan:5000"]
    credentials = Credentials.from_config(
        {"registry.lan:5000": {"username": "given", "password": "x"}}, docker_config=config
    )
    hub = credentials.for_registry("docker.io")
    assert hub is not None and hub.username == "hub-user" and hub.origin == str(config)
    lan = credentials.for_registry("registry.lan:5000")
    assert lan is not None and lan.username == "given"  # the program's own login first
    assert credentials.for_registry("other.example") is None
    assert docker_config_logins(tmp_path / "missing.json") == {}
