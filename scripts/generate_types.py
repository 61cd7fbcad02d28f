"""Generate the typed component inputs and the field reference from the AIM API models.

The pydantic models in `aim_pulumi/api` are the one description of what an AIM spec may hold;
admission runs on them. Hand-written TypedDicts would drift from them, so this script walks the
models and writes:

- `aim_pulumi/resources/inputs.py`: one `total=False` TypedDict per spec and nested object
  (camelCase keys as in the CRD, `Required[...]` where the model has no default), closed sets as
  `Literal` for type checkers. The Pulumi component analyzer, which infers the component
  provider's schema from these annotations, supports neither `Literal` nor unions, so the module
  gives it a second, runtime view under `if TYPE_CHECKING: ... else: ...`: closed sets become
  `str` enums (schema enums) and a Kubernetes quantity becomes a string (as pulumi-kubernetes
  types quantities). Leaves are `pulumi.Input[...]`, so a secret Output can flow into a child;
  objects, lists and maps are plain.
- `docs/reference.md`: every field of every type, with its type, default, allowed values and
  constraints, and the AIM documentation section that defines it.
- the constructor overloads of each component class (`aim_pulumi/resources/profile.py`, ...), between
  the markers in its class body: three shapes per kind, typed by the inputs above;
- the public names of `aim_pulumi/__init__.py` (what it loads lazily, names for type checkers and
  lists in `__all__`), from one list;
- `schema.json`: the component provider's package schema (what `pulumi package get-schema` prints),
  committed so a change to what other languages see shows in review.

Run `python scripts/generate_types.py` after changing a model; `--check` exits 1 when either file
is stale (the tests do the same). Generated files are written in order: inputs first, since the
schema is inferred from them.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import re
import subprocess
import sys
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aim_pulumi import api  # noqa: E402
from aim_pulumi.api import base, common, model, model_source, profile, profile_set, runtime_config, service  # noqa: E402
from aim_pulumi.resolve.catalog.extension import served_kinds  # noqa: E402
from aim_pulumi.resolve.children import scaling  # noqa: E402
from aim_pulumi.resolve.legacy import dispatch  # noqa: E402
from aim_pulumi.resolve.legacy import kinds as template  # noqa: E402  (v1alpha1 types: TemplatePrecision)
from aim_pulumi.resources import stack  # noqa: E402
from aim_pulumi.resources.registry import EXTENSION  # noqa: E402  (what a program run serves)

INPUTS_PATH = ROOT / "aim_pulumi" / "resources" / "inputs.py"
REFERENCE_PATH = ROOT / "docs" / "reference.md"
SCHEMA_PATH = ROOT / "schema.json"


def _served_spec(kind: str) -> type[BaseModel]:
    """The spec model of the class a program run serves for `kind`: AIMService's, with the v1alpha1
    folder, reads both versions, so the components type v1alpha1's fields while the folder is there."""
    spec = served_kinds(EXTENSION)[kind].model_fields["spec"].annotation
    assert isinstance(spec, type) and issubclass(spec, BaseModel), spec
    return spec


# The component kinds whose `spec` is typed, and the name of each spec type (the CRD's spec).
SPEC_ROOTS: tuple[tuple[str, type[BaseModel], tuple[str, ...]], ...] = (
    ("AIMServiceSpec", _served_spec("AIMService"), ("AIMService",)),
    ("AIMProfileSpec", profile.ProfileSpec, ("AIMProfile", "AIMClusterProfile")),
    ("AIMModelSpec", model.ModelSpec, ("AIMModel", "AIMClusterModel")),
    ("AIMProfileSetSpec", profile_set.ProfileSetSpec, ("AIMProfileSet", "AIMClusterProfileSet")),
    ("AIMRuntimeConfigSpec", runtime_config.RuntimeConfigSpec, ("AIMRuntimeConfig",)),
    ("AIMClusterRuntimeConfigSpec", runtime_config.ClusterRuntimeConfigSpec, ("AIMClusterRuntimeConfig",)),
    ("AIMClusterModelSourceSpec", model_source.ModelSourceSpec, ("AIMClusterModelSource",)),
)
# Nested models renamed where the Python class name would not say what the object is.
TYPE_NAMES: dict[type[BaseModel], str] = {
    common.RuntimeConfigBlock: "InlineRuntimeConfig",
    common.RuntimeConfigModel: "RuntimeConfigModelSettings",
}
# Closed sets the models spell inline; every other Literal takes the name of its module-level alias.
EXTRA_CLOSED_SETS: dict[str, tuple[str, ...]] = {
    "GatewayProvider": scaling.GATEWAY_PROVIDERS,
    "ReconcilerPipeline": typing.get_args(dispatch.Pipeline),
    "CatalogAs": stack.CATALOG_AS,
}
CLOSED_SET_DOCS: dict[str, str] = {
    "GatewayProvider": "Which gateway's activation metric wakes a service from zero (`none` disables it).",
    "ReconcilerPipeline": "Values of the `aim.eai.amd.com/reconciler-pipeline` annotation.",
    "CatalogAs": "How an AIMStack declares its catalog objects: a component each, or as its data.",
}

