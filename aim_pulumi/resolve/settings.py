"""The settings an operator would take from its environment, read here from stack config.

No operator runs, so what its Helm values and environment decide (gateway provider, KEDA scaler
address, downloader image, timeouts, ...) comes from `aim:*` stack config, with component
arguments of the same name winning. Values arrive as config strings and are parsed strictly so a
typo fails the program with the key's name instead of silently using a default.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from aim_pulumi.discovery.credentials import Login, given_logins
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.schemas.metadata import is_dns1123_label, label_value_errors, qualified_name_errors

DEFAULT_DOWNLOAD_IMAGE = "ghcr.io/silogen/aim-artifact-downloader:0.2.0"
DEFAULT_COOLDOWN_SECONDS_PER_GI_MEMORY = 5
CONFIG_NAMESPACE = "aim"
DEPLOYMENT_MODES = ("Standard", "RawDeployment")
ACCESS_MODES = ("ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")
NAMESPACE_DELETION = ("refuse", "allow")
GATEWAY_PROVIDERS = ("envoyGateway", "kgateway", "custom", "none")
DISCOVERY_MODES = ("live", "locked")
CAPACITY_MODES = ("warn", "enforce", "off")
INVENTORY_POOL_KEYS = frozenset({"vendor", "type", "model", "partitioningMode", "devices", "nodes", "name"})


@dataclass(frozen=True)
class Settings:
    """Every deploy-time setting with its documented default.

    `inventory` is the raw list of accelerator pools (`{vendor, type, model, partitioningMode,
    devices, nodes, name}`) or None when no inventory is declared (then all hardware is assumed to
    exist). `capacity` says what a service that does not fit is (`warn`: a warning, `enforce`: an
    error before anything registers, `off`: nothing is read or judged); `gpu_hour_price` and
    `cost_allocation_labels` are sorted (key, value) pairs, so equal config gives equal settings.
    """

    gateway_provider: str = "none"
    keda_otel_scaler_address: str = "keda-otel-scaler.keda.svc:4318"
    cooldown_seconds_per_gi_memory: int = DEFAULT_COOLDOWN_SECONDS_PER_GI_MEMORY
    download_image: str = DEFAULT_DOWNLOAD_IMAGE
    download_timeout_seconds: int = 3600
    deployment_mode: str = "Standard"
    ready_timeout_seconds: int = 1800
    skip_await: bool = False
    cache_access_mode: str = "ReadWriteMany"
    system_namespace: str = "aim-system"
    embed_default_runtime_config: bool = True
    inventory: tuple[dict[str, Any], ...] | None = None
    strict: bool = False
    wait_for: str | None = "condition=Ready"
    # Image discovery (docs/discovery.md): `locked` refuses any image the lock file lacks; hosts
    # that may be reached over plain HTTP; registry logins (a secret, never shown: `Login`).
    discovery: str = "live"
    insecure_registries: tuple[str, ...] = ()
    registry_auth: tuple[tuple[str, Login], ...] = ()
    # Whether a Namespace the program declares may be deleted with the Shared caches it holds.
    namespace_deletion: str = "refuse"
    # Whether an S3 source without a size may be sized by listing its bucket with the local AWS
    # credentials (at the endpoint the runtime config names): trusted configuration only.
    list_s3: bool = False
    # Whether each route and ScaledObject is read back once its InferenceService is ready, so the
    # status of a first `up` says what the gateway and KEDA answered, as the operator's does. On by
    # default: one GET by the program (a Pulumi read, a resource of the state, for a service with
    # an explicit provider); `false` turns them off (docs/cluster.md#status).
    read_back_status: bool = True
    capacity: str = "warn"
    # A path, or the kubeconfig itself (credentials): never shown in a repr.
    capacity_kubeconfig: str | None = dataclasses.field(default=None, repr=False)
    capacity_timeout_seconds: int = 20
    gpu_hour_price: tuple[tuple[str, Decimal], ...] = ()
    cost_allocation_labels: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_config(cls, values: Mapping[str, Any]) -> Settings:
        """Settings from stack config (`aim:gatewayProvider: envoyGateway`, `aim:skipAwait: "true"`).

        Keys may carry the `aim:` namespace or not; keys of other namespaces are ignored, so the
        whole stack config can be passed. An unknown `aim` key or an unparsable value raises
        AIMResolutionError(reason="InvalidSetting") naming `aim:<key>`.
        """
        parsed: dict[str, Any] = {}
        for raw_key, value in sorted(values.items()):
            namespace, separator, key = str(raw_key).rpartition(":")
            if separator and namespace != CONFIG_NAMESPACE:
                continue
            spec = _FIELDS_BY_KEY.get(key)
            if spec is None:
                raise _invalid(
                    key, f"unknown setting{_did_you_mean(key, _FIELDS_BY_KEY, CONFIG_NAMESPACE + ':')}"
                )
            parsed[spec.attribute] = spec.parse(key, value)
        return cls(**parsed)

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with component arguments applied (`gateway_provider="kgateway"`, `wait_for=None`).

        Every given keyword is applied and validated like its stack-config counterpart; None is
        accepted only where it means something (`wait_for=None` removes the wait, `inventory=None`
        drops the inventory).
        """
        parsed: dict[str, Any] = {}
        for attribute, value in overrides.items():
            spec = _FIELDS_BY_ATTRIBUTE.get(attribute)
            if spec is None:
                raise AIMResolutionError(
                    attribute,
                    "InvalidSetting",
                    f"unknown setting {attribute!r}{_did_you_mean(attribute, _FIELDS_BY_ATTRIBUTE, '')}",
                )
            parsed[attribute] = spec.parse(spec.key, value)
        return dataclasses.replace(self, **parsed)


