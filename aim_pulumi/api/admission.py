"""The vocabulary of the admission rules (behaviour §2): cross-field checks a CRD schema alone cannot express.

Single-field rules (enums, bounds, patterns, required fields) live on the model fields themselves.
The cross-field rules live beside the model they check, so one kind's admission is read in one
module: the rules every kind shares (names, labels) in `base.py`, those of the shared blocks (env,
fallbacks, S3) in `common.py`, and each kind's own in its module (`service_rules` in `service.py`,
`profile_rules` in `profile.py`, ...). They are written with the pieces here, which know no kind.
Each rule function returns every problem it finds, in rule order, so `validate` can report them all
while construction raises the first; rules on shared blocks return paths relative to the block.
"""

from __future__ import annotations

from aim_pulumi.api.errors import AIMValidationError

__all__ = [
    "MANAGED_VLLM_FLAGS",
    "PROFILE_ROLES",
    "PROFILE_ROLE_LABEL",
    "Problems",
    "is_set",
    "normalise_flag",
    "path_segment_problems",
    "problem",
]

Problems = list[AIMValidationError]

PROFILE_ROLE_LABEL = "aim.eai.amd.com/profile-role"
PROFILE_ROLES = ("deployable", "base")

# Flags the direct vLLM command line manages itself (behaviour §13.5).
MANAGED_VLLM_FLAGS = ("model", "host", "port")


def problem(field: str, message: str, reason: str = "InvalidSpec") -> AIMValidationError:
    return AIMValidationError(field, reason, message)


def is_set(value: str | None) -> bool:
    return bool(value)


def path_segment_problems(field: str, value: str | None) -> Problems:
    """A value that becomes part of a container path must stay below the directory it is put in.

    `aimId` and model ids are joined onto mount roots; `..`, `.` or empty segments, an absolute
    path, backslashes and control characters could point the mount anywhere in the container.
    """
    if not value:
        return []
    segments = value.split("/")
    bad = (
        value.startswith("/")
        or "\\" in value
        or any(segment in ("", ".", "..") for segment in segments)
        or any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value)
    )
    if not bad:
        return []
    return [
        problem(
            field,
            f"{value!r} must be a relative path of plain segments (no '..', '.', empty segments, "
            "leading '/', backslashes or control characters): it becomes part of a container path",
        )
    ]


def normalise_flag(key: str) -> str:
    """vLLM accepts `max_model_len`, `--max-model-len` and `max-model-len` alike as one flag."""
    return key.lstrip("-").replace("_", "-")