# Which AIM documentation section defines a field: (type, field) or (type, "*") for the whole type.
SEEDS = {
    "rc": "Runtime Configuration",
    "svc": "AIM Services",
    "legacy": "AIMService (v1alpha1)",
    "tpl": "Service Templates (v1alpha1)",
    "up": "Upgrading",
    "k8s": "Kubernetes API (core/v1)",
}
SEED_SECTIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("AIMServiceSpec", "model"): ("svc", "Resolution shapes"),
    ("AIMServiceSpec", "profile"): ("svc", "Resolution shapes"),
    ("AIMServiceSpec", "profileOverrides"): ("svc", "Profile overlays"),
    ("AIMServiceSpec", "template"): ("legacy", "Spec fields (v1alpha1 path)"),
    ("AIMServiceSpec", "overrides"): ("legacy", "Spec fields (v1alpha1 path)"),
    ("AIMServiceSpec", "runtimeConfigName"): ("rc", "Resolution algorithm"),
    ("AIMServiceSpec", "runtimeConfig"): ("rc", "Inline runtime config on AIMService"),
    ("AIMServiceSpec", "storage"): ("rc", "Inline runtime config on AIMService"),
    ("AIMServiceSpec", "routing"): ("svc", "Routing"),
    ("AIMServiceSpec", "scaleFromZero"): ("rc", "Scale-from-zero activation query"),
    ("AIMServiceSpec", "env"): ("rc", "Environment variable overrides"),
    ("AIMServiceSpec", "replicas"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "minReplicas"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "maxReplicas"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "autoScaling"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "resources"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "imagePullSecrets"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "serviceAccountName"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "priorityClassName"): ("svc", "Resources and replicas"),
    ("AIMServiceSpec", "caching"): ("svc", "Caching"),
    ("AIMServiceSpec", "adapters"): ("svc", "Validation"),
    ("ServiceModel", "*"): ("svc", "Resolution shapes"),
    ("ServiceProfile", "*"): ("svc", "Resolution shapes"),
    ("ProfileSelector", "*"): ("svc", "Resolution shapes"),
    ("ModelRef", "*"): ("svc", "Resolution shapes"),
    ("ProfileOverrides", "*"): ("svc", "Profile overlays"),
    ("ServiceCaching", "*"): ("svc", "Caching"),
    ("AutoScaling", "*"): ("svc", "Resources and replicas"),
    ("ServiceTemplateRef", "*"): ("legacy", "Spec fields (v1alpha1 path)"),
    ("SelectionCriteria", "*"): ("legacy", "Selection algorithm (template path)"),
    ("ServiceOverrides", "*"): ("legacy", "Spec fields (v1alpha1 path)"),
    ("Routing", "*"): ("rc", "Routing defaults"),
    ("Routing", "pathTemplate"): ("rc", "Path templates"),
    ("GatewayRef", "*"): ("rc", "Routing defaults"),
    ("Storage", "*"): ("rc", "Storage defaults"),
    ("DownloadFilter", "*"): ("rc", "Storage defaults"),
    ("ScaleFromZero", "*"): ("rc", "Scale-from-zero activation query"),
    ("LabelPropagation", "*"): ("rc", "Label propagation"),
    ("Artifact", "*"): ("rc", "Download protocol strategy"),
    ("S3Settings", "*"): ("rc", "Download protocol strategy"),
    ("InlineRuntimeConfig", "*"): ("rc", "Inline runtime config on AIMService"),
    ("AIMRuntimeConfigSpec", "*"): ("rc", "Resources"),
    ("AIMRuntimeConfigSpec", "model"): ("rc", "Model profile-generation fallbacks"),
    ("AIMClusterRuntimeConfigSpec", "*"): ("rc", "Resources"),
    ("AIMClusterRuntimeConfigSpec", "model"): ("rc", "Model profile-generation fallbacks"),
    ("RuntimeConfigModelSettings", "*"): ("rc", "Model profile-generation fallbacks"),
    ("ProfileGeneration", "*"): ("rc", "Model profile-generation fallbacks"),
    ("Fallback", "*"): ("rc", "Model profile-generation fallbacks"),
    ("Fallback", "type"): ("rc", "Optimization tier and auto-selection policy"),
    ("Fallback", "autoSelectionPolicy"): ("rc", "Optimization tier and auto-selection policy"),
    ("FallbackMatch", "*"): ("rc", "Model profile-generation fallbacks"),
    ("FallbackRuntime", "*"): ("rc", "Model profile-generation fallbacks"),
    ("AIMClusterModelSourceSpec", "*"): ("rc", "Propagation graph"),
    ("AIMClusterModelSourceSpec", "models"): ("rc", "Hardware shape"),
    ("ModelSourceFilter", "*"): ("rc", "Propagation graph"),
    ("SourceModel", "*"): ("rc", "Hardware shape"),
    ("SourceModelAccelerator", "*"): ("rc", "Hardware shape"),
    ("SourceModelLocation", "*"): ("rc", "Hardware shape"),
    ("AIMModelSpec", "accelerator"): ("rc", "Hardware shape"),
    ("AIMModelSpec", "runtimeConfigName"): ("rc", "Resources that consume runtime config"),
    ("AIMModelSpec", "modelId"): ("rc", "Model profile-generation fallbacks"),
    ("AIMModelSpec", "profiles"): ("up", "AIMModel outputs and readiness"),
    ("ModelProfiles", "*"): ("tpl", "v1alpha2 replacements at a glance"),
    ("ModelDerivedFrom", "*"): ("tpl", "v1alpha2 replacements at a glance"),
    ("ModelProfileOverrides", "*"): ("svc", "Profile overlays"),
    ("AIMProfileSetSpec", "*"): ("rc", "Propagation graph"),
    ("DerivationSelector", "*"): ("svc", "Resolution shapes"),
    ("DerivationModelRef", "*"): ("svc", "Resolution shapes"),
    ("DerivationSourceRef", "*"): ("rc", "Propagation graph"),
    ("DerivationOverrides", "*"): ("svc", "Profile overlays"),
    ("AIMModelSpec", "derivedFrom"): ("tpl", "v1alpha2 replacements at a glance"),
    ("AIMModelSpec", "profileCopy"): ("tpl", "v1alpha2 replacements at a glance"),
    ("AIMModelSpec", "custom"): ("tpl", "v1alpha2 replacements at a glance"),
    ("AIMModelSpec", "customTemplates"): ("tpl", "v1alpha2 replacements at a glance"),
    ("AIMModelSpec", "modelSources"): ("tpl", "v1alpha2 replacements at a glance"),
    ("ModelAccelerator", "*"): ("rc", "Hardware shape"),
    ("AIMProfileSpec", "type"): ("rc", "Optimization tier and auto-selection policy"),
    ("AIMProfileSpec", "autoSelectionPolicy"): ("rc", "Optimization tier and auto-selection policy"),
    ("AIMProfileSpec", "runtimeConfigName"): ("rc", "Resources that consume runtime config"),
    ("AIMProfileSpec", "caching"): ("rc", "Resources that consume runtime config"),
    ("AIMProfileSpec", "*"): ("up", "Profile YAML contract backfill"),
    ("ModelSource", "*"): ("up", "Profile YAML contract backfill"),
    ("ProfileCaching", "*"): ("rc", "Resources that consume runtime config"),
    ("AIMModelSpec", "*"): ("up", "AIMModel outputs and readiness"),
    ("ModelSourceSpec", "*"): ("rc", "Model profile-generation fallbacks"),
    ("GpuSelector", "*"): ("legacy", "Spec fields (v1alpha1 path)"),
    ("AutoScalingMetric", "*"): ("svc", "Resources and replicas"),
    ("PodMetric", "*"): ("svc", "Resources and replicas"),
    ("PodMetricSource", "*"): ("svc", "Resources and replicas"),
    ("MetricTarget", "*"): ("svc", "Resources and replicas"),
    ("S3Auth", "*"): ("rc", "Download protocol strategy"),
    ("S3Tls", "*"): ("rc", "Download protocol strategy"),
    ("CaBundleRef", "*"): ("rc", "Download protocol strategy"),
    ("CredentialsSecretRef", "*"): ("rc", "Download protocol strategy"),
    ("EnvVar", "*"): ("k8s", "EnvVar"),
    ("EnvVarSource", "*"): ("k8s", "EnvVarSource"),
    ("KeySelector", "*"): ("k8s", "SecretKeySelector / ConfigMapKeySelector"),
    ("FieldSelector", "*"): ("k8s", "ObjectFieldSelector"),
    ("ResourceFieldSelector", "*"): ("k8s", "ResourceFieldSelector"),
    ("ResourceRequirements", "*"): ("k8s", "ResourceRequirements"),
    ("LocalObjectReference", "*"): ("k8s", "LocalObjectReference"),
}


