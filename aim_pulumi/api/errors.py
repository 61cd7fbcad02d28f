"""The AIM errors' one root, and the error of the typed API: bad input is rejected before anything
is deployed.

Every AIM error says the same four things, whichever layer raised it: the AIM reason, a message, the
field of the input at fault and the object it belongs to. The Pulumi layer adds where the program
declared the object the error belongs to (`declared_at`, `declared_by`) when the error leaves a
component or the program's round, through `AIMError.declared`, the one way an error is located.
"""

from __future__ import annotations

import os
import re
import sysconfig
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self

# Characters that would let one message print as several lines or repaint the terminal: C0/C1
# controls, DEL, line and paragraph separators, bidirectional and zero-width formatting, BOM,
# and lone surrogates (which cannot even be written to a UTF-8 stream).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# A line a person can read: a value longer than this is shown by its start and its length, and a
# line that is still longer loses its middle. A 3 MB label value must not come back as a 3 MB line.
MAX_RUN = 120
MAX_LINE = 2000
_LONG_RUN = re.compile(r"[^\s\"',:]{" + str(MAX_RUN + 1) + ",}")


def _elided_run(match: re.Match[str]) -> str:
    run = match.group()
    return f"{run[:40]}...({len(run)} characters)"


def bounded(line: str) -> str:
    """`line` with over-long values elided (their length said) and at most about MAX_LINE characters."""
    if len(line) <= MAX_RUN:
        return line
    line = _LONG_RUN.sub(_elided_run, line)
    if len(line) <= MAX_LINE:
        return line
    cut = len(line) - MAX_LINE
    return f"{line[: MAX_LINE - 200]}...({cut} characters)...{line[-200:]}"


def escape(text: object) -> str:
    """User text made safe for one line of a log: control characters shown as `\\n`, `\\x1b`, ..."""
    return _UNSAFE.sub(_escaped, str(text))


def join_path(*parts: str | int) -> str:
    """Join path parts into the dotted camelCase form users see (`spec.env[0].name`).

    Parts may already be partial paths (`fallbacks[1].name`) so sub-model rules can report paths
    relative to themselves and still read naturally once placed under their parent.
    """
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        text = str(part)
        if not text:
            continue
        if not out or text.startswith("["):
            out += text
        else:
            out += "." + text
    return out


class Site(Protocol):
    """A line of the user's program (the Pulumi layer's declaration site)."""

    @property
    def filename(self) -> str: ...

    @property
    def line(self) -> int: ...


class AIMError(Exception):
    """The root of every AIM error: `reason`, `message`, `field`, `object_ref`, and where it was declared.

    `declared_at` is the line of the program that declared the object whose plan failed, and
    `declared_by` that object (`Kind/namespace/name`) when the failing object is another one (a
    profile a service selected); both are None until the error leaves the pure layers.
    """

    reason: str
    message: str
    field: str
    object_ref: str | None
    declared_at: Site | None = None
    declared_by: str | None = None

    def located(self, *, object_ref: str | None = None) -> Self:
        """A copy naming the object the error concerns, unless it already names one."""
        raise NotImplementedError

    def declared(self, at: Site | None = None, by: str | None = None) -> Self:
        """This error, marked as belonging to the declaration at `at` of `by`; what is known is kept."""
        if self.declared_at is None and at is not None:
            self.declared_at = at
        if self.declared_by is None and by:
            self.declared_by = by
        return self


