"""What a service asks selection for: which of the five resolution shapes, and the fields it reads.

The shape is decided once from the spec (behaviour §4.1) and every later step reads it from here,
so that no step re-derives it from the manifest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aim_pulumi.api import AIMService, to_manifest
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.scalars import text

Shape = Literal["Name", "ModelImage", "ModelAndSelector", "Selector", "Model"]


@dataclass(frozen=True)
class Request:
    service: AIMService
    namespace: str
    name: str
    spec: Mapping[str, Any]
    status: Mapping[str, Any]
    profile_name: str
    selector: Mapping[str, Any] | None
    model_name: str
    model_image: str
    shape: Shape

    @property
    def object_ref(self) -> str:
        return f"AIMService/{self.namespace}/{self.name}"

    def error(self, reason: str, field_path: str, message: str) -> AIMResolutionError:
        return AIMResolutionError(reason, message, field=field_path, object_ref=self.object_ref)


def read_request(service: AIMService) -> Request:
    manifest = to_manifest(service)
    spec: Mapping[str, Any] = manifest.get("spec") or {}
    profile: Mapping[str, Any] = spec.get("profile") or {}
    model: Mapping[str, Any] = spec.get("model") or {}
    selector = profile.get("selector")
    profile_name = text(profile.get("name"))
    model_name, model_image = text(model.get("name")), text(model.get("image"))
    shape: Shape
    if profile_name:
        shape = "Name"
    elif model_image:
        shape = "ModelImage"
    elif selector is not None and model_name:
        shape = "ModelAndSelector"
    elif selector is not None:
        shape = "Selector"
    else:
        shape = "Model"
    return Request(
        service=service,
        namespace=service.metadata.namespace or "default",
        name=service.metadata.name,
        spec=spec,
        status=manifest.get("status") or {},
        profile_name=profile_name,
        selector=selector if isinstance(selector, Mapping) else None,
        model_name=model_name,
        model_image=model_image,
        shape=shape,
    )