# --------------------------------------------------------------------------------------------
# The component arguments: the object's metadata, its typed spec and component-only options.


@dataclasses.dataclass(frozen=True)
class ComponentArg:
    """One argument of a component, in both spellings: `key` (camelCase) and its Python keyword."""

    key: str
    annotation: str
    """The annotation both views share (spec and closed-set types are names in this module)."""
    doc: str
    required: bool = False

    @property
    def keyword(self) -> str:
        return re.sub(r"(?<!^)(?=[A-Z])", "_", self.key).lower()


_NAME = ComponentArg("name", "str", "metadata.name; defaults to the Pulumi resource name.")
_LABELS = ComponentArg("labels", "Mapping[str, str]", "metadata.labels.")
_ANNOTATIONS = ComponentArg("annotations", "Mapping[str, str]", "metadata.annotations.")


def _namespace(doc: str) -> ComponentArg:
    return ComponentArg(
        "namespace",
        "pulumi.Input[str]",
        f"metadata.namespace (default `default`), or an Output of it.{doc}",
    )


def _spec(type_name: str, doc: str) -> ComponentArg:
    return ComponentArg("spec", type_name, doc)


_SERVICE_OPTIONS = (
    ComponentArg(
        "strict",
        "bool",
        "Turn degradations (invalid path template, missing gateway, bad activation query) into errors.",
    ),
    ComponentArg(
        "skipAwait",
        "bool",
        "Do not wait for any child to become ready (`pulumi.com/skipAwait` on every child).",
    ),
    ComponentArg(
        "waitFor",
        "str",
        "The InferenceService's `pulumi.com/waitFor` (default `condition=Ready`); empty removes it.",
    ),
    ComponentArg(
        "gatewayProvider",
        "GatewayProvider",
        "envoyGateway, kgateway, custom or none: decides the default scale-from-zero activation query.",
    ),
)
_WAIT_FOR_CACHE = ComponentArg(
    "waitForCache",
    "bool",
    "Make the InferenceService wait for its cache PVCs and download Jobs (default true).",
)