class AIMValidationError(AIMError, ValueError):
    """An AIM object failed parsing or admission.

    `field` is the dotted camelCase path of the offending input (`(root)` when the document itself
    is wrong), `reason` the AIM reason: `InvalidSpec` (bad type, value or combination),
    `UnknownField`, `UnknownKind`, `UnsupportedVersion`, `InvalidYAML`, or the reason an admission
    rule names (`Unsupported`, `NameTooLong`, `AutoscalingRequiresMetrics`). When the object came
    from a file, `file`,
    `document` (1-based position of the YAML document in that file, empty documents counted) and
    `object_ref` (`Kind/namespace/name`, or `Kind/name` for cluster kinds) locate it; `line`
    (1-based, in the file) is where the offending text stands, when that is known: the loader knows
    it for a YAML error or a bound, `aim-pulumi validate` finds it for every other problem.
    """

    def __init__(
        self,
        field: str,
        reason: str,
        message: str = "",
        *,
        file: str | None = None,
        document: int | None = None,
        object_ref: str | None = None,
        line: int | None = None,
    ) -> None:
        self.field = field
        self.reason = reason
        self.message = message or reason
        self.file = file
        self.document = document
        self.object_ref = object_ref
        self.line = line
        super().__init__(self.message)

    def located(
        self,
        *,
        file: str | None = None,
        document: int | None = None,
        object_ref: str | None = None,
        line: int | None = None,
    ) -> AIMValidationError:
        """Return a copy carrying where the object came from, keeping what is already known."""
        return AIMValidationError(
            self.field,
            self.reason,
            self.message,
            file=self.file if self.file is not None else file,
            document=self.document if self.document is not None else document,
            object_ref=self.object_ref if self.object_ref is not None else object_ref,
            line=self.line if self.line is not None else line,
        )

    def naming(self, object_ref: str) -> AIMValidationError:
        """A copy naming `object_ref` instead of the object it names (one validated with a stand-in)."""
        return AIMValidationError(
            self.field,
            self.reason,
            self.message,
            file=self.file,
            document=self.document,
            object_ref=object_ref,
            line=self.line,
        )

    def under(self, *prefix: str | int) -> AIMValidationError:
        """Return a copy whose field is placed under `prefix` (used when a sub-model rule fails)."""
        return AIMValidationError(
            join_path(*prefix, self.field),
            self.reason,
            self.message,
            file=self.file,
            document=self.document,
            object_ref=self.object_ref,
            line=self.line,
        )

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            # The line where the text stands when it is known (what an editor jumps to); else the
            # document's position, for a reader that never had the text.
            at = self.line if self.line is not None else self.document
            where = self.file if at is None else f"{self.file}:{at}"
        parts = [p for p in (where, self.object_ref, self.field, self.reason, self.message) if p]
        return bounded(": ".join(escape(p) for p in parts))

    def __repr__(self) -> str:
        return f"AIMValidationError(field={self.field!r}, reason={self.reason!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild,
            (self.field, self.reason, self.message, self.file, self.document, self.object_ref, self.line),
        )


def _rebuild(
    field: str,
    reason: str,
    message: str,
    file: str | None,
    document: int | None,
    object_ref: str | None,
    line: int | None = None,
) -> AIMValidationError:
    return AIMValidationError(
        field, reason, message, file=file, document=document, object_ref=object_ref, line=line
    )


# Words for the failures a hostile input can push an unguarded step into; anything else is named
# only as unexpected, since an exception's own text may carry the input (a secret among it).
_INTERNAL_WORDS: tuple[tuple[type[BaseException], str], ...] = (
    (RecursionError, "the input is nested too deeply"),
    (MemoryError, "the input is too large"),
    (UnicodeError, "the input is not valid text"),
)
_PACKAGE = str(Path(__file__).resolve().parents[1]) + os.sep
# Where libraries live (the standard library, installed packages): a frame there is neither this
# package's nor the user's, so the frame that called into it decides.
_LIBRARIES = tuple(
    str(Path(sysconfig.get_path(key)).resolve()) + os.sep
    for key in ("stdlib", "platstdlib", "purelib", "platlib")
)


# What only a defect raises (never a message meant for a user), wherever in this package.
_DEFECTS = (
    AssertionError, AttributeError, IndexError, KeyError, NameError, RecursionError, MemoryError,
    UnicodeError, ZeroDivisionError,
)  # fmt: skip


def _internal(error: BaseException, origin: TracebackType | None = None) -> bool:
    """Whether `error` is a defect of this package rather than a message for a user.

    From the innermost frame outwards, library frames are passed over to the first frame that is
    this package's or the user's. The user's: theirs (a `TypeError` in pulumi-kubernetes that their
    program called keeps its name). This package's: a defect when a library raised it (an
    `AssertionError` of the Pulumi SDK, `embedded null byte` from `os`, a botocore error) or when it
    is of a kind only a defect raises; a `TypeError` or `ValueError` this package raises itself is
    a message it means a user to read.
    """
    frames = []
    tb = origin or error.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    via_library = False
    for filename in reversed(frames):
        if filename.startswith("<"):
            continue
        resolved = os.path.realpath(filename)
        if resolved.startswith(_PACKAGE):
            return via_library or isinstance(error, _DEFECTS)
        if not resolved.startswith(_LIBRARIES):
            return False
        via_library = True
    return False


def internal_failure(error: BaseException, origin: TracebackType | None = None) -> str | None:
    """The message for a failure raised inside this package that is not an AIM error; None otherwise.

    No exception class and no stack frame reaches a user for it (`--debug` shows the traceback):
    it names what happened in words, and that it is a defect to report. A failure of the user's
    own code (a typo in their program) keeps its type and message, which are theirs. `origin` is
    the traceback where the error was first raised, when it was raised again elsewhere since (a
    failed Output re-raises at every await).
    """
    if isinstance(error, AIMError) or not _internal(error, origin):
        return None
    what = next(
        (words for kind, words in _INTERNAL_WORDS if isinstance(error, kind)), "an unexpected failure"
    )
    return (
        f"the plan stopped inside aim-pulumi ({what}); this is a defect: --debug shows the details, "
        "please report it"
    )


INTERNAL_ERROR = "InternalError"
"""The reason an `internal_failure` is reported under."""
