"""Shared model configuration, object metadata, the kind base class, and pydantic error conversion.

Every AIM model is strict (YAML `"2"` is not the integer 2, as on the API server), camelCase on the
wire and snake_case in Python, and rejects unknown keys. Nulls are dropped before validation so a
`null` in YAML means "not set", which keeps `to_manifest` free of invented keys.
"""

from __future__ import annotations

import difflib
import re
import types
import typing
import uuid
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from aim_pulumi.api.admission import Problems, problem
from aim_pulumi.api.errors import AIMValidationError, join_path
from aim_pulumi.schemas.metadata import is_dns1123_label, is_dns1123_subdomain
from aim_pulumi.schemas.seed_overlays import Relaxations

AIM_GROUP = "aim.eai.amd.com"
Scope = Literal["Namespace", "Cluster"]

# Validation context key: build the object but leave cross-field admission to the caller, so that
# `admission_problems` can report every problem instead of the first.
SKIP_ADMISSION = "aim_skip_admission"


class AIMBase(BaseModel):
    """Base of every AIM model: camelCase aliases, strict types, unknown keys rejected."""

    # The fields' docstrings document the generated types and reference; the generator reads them
    # from the source. pydantic's `use_attribute_docstrings` would read every model's source in every
    # program run, for descriptions nothing at run time shows.
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        strict=True,
        protected_namespaces=(),
    )

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise errors_from_validation(exc, type(self))[0] from None

    # Python construction reports AIMValidationError, for a kind and for any part of one (an
    # `EnvVar` built on its own included). `model_validate` (used by `parse`) must keep pydantic's
    # error list and validation context, so pydantic is told this is the plain __init__ and does
    # not route validation through it.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            cleaned = {k: v for k, v in data.items() if v is not None}
            return cls._normalise_input(cleaned)
        return data

    @classmethod
    def _normalise_input(cls, data: dict[Any, Any]) -> dict[Any, Any]:
        """Rewrite accepted input aliases to the canonical spelling; models override this."""
        return data


class AIMStatusBase(AIMBase):
    """Status written by a controller may carry fields this project does not model."""

    model_config = ConfigDict(extra="allow")


def rename_alias(data: dict[Any, Any], legacy: str, canonical: str) -> dict[Any, Any]:
    """Move `legacy` to `canonical`; both present with different values is an error."""
    if legacy not in data:
        return data
    out = dict(data)
    value = out.pop(legacy)
    if canonical in out and out[canonical] != value:
        raise AIMValidationError(
            legacy, "InvalidSpec", f"`{legacy}` is an alias of `{canonical}`; set only one of them"
        )
    out[canonical] = value
    return out


class ObjectMeta(AIMBase):
    """The part of Kubernetes metadata AIM objects carry, plus server fields seen in `kubectl get`."""

    name: str
    namespace: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)
    uid: str | None = None
    resource_version: str | None = None
    generation: int | None = None
    creation_timestamp: str | None = None
    deletion_timestamp: str | None = None
    finalizers: list[str] = Field(default_factory=list)
    owner_references: list[dict[str, Any]] = Field(default_factory=list)
    managed_fields: list[dict[str, Any]] = Field(default_factory=list)