COMPONENT_ARGS: dict[str, tuple[str, tuple[ComponentArg, ...]]] = {
    "AIMService": (
        "The AIMService object (camelCase `spec` as in the CRD) plus component-only options.",
        (
            _NAME,
            _namespace(""),
            ComponentArg(
                "labels",
                "Mapping[str, str]",
                "metadata.labels; `aim.eai.amd.com/*` and matching labels propagate to the children.",
            ),
            ComponentArg(
                "annotations",
                "Mapping[str, str]",
                "metadata.annotations, e.g. `aim.eai.amd.com/force-rebind`.",
            ),
            _spec(
                "AIMServiceSpec",
                "The AIMService spec (v1alpha2, camelCase): model, profile, replicas, routing, caching, ...",
            ),
            *_SERVICE_OPTIONS,
            ComponentArg(
                "forceRebind",
                "bool",
                "Re-rank the profiles and bind the current winner, as the force-rebind annotation does.",
            ),
            _WAIT_FOR_CACHE,
        ),
    ),
    "AIMProfile": (
        "The AIMProfile object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            _NAME,
            _namespace(" The profile is visible only to services there."),
            ComponentArg(
                "labels",
                "Mapping[str, str]",
                "metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model.",
            ),
            _ANNOTATIONS,
            _spec(
                "AIMProfileSpec",
                "The AIMProfile spec (camelCase): aimId, image, accelerator*, engineArgs, modelSources, ...",
            ),
        ),
    ),
    "AIMClusterProfile": (
        "The AIMClusterProfile object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            _NAME,
            ComponentArg(
                "labels",
                "Mapping[str, str]",
                "metadata.labels, e.g. `aim.eai.amd.com/source-model` to tie the profile to a model.",
            ),
            _ANNOTATIONS,
            _spec("AIMProfileSpec", "The AIMClusterProfile spec (camelCase); `caching` is namespace-only."),
        ),
    ),
    "AIMModel": (
        "The AIMModel object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            _NAME,
            _namespace(""),
            _LABELS,
            _ANNOTATIONS,
            _spec(
                "AIMModelSpec",
                "The AIMModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, "
                "accelerator, source, ...",
            ),
        ),
    ),
    "AIMClusterModel": (
        "The AIMClusterModel object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            _NAME,
            _LABELS,
            _ANNOTATIONS,
            _spec(
                "AIMModelSpec",
                "The AIMClusterModel spec (camelCase): exactly one of `image`, `modelId` or `profiles`, ...",
            ),
        ),
    ),
    "AIMProfileSet": (
        "The AIMProfileSet object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            _NAME,
            _namespace(
                " Its sources are that namespace's profiles (then the cluster's); its profiles live there."
            ),
            ComponentArg(
                "labels",
                "Mapping[str, str]",
                "metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles.",
            ),
            _ANNOTATIONS,
            _spec(
                "AIMProfileSetSpec",
                "The AIMProfileSet spec (camelCase): selector or sourceRef, versionPolicy, version, "
                "image, overrides, ...",
            ),
        ),
    ),
    "AIMClusterProfileSet": (
        "The AIMClusterProfileSet object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            _NAME,
            ComponentArg(
                "labels",
                "Mapping[str, str]",
                "metadata.labels; its `aim.eai.amd.com/*` labels are propagated to the derived profiles.",
            ),
            _ANNOTATIONS,
            _spec(
                "AIMProfileSetSpec",
                "The AIMClusterProfileSet spec (camelCase); it derives AIMClusterProfiles from cluster "
                "profiles and has no `acceleratorVendor`.",
            ),
        ),
    ),
    "AIMClusterModelSource": (
        "The AIMClusterModelSource object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            _NAME,
            _LABELS,
            _ANNOTATIONS,
            _spec(
                "AIMClusterModelSourceSpec",
                "The model source spec (camelCase): registry, filters or images, versions, maxModels, "
                "models.",
            ),
        ),
    ),
    "AIMRuntimeConfig": (
        "The AIMRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            ComponentArg(
                "name",
                "str",
                "metadata.name; defaults to the Pulumi resource name (`default` is what services use).",
            ),
            _namespace(" Applies only to consumers in that namespace."),
            _LABELS,
            _ANNOTATIONS,
            _spec(
                "AIMRuntimeConfigSpec",
                "The runtime config spec (camelCase): storage, routing, scaleFromZero, env, "
                "labelPropagation, ...",
            ),
        ),
    ),
    "AIMClusterRuntimeConfig": (
        "The AIMClusterRuntimeConfig object: camelCase `spec` as in the CRD, plus its metadata.",
        (
            ComponentArg(
                "name",
                "str",
                "metadata.name; defaults to the Pulumi resource name (`default` replaces the embedded "
                "default).",
            ),
            _LABELS,
            _ANNOTATIONS,
            _spec(
                "AIMClusterRuntimeConfigSpec",
                "The runtime config spec (camelCase), including model.profileGeneration.fallbacks.",
            ),
        ),
    ),
    "AIMStack": (
        "Where the AIM manifests are, and options applied to every service in them.",
        (
            ComponentArg(
                "path",
                "str",
                "A YAML file or directory (`*.yaml`, `*.yml`, multi-document) of AIM and Kubernetes objects.",
            ),
            ComponentArg("strict", "bool", "Turn every service's degradations into errors."),
            ComponentArg("skipAwait", "bool", "Wait for no child of any service to become ready."),
            ComponentArg(
                "waitFor",
                "str",
                "`pulumi.com/waitFor` for every InferenceService (default `condition=Ready`); "
                "empty removes it.",
            ),
            ComponentArg(
                "gatewayProvider",
                "GatewayProvider",
                "envoyGateway, kgateway, custom or none, for every service.",
            ),
            ComponentArg(
                "waitForCache", "bool", "Make InferenceServices wait for their caches (default true)."
            ),
            ComponentArg(
                "catalogAs",
                "CatalogAs",
                "`components` (default): every profile, model and runtime config is a component of its "
                "own. `data`: they are data of the stack, their statuses its `catalog` output (one "
                "resource instead of one per object, for a large catalog).",
            ),
        ),
    ),
}
"""What each component takes besides its spec types. `<Kind>ArgsDict` (camelCase keys) is what the
component provider's schema is inferred from; `<Kind>Args` (an `@pulumi.input_type` class) and
`<Kind>Kwargs` (the keyword form) take the same arguments as snake_case keywords."""


# --------------------------------------------------------------------------------------------
# The model graph


@dataclasses.dataclass(frozen=True)
class ClosedSet:
    name: str
    values: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class FieldType:
    """A field's type as both views need it: `kind` is scalar/quantity/any/enum/model/list/map."""

    kind: str
    scalar: str = ""
    closed: ClosedSet | None = None
    model: type[BaseModel] | None = None
    item: FieldType | None = None


@dataclasses.dataclass(frozen=True)
class Field:
    key: str
    type: FieldType
    required: bool
    default: str
    doc: str
    constraints: str


def _literal_names() -> dict[tuple[str, ...], str]:
    names: dict[tuple[str, ...], str] = {}
    for module in (common, service, profile, profile_set, model, template, runtime_config, base):
        for attr, value in vars(module).items():
            if typing.get_origin(value) is Literal:
                names.setdefault(tuple(typing.get_args(value)), attr)
    return names


LITERAL_NAMES = _literal_names()


def type_name(cls: type[BaseModel]) -> str:
    for name, root, _ in SPEC_ROOTS:
        if cls is root:
            return name
    return TYPE_NAMES.get(cls, cls.__name__)


def _constraints(metadata: list[Any]) -> list[str]:
    out: list[str] = []
    for item in metadata:
        for attr, label in (
            ("ge", ">= {}"),
            ("gt", "> {}"),
            ("le", "<= {}"),
            ("min_length", "min length {}"),
            ("max_length", "max length {}"),
            ("pattern", "pattern `{}`"),
        ):
            value = getattr(item, attr, None)
            if value is not None:
                out.append(label.format(value))
        inner = getattr(item, "metadata", None)
        if isinstance(inner, list):
            out.extend(_constraints(inner))
    return out


def _field_type(annotation: Any, owner: str, key: str, notes: list[str]) -> FieldType:
    if annotation is common.Quantity:
        return FieldType("quantity")
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(annotation)
        notes.extend(_constraints(metadata))
        return _field_type(inner, owner, key, notes)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) != 1:
            raise TypeError(f"{owner}.{key}: unions other than Optional are not generated ({annotation})")
        return _field_type(args[0], owner, key, notes)
    if origin is Literal:
        values = tuple(str(v) for v in typing.get_args(annotation))
        name = LITERAL_NAMES.get(values) or f"{owner}{key[0].upper()}{key[1:]}"
        return FieldType("enum", closed=ClosedSet(name, values))
    if origin is list:
        (item,) = typing.get_args(annotation)
        return FieldType("list", item=_field_type(item, owner, key, notes))
    if origin is dict:
        key_type, value = typing.get_args(annotation)
        assert key_type is str, f"{owner}.{key}: map keys must be strings"
        return FieldType("map", item=_field_type(value, owner, key, notes))
    if annotation is Any:
        return FieldType("any")
    if annotation in (str, int, float, bool):
        return FieldType("scalar", scalar=annotation.__name__)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return FieldType("model", model=annotation)
    raise TypeError(f"{owner}.{key}: no generated type for {annotation!r}")


