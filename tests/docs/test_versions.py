"""The version has one source and every place that shows it agrees; the changelog says, for every
version, what a deployed stack sees on upgrade, in the words the upgrade test reads."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import semver
import yaml
from changelog import OPERATIONS, entries

import aim_pulumi
from aim_pulumi._version import __version__
from aim_pulumi.cli.__main__ import main
from aim_pulumi.provider import AIMComponentProvider

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_written_once_and_read_by_the_build() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "aim_pulumi._version.__version__"}
    assert semver.Version.is_valid(__version__)
    assert aim_pulumi.__version__ == __version__


def test_the_cli_the_provider_schema_and_the_policy_pack_show_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["aim-pulumi"] == __version__
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith(f"aim-pulumi {__version__} (pulumi ")
    assert AIMComponentProvider().version == __version__
    assert json.loads((ROOT / "schema.json").read_text())["version"] == __version__
    assert yaml.safe_load((ROOT / "policy" / "PulumiPolicy.yaml").read_text())["version"] == __version__


def test_the_newest_changelog_entry_is_this_version_and_versions_only_grow() -> None:
    versions = [e.version for e in entries()]
    assert versions[0] == __version__
    assert versions == sorted(versions, key=semver.Version.parse, reverse=True)
    assert len(set(versions)) == len(versions)


def test_every_entry_says_what_a_deployed_stack_sees_on_upgrade() -> None:
    for entry in entries():
        assert entry.upgrade_lines, f"{entry.version}: no '### On upgrade' lines"
        if entry.says_none:
            continue
        for line in entry.upgrade_lines:
            operation = line.removeprefix("- `").split(" ", 1)[0]
            if operation in OPERATIONS:
                assert entry.announced, line
            # Other bullets explain in words (a rollout of the predictors, what is not touched).
        assert entry.announced, f"{entry.version}: neither `none` nor any `OPERATION TYPE` line"


def test_the_changelog_reader_reads_what_the_changelog_format_says() -> None:
    text = (
        "# Changelog\n\n## 1.1.0\n\n### On upgrade\n\n- none\n\n### Added\n\n- a thing\n\n"
        "## 1.0.0\n\n### On upgrade\n\n- `update kubernetes:batch/v1:Job`: a label\n"
        "- `replace kubernetes:core/v1:PersistentVolumeClaim`: its class\n- words only\n"
    )
    newest, older = entries(text)
    assert (newest.version, newest.says_none, newest.announced) == ("1.1.0", True, frozenset())
    assert older.announced == {
        ("update", "kubernetes:batch/v1:Job"),
        ("replace", "kubernetes:core/v1:PersistentVolumeClaim"),
    }
