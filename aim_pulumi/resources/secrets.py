"""Pulumi Outputs in component arguments, kept away from the pure layers and put back afterwards.

A user may pass an Output where a value only flows into a child (a secret env value, a token from
another stack). The resolver and builders are plain functions and must never see one, so every
Output is swapped for a unique placeholder string before parsing, and each placeholder found in
the built manifests is swapped back for its Output. A secret therefore stays a Pulumi secret and
its plaintext never reaches a manifest, a status or a log line.

An Output must not decide what gets deployed (DESIGN decision 1). That is checked, not assumed:
the build runs again with one Output's placeholder changed, and if anything but that placeholder
differs (a name, a label, a path, a list length), the Output influenced structure and the program
fails naming the argument.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import pulumi

from aim_pulumi.api.errors import AIMError, AIMValidationError
from aim_pulumi.api.limits import UNRESOLVED_VALUE
from aim_pulumi.resources import _sdk
from aim_pulumi.resources.outputs import is_output_like
from aim_pulumi.resources.reported import reported

__all__ = [
    "OUTPUT_NOT_ALLOWED",
    "SECRET_NOT_ALLOWED",
    "CatalogOutputs",
    "MaskedArgs",
    "build_independent_of_outputs",
    "holds_output",
    "mask_outputs",
    "redact",
    "restore_outputs",
]

OUTPUT_NOT_ALLOWED = "OutputNotAllowed"
SECRET_NOT_ALLOWED = "SecretNotAllowed"
_PLACEHOLDER = UNRESOLVED_VALUE
_METADATA_KEYS = frozenset({"name", "namespace", "labels", "annotations"})
_PRIMARY = "Qx"
_ALTERNATE = "aLt.Z-9~w"
# The variant of a catalog object's placeholders: never one a service's masking chooses.
_CATALOG = "Env"
# The env value the merge reads (deep-merged JSON), so it decides what gets deployed.
_MERGED_ENV = "AIM_ENGINE_ARGS"

R = TypeVar("R")


@dataclass(frozen=True)
class MaskedArgs:
    """Arguments with every Output replaced by a placeholder, and the way back."""

    value: Any
    outputs: Mapping[str, pulumi.Output[Any]]
    paths: Mapping[str, str]


def _placeholder(index: int, variant: str) -> str:
    return f"__AIM_OUTPUT_{index}_{variant}__"


def _field_path(parts: list[str | int]) -> str:
    """The manifest path of an argument (`labels.x` lives at `metadata.labels.x`)."""
    out = ""
    for position, part in enumerate(parts):
        if isinstance(part, int):
            out += f"[{part}]"
        elif position == 0 and part in _METADATA_KEYS:
            out = f"metadata.{part}"
        else:
            out += ("." if out else "") + part
    return out


def mask_outputs(args: Any, *, variants: Mapping[int, str] | None = None) -> MaskedArgs:
    """Replace every Output (or awaitable) in `args` by a placeholder string, in walk order."""
    outputs: dict[str, pulumi.Output[Any]] = {}
    paths: dict[str, str] = {}
    chosen = dict(variants or {})

    def walk(value: Any, parts: list[str | int]) -> Any:
        if is_output_like(value):
            index = len(outputs)
            placeholder = _placeholder(index, chosen.get(index, _PRIMARY))
            outputs[placeholder] = pulumi.Output.from_input(value)
            paths[placeholder] = _field_path(parts)
            return placeholder
        if isinstance(value, Mapping):
            masked: dict[Any, Any] = {}
            for key, item in value.items():
                if is_output_like(key):
                    raise AIMValidationError(
                        _field_path(parts), OUTPUT_NOT_ALLOWED, "a map key cannot be a Pulumi Output"
                    )
                masked[key] = walk(item, [*parts, str(key)])
            return masked
        if isinstance(value, list | tuple):
            return [walk(item, [*parts, index]) for index, item in enumerate(value)]
        return value

    return MaskedArgs(value=walk(args, []), outputs=outputs, paths=paths)


def restore_outputs(value: Any, masked: MaskedArgs, *, secrets: bool = True, owner: str | None = None) -> Any:
    """Put the Outputs back where their placeholders ended up (whole strings or inside them).

    `secrets=False` for a child whose fields would be hidden whole by a secret: a Pulumi secret
    anywhere in an object's `spec` makes Pulumi hold that whole `spec` as one secret, so a secret
    service account name would hide the entire InferenceService from every review. Env values
    move into a Secret beside the workload before this (`manifests.env_secret`); any other field
    that turns out to hold a secret fails the child, naming the field, when the secret resolves
    (whether an Output is secret is only known then); `owner` names the object in that error.
    """
    if not masked.outputs:
        return value
    if isinstance(value, str):
        return _restore_text(value, masked, secrets, owner)
    if isinstance(value, Mapping):
        restored: dict[Any, Any] = {}
        for key, item in value.items():
            if isinstance(key, str) and _PLACEHOLDER.search(key):
                raise AIMValidationError(
                    masked.paths.get(_PLACEHOLDER.search(key).group(0), ""),  # type: ignore[union-attr]
                    OUTPUT_NOT_ALLOWED,
                    "a Pulumi Output cannot become a key of a Kubernetes object",
                )
            restored[key] = restore_outputs(item, masked, secrets=secrets, owner=owner)
        return restored
    if isinstance(value, list | tuple):
        return [restore_outputs(item, masked, secrets=secrets, owner=owner) for item in value]
    return value


def _not_secret(output: pulumi.Output[Any], path: str, owner: str | None) -> pulumi.Output[Any]:
    """`output`, failing with a clear error if it resolves to a Pulumi secret."""

    async def checked() -> Any:
        secret = await output.is_secret()
        if secret:
            raise reported(
                AIMValidationError(
                    path,
                    SECRET_NOT_ALLOWED,
                    f"{path} is a Pulumi secret, but only an env value can stay secret (as a secretKeyRef); "
                    "a secret here would hide the whole object from review. Pass a plain value "
                    "(pulumi.Output.unsecret if it is not sensitive), or move the value into env",
                    object_ref=owner,
                )
            )
        return _sdk.output_data(
            await output.resources(), await output.future(with_unknowns=True), await output.is_known(), False
        )

    return _sdk.output_from_data(asyncio.ensure_future(checked()))


def _restore_text(text: str, masked: MaskedArgs, secrets: bool = True, owner: str | None = None) -> Any:
    def restored(placeholder: str) -> pulumi.Output[Any]:
        output = masked.outputs[placeholder]
        return output if secrets else _not_secret(output, masked.paths.get(placeholder, ""), owner)

    if text in masked.outputs:
        return restored(text)
    pieces: list[Any] = []
    cursor = 0
    for match in _PLACEHOLDER.finditer(text):
        if match.group(0) not in masked.outputs:
            continue
        pieces.extend([text[cursor : match.start()], restored(match.group(0))])
        cursor = match.end()
    if not pieces:
        return text
    pieces.append(text[cursor:])
    return pulumi.Output.concat(*[p for p in pieces if not (isinstance(p, str) and p == "")])


def holds_output(text: str) -> bool:
    """Does a built string carry an Output's placeholder (whole or inside it)?"""
    return _PLACEHOLDER.search(text) is not None