def _default(info: FieldInfo) -> str:
    if info.default_factory is not None:
        value = info.default_factory()  # type: ignore[call-arg]
        return "" if value in ({}, []) else repr(value)
    if info.default is PydanticUndefined or info.default is None:
        return ""
    return repr(info.default).replace("'", '"')


def fields_of(cls: type[BaseModel]) -> list[Field]:
    owner = type_name(cls)
    out: list[Field] = []
    for name, info in cls.model_fields.items():
        notes: list[str] = _constraints(info.metadata)
        key = info.alias or name
        field_type = _field_type(info.annotation, owner, key, notes)
        out.append(
            Field(
                key=key,
                type=field_type,
                required=info.is_required(),
                default=_default(info),
                doc=" ".join((info.description or _attribute_docs(cls).get(name, "")).split()),
                constraints="; ".join(dict.fromkeys(notes)),
            )
        )
    return out


def _walk(field_type: FieldType) -> Iterator[FieldType]:
    yield field_type
    if field_type.item is not None:
        yield from _walk(field_type.item)


def ordered_models() -> list[type[BaseModel]]:
    """Every model reachable from a spec root, each after the models it uses (no forward refs)."""
    seen: list[type[BaseModel]] = []

    def visit(cls: type[BaseModel]) -> None:
        if cls in seen:
            return
        for field in fields_of(cls):
            for part in _walk(field.type):
                if part.model is not None:
                    visit(part.model)
        seen.append(cls)

    for _, root, _ in SPEC_ROOTS:
        visit(root)
    names = [type_name(cls) for cls in seen]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise TypeError(f"two models would share a generated name: {sorted(duplicates)}")
    return seen


def closed_sets(models: list[type[BaseModel]]) -> list[ClosedSet]:
    found: dict[str, ClosedSet] = {}
    for cls in models:
        for field in fields_of(cls):
            for part in _walk(field.type):
                if part.closed is not None:
                    existing = found.setdefault(part.closed.name, part.closed)
                    if existing.values != part.closed.values:
                        raise TypeError(f"closed set {part.closed.name} has two value lists")
    for name, values in EXTRA_CLOSED_SETS.items():
        found.setdefault(name, ClosedSet(name, tuple(values)))
    return [found[name] for name in sorted(found)]


def _class_doc(cls: type[BaseModel]) -> str:
    doc = cls.__dict__.get("__doc__") or ""
    return " ".join(doc.split())


# --------------------------------------------------------------------------------------------
# inputs.py


def _annotation(field_type: FieldType) -> str:
    """The annotation of a value (without Input): both views share it through the aliases."""
    if field_type.kind == "scalar":
        return field_type.scalar
    if field_type.kind == "quantity":
        return "Quantity"
    if field_type.kind == "any":
        return "Any"
    if field_type.kind == "enum":
        assert field_type.closed is not None
        return field_type.closed.name
    if field_type.kind == "model":
        assert field_type.model is not None
        return type_name(field_type.model)
    assert field_type.item is not None
    inner = _input(field_type.item)
    return f"Sequence[{inner}]" if field_type.kind == "list" else f"Mapping[str, {inner}]"


def _input(field_type: FieldType) -> str:
    """Leaves may be Outputs (a secret env value); objects, lists and maps may not.

    An Output in place of an object or a list would decide the shape of what gets deployed,
    which the components reject; keeping containers plain also lets a type checker name the
    misspelt key inside a nested object instead of reporting the whole object as incompatible.
    """
    if field_type.kind in ("any", "model", "list", "map"):
        return _annotation(field_type)
    return f"pulumi.Input[{_annotation(field_type)}]"


def _docstring(text: str, indent: str) -> list[str]:
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    line = f'{indent}"""{text}"""'
    if len(line) <= 110:
        return [line]
    words = text.split()
    lines = [f'{indent}"""']
    current = indent
    for word in words:
        if len(current) + len(word) + 1 > 110 and current.strip():
            lines.append(current.rstrip())
            current = indent
        current += word + " "
    lines.append(current.rstrip())
    lines.append(f'{indent}"""')
    return lines


def _enum_member(value: str) -> str:
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", value)
    name = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper()
    return name if not name[:1].isdigit() else f"V_{name}"


def render_inputs() -> str:
    models = ordered_models()
    sets = closed_sets(models)
    out: list[str] = [
        '"""Typed inputs of the AIM components, generated from the API models: do not edit.',
        "",
        "Every `spec` and nested object is a TypedDict; each component's arguments come three ways, as",
        "in Pulumi's generated SDKs: `<Kind>ArgsDict` (camelCase keys, what the component provider's",
        "schema is inferred from), the `@pulumi.input_type` class `<Kind>Args` and `<Kind>Kwargs`",
        "(the same arguments as snake_case keywords).",
        "",
        "Regenerate with `python scripts/generate_types.py`. Type checkers see closed sets as `Literal`",
        "and a quantity as `str | int | float`; at run time (what the component provider's schema is",
        "inferred from) they are `StrEnum`s and `str`, because the schema has no unions.",
        '"""',
        "",
        "from collections.abc import Mapping, Sequence",
        "from enum import StrEnum",
        "from typing import TYPE_CHECKING, Any, Literal, Required, TypeAlias, TypedDict",
        "",
        "import pulumi",
        "",
        "if TYPE_CHECKING:",
        "    Quantity: TypeAlias = str | int | float",
    ]
    for closed in sets:
        values = ", ".join(f'"{v}"' for v in closed.values)
        out.append(f"    {closed.name}: TypeAlias = Literal[{values}]")
    out += ["else:", "    Quantity = str", ""]
    for closed in sets:
        out.append(f"    class {closed.name}(StrEnum):")
        out += _docstring(CLOSED_SET_DOCS.get(closed.name, f"Allowed values of {closed.name}."), "        ")
        out.append("")
        for value in closed.values:
            out.append(f'        {_enum_member(value)} = "{value}"')
        out.append("")
    out.append("")
    exported: list[str] = ["Quantity", *(c.name for c in sets)]
    for cls in models:
        name = type_name(cls)
        exported.append(name)
        out.append(f"class {name}(TypedDict, total=False):")
        roots = {root: kinds for _, root, kinds in SPEC_ROOTS}
        if cls in roots:
            out += _docstring(f"The `spec` of {' and '.join(roots[cls])} (camelCase, as in the CRD).", "    ")
            out.append("")
        elif _class_doc(cls):
            out += _docstring(_class_doc(cls), "    ")
            out.append("")
        for field in fields_of(cls):
            annotation = _input(field.type)
            if field.required:
                annotation = f"Required[{annotation}]"
            out.append(f"    {field.key}: {annotation}")
            doc = " ".join(filter(None, (field.doc, f"Default {field.default}." if field.default else "")))
            if doc:
                out += _docstring(doc, "    ")
        out += ["", ""]
    aliases = [type_name(cls) for cls in models]
    out.append("# The Python names Pulumi's generated SDKs give these types.")
    for name in aliases:
        out.append(f"{name}ArgsDict = {name}")
        exported.append(f"{name}ArgsDict")
    out += ["", ""]
    for kind, (doc, args) in COMPONENT_ARGS.items():
        out += _component_args(kind, doc, args)
        exported += [f"{kind}ArgsDict", f"{kind}Kwargs", f"{kind}Args"]
    out += ["", "__all__ = ["]
    out += [f'    "{name}",' for name in sorted(exported)]
    out += ["]", ""]
    return "\n".join(out)


