"""`aim-pulumi discover [DIR]`: read the images a program names from their registries into its lock.

DIR is a program as `plan` takes it (a Pulumi Python program directory, or AIM YAML). The program
runs offline (`execution.execute`) with discoveries that read every image and model source it
names from the registry (`aim_pulumi/discovery/session.py`, refresh mode); what they answered is
written to `DIR/aim.lock.yaml` (`aim_pulumi/discovery/lock.py`), replacing it atomically and only
when every read succeeded. `--check` writes nothing and fails when the lock differs (for CI);
`--update IMAGE` reads IMAGE again and keeps every other entry as locked.

Exit status: 0 written (or already current), 1 a read failed or, with `--check`, the lock is
stale, 2 usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
from concurrent.futures import wait
from typing import TYPE_CHECKING, Any, TextIO

from aim_pulumi.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError
from aim_pulumi.cli.execution import execute
from aim_pulumi.cli.progress import Progress
from aim_pulumi.cli.project import add_program_arguments, load_program
from aim_pulumi.cli.render import palette_for

if TYPE_CHECKING:
    from aim_pulumi.discovery.lock import Lock
    from aim_pulumi.discovery.reader import ReadStats

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "discover",
        help="read the AIM images a program names into its lock file (aim.lock.yaml)",
        description="Read every AIM image (and model source) PROGRAM names from its registry, without "
        "running the image, and pin what was read in PROGRAM/aim.lock.yaml: digests, profile files, "
        "AIM environment and labels. plan, preview and up then read the lock and contact no registry. "
        "Exit 0 written or current, 1 a read failed or --check found the lock stale, 2 usage error.",
    )
    add_program_arguments(parser, default_program=".")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the lock is missing or stale"
    )
    parser.add_argument(
        "--update",
        metavar="IMAGE",
        action="append",
        default=[],
        help="read only IMAGE (or model source) again; every other entry stays as locked (repeatable)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only problems")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """The `discover` command; `stdout`/`stderr` default to the process streams (tests pass buffers)."""
    from aim_pulumi.discovery.errors import DiscoveryError
    from aim_pulumi.discovery.lock import read_lock, render_lock, write_lock
    from aim_pulumi.discovery.session import Discoveries
    from aim_pulumi.resolve.errors import AIMResolutionError
    from aim_pulumi.resolve.settings import Settings
    from aim_pulumi.resources.discovery import readers_for, using_discoveries

    out = stdout or sys.stdout
    err = stderr or sys.stderr
    palette = palette_for(err, no_color=args.no_color)
    try:
        program = load_program(args.program, stack=args.stack, config=args.config)
        root = program.root or program.path
        path = root / "aim.lock.yaml"
        try:
            settings = Settings.from_config(program.config)
            old = read_lock(path)
        except (AIMResolutionError, DiscoveryError) as error:
            raise UsageError(str(error)) from None
    except UsageError as exc:
        print(f"aim-pulumi discover: error: {exc}", file=err)
        return EXIT_USAGE
    with Progress(err, enabled=not args.quiet and not args.debug) as progress:
        shown = threading.Lock()

        def report(message: str) -> None:
            with shown:
                progress.show(message)

        discoveries = Discoveries(
            old,
            mode="refresh",
            readers=lambda: _with_progress(readers_for(settings), report),
            refresh=args.update or None,
            where=str(path),
        )
        try:
            with using_discoveries(discoveries):
                outcome = execute(program, catalogs=args.catalog, debug=args.debug)
            if outcome.catalog is not None:
                _finish(outcome.catalog)
            for image in _service_images(program):
                with contextlib.suppress(DiscoveryError):  # kept in failures, printed below
                    discoveries.image(image)
        finally:
            discoveries.close()
    failures = discoveries.failures()
    if failures:
        for name in sorted(failures):
            print(palette.error("error: ") + str(failures[name]), file=err)
        print(f"{path.name} was not changed", file=err)
        return EXIT_FAILED
    used = discoveries.used()
    unknown = sorted(set(args.update) - set(used.images) - set(used.sources))
    if unknown:
        print(
            f"aim-pulumi discover: error: --update {', '.join(unknown)}: not an image or model source the "
            "program names",
            file=err,
        )
        return EXIT_USAGE
    if outcome.error is not None:
        print(
            palette.warning("warning: ")
            + f"the program did not plan ({outcome.error.line.splitlines()[0]}); the lock holds the images "
            "it named before that",
            file=err,
        )
    new = old.merged(used) if args.update else used
    if not new.images and not new.sources and not path.exists():
        print(f"the program names no AIM image or model source: no {path.name} written", file=out)
        return EXIT_OK
    if not args.quiet:
        for line in _summary(new, discoveries.stats(), discoveries.live_images()):
            print(line, file=out)
    if args.check:
        if render_lock(new) == render_lock(old) and path.is_file():
            print(f"{path.name} is current", file=out)
            return EXIT_OK
        for line in _staleness(old, new):
            print(palette.error("stale: ") + line, file=err)
        return EXIT_FAILED
    changed = write_lock(path, new)
    print(f"{'wrote' if changed else 'unchanged:'} {path}", file=out)
    return EXIT_OK


def _with_progress(readers: Any, report: Any) -> Any:
    """The readers, each image read announced on the progress line."""
    from aim_pulumi.discovery.session import Readers

    def read_image(image: str) -> Any:
        report(f"discovering {image}")
        return readers.read_image(image)

    return Readers(read_image=read_image, list_images=readers.list_images)


def _finish(catalog: Any) -> None:
    """Read what the run had not read yet (a program that failed before its round, say)."""
    while True:
        running = catalog.start_discoveries()
        if not running:
            return
        wait(running)


def _service_images(program: Any) -> list[str]:
    """`spec.model.image` of the services of AIM YAML (a Python program's are read through models)."""
    if program.kind != "manifests":
        return []
    from aim_pulumi.api import AIMValidationError
    from aim_pulumi.versions import load_manifests

    try:
        objects = load_manifests(str(program.path))
    except (AIMValidationError, OSError):  # the plan already reported it
        return []
    images = set()
    for obj in objects:
        if obj.kind == "AIMService":
            model = getattr(obj.spec, "model", None)
            image = getattr(model, "image", None) if model is not None else None
            if image:
                images.add(str(image))
    return sorted(images)


def _summary(lock: Lock, stats: list[ReadStats], live: list[str]) -> list[str]:
    by_image = {s.image: s for s in stats}
    lines = []
    for name in sorted(lock.images):
        record = lock.images[name]
        read = by_image.get(name)
        if read is None:
            how = "kept from the lock"
        elif read.from_cache:
            how = f"from the cache by digest ({read.bytes_read} bytes read)"
        else:
            how = (
                f"read {read.bytes_read} of {read.image_bytes} bytes "
                f"({read.layers_read} layers read, {read.layers_cached} from the cache)"
            )
        lines.append(f"{name}: {record.digest}, {len(record.profiles)} profile files, {how}")
    for name in sorted(lock.sources):
        source = lock.sources[name]
        lines.append(f"model source {name}: {len(source.images)} images ({len(source.listed)} listed now)")
    return lines


def _staleness(old: Lock, new: Lock) -> list[str]:
    lines = []
    for name in sorted(set(old.images) | set(new.images)):
        before, after = old.images.get(name), new.images.get(name)
        if before is None:
            lines.append(f"{name}: not in the lock")
        elif after is None:
            lines.append(f"{name}: in the lock, no longer named by the program")
        elif before.digest != after.digest:
            lines.append(f"{name}: moved from {before.digest} to {after.digest}")
        elif before != after:
            lines.append(f"{name}: what the lock holds differs from the image")
    for name in sorted(set(old.sources) | set(new.sources)):
        if old.sources.get(name) != new.sources.get(name):
            lines.append(f"model source {name}: the registry lists other images now")
    return lines or ["the lock file is missing"]
