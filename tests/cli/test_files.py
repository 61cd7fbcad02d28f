"""Files are never lost: atomic writes, refused symlinks and same-file targets, clean write errors."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.cli.files import WriteFailed, atomic_write

LEGACY = Path(__file__).resolve().parent.parent / "fixtures" / "legacy"
QUICKSTART = Path(__file__).resolve().parents[2] / "examples" / "quickstart"
SERVICES = "services-seed002.yaml"


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    root.mkdir()
    shutil.copy(LEGACY / SERVICES, root / SERVICES)
    return root


def _migrate_child(
    argv: list[str], prelude: str = "", limit: int | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `aim-pulumi migrate` in a child process (which may be killed or limited)."""
    code = prelude + "\nimport sys\nfrom aim_pulumi.cli.__main__ import main\nsys.exit(main(sys.argv[1:]))\n"

    def limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-c", code, "migrate", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limited,
        check=False,
    )


def test_kill_during_in_place_write_leaves_input_whole(legacy: Path) -> None:
    before = (legacy / SERVICES).read_bytes()
    # The process dies after writing the converted text and before the rename: the worst moment.
    prelude = textwrap.dedent(
        """
        import os, signal
        os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    result = _migrate_child([str(legacy), "--in-place"], prelude)
    assert result.returncode == -signal.SIGKILL
    assert (legacy / SERVICES).read_bytes() == before


def test_kill_at_random_moments_never_truncates(legacy: Path) -> None:
    before = (legacy / SERVICES).read_bytes()
    reference = legacy.parent / "reference"
    shutil.copytree(legacy, reference)
    assert _migrate_child([str(reference), "--in-place"]).returncode in (0, 1)
    converted = (reference / SERVICES).read_bytes()
    assert converted != before
    for delay in (0.05, 0.2, 0.4, 0.6, 0.8):
        shutil.copy(LEGACY / SERVICES, legacy / SERVICES)
        code = "import sys\nfrom aim_pulumi.cli.__main__ import main\nsys.exit(main(sys.argv[1:]))\n"
        child = subprocess.Popen([sys.executable, "-c", code, "migrate", str(legacy), "--in-place"])
        try:
            child.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait()
        assert (legacy / SERVICES).read_bytes() in (before, converted)
        # A killed run may leave its hidden temporary file, never a second manifest.
        assert [p.name for p in legacy.glob("*.yaml")] == [SERVICES]


def test_fsize_limit_fails_cleanly_and_keeps_input(legacy: Path) -> None:
    before = (legacy / SERVICES).read_bytes()
    result = _migrate_child([str(legacy), "--in-place"], limit=256)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"aim-pulumi migrate: error: cannot write {legacy / SERVICES}: File too large" in result.stderr
    assert (legacy / SERVICES).read_bytes() == before
    assert list(legacy.iterdir()) == [legacy / SERVICES]


def test_in_place_refuses_symlink_to_outside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside.yaml"
    shutil.copy(LEGACY / SERVICES, outside)
    before = outside.read_bytes()
    root = tmp_path / "in"
    root.mkdir()
    (root / SERVICES).symlink_to(outside)
    assert main(["migrate", str(root), "--in-place"]) == 1
    assert "is a symlink; refusing to write through it" in capsys.readouterr().err
    assert outside.read_bytes() == before


def test_output_dir_refuses_symlinked_target(
    legacy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / SERVICES).symlink_to(victim)
    assert main(["migrate", str(legacy), "-o", str(out)]) == 1
    assert "is a symlink" in capsys.readouterr().err
    assert victim.read_text() == "keep me\n"


def test_output_dir_through_symlinked_subdirectory_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    shutil.copy(LEGACY / SERVICES, root / "sub" / SERVICES)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").symlink_to(elsewhere)
    assert main(["migrate", str(root), "-o", str(out)]) == 1
    assert "resolves outside" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


def test_output_dir_that_is_a_file_is_a_usage_error(
    legacy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "existing.txt"
    existing.write_text("x")
    assert main(["migrate", str(legacy), "-o", str(existing)]) == 2
    err = capsys.readouterr().err
    assert "exists and is not a directory" in err and "Traceback" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_unwritable_output_dir_is_a_clean_error(
    legacy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o500)
    try:
        assert main(["migrate", str(legacy), "-o", str(out / "x")]) == 1
    finally:
        out.chmod(0o700)
    assert "cannot write" in capsys.readouterr().err


def test_unwritable_output_path_is_a_clean_error(
    legacy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # /proc cannot hold new files whoever runs the test, root included.
    assert main(["migrate", str(legacy), "-o", "/proc/aim-pulumi-test"]) == 1
    err = capsys.readouterr().err
    assert "aim-pulumi migrate: error: cannot write /proc/aim-pulumi-test" in err
    assert "Traceback" not in err


def test_atomic_write_keeps_mode_and_cleans_up(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    atomic_write(target, "secret", mode=0o600)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    with pytest.raises(WriteFailed):
        atomic_write(target, "bad \ud800")
    assert target.read_text() == "secret"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


# --------------------------------------------------------------------------------------------------
# plan files


def test_plan_output_that_is_the_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "svc.yaml"
    shutil.copy(LEGACY / "models.yaml", manifest)
    before = manifest.read_bytes()
    assert main(["plan", str(manifest), "--yaml", str(manifest)]) == 2
    assert "or inside it" in capsys.readouterr().err
    assert manifest.read_bytes() == before


def test_plan_output_inside_planned_directory_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "prog"
    shutil.copytree(QUICKSTART, program)
    assert main(["plan", str(program), "--json", str(program / "plan.json")]) == 2
    assert "or inside it" in capsys.readouterr().err
    assert not (program / "plan.json").exists()


def test_plan_refuses_symlinked_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep")
    link = tmp_path / "plan.json"
    link.symlink_to(victim)
    assert main(["plan", str(QUICKSTART), "--json", str(link)]) == 2
    assert "is a symlink" in capsys.readouterr().err
    assert victim.read_text() == "keep"


def test_failed_plan_removes_previous_plan_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        "apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMService\nmetadata: {name: s}\nspec: {}\n"
    )
    old = tmp_path / "out" / "plan.json"
    old.parent.mkdir()
    old.write_text("{}")
    assert main(["plan", str(broken), "--json", str(old)]) == 1
    capsys.readouterr()
    assert not old.exists()


def test_show_secrets_files_are_owner_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "plan.json"
    manifests = tmp_path / "plan.yaml"
    assert (
        main(["plan", str(QUICKSTART), "--json", str(out), "--yaml", str(manifests), "--show-secrets"]) == 0
    )
    capsys.readouterr()
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert stat.S_IMODE(manifests.stat().st_mode) == 0o600


def test_unwritable_plan_path_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", str(QUICKSTART), "--json", "/proc/aim-pulumi-plan.json"]) == 2
    err = capsys.readouterr().err
    assert "cannot write /proc/aim-pulumi-plan.json" in err and "Traceback" not in err