def _component_args(kind: str, doc: str, args: tuple[ComponentArg, ...]) -> list[str]:
    """`<Kind>ArgsDict` (camelCase keys), `<Kind>Kwargs` (snake_case) and the `<Kind>Args` input type."""
    out = [f"class {kind}ArgsDict(TypedDict, total=False):"]
    out += _docstring(doc, "    ")
    out.append("")
    for arg in args:
        out.append(f"    {arg.key}: {f'Required[{arg.annotation}]' if arg.required else arg.annotation}")
        out += _docstring(arg.doc, "    ")
    out += ["", ""]
    out.append(f"class {kind}Kwargs(TypedDict, total=False):")
    out += _docstring(
        f"The keyword arguments of `{kind}(resource_name, ..., opts=...)`: {kind}Args, by keyword.", "    "
    )
    out.append("")
    for arg in args:
        out.append(f"    {arg.keyword}: {f'Required[{arg.annotation}]' if arg.required else arg.annotation}")
        out += _docstring(arg.doc, "    ")
    out += ["", ""]
    out += ["@pulumi.input_type", f"class {kind}Args:"]
    out += _docstring(f"{doc} Keyword arguments in snake_case.", "    ")
    out += ["", "    def __init__(", "        self,", "        *,"]
    ordered = sorted(args, key=lambda a: not a.required)
    for arg in ordered:
        if arg.required:
            out.append(f"        {arg.keyword}: {arg.annotation},")
        else:
            out.append(f"        {arg.keyword}: {arg.annotation} | None = None,")
    out += ["    ) -> None:"]
    for arg in ordered:
        if arg.required:
            out.append(f'        pulumi.set(self, "{arg.keyword}", {arg.keyword})')
        else:
            out.append(f"        if {arg.keyword} is not None:")
            out.append(f'            pulumi.set(self, "{arg.keyword}", {arg.keyword})')
    for arg in args:
        value = arg.annotation if arg.required else f"{arg.annotation} | None"
        getter = "@pulumi.getter" if arg.keyword == arg.key else f'@pulumi.getter(name="{arg.key}")'
        out += ["", "    @property", f"    {getter}", f"    def {arg.keyword}(self) -> {value}:"]
        out += _docstring(arg.doc, "        ")
        out.append(f'        return pulumi.get(self, "{arg.keyword}")  # type: ignore[no-any-return]')
        out += [
            "",
            f"    @{arg.keyword}.setter",
            f"    def {arg.keyword}(self, value: {value}) -> None:",
            f'        pulumi.set(self, "{arg.keyword}", value)',
        ]
    out += ["", ""]
    return out


# --------------------------------------------------------------------------------------------
# docs/reference.md


def _anchor(name: str) -> str:
    return name.lower()


def _reference_type(field_type: FieldType) -> str:
    if field_type.kind == "scalar":
        return {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}[field_type.scalar]
    if field_type.kind == "quantity":
        return "quantity (string or number)"
    if field_type.kind == "any":
        return "any"
    if field_type.kind == "enum":
        return "string"
    if field_type.kind == "model":
        assert field_type.model is not None
        name = type_name(field_type.model)
        return f"[{name}](#{_anchor(name)})"
    assert field_type.item is not None
    inner = _reference_type(field_type.item)
    return f"list of {inner}" if field_type.kind == "list" else f"map of {inner}"


def _allowed(field: Field) -> str:
    parts: list[str] = []
    for part in _walk(field.type):
        if part.closed is not None:
            parts.append(", ".join(f"`{v}`" for v in part.closed.values))
    if field.constraints:
        parts.append(field.constraints)
    return "; ".join(parts)


def seed_section(owner: str, key: str) -> str:
    ref = SEED_SECTIONS.get((owner, key)) or SEED_SECTIONS.get((owner, "*"))
    if ref is None:
        return ""
    return f"{SEEDS[ref[0]]} / {ref[1]}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_reference() -> str:
    models = ordered_models()
    users: dict[str, list[str]] = {}
    for cls in models:
        for field in fields_of(cls):
            for part in _walk(field.type):
                if part.model is not None:
                    users.setdefault(type_name(part.model), []).append(type_name(cls))
    out = [
        "# Field reference",
        "",
        "Generated from the API models by `python scripts/generate_types.py`; do not edit.",
        "Every component's `spec` takes these fields (camelCase, as in the AIM CRDs). In Python they are",
        "the TypedDicts of `aim_pulumi.resources.inputs` (`AIMServiceSpecArgsDict`, ...); in the",
        "component provider's schema, the types `aim:index:<Name>`.",
        "",
        "Each component's own arguments (metadata, options) and its outputs follow the spec types:",
        "[Component arguments](#component-arguments), [Outputs](#outputs).",
        "",
        "**Defined in** names the section of the AIM documentation (or the Kubernetes API, for the",
        "Kubernetes types a spec embeds) that gives the field its meaning:",
        ", ".join(f"*{title}*" for title in SEEDS.values()) + ".",
        "",
        "| component | spec type |",
        "|---|---|",
    ]
    for name, _, kinds in SPEC_ROOTS:
        for kind in kinds:
            out.append(f"| `{kind}` | [{name}](#{_anchor(name)}) |")
    out.append("")
    roots = [r for r, _, _ in SPEC_ROOTS]

    def order(cls: type[BaseModel]) -> tuple[int, str]:
        name = type_name(cls)
        return (roots.index(name), "") if name in roots else (len(roots), name)

    for cls in sorted(models, key=order):
        name = type_name(cls)
        out += [f"## {name}", ""]
        doc = _class_doc(cls)
        if doc:
            out += [doc, ""]
        used = sorted(set(users.get(name, [])))
        if used:
            out += ["Used in " + ", ".join(f"[{u}](#{_anchor(u)})" for u in used) + ".", ""]
        out += [
            "| field | type | required | default | allowed values | description | defined in |",
            "|---|---|---|---|---|---|---|",
        ]
        for field in fields_of(cls):
            out.append(
                "| "
                + " | ".join(
                    _cell(cell)
                    for cell in (
                        f"`{field.key}`",
                        _reference_type(field.type),
                        "yes" if field.required else "",
                        f"`{field.default}`" if field.default else "",
                        _allowed(field),
                        field.doc,
                        seed_section(name, field.key),
                    )
                )
                + " |"
            )
        out.append("")
    out += _render_component_args()
    out += _render_outputs()
    return "\n".join(out)


