"""Files are never lost: atomic writes, refused symlinks and same-file targets, clean write errors."""

from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from aim_pulumi.cli.__main__ import main
from aim_pulumi.cli.files import WriteFailed, atomic_write, write_files

LEGACY = Path(__file__).resolve().parent.parent / "fixtures" / "legacy"
QUICKSTART = Path(__file__).resolve().parents[2] / "examples" / "quickstart"
SERVICES = "services-seed002.yaml"


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    root.mkdir()
    shutil.copy(LEGACY / SERVICES, root / SERVICES)
    return root


# The user file permissions bind when the tests run as root (root writes anywhere): `nobody`.
UNPRIVILEGED = 65534


@pytest.fixture
def user_dir() -> Iterator[Path]:
    """A directory the user `_main_unprivileged` runs as can enter: the test's own temporary
    directory is private to root when the tests run as root."""
    made = Path(tempfile.mkdtemp(prefix="aim-pulumi-user-"))
    made.chmod(0o755)
    try:
        yield made
    finally:
        for path in [made, *made.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(made)


def _main_unprivileged(argv: list[str]) -> tuple[int, str]:
    """`main(argv)`'s exit code and stderr as a user whom file permissions bind: the tests' own
    user, or, when that is root, `nobody` in a forked child (its files: `user_dir`)."""
    if os.geteuid() != 0:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(argv)
        return code, err.getvalue()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root for good, run, report, and leave without pytest's cleanup
        code = 70
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(UNPRIVILEGED)
            os.setuid(UNPRIVILEGED)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                code = main(argv)
            os.write(write, err.getvalue().encode())
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        text = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), text


def _owned_by_the_unprivileged_user(path: Path) -> None:
    if os.geteuid() == 0:
        os.chown(path, UNPRIVILEGED, UNPRIVILEGED)


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


def test_kill_among_the_renames_is_finished_by_a_rerun(tmp_path: Path) -> None:
    root = tmp_path / "in"
    shutil.copytree(LEGACY / "mixed", root)
    reference = tmp_path / "reference"
    shutil.copytree(root, reference)
    assert _migrate_child([str(reference), "--in-place"]).returncode == 0

    def tree(directory: Path) -> dict[str, bytes]:
        return {
            p.relative_to(directory).as_posix(): p.read_bytes() for p in directory.rglob("*") if p.is_file()
        }

    before, after = tree(root), tree(reference)
    assert len([name for name in before if before[name] != after[name]]) == 2
    # Killed after the first of the two renames: the window the renames leave.
    prelude = textwrap.dedent(
        """
        import os, signal
        renamed = []
        real_replace = os.replace
        def replace(source, target):
            if renamed:
                os.kill(os.getpid(), signal.SIGKILL)
            renamed.append(target)
            real_replace(source, target)
        os.replace = replace
        """
    )
    assert _migrate_child([str(root), "--in-place"], prelude).returncode == -signal.SIGKILL
    half = tree(root)
    assert sum(half.get(name) == after[name] != before[name] for name in after) == 1
    assert sum(name.endswith(".aim-pulumi.tmp") for name in half) == 1
    rerun = _migrate_child([str(root), "--in-place"])
    assert rerun.returncode == 0, rerun.stderr
    assert tree(root) == after


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
    assert main(["migrate", str(root), "--in-place"]) == 2
    err = capsys.readouterr().err
    assert f"{root / SERVICES}: symlink to {outside}, outside {root}; not followed" in err
    assert outside.read_bytes() == before


def test_in_place_refuses_symlink_inside_before_writing_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "in"
    root.mkdir()
    shutil.copy(LEGACY / SERVICES, root / "a.yaml")
    shutil.copy(LEGACY / SERVICES, root / "real.yaml")
    (root / "z.yaml").symlink_to("real.yaml")
    before = (root / "a.yaml").read_bytes()
    # The link is read (it stays inside) but not written through: the whole rewrite is refused.
    assert main(["migrate", str(root), "--in-place"]) == 1
    assert f"{root / 'z.yaml'} is a symlink; refusing to write through it" in capsys.readouterr().err
    assert (root / "a.yaml").read_bytes() == before == (root / "real.yaml").read_bytes()
    assert sorted(p.name for p in root.iterdir()) == ["a.yaml", "real.yaml", "z.yaml"]


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


