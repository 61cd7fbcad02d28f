"""What a service asks selection for: which of the five resolution shapes, and the fields it reads.

The shape is decided once from the spec (behaviour §4.1) and every later step reads it from here,
so that no step re-derives it from the manifest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aim_pulumi.api import AIMServiceObject
from aim_pulumi.api.common import StatusRef
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.resolve.scalars import text

Shape = Literal["Name", "ModelImage", "ModelAndSelector", "Selector", "Model"]


@dataclass(frozen=True)
class Request:
    service: AIMServiceObject
    namespace: str
    name: str
    resolved_profile: StatusRef | None
    profile_name: str
    selector: Mapping[str, Any] | None
    selector_model_name: str
    model_name: str
    model_image: str
    shape: Shape

    @property
    def object_ref(self) -> str:
        return f"AIMService/{self.namespace}/{self.name}"

    def error(self, reason: str, field_path: str, message: str) -> AIMResolutionError:
        return AIMResolutionError(field_path, reason, message, object_ref=self.object_ref)


def read_request(service: AIMServiceObject) -> Request:
    """The request of a service, read from its typed spec.

    The selector stays the mapping the user wrote (its set fields only, camelCase): the filters
    constrain only the fields that are present, and the explanation reports them as written.
    """
    spec = service.spec
    profile, model = spec.profile, spec.model
    typed_selector = profile.selector if profile is not None else None
    selector = (
        typed_selector.model_dump(by_alias=True, exclude_unset=True) if typed_selector is not None else None
    )
    profile_name = text(profile.name if profile is not None else None)
    model_name = text(model.name if model is not None else None)
    model_image = text(model.image if model is not None else None)
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
        resolved_profile=service.status.resolved_profile if service.status is not None else None,
        profile_name=profile_name,
        selector=selector,
        selector_model_name=text(
            typed_selector.model_ref.name
            if typed_selector is not None and typed_selector.model_ref is not None
            else None
        ),
        model_name=model_name,
        model_image=model_image,
        shape=shape,
    )