def _arg_type(annotation: str) -> str:
    names = {type_name(cls) for cls in ordered_models()}
    if annotation in names:
        return f"[{annotation}](#{_anchor(annotation)})"
    closed = {c.name: c for c in closed_sets(ordered_models())}
    if annotation in closed:
        return "string"
    return {
        "str": "string",
        "bool": "boolean",
        "pulumi.Input[str]": "string (or an Output)",
        "Mapping[str, str]": "map of string",
    }[annotation]


def _render_component_args() -> list[str]:
    out = [
        "## Component arguments",
        "",
        "Besides `spec`, each component takes its object's metadata and, for services, deploy-time",
        "options. The key is camelCase in an `<Kind>ArgsDict` and in other languages; the keyword is",
        "what `<Kind>Args(...)` and the keyword form `<Kind>(resource_name, keyword=..., opts=...)` take.",
        "",
    ]
    closed = {c.name: c for c in closed_sets(ordered_models())}
    for kind, (doc, args) in COMPONENT_ARGS.items():
        out += [f"### {kind}", "", doc, ""]
        out += ["| key | keyword | type | allowed values | description |", "|---|---|---|---|---|"]
        for arg in args:
            allowed = (
                ", ".join(f"`{v}`" for v in closed[arg.annotation].values) if arg.annotation in closed else ""
            )
            cells = (f"`{arg.key}`", f"`{arg.keyword}`", _arg_type(arg.annotation), allowed, arg.doc)
            out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        out.append("")
    return out


def _schema_type(prop: dict[str, Any]) -> str:
    if "$ref" in prop:
        name = prop["$ref"].rsplit(":", 1)[-1]
        return "any" if name.endswith("/Any") else name
    kind = prop.get("type", "any")
    if kind == "array":
        return f"list of {_schema_type(prop.get('items') or {})}"
    if kind == "object":
        return f"map of {_schema_type(prop.get('additionalProperties') or {})}"
    return str(kind)


@functools.cache
def _attribute_docs(cls: type) -> dict[str, str]:
    """Attribute docstrings of a class and its bases: the components' schema has only those of the
    class itself, and the AIM models leave them to this script (pydantic reading every model's source
    at import would cost each program run about 0.2 s)."""
    from aim_pulumi.resources.attribute_docs import attribute_docs

    return attribute_docs(cls)


def _render_outputs() -> list[str]:
    """Every component's outputs, as the provider's schema has them (the components' annotations)."""
    from aim_pulumi.resources import COMPONENTS
    from aim_pulumi.resources.constructors import camel_case

    inherited = {
        f"aim:index:{c.__name__}": {camel_case(k): v for k, v in _attribute_docs(c).items()}
        for c in COMPONENTS
    }
    schema = json.loads(render_schema())
    out = [
        "## Outputs",
        "",
        "What each component exports, by the camelCase name other languages and `pulumi stack output`",
        "see (the Python attribute is its snake_case form: `chat.route_path`). The status types are",
        "`aim_pulumi.resources.statuses` (`AIMServiceStatus`, ...); in the schema `aim:index:<Name>`.",
        "",
    ]
    for token, resource in sorted(schema["resources"].items()):
        out += [f"### {token.rsplit(':', 1)[-1]}", "", "| output | type | description |", "|---|---|---|"]
        for key, prop in resource.get("properties", {}).items():
            description = " ".join(str(prop.get("description", "")).split()) or inherited[token].get(key, "")
            out.append(
                "| " + " | ".join(_cell(c) for c in (f"`{key}`", _schema_type(prop), description)) + " |"
            )
        out.append("")
    for token, definition in sorted(schema["types"].items()):
        name = token.rsplit(":", 1)[-1]
        if not name.endswith(("Status", "ObjectRef", "Condition")):
            continue
        out += [f"#### {name}", "", "| field | type | description |", "|---|---|---|"]
        for key, prop in definition.get("properties", {}).items():
            description = " ".join(str(prop.get("description", "")).split())
            out.append(
                "| " + " | ".join(_cell(c) for c in (f"`{key}`", _schema_type(prop), description)) + " |"
            )
        out.append("")
    return out


# --------------------------------------------------------------------------------------------


