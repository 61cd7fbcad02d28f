"""The README's install commands on a cold machine: a fresh virtualenv, plain pip, no pip cache.

pip's resolver backtracks when its first choice of a package conflicts with a requirement it reads
later; with boto3, moto and the kubernetes client that once meant trying every botocore wheel
(about 1,300 of them, 15 GB, 11 minutes). The bounds in pyproject.toml (see the comment at its
top) keep pip's first choices compatible; this test installs as a newcomer would and fails when
pip says it is looking at multiple versions of anything, naming the package.

It reaches the package registry, so it is its own lane (`pytest -m install`, run by `.ci/run`),
and prints what it measured: the time and the bytes pip downloaded. The time is printed, not
asserted: it moves with the registry and with the machine's load (pip's resolver reads an index
page per distribution and then unpacks and compiles each one on one core, so the count of
distributions and their modules sets it: see the comment in the test extra). The bytes are
asserted, since a backtracking resolver downloads many times what the install needs.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BACKTRACKING = re.compile(r"pip is (?:still )?looking at multiple versions of (\S+)")
DOWNLOADED = re.compile(r"Downloading \S+ \(([\d.]+) (bytes|kB|MB|GB)\)")
UNITS = {"bytes": 1, "kB": 10**3, "MB": 10**6, "GB": 10**9}
COLLECTING = re.compile(r"^Collecting ", re.MULTILINE)


def downloaded_bytes(log: str) -> int:
    """What pip downloaded, from the sizes its `Downloading NAME (SIZE)` lines print."""
    return int(sum(float(size) * UNITS[unit] for size, unit in DOWNLOADED.findall(log)))


def backtracked(log: str) -> list[str]:
    """The packages pip said it was looking at several versions of."""
    return sorted(set(BACKTRACKING.findall(log)))


def cpu_seconds_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cold_install(target: str, where: Path) -> tuple[str, float, float]:
    """`pip install --no-cache-dir -e TARGET` in a new virtualenv, from the checkout: its log, its
    seconds, and the CPU seconds it used (what the machine's load does not change)."""
    env_dir = where / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    cpu_before = cpu_seconds_of_children()
    started = time.monotonic()
    done = subprocess.run(
        [str(env_dir / "bin" / "pip"), "install", "--no-cache-dir", "--progress-bar", "off", "-e", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )
    seconds = time.monotonic() - started
    cpu = cpu_seconds_of_children() - cpu_before
    log = done.stdout + done.stderr
    (where / "pip.log").write_text(log)
    assert done.returncode == 0, log[-3000:]
    return log, seconds, cpu


@pytest.mark.install
@pytest.mark.parametrize(
    ("target", "limit_mb"),
    [
        pytest.param(".", 150, id="pip install -e ."),
        pytest.param(".[test]", 250, id="pip install -e '.[test]'"),
    ],
)
def test_the_readme_install_resolves_without_backtracking(
    target: str, limit_mb: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, seconds, cpu = cold_install(target, tmp_path)
    size = downloaded_bytes(log)
    with capsys.disabled():
        print(
            f"\ncold `pip install -e {target}`: {seconds:.0f} s ({cpu:.0f} s of CPU, load "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores), {size / 10**6:.1f} MB downloaded, "
            f"{len(COLLECTING.findall(log))} distributions "
            f"(Python {sys.version_info.major}.{sys.version_info.minor})",
            file=sys.stderr,
        )
    assert backtracked(log) == [], f"pip backtracked; bound these in pyproject.toml: {backtracked(log)}"
    assert size < limit_mb * 10**6, f"downloaded {size / 10**6:.0f} MB"


def test_the_log_readers_find_what_pip_prints() -> None:
    # pip 23's words, as the first cold run of the backtracking install printed them.
    log = (
        "Collecting botocore!=1.35.45,>=1.20.88 (from moto[s3]>=5)\n"
        "  Downloading botocore-1.44.8-py3-none-any.whl (16.9 MB)\n"
        "  Downloading boto3-1.44.8-py3-none-any.whl (140 kB)\n"
        "INFO: pip is looking at multiple versions of botocore to determine which version is compatible\n"
        "INFO: pip is still looking at multiple versions of botocore to determine which version\n"
        "INFO: pip is looking at multiple versions of boto3-stubs[s3] to determine which version\n"
    )
    assert downloaded_bytes(log) == 16_900_000 + 140_000
    assert backtracked(log) == ["boto3-stubs[s3]", "botocore"]
    assert len(COLLECTING.findall(log)) == 1  # one distribution collected; the INFO lines are not