def _mentions_placeholder(value: Any) -> bool:
    if isinstance(value, str):
        return holds_output(value)
    if isinstance(value, Mapping):
        return any(_mentions_placeholder(k) or _mentions_placeholder(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_mentions_placeholder(item) for item in value)
    return False


def redact(text: str) -> str:
    """A message fit for a log: placeholders (and so any secret) shown as `[output]`."""
    return _PLACEHOLDER.sub("[output]", text)


def _normalise(value: Any, masked: MaskedArgs) -> Any:
    """The built result with each placeholder replaced by its position, for comparison."""
    order = {placeholder: index for index, placeholder in enumerate(masked.outputs)}
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda m: f"<output {order.get(m.group(0), '?')}>", value)
    if isinstance(value, Mapping):
        return {_normalise(k, masked): _normalise(v, masked) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normalise(item, masked) for item in value]
    return value


def _explain(error: AIMError, masked: MaskedArgs) -> AIMError:
    """Turn a validation failure caused by a placeholder into the real reason: an Output is there."""
    field = error.field or ""
    # A rule about an enclosing object (`spec.profileOverrides requires spec.profile.name`) is
    # the Output's doing only when it speaks of the placeholder.
    speaks_of_it = _PLACEHOLDER.search(error.message) is not None
    for path in masked.paths.values():
        if field and (
            field == path
            or field.startswith(path + ".")
            or field.startswith(path + "[")
            or (speaks_of_it and (path.startswith(field + ".") or path.startswith(field + "[")))
        ):
            return AIMValidationError(
                path,
                OUTPUT_NOT_ALLOWED,
                f"{path} is a Pulumi Output, but this field decides what gets deployed "
                f"({error.reason} without its value); pass a plain value",
            )
    return error