def render_schema() -> str:
    """The component provider's package schema, inferred from the (freshly generated) inputs.

    It is rendered in a fresh interpreter: this one imported the inputs module before it was
    rewritten, and the schema must describe the file as it now stands.
    """
    code = (
        "import json; from aim_pulumi.provider import package_schema; "
        "print(json.dumps(package_schema(), indent=2))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return result.stdout


def formatted(source: str) -> str:
    """The module as `ruff format` leaves it, so the generated file passes the format check."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(INPUTS_PATH), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return result.stdout


# The components' constructor overloads: the same three shapes for every kind (a dict, the Args class,
# keyword arguments), typed by the inputs above, so they are written here rather than by hand.
OVERLOADS_BEGIN = (
    "    # Constructor overloads, written by scripts/generate_types.py: run it after changing one."
)
OVERLOADS_END = "    # End of the generated constructor overloads."
COMPONENT_MODULES: dict[Path, tuple[str, ...]] = {
    ROOT / "aim_pulumi" / "resources" / "profile.py": ("AIMProfile", "AIMClusterProfile"),
    ROOT / "aim_pulumi" / "resources" / "model.py": ("AIMModel", "AIMClusterModel"),
    ROOT / "aim_pulumi" / "resources" / "profile_set.py": ("AIMProfileSet", "AIMClusterProfileSet"),
    ROOT / "aim_pulumi" / "resources" / "runtime_config.py": ("AIMRuntimeConfig", "AIMClusterRuntimeConfig"),
    ROOT / "aim_pulumi" / "resources" / "service.py": ("AIMService",),
    ROOT / "aim_pulumi" / "resources" / "model_source.py": ("AIMClusterModelSource",),
    ROOT / "aim_pulumi" / "resources" / "stack.py": ("AIMStack",),
}
# AIMStack is not an AIM object: it has no typed object to be built from.
_BUILT_FROM_OBJECT = frozenset(k for ks in COMPONENT_MODULES.values() for k in ks) - {"AIMStack"}


def render_overloads(kind: str) -> str:
    """`kind`'s three `__init__` overloads, as they stand in its class body."""
    built_from = [f"_object: api.{kind} | None = None,"] if kind in _BUILT_FROM_OBJECT else []
    opts = "opts: pulumi.ResourceOptions | None = None,"
    catalog = "catalog: Catalog | None = None,"
    shapes = (
        [f"args: {kind}ArgsDict,", opts, "*,", catalog, *built_from],
        [f"args: {kind}Args,", opts, "*,", catalog],
        ["*,", opts, catalog, f"**kwargs: Unpack[{kind}Kwargs],"],
    )
    return "\n".join(
        "    @overload\n    def __init__(\n        self,\n        resource_name: str,\n"
        + "".join(f"        {parameter}\n" for parameter in parameters)
        + "    ) -> None: ...\n"
        for parameters in shapes
    )


def render_component_module(path: Path) -> str:
    """The component module at `path` with each class's overload block written anew, in class order."""
    kinds = COMPONENT_MODULES[path]
    head, *blocks = path.read_text().split(OVERLOADS_BEGIN + "\n")
    if len(blocks) != len(kinds):
        raise SystemExit(
            f"{path.relative_to(ROOT)}: {len(blocks)} overload blocks for {len(kinds)} components"
        )
    out = [head]
    for kind, block in zip(kinds, blocks, strict=True):
        _, end, rest = block.partition(OVERLOADS_END + "\n")
        if not end:
            raise SystemExit(f"{path.relative_to(ROOT)}: the overload block of {kind} has no end marker")
        # A blank line before the end marker, as `ruff format` leaves a comment after a method.
        out.append(f"{OVERLOADS_BEGIN}\n{render_overloads(kind)}\n{OVERLOADS_END}\n{rest}")
    return "".join(out)


# The package's public names, listed here once: `aim_pulumi/__init__.py` loads each on first use (the
# components load Pulumi, the pure layers' models take a while to build), names it for type checkers
# and lists it in `__all__`, three views this writes from the one table.
PACKAGE_INIT_PATH = ROOT / "aim_pulumi" / "__init__.py"
NAMES_BEGIN = (
    "# Public names, written by scripts/generate_types.py from its one list: run it after changing one."
)
NAMES_END = "# End of the generated public names."
PURE_NAMES: dict[str, str] = {
    "AIMError": "aim_pulumi.api",
    "AIMValidationError": "aim_pulumi.api",
    # A program reads manifests of every version the installation serves (`aim_pulumi/versions.py`).
    "load_manifests": "aim_pulumi.versions",
    "parse": "aim_pulumi.versions",
    "to_manifest": "aim_pulumi.api",
    "AIMResolutionError": "aim_pulumi.resolve",
    "embedded_fallbacks": "aim_pulumi.resolve.catalog.embedded",
}


def component_names() -> list[str]:
    """Each component of `aim_pulumi.resources.COMPONENTS` with its Args class and ArgsDict, sorted."""
    from aim_pulumi.resources import COMPONENTS

    return sorted(
        name
        for cls in COMPONENTS
        for name in (cls.__name__, f"{cls.__name__}Args", f"{cls.__name__}ArgsDict")
    )


def render_public_names() -> str:
    components = component_names()
    lines = [NAMES_BEGIN, "_COMPONENTS = frozenset(", "    {"]
    lines += [f'        "{name}",' for name in components]
    lines += ["    }", ")", "_PURE = {"]
    lines += [f'    "{name}": "{module}",' for name, module in PURE_NAMES.items()]
    lines += ["}", "", "if TYPE_CHECKING:"]
    by_module: dict[str, list[str]] = {}
    for name, module in PURE_NAMES.items():
        by_module.setdefault(module, []).append(name)
    by_module["aim_pulumi.resources"] = [*components, "inputs"]
    for module, names in sorted(by_module.items()):
        lines.append(f"    from {module} import (")
        lines += [f"        {name}," for name in sorted(names)]
        lines.append("    )")
    lines += ["", "__all__ = ["]
    lines += [f'    "{name}",' for name in sorted([*components, *PURE_NAMES, "__version__", "inputs"])]
    lines += ["]", NAMES_END]
    return "\n".join(lines) + "\n"


def render_package_init() -> str:
    """`aim_pulumi/__init__.py` with its region of public names written anew."""
    head, begin, rest = PACKAGE_INIT_PATH.read_text().partition(NAMES_BEGIN + "\n")
    _, end, tail = rest.partition(NAMES_END + "\n")
    if not begin or not end:
        raise SystemExit("aim_pulumi/__init__.py: the markers of the public names are missing")
    return head + render_public_names() + tail


OUTPUTS: dict[Path, Callable[[], str]] = {
    PACKAGE_INIT_PATH: render_package_init,
    INPUTS_PATH: lambda: formatted(render_inputs()),
    REFERENCE_PATH: render_reference,
    SCHEMA_PATH: render_schema,
    **{path: functools.partial(render_component_module, path) for path in COMPONENT_MODULES},
}


def stale() -> list[Path]:
    return [path for path, render in OUTPUTS.items() if not path.exists() or path.read_text() != render()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file is stale")
    options = parser.parse_args(argv)
    if options.check:
        out_of_date = stale()
        for path in out_of_date:
            print(f"{path.relative_to(ROOT)} is stale: run python scripts/generate_types.py")
        return 1 if out_of_date else 0
    for path, render in OUTPUTS.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render())
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    _ = api
    raise SystemExit(main())