def _did_you_mean(name: str, known: Mapping[str, object], prefix: str) -> str:
    """What follows "unknown setting": a close known name (`; did you mean aim:gatewayProvider?`,
    case aside), and every known one."""
    listed = ", ".join(sorted(known))
    by_folded = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), list(by_folded), n=1, cutoff=0.6)
    if close:
        return f"; did you mean {prefix}{by_folded[close[0]]}? (known settings: {listed})"
    return f"; known settings: {listed}"


def _invalid(key: str, message: str) -> AIMResolutionError:
    return AIMResolutionError(f"{CONFIG_NAMESPACE}:{key}", "InvalidSetting", message)


def _parse_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise _invalid(key, f"expected true or false, got {value!r}")


def _parse_int(key: str, value: Any, *, minimum: int) -> int:
    if isinstance(value, bool):
        raise _invalid(key, f"expected an integer, got {value!r}")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
        number = int(value)
    else:
        raise _invalid(key, f"expected an integer, got {value!r}")
    if number < minimum:
        raise _invalid(key, f"must be at least {minimum}, got {number}")
    return number


def _parse_positive_int(key: str, value: Any) -> int:
    return _parse_int(key, value, minimum=1)


def _parse_cooldown(key: str, value: Any) -> int:
    """Lenient on purpose (documented): a negative or unparsable factor falls back to the default."""
    try:
        return _parse_int(key, value, minimum=0)
    except AIMResolutionError:
        return DEFAULT_COOLDOWN_SECONDS_PER_GI_MEMORY