def test_unwritable_output_dir_is_a_clean_error(user_dir: Path) -> None:
    source = user_dir / "in"
    source.mkdir()
    shutil.copy(LEGACY / SERVICES, source / SERVICES)
    (source / SERVICES).chmod(0o644)
    out = user_dir / "ro"
    out.mkdir()
    _owned_by_the_unprivileged_user(out)
    out.chmod(0o500)
    code, err = _main_unprivileged(["migrate", str(source), "-o", str(out / "x")])
    assert code == 1, err
    assert "cannot write" in err and "Traceback" not in err
    assert not (out / "x").exists()


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


def test_plan_never_creates_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing" / "dir"
    for flag in ("--json", "--yaml"):
        assert main(["plan", str(LEGACY / "models.yaml"), flag, str(missing / "p.out")]) == 2
        err = capsys.readouterr().err
        assert err.splitlines() == [
            f"aim-pulumi plan: error: cannot write {missing / 'p.out'}: {missing} is not an existing "
            "directory; create it first"
        ]
    assert list(tmp_path.iterdir()) == []


def test_plan_refuses_a_parent_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("keep")
    assert main(["plan", str(LEGACY / "models.yaml"), "--json", str(tmp_path / "file" / "p.json")]) == 2
    assert f"{tmp_path / 'file'} is not a directory" in capsys.readouterr().err
    assert (tmp_path / "file").read_text() == "keep"


@pytest.mark.parametrize("flag", ["--json", "--yaml"])
def test_plan_refuses_a_read_only_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str) -> None:
    target = tmp_path / "plan.out"
    target.write_text("keep")
    target.chmod(0o444)
    # Refused before the plan runs, and a failed plan does not remove it either.
    assert main(["plan", str(LEGACY / "models.yaml"), flag, str(target)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"aim-pulumi plan: error: {target} is read-only (mode 0444); refusing to replace it"
    ]
    assert target.read_text() == "keep"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        "apiVersion: aim.eai.amd.com/v1alpha2\nkind: AIMService\nmetadata: {name: s}\nspec: {}\n"
    )
    assert main(["plan", str(broken), flag, str(target)]) == 2
    capsys.readouterr()
    assert target.read_text() == "keep"


def test_plan_refuses_a_file_another_user_may_write(user_dir: Path) -> None:
    models = user_dir / "models.yaml"
    shutil.copy(LEGACY / "models.yaml", models)
    models.chmod(0o644)
    target = user_dir / "plan.json"
    target.write_text("keep")
    _owned_by_the_unprivileged_user(target)
    target.chmod(0o420)  # the group may write it, its owner may not
    code, err = _main_unprivileged(["plan", str(models), "--json", str(target)])
    assert code == 2, err
    assert "not writable by this user (mode 0420)" in err
    target.chmod(0o600)
    assert target.read_text() == "keep"


def test_plan_keeps_the_mode_of_the_file_it_replaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "plan.json"
    target.write_text("{}")
    target.chmod(0o640)
    assert main(["plan", str(LEGACY / "models.yaml"), "--json", str(target)]) == 0
    capsys.readouterr()
    assert "AIMClusterModel" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.json"]