class AIMKind(AIMBase):
    """Base of the nine kinds: metadata, served versions, scope, UID and admission on construction."""

    KIND: ClassVar[str]
    SCOPE: ClassVar[Scope]
    SERVED_VERSIONS: ClassVar[tuple[str, ...]]
    #: Where the seeds win over this class's CRD beyond the core's relaxations
    #: (`aim_pulumi.schemas.seed_overlays`): a version's folder relaxes the schemas of its own kinds.
    SCHEMA_RELAXATIONS: ClassVar[Relaxations] = ()

    api_version: str
    metadata: ObjectMeta

    @classmethod
    def reader_for(cls, manifest: Mapping[str, Any]) -> type[AIMKind]:
        """The class that reads `manifest`: this one, unless a class that extends a kind with a
        version's fields leaves the manifests that use none of them to the class it extends."""
        return cls

    @model_validator(mode="before")
    @classmethod
    def _bounded(cls, data: Any) -> Any:
        """Depth, text and integer bounds first, so no later rule meets a value it cannot handle."""
        from aim_pulumi.api.limits import value_problem

        problem = value_problem(data)
        if problem is not None:
            raise problem
        return data

    @field_validator("api_version")
    @classmethod
    def _served(cls, value: str) -> str:
        served = [f"{AIM_GROUP}/{v}" for v in cls.SERVED_VERSIONS]
        if value not in served:
            raise AIMValidationError(
                "",
                "UnsupportedVersion",
                f"{cls.KIND} is not served at {value!r}; served: {', '.join(served)}",
            )
        return value

    @model_validator(mode="after")
    def _admit(self, info: ValidationInfo) -> Self:
        if self.SCOPE == "Namespace" and self.metadata.namespace is None:
            meta = self.metadata.model_copy()
            meta.__dict__["namespace"] = "default"
            self.__dict__["metadata"] = meta
        if info.context and info.context.get(SKIP_ADMISSION):
            return self
        problems = self.admission_problems()
        if problems:
            raise problems[0]
        return self

    def admission_problems(self) -> list[AIMValidationError]:
        """Every admission rule this object breaks, in rule order (empty when admitted).

        The AIM CRD (schema and CEL) comes first, as on the API server; the project's own rules follow
        (`aim_pulumi.api.crd.merge_problems` says how the two are combined).
        """
        from aim_pulumi.api.crd import crd_problems, merge_problems

        return merge_problems(crd_problems(to_manifest(self), self.SCHEMA_RELAXATIONS), self.own_rules())

    def own_rules(self) -> list[AIMValidationError]:
        """The project's own rules (names, cross-field rules), in rule order; kinds add theirs."""
        return metadata_rules(self)

    @property
    def scope(self) -> Scope:
        return self.SCOPE

    @property
    def effective_uid(self) -> str:
        """The API server UID when adopting an existing object, else a stable name-derived UID."""
        if self.metadata.uid:
            return self.metadata.uid
        namespace = self.metadata.namespace or ""
        return str(
            uuid.uuid5(uuid.NAMESPACE_URL, f"{AIM_GROUP}/{self.KIND}/{namespace}/{self.metadata.name}")
        )

    @property
    def object_ref(self) -> str:
        return object_ref(
            self.KIND, self.metadata.namespace if self.SCOPE == "Namespace" else None, self.metadata.name
        )


def to_manifest(obj: AIMKind) -> dict[str, Any]:
    """The CRD-shaped camelCase manifest of an object, holding only the fields that were set."""
    body = obj.model_dump(by_alias=True, exclude_unset=True)
    out: dict[str, Any] = {
        "apiVersion": obj.api_version,
        "kind": obj.kind if hasattr(obj, "kind") else obj.KIND,
    }
    out["metadata"] = body.get("metadata") or {"name": obj.metadata.name}
    for key in ("spec", "status"):
        if key in body:
            out[key] = body[key]
    return out


def object_ref(kind: str, namespace: str | None, name: str) -> str:
    """`Kind/namespace/name` for namespaced objects, `Kind/name` for cluster ones."""
    return f"{kind}/{namespace}/{name}" if namespace is not None else f"{kind}/{name}"


# ---------------------------------------------------------------------------------------------
# pydantic errors -> AIMValidationError


def _unwrap(tp: Any) -> Any:
    """Strip Optional/Annotated so the model (or container) behind a field annotation shows."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) == 1:
                tp = args[0]
                continue
        return tp


def _field_by_key(model: type[BaseModel], key: object) -> Any:
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            return info.annotation
    return None


def _camel_loc(root: type[BaseModel], loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Spell every field of a location by its camelCase alias, even when the input used snake_case."""
    out: list[int | str] = []
    tp: Any = root
    for item in loc:
        if item == "[key]":  # pydantic's marker for "the key itself is wrong": the path ends at the key
            continue
        tp = _unwrap(tp) if tp is not None else None
        origin = typing.get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            found = next(((n, i) for n, i in tp.model_fields.items() if item in (n, i.alias)), None)
            if found is None:
                out.append(str(item))  # a mapping key, even when YAML read it as a number
                tp = None
                continue
            out.append(found[1].alias or found[0])
            tp = found[1].annotation
            continue
        if origin is list and isinstance(item, int):
            tp = typing.get_args(tp)[0]
            out.append(item)
            continue
        out.append(str(item) if origin is dict else item)
        tp = typing.get_args(tp)[1] if origin is dict else None
    return tuple(out)