def _parse_text(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _invalid(key, f"expected a non-empty string, got {value!r}")
    return value.strip()


def _choice(options: tuple[str, ...]) -> Callable[[str, Any], str]:
    def parse(key: str, value: Any) -> str:
        text = _parse_text(key, value)
        if text not in options:
            raise _invalid(key, f"expected one of {', '.join(options)}, got {text!r}")
        return text

    return parse


def _parse_gateway_provider(key: str, value: Any) -> str:
    """One of GATEWAY_PROVIDERS, in any case; anything else is an error like every other setting's.

    (It only warned and fell back to `none`, which silently disabled scale-from-zero.)
    """
    text = _parse_text(key, value)
    by_lower = {provider.lower(): provider for provider in GATEWAY_PROVIDERS}
    provider = by_lower.get(text.lower())
    if provider is not None:
        return provider
    close = difflib.get_close_matches(text.lower(), list(by_lower), n=1, cutoff=0.5)
    hint = f" (did you mean {by_lower[close[0]]}?)" if close else ""
    raise _invalid(key, f"expected one of {', '.join(GATEWAY_PROVIDERS)}, got {text!r}{hint}")


def _parse_namespace(key: str, value: Any) -> str:
    text = _parse_text(key, value)
    if not is_dns1123_label(text):
        raise _invalid(key, f"{text!r} is not a valid namespace name (RFC 1123 label)")
    return text


def _parse_wait_for(key: str, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise _invalid(key, f"expected a string such as 'condition=Ready', got {value!r}")
    return value.strip()


def _parse_hosts(key: str, value: Any) -> tuple[str, ...]:
    """A JSON list of hosts, or hosts separated by commas."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ()
    data = value
    if isinstance(value, str):
        text = value.strip()
        data = json.loads(text) if text.startswith("[") else [h.strip() for h in text.split(",")]
    if not isinstance(data, list | tuple) or not all(isinstance(h, str) and h.strip() for h in data):
        raise _invalid(key, "expected a list of registry hosts (host or host:port)")
    return tuple(sorted({h.strip() for h in data}))


def _parse_registry_auth(key: str, value: Any) -> tuple[tuple[str, Login], ...]:
    # A message names hosts and fields, never the value: it is a secret.
    try:
        logins = given_logins(value)
    except json.JSONDecodeError:
        raise _invalid(
            key, 'expected JSON: {"<registry host>": {"username": ..., "password": ...}}'
        ) from None
    except ValueError as exc:
        raise _invalid(key, str(exc)) from None
    return tuple(sorted(logins.items()))


def _parse_pool(key: str, index: int, pool: Any) -> dict[str, Any]:
    if not isinstance(pool, Mapping):
        raise _invalid(key, f"pool {index} must be an object, got {pool!r}")
    unknown = sorted(set(pool) - INVENTORY_POOL_KEYS)
    if unknown:
        raise _invalid(
            key, f"pool {index} has unknown keys {unknown}; allowed: {', '.join(sorted(INVENTORY_POOL_KEYS))}"
        )
    for count_key in ("devices", "nodes"):
        count = pool.get(count_key, 0)
        if count_key == "nodes" and count is None:
            continue
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise _invalid(key, f"pool {index} {count_key} must be a non-negative integer, got {count!r}")
    for text_key in ("vendor", "type", "model", "partitioningMode", "name"):
        if text_key in pool and pool[text_key] is not None and not isinstance(pool[text_key], str):
            raise _invalid(key, f"pool {index} {text_key} must be a string, got {pool[text_key]!r}")
    return dict(pool)


def _parse_inventory(key: str, value: Any) -> tuple[dict[str, Any], ...] | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    data = value
    if isinstance(value, str):
        try:
            data = json.loads(value)
        except ValueError as exc:
            raise _invalid(key, f"expected a JSON list of accelerator pools: {exc}") from exc
        except RecursionError:
            raise _invalid(key, "expected a JSON list of accelerator pools: nested too deeply") from None
    if not isinstance(data, list | tuple):
        raise _invalid(key, f"expected a list of accelerator pools, got {type(data).__name__}")
    return tuple(_parse_pool(key, index, pool) for index, pool in enumerate(data))


def _json_object(key: str, value: Any, what: str) -> Mapping[str, Any]:
    data = value
    if isinstance(value, str):
        try:
            data = json.loads(value)
        except ValueError as exc:
            raise _invalid(key, f"expected a JSON object of {what}: {exc}") from exc
    if not isinstance(data, Mapping):
        raise _invalid(key, f"expected an object of {what}, got {type(data).__name__}")
    return data


def _parse_prices(key: str, value: Any) -> tuple[tuple[str, Decimal], ...]:
    """`{"MI300X": 2.5, "amd.com/gpu": "2", "*": 3}`: prices per GPU-hour, non-negative numbers."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ()
    prices: dict[str, Decimal] = {}
    for name, price in _json_object(key, value, "prices per GPU-hour").items():
        if not isinstance(name, str) or not name.strip():
            raise _invalid(key, f"a price key must be a model, pool or GPU resource name, got {name!r}")
        amount: Decimal | None = None
        if not isinstance(price, bool) and isinstance(price, int | float | str):
            try:
                amount = Decimal(str(price).strip())
            except InvalidOperation:
                amount = None
        if amount is None or not amount.is_finite() or amount < 0:
            raise _invalid(key, f"the price of {name!r} must be a non-negative number, got {price!r}")
        prices[name.strip()] = amount
    return tuple(sorted(prices.items()))


def _parse_labels(key: str, value: Any) -> tuple[tuple[str, str], ...]:
    """`{"cost-center": "ml-4711"}`: labels every child carries, valid Kubernetes label keys and values."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ()
    labels: dict[str, str] = {}
    for name, label in _json_object(key, value, "labels").items():
        if not isinstance(name, str) or qualified_name_errors(name):
            raise _invalid(key, f"{name!r} is not a valid label key")
        if not isinstance(label, str) or label_value_errors(label):
            raise _invalid(key, f"the value of label {name!r} is not a valid label value: {label!r}")
        labels[name] = label
    return tuple(sorted(labels.items()))


def _parse_optional_text(key: str, value: Any) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return _parse_text(key, value)


@dataclass(frozen=True)
class _Field:
    key: str
    attribute: str
    parser: Callable[[str, Any], Any]
    optional: bool = False

    def parse(self, key: str, value: Any) -> Any:
        if value is None and not self.optional:
            raise _invalid(key, "a value is required")
        return self.parser(key, value)


_FIELDS = (
    _Field("gatewayProvider", "gateway_provider", _parse_gateway_provider),
    _Field("kedaOtelScalerAddress", "keda_otel_scaler_address", _parse_text),
    _Field("cooldownSecondsPerGiMemory", "cooldown_seconds_per_gi_memory", _parse_cooldown, optional=True),
    _Field("downloadImage", "download_image", _parse_text),
    _Field("downloadTimeoutSeconds", "download_timeout_seconds", _parse_positive_int),
    _Field("deploymentMode", "deployment_mode", _choice(DEPLOYMENT_MODES)),
    _Field("readyTimeoutSeconds", "ready_timeout_seconds", _parse_positive_int),
    _Field("skipAwait", "skip_await", _parse_bool),
    _Field("cacheAccessMode", "cache_access_mode", _choice(ACCESS_MODES)),
    _Field("systemNamespace", "system_namespace", _parse_namespace),
    _Field("embedDefaultRuntimeConfig", "embed_default_runtime_config", _parse_bool),
    _Field("inventory", "inventory", _parse_inventory, optional=True),
    _Field("strict", "strict", _parse_bool),
    _Field("waitFor", "wait_for", _parse_wait_for, optional=True),
    _Field("discovery", "discovery", _choice(DISCOVERY_MODES)),
    _Field("insecureRegistries", "insecure_registries", _parse_hosts, optional=True),
    _Field("registryAuth", "registry_auth", _parse_registry_auth, optional=True),
    _Field("namespaceDeletion", "namespace_deletion", _choice(NAMESPACE_DELETION)),
    _Field("listS3", "list_s3", _parse_bool),
    _Field("readBackStatus", "read_back_status", _parse_bool),
    _Field("capacity", "capacity", _choice(CAPACITY_MODES)),
    _Field("capacityKubeconfig", "capacity_kubeconfig", _parse_optional_text, optional=True),
    _Field("capacityTimeoutSeconds", "capacity_timeout_seconds", _parse_positive_int),
    _Field("gpuHourPrice", "gpu_hour_price", _parse_prices, optional=True),
    _Field("costAllocationLabels", "cost_allocation_labels", _parse_labels, optional=True),
)
_FIELDS_BY_KEY = {spec.key: spec for spec in _FIELDS}
_FIELDS_BY_ATTRIBUTE = {spec.attribute: spec for spec in _FIELDS}
