"""An upgrade from the previous release, against the real API server: what CHANGELOG.md announces.

The previous release is installed in a virtualenv of its own, from its commit's files (`git
archive`), and deploys a stack of each program to the test cluster; then the same stack, with the
same program, is previewed and applied with this checkout's package. The changes the preview shows
(an update, replacement, creation or deletion, by Pulumi type) must be exactly the lines of the
newest CHANGELOG.md entry's **On upgrade**, and a preview after the `up` shows nothing.

The release is named by its commit as well as its tag: CI runs on a clone that may have no tags,
and the commit is found in the history (or fetched from `origin`); a clone without it fails saying
so. The old package's own files are its own; the third-party packages are this virtualenv's (a
`.pth` line), as they are when `pip install -U aim-pulumi` keeps them, so the comparison is of the
package alone.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest
from changelog import entries
from cluster import TestCluster
from harness import REPO, RealStack, changed_steps, toolchain_dir, urn_type
from status_writer import StatusWriter

pytestmark = pytest.mark.cluster

# The release before this checkout's version (CHANGELOG.md's second entry).
PREVIOUS_TAG = "v0.2.1"
PREVIOUS_COMMIT = "f32da8e3c7eddc627fd6ccf9e618b893c741fe0b"
PROGRAMS = {"quickstart": ["ml-team"], "autoscaling": ["inference"], "upgrade-env-secret": ["env-secret"]}
# Programs of this checkout's own (the previous release's examples have no env Secret): the user's
# program, which the upgrade leaves as it is, while the package changes under it.
OWN_PROGRAMS = {"upgrade-env-secret": REPO / "tests" / "fixtures" / "programs" / "upgrade-env-secret"}
ENV_SECRET_DIGEST = "aim.eai.amd.com/env-secret-sha256"
ISVC_TYPE = "kubernetes:serving.kserve.io/v1beta1:InferenceService"
# What the upgrades of this module's programs showed, and which programs were upgraded: read by the
# last test, which checks that every announced line was seen by at least one of them.
SEEN: set[tuple[str, str]] = set()
UPGRADED: set[str] = set()


def git(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=False, timeout=300)


def previous_commit() -> str:
    """The previous release's commit, from this clone's history or fetched from its origin."""
    if git("cat-file", "-e", f"{PREVIOUS_COMMIT}^{{commit}}").returncode != 0:
        git("fetch", "--quiet", "origin", PREVIOUS_COMMIT)
        git("fetch", "--quiet", "origin", f"refs/tags/{PREVIOUS_TAG}:refs/tags/{PREVIOUS_TAG}")
    if git("cat-file", "-e", f"{PREVIOUS_COMMIT}^{{commit}}").returncode != 0:
        pytest.fail(
            f"the previous release {PREVIOUS_TAG} (commit {PREVIOUS_COMMIT[:12]}) is not in this clone and "
            "could not be fetched from origin: clone with history (not --depth) or fetch the tag",
            pytrace=False,
        )
    tagged = git("rev-parse", "--verify", "--quiet", f"{PREVIOUS_TAG}^{{commit}}")
    if tagged.returncode == 0:
        assert tagged.stdout.decode().strip() == PREVIOUS_COMMIT, f"{PREVIOUS_TAG} moved"
    return PREVIOUS_COMMIT


def previous_source(where: Path) -> Path:
    archive = git("archive", "--format=tar", previous_commit())
    assert archive.returncode == 0, archive.stderr.decode()
    source = where / "source"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(source, filter="data")
    return source


def previous_install(source: Path, where: Path) -> Path:
    """A virtualenv with the previous release installed (not editable) and this one's third-party
    packages; returns its bin directory."""
    env = where / "venv"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    uv = shutil.which("uv")
    # uv builds from its cache (offline once the checkout was installed with it); pip from the registry.
    command = (
        [uv, "pip", "install", "--quiet", "--python", str(python), "--no-deps", str(source)]
        if uv
        else [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            str(source),
        ]
    )
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # After its own site-packages, so its aim_pulumi is the one imported.
    (Path(own) / "zz-shared-third-party.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env / "bin"


def imported_version(bin_dir: Path) -> tuple[str, str]:
    done = subprocess.run(
        [str(bin_dir / "python"), "-c", "import aim_pulumi as a; print(a.__version__); print(a.__file__)"],
        capture_output=True, text=True, check=True, cwd=bin_dir,  # not the checkout: its package is new
    )  # fmt: skip
    version, path = done.stdout.split()
    return version, path


def use_python(stack: RealStack, toolchain: Path, inherited: str, bin_dir: Path) -> None:
    """Run the stack's program (and its dynamic provider) with the Python of `bin_dir`."""
    stack.env["PATH"] = f"{toolchain}:{bin_dir}:{inherited}"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestCluster]:
    """A cluster of this module's own: the examples' namespaces and retained caches stay out of the
    way of the other tests of its lane."""
    started = TestCluster.start(tmp_path_factory.mktemp("upgrade-cluster"))
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def previous(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """The previous release's files and the bin directory of its virtualenv."""
    where = tmp_path_factory.mktemp("previous-release")
    source = previous_source(where)
    yield source, previous_install(source, where)


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_an_upgrade_from_the_previous_release_changes_what_the_changelog_says(
    program: str, previous: tuple[Path, Path], tmp_path: Path, cluster: TestCluster
) -> None:
    source, old_bin = previous
    new_bin = Path(sys.executable).parent
    old_version, old_file = imported_version(old_bin)
    assert old_version == entries()[1].version
    assert Path(old_file).is_relative_to(old_bin.parent)
    assert imported_version(new_bin)[0] == entries()[0].version

    for namespace in PROGRAMS[program]:
        cluster.kube.ensure_namespace(namespace)
    # The user's program stays what it was; only the package changes.
    toolchain = toolchain_dir()
    stack = RealStack(
        OWN_PROGRAMS.get(program, source / "examples" / program),
        tmp_path,
        toolchain,
        kubeconfig=cluster.kubeconfig,
        python_on_path=False,
    )
    inherited = stack.env["PATH"].split(":", 1)[1]
    use_python(stack, toolchain, inherited, old_bin)
    with StatusWriter(cluster.kube, PROGRAMS[program]):
        try:
            stack.up()
            stack.pulumi("preview", "--expect-no-changes")

            use_python(stack, toolchain, inherited, new_bin)
            preview = stack.preview("--diff")
            observed = {(op, type_) for (type_, _), op in changed_steps(preview).items()}
            newest = entries()[0]
            # An announced line holds for the children a change touches: a program without a
            # Shared cache sees no Shared cache update. Nothing unannounced may change, and every
            # line must be seen by the programs that have such children (`test_every_line_is_seen`).
            assert observed <= newest.announced, (
                f"upgrading {PREVIOUS_TAG} -> {newest.version} changes {sorted(observed)}; "
                f"CHANGELOG.md announces {sorted(newest.announced) or 'none'}"
            )
            SEEN.update(observed)
            UPGRADED.add(program)
            # Announced in words: only a service with an env Secret sees its InferenceService
            # updated, and only by the digest annotation, which rolls its predictor once.
            # (0.2.0 announced it; an entry that does not leaves every InferenceService as it was.)
            isvc_updated = ("update", ISVC_TYPE) in observed
            announced = ("update", ISVC_TYPE) in newest.announced
            assert isvc_updated is (announced and program in OWN_PROGRAMS), observed
            if isvc_updated:
                isvc = next(s for s in preview["steps"] if urn_type(s["urn"]) == ISVC_TYPE)
                old_inputs, new_inputs = isvc["oldState"]["inputs"], isvc["newState"]["inputs"]
                assert {k: v for k, v in new_inputs.items() if k != "metadata"} == {
                    k: v for k, v in old_inputs.items() if k != "metadata"
                }, "the predictor's spec is as it was"
                before, after = old_inputs["metadata"], new_inputs["metadata"]
                assert ENV_SECRET_DIGEST not in (before.get("annotations") or {})
                assert {k: v for k, v in after.items() if k != "annotations"} == {
                    k: v for k, v in before.items() if k != "annotations"
                }
                added = {k: v for k, v in after["annotations"].items() if k not in before["annotations"]}
                assert list(added) == [ENV_SECRET_DIGEST], added
                assert {k: after["annotations"][k] for k in before["annotations"]} == before["annotations"]
            if newest.says_none:
                assert not observed
            stack.up()
            stack.pulumi("preview", "--expect-no-changes")
            for namespace in PROGRAMS[program] if program in OWN_PROGRAMS else ():
                (live,) = cluster.kube.list("serving.kserve.io/v1beta1", "InferenceService", namespace)
                digest = live["metadata"]["annotations"][ENV_SECRET_DIGEST]
                assert len(digest) == 64 and set(digest) <= set("0123456789abcdef"), digest
            kinds = {urn_type(r["urn"]) for r in stack.state_resources()}
            assert "kubernetes:serving.kserve.io/v1beta1:InferenceService" in kinds
        finally:
            stack.pulumi("destroy", "--yes", "--skip-preview", check=False)


def test_every_announced_line_is_seen_by_an_upgrade() -> None:
    """The newest entry announces nothing the example programs' upgrades did not show."""
    assert set(PROGRAMS) == UPGRADED, "run with the upgrade tests of every program, as the lane does"
    assert entries()[0].announced == SEEN