def _model_at(root: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """Follow a pydantic error location through the model classes to the model it points into."""
    tp: Any = root
    for item in loc:
        tp = _unwrap(tp)
        origin = typing.get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            tp = _field_by_key(tp, item)
        elif origin is list and isinstance(item, int):
            tp = typing.get_args(tp)[0]
        elif origin is dict:
            tp = typing.get_args(tp)[1]
        else:
            return None
        if tp is None:
            return None
    tp = _unwrap(tp)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _known_keys(model: type[BaseModel]) -> list[str]:
    return sorted(info.alias or name for name, info in model.model_fields.items())


# Fields that may hold credentials (env values, S3 keys, tokens): an error names the field and the
# rule, never the value, since error lines end up in CI logs. `validate` and `explain` share this.
_CREDENTIAL_WORDS = ("token", "secret", "password", "credential", "accesskey", "apikey")


def _credential_word(part: str) -> bool:
    folded = re.sub(r"[^a-z0-9]", "", part.lower())
    return any(word in folded for word in _CREDENTIAL_WORDS)


def names_a_credential(name: str) -> bool:
    """Whether a field or env name says it holds a credential (`HF_TOKEN`, `API_KEY`, `DB_PASSWORD`).

    The one list of such words: `validate` and `explain` hide the values of these names, and the
    no-plain-credential guardrail (`aim_pulumi/policy/guardrails.py`) refuses them as plain values.
    """
    return _credential_word(name)


def may_hold_credentials(loc: tuple[int | str, ...]) -> bool:
    """Whether a field path lies in a place that may hold credentials.

    An env entry known by its name (`env.HF_TOKEN.value`, `engineEnv.API_KEY`) is judged by that
    name, so `explain` can still show `AIM_MODEL_ID`; one known only by its position
    (`env[0].value`, what a schema error gives) may be anything, so it is never shown.
    """
    for index, part in enumerate(loc):
        if not isinstance(part, str):
            continue
        if _credential_word(part):
            return True
        if part.lower().endswith("env"):
            following = loc[index + 1] if index + 1 < len(loc) else None
            if not isinstance(following, str):
                return True
    return False


def _shown(value: Any, loc: tuple[int | str, ...]) -> str:
    return (
        "value not shown: the field may hold credentials"
        if may_hold_credentials(loc)
        else f"got {_short(value)}"
    )


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def errors_from_validation(exc: ValidationError, root: type[BaseModel]) -> list[AIMValidationError]:
    """Turn every pydantic error into an AIMValidationError with a camelCase dotted path."""
    out: list[AIMValidationError] = []
    for err in exc.errors():
        raw = tuple(err.get("loc", ()))
        loc = _camel_loc(root, raw)
        etype = err.get("type", "")
        if etype == "extra_forbidden" and raw:
            loc = (*loc[:-1], str(raw[-1]))  # the unknown key exactly as written
        ctx = err.get("ctx") or {}
        original = ctx.get("error")
        if isinstance(original, AIMValidationError):
            placed = original.under(*loc)
            placed.field = placed.field or "(root)"
            out.append(placed)
            continue
        field = join_path(*loc) or "(root)"
        if etype == "extra_forbidden":
            parent = _model_at(root, loc[:-1])
            key = str(loc[-1]) if loc else ""
            message = f"unknown field `{field}`"
            if parent is not None:
                known = _known_keys(parent)
                # A snake_case key is the Python attribute name of a field; point at its wire name.
                close = [to_camel(key)] if to_camel(key) in known else []
                close = close or difflib.get_close_matches(key, known, n=1, cutoff=0.6)
                if close:
                    message += f"; did you mean `{join_path(*loc[:-1], close[0])}`?"
                else:
                    message += f"; known fields here: {', '.join(known)}"
            out.append(AIMValidationError(field, "UnknownField", message))
            continue
        if etype == "missing":
            out.append(AIMValidationError(field, "InvalidSpec", f"`{field}` is required"))
            continue
        message = str(err.get("msg", "invalid value"))
        if "input" in err and etype not in ("model_type", "model_attributes_type"):
            message += f" ({_shown(err['input'], loc)})"
        elif etype in ("model_type", "model_attributes_type"):
            message = f"expected a mapping ({_shown(err.get('input'), loc)})"
        out.append(AIMValidationError(field, "InvalidSpec", message))
    if not out:
        out.append(AIMValidationError("(root)", "InvalidSpec", str(exc)))
    return out


# --- admission rules every kind shares (behaviour §2) --------------------------------------------


# KServe names the predictor host `<isvc>-predictor-<namespace>` within 63 characters; the
# InferenceService name keeps at least 10 characters after `-predictor-` and the namespace.
_ISVC_HOST_BUDGET = 63 - 11
_MIN_ISVC_NAME = 10


def metadata_rules(obj: AIMKind) -> Problems:
    """A23 (Kubernetes names), cluster kinds carry no namespace, A22 for services, label syntax."""
    out: Problems = [*_label_rules(obj), *_service_name_rules(obj)]
    name = obj.metadata.name
    if not is_dns1123_subdomain(name):
        out.append(
            problem(
                "metadata.name",
                f"{name!r} is not a DNS-1123 subdomain (lowercase alphanumerics, '-' and '.', "
                "starting and ending alphanumeric, at most 253 characters)",
            )
        )
    namespace = obj.metadata.namespace
    if obj.SCOPE == "Cluster":
        if namespace is not None:
            out.append(problem("metadata.namespace", f"{obj.KIND} is cluster-scoped and has no namespace"))
        return out
    if namespace is not None and not is_dns1123_label(namespace):
        out.append(
            problem(
                "metadata.namespace",
                f"{namespace!r} is not a DNS-1123 label (lowercase alphanumerics and '-', "
                "starting and ending alphanumeric, at most 63 characters)",
            )
        )
    elif obj.KIND == "AIMService" and namespace is not None:
        room = _ISVC_HOST_BUDGET - len(namespace)
        if room < _MIN_ISVC_NAME:
            out.append(
                problem(
                    "metadata.namespace",
                    f"namespace {namespace!r} leaves {room} characters for the InferenceService name "
                    f"(at least {_MIN_ISVC_NAME} needed for the `<isvc>-predictor-<namespace>` host); "
                    f"use a namespace of at most {_ISVC_HOST_BUDGET - _MIN_ISVC_NAME} characters",
                    "NameTooLong",
                )
            )
    return out


def _label_rules(obj: AIMKind) -> Problems:
    """Labels and annotation keys as the API server checks them: labels propagate to children.

    A label the API server would refuse on a child would fail half-way through a deployment; it
    is refused here, with the AIM field that holds it.
    """
    from aim_pulumi.api.limits import UNRESOLVED_VALUE
    from aim_pulumi.schemas.metadata import label_value_errors, qualified_name_errors

    out: Problems = []
    for key, value in obj.metadata.labels.items():
        for message in qualified_name_errors(key):
            out.append(problem(f"metadata.labels.{key}", f"label key {key!r}: {message}"))
        if UNRESOLVED_VALUE.search(value):
            continue  # known only at deploy time
        for message in label_value_errors(value):
            out.append(problem(f"metadata.labels.{key}", f"label value {value!r}: {message}"))
    for key in obj.metadata.annotations:
        for message in qualified_name_errors(key.lower()):
            out.append(problem(f"metadata.annotations.{key}", f"annotation key {key!r}: {message}"))
    return out


def _service_name_rules(obj: AIMKind) -> Problems:
    """KServe names an InferenceService by DNS-1035: it must start with a letter, and so the service."""
    name = obj.metadata.name
    if obj.KIND != "AIMService" or not name or (name[0].isascii() and name[0].isalpha()):
        return []
    return [
        problem(
            "metadata.name",
            f"{name!r} must start with a letter: the InferenceService named after it is a DNS-1035 label",
        )
    ]
