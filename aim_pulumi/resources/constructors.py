"""The three ways a component takes its arguments, read into the one camelCase mapping it works on.

As in Pulumi's generated SDKs, `AIMService(name, args, opts)` takes an `AIMServiceArgs` input
type or an `AIMServiceArgsDict` (camelCase keys, as in the CRD), and `AIMService(name,
namespace=..., spec=..., opts=...)` takes the same arguments as snake_case keywords. The
components then read one mapping keyed as in the CRD and the component provider's schema.

The SDK's component analyzer infers the provider's schema from the annotation of `args` on each
component's `__init__`, and it reads one type, not a union: `schema_args` gives it the
`<Kind>ArgsDict` every form is read into.
"""

import difflib
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from aim_pulumi.api import AIMValidationError

__all__ = ["camel_case", "plain_args", "schema_args"]

_F = TypeVar("_F", bound=Callable[..., Any])


def camel_case(attribute: str) -> str:
    """The key Pulumi derives from a Python name (`skip_await` -> `skipAwait`)."""
    head, *rest = attribute.split("_")
    return head + "".join(part.capitalize() for part in rest)


def schema_args(args_type: type) -> Callable[[_F], _F]:
    """Show the component analyzer `args_type` as `__init__`'s `args` (type checkers read the overloads).

    Every public component constructor carries it, so it is also where their AIM errors are made
    to read as one line under the real engine (`reported.reports_errors`).
    """
    from aim_pulumi.resources.reported import reports_errors

    def mark(init: _F) -> _F:
        wrapped = reports_errors(init)
        wrapped.__annotations__ = {**init.__annotations__, "args": args_type}
        return wrapped  # type: ignore[return-value]

    return mark


def plain_args(kind: str, args: object, keywords: Mapping[str, Any], args_class: type) -> dict[str, Any]:
    """The camelCase arguments of one call, whichever of the three forms it used.

    An unknown keyword fails as a Python call does (a TypeError naming it); so does passing both
    `args` and keywords, which would leave it unclear which one wins. An unknown key of a mapping
    (`"namspace"`, `"skipAwiat"`) is an `UnknownField`, as an unknown spec key is: ignored, it would
    deploy somewhere the user did not mean (the `default` namespace) or wait when told not to.
    """
    if keywords:
        if args is not None:
            raise TypeError(f"{kind}() takes its arguments either as `args` or as keywords, not both")
        args = args_class(**keywords)
    if args is None:
        return {}
    if isinstance(args, args_class):
        values = {
            name: getattr(args, name)
            for name, value in vars(args_class).items()
            if isinstance(value, property)
        }
        return {camel_case(name): value for name, value in values.items() if value is not None}
    if isinstance(args, Mapping):
        known = {camel_case(name) for name, value in vars(args_class).items() if isinstance(value, property)}
        for key in args:
            # A cluster-scoped kind's `namespace` gets its own message (`catalog_component.py`).
            if key not in known and key != "namespace":
                close = difflib.get_close_matches(str(key), sorted(known), n=1)
                hint = f"; did you mean `{close[0]}`?" if close else f"; known: {', '.join(sorted(known))}"
                raise AIMValidationError(str(key), "UnknownField", f"{kind} has no argument `{key}`{hint}")
        return dict(args)
    raise TypeError(f"{kind}() args must be a {args_class.__name__} or a mapping, not {type(args).__name__}")