def build_independent_of_outputs(
    args: Any,
    build: Callable[[Any], R],
    render: Callable[[R], Any],
) -> tuple[R, MaskedArgs]:
    """Run `build` on masked `args` and prove that no Output decided the rendered structure.

    `render` turns the build result into the plain data to compare (manifests and status). With
    no Output in `args` the build runs once.
    """
    masked = mask_outputs(args)
    try:
        result = build(masked.value)
    except AIMError as error:
        raise _explain(error, masked) from error
    if not masked.outputs:
        return result, masked
    baseline = _normalise(render(result), masked)
    for index, (_placeholder_text, path) in enumerate(masked.paths.items()):
        varied = mask_outputs(args, variants={index: _ALTERNATE})
        try:
            other = _normalise(render(build(varied.value)), varied)
        except AIMError as error:
            only = replace(varied, paths={k: v for k, v in varied.paths.items() if v == path})
            raise _explain(error, only) from error
        if other != baseline:
            raise AIMValidationError(
                path,
                OUTPUT_NOT_ALLOWED,
                f"{path} is a Pulumi Output, but its value changes what gets deployed (a name, label, "
                "path or which children exist); pass a plain value here",
            )
    return result, masked


@dataclass
class CatalogOutputs:
    """The env-value Outputs of one program run's catalog objects, under run-wide placeholders."""

    outputs: dict[str, pulumi.Output[Any]] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)

    def mask_env_values(self, args: Mapping[str, Any], owner: str) -> dict[str, Any]:
        """`args` with each `spec.env[i].value` Output swapped for a placeholder.

        Any other Output stays and is refused by the caller; `owner` names the object in the
        error a placeholder may later be blamed for.
        """
        spec = args.get("spec")
        env = spec.get("env") if isinstance(spec, Mapping) else None
        if not isinstance(env, list | tuple) or not any(
            isinstance(entry, Mapping) and is_output_like(entry.get("value")) for entry in env
        ):
            return dict(args)
        masked_env: list[Any] = []
        for index, entry in enumerate(env):
            if not isinstance(entry, Mapping) or not is_output_like(entry.get("value")):
                masked_env.append(entry)
                continue
            path = f"spec.env[{index}].value"
            if entry.get("name") == _MERGED_ENV:
                raise AIMValidationError(
                    path,
                    OUTPUT_NOT_ALLOWED,
                    f"{path} is a Pulumi Output, but {_MERGED_ENV} is deep-merged with the other "
                    "layers' engine arguments, so its value decides what gets deployed; pass a plain value",
                )
            placeholder = _placeholder(len(self.outputs), _CATALOG)
            self.outputs[placeholder] = pulumi.Output.from_input(entry["value"])
            self.paths[placeholder] = f"{owner} {path}"
            masked_env.append({**entry, "value": placeholder})
        return {**args, "spec": {**spec, "env": masked_env}}  # type: ignore[dict-item]

    def restore(self, value: Any) -> Any:
        """`value` with the catalog's placeholders put back as Outputs; `value` itself if it has none."""
        if not self.outputs or not _mentions_placeholder(value):
            return value
        return restore_outputs(value, MaskedArgs(value=None, outputs=self.outputs, paths=self.paths))

    def joined(self, masked: MaskedArgs) -> MaskedArgs:
        """`masked` that also restores the catalog's Outputs (a service's children carry both)."""
        if not self.outputs:
            return masked
        return MaskedArgs(
            value=masked.value,
            outputs={**self.outputs, **masked.outputs},
            paths={**self.paths, **masked.paths},
        )