def test_write_files_is_all_or_nothing_before_the_renames(tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("old a")
    second.write_text("old b")
    with pytest.raises(WriteFailed, match=f"cannot write {second}: "):
        write_files([(first, "new a"), (second, "bad \ud800")])
    assert (first.read_text(), second.read_text()) == ("old a", "old b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_write_files_failing_rename_says_what_was_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("old a")
    second.write_text("old b")
    real_replace = os.replace
    calls: list[str] = []

    def failing_replace(source: str, target: str) -> None:
        calls.append(target)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(WriteFailed) as caught:
        write_files([(first, "new a"), (second, "new b")])
    assert str(caught.value) == (
        f"cannot write {second}: No space left on device; 1 of 2 files were already replaced, "
        "run again to finish"
    )
    assert (first.read_text(), second.read_text()) == ("new a", "old b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_leftover_temporary_files_are_removed_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "plan.json"
    leftovers = [".plan.json.k3j_9x2a.aim-pulumi.tmp", ".plan.json.ab12cd34.tmp"]
    kept = [".plan.json.notes.tmp", ".other.json.ab12cd34.aim-pulumi.tmp", "plan.json.ab12cd34.tmp"]
    for name in leftovers + kept:
        (tmp_path / name).write_text("half")
    atomic_write(target, "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*kept, "plan.json"])


# --------------------------------------------------------------------------------------------------
# input directories: symlinks and special files


def _tree_with_link(tmp_path: Path, link: str, target: Path) -> Path:
    root = tmp_path / "in"
    root.mkdir()
    shutil.copy(LEGACY / "models.yaml", root / "models.yaml")
    (root / link).symlink_to(target)
    return root


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["validate"], id="validate"),
        pytest.param(["plan"], id="plan"),
        pytest.param(["explain", "--service", "ns/s"], id="explain"),
        pytest.param(["migrate"], id="migrate"),
    ],
)
@pytest.mark.parametrize(
    ("link", "target"),
    [
        pytest.param("passwd.yaml", Path("/etc/passwd"), id="file"),
        pytest.param("etc", Path("/etc"), id="directory"),
    ],
)
def test_symlink_leading_out_of_an_input_directory_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], link: str, target: Path
) -> None:
    root = _tree_with_link(tmp_path, link, target)
    command, *rest = argv
    assert main([command, str(root), *rest]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"aim-pulumi {command}: error: {root / link}: symlink to {target.resolve()}, outside {root}; "
        "not followed (copy it in to read it)"
    ]
    assert "root:" not in captured.out + captured.err
    assert "Error" not in captured.err


def test_catalog_with_a_symlink_leading_out_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree_with_link(tmp_path, "passwd.yaml", Path("/etc/passwd"))
    assert main(["plan", str(LEGACY / "models.yaml"), "--catalog", str(root)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"aim-pulumi plan: error: --catalog {root / 'passwd.yaml'}: symlink to /etc/passwd, outside {root}; "
        "not followed (copy it in to read it)"
    ]


def test_symlinks_that_stay_inside_are_read_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "in"
    (root / "real").mkdir(parents=True)
    shutil.copy(LEGACY / "models.yaml", root / "real" / "models.yaml")
    (root / "shared.yaml").symlink_to(root / "real" / "models.yaml")
    (root / "again").symlink_to("real")  # a directory link would only read real/ twice, or loop
    (root / "real" / "loop").symlink_to("..")
    assert main(["validate", str(root)]) == 0
    # models.yaml holds two models: read at its own path and through shared.yaml, never via again/.
    assert capsys.readouterr().out == "4 objects valid\n"


def test_a_symlink_named_as_the_argument_is_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(LEGACY / "models.yaml", elsewhere / "models.yaml")
    (tmp_path / "dir-link").symlink_to(elsewhere)
    (tmp_path / "file-link.yaml").symlink_to(elsewhere / "models.yaml")
    assert main(["validate", str(tmp_path / "dir-link"), str(tmp_path / "file-link.yaml")]) == 0
    assert capsys.readouterr().out == "4 objects valid\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param(
            ["plan", "{fifo}"],
            "aim-pulumi plan: error: {fifo}: not a regular file or directory (a FIFO, socket or device); "
            "pipe YAML in with `-` instead",
            id="plan-program",
        ),
        pytest.param(
            ["explain", "{fifo}", "--service", "ns/s"],
            "aim-pulumi explain: error: {fifo}: not a regular file or directory (a FIFO, socket or device); "
            "pipe YAML in with `-` instead",
            id="explain-program",
        ),
        pytest.param(
            ["plan", str(LEGACY / "models.yaml"), "--catalog", "{fifo}"],
            "aim-pulumi plan: error: --catalog {fifo}: not a regular file or directory "
            "(a FIFO, socket or device)",
            id="plan-catalog",
        ),
        pytest.param(
            ["migrate", "{fifo}"],
            "aim-pulumi migrate: error: {fifo}: not a regular file or directory (a FIFO, socket or device)",
            id="migrate",
        ),
    ],
)
def test_fifo_argument_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert main([a.format(fifo=fifo) for a in argv]) == 2
    assert capsys.readouterr().err.splitlines() == [expected.format(fifo=fifo)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_inside_a_migrated_directory_is_noted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(LEGACY / "models.yaml", tmp_path / "models.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    assert main(["migrate", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert f"note: {tmp_path / 'pipe.yaml'}: skipped: not a regular file (a FIFO, socket or device)" in err
