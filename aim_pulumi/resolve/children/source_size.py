"""How many bytes a model source will put on its cache PVC, known before anything is deployed.

A PVC must be created with a size, and the operator's answer (a discovery Job measuring the source) does
not exist here. So the size comes from the source's declared `size`, or, for an S3 prefix, from listing
the objects the download Job would fetch. Hugging Face repositories are never measured over the network at
plan time: a plan must not depend on a third-party API being reachable.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any, cast

from aim_pulumi.api.errors import escape
from aim_pulumi.resolve.errors import AIMResolutionError
from aim_pulumi.schemas.quantity import parse_quantity

if TYPE_CHECKING:
    from mypy_boto3_s3.client import S3Client

CACHE_SIZE_UNKNOWN = "CacheSizeUnknown"
# boto3 is an optional part of the package: only S3 listings need it.
S3_EXTRA = "aim-pulumi[s3]"

# The downloader fetches top-level files only unless told otherwise (behaviour §10.2).
DEFAULT_DOWNLOAD_FILTER: Mapping[str, Sequence[str]] = {"exclude": ("*/*",)}

_SIGNATURE_VERSIONS = {"v4": "s3v4", "s3v4": "s3v4", "v2": "s3", "s3": "s3"}


def split_source_uri(uri: str) -> tuple[str, str, str]:
    """Split `scheme://first/rest` into its three parts; the scheme is lowercased, missing parts are empty."""
    scheme, sep, remainder = uri.partition("://")
    if not sep:
        return "", "", ""
    first, _, rest = remainder.partition("/")
    return scheme.lower(), first, rest


def filter_lists(download_filter: Mapping[str, Any] | None) -> tuple[list[str], list[str]]:
    """The include and exclude patterns of a download filter; `None` means the default filter."""
    effective = DEFAULT_DOWNLOAD_FILTER if download_filter is None else download_filter
    include = [str(p) for p in (effective.get("include") or ())]
    exclude = [str(p) for p in (effective.get("exclude") or ())]
    return include, exclude


def passes_filter(relative_key: str, download_filter: Mapping[str, Any] | None) -> bool:
    """Whether the download Job would fetch a file, judged on its path relative to the source prefix.

    Matching is `fnmatch` without case folding, so the answer does not depend on the host OS.
    """
    include, exclude = filter_lists(download_filter)
    if include and not any(fnmatchcase(relative_key, pattern) for pattern in include):
        return False
    return not any(fnmatchcase(relative_key, pattern) for pattern in exclude)


def declares_size(source: Mapping[str, Any]) -> bool:
    """Whether a source states its size, which then always wins over measuring it."""
    size = source.get("size")
    return size is not None and str(size) != ""


def declared_size_bytes(size: Any) -> int:
    """A Kubernetes quantity as whole bytes, rounded up (a fractional byte still needs room)."""
    return _declared_size_bytes(str(size))


@functools.lru_cache(maxsize=1024)
def _declared_size_bytes(size: str) -> int:
    """Remembered: every service of a Shared cache sizes the same declared quantity."""
    value = math.ceil(parse_quantity(size))
    if value < 0:
        raise ValueError("a size cannot be negative")
    return value


def source_size_bytes(
    source: Mapping[str, Any],
    *,
    s3_settings: Mapping[str, Any] | None,
    download_filter: Mapping[str, Any] | None,
    s3_client: S3Client | None = None,
    field: str = "",
) -> int:
    """The bytes a model source occupies once downloaded.

    `source` is a camelCase model-source mapping (`sourceUri`, `size`, ...); a declared `size` always
    wins. `s3_settings` is the runtime config's `artifact.s3` block, used to reach the bucket the way the
    download Job will. `field` is the dotted path of the source, used to name it in errors. Raises
    `AIMResolutionError` with reason `CacheSizeUnknown` when the size cannot be known.
    """
    uri = str(source.get("sourceUri") or "")
    size = source.get("size")
    if declares_size(source):
        try:
            return declared_size_bytes(size)
        except ValueError as exc:
            raise AIMResolutionError(
                f"{field}.size" if field else "size",
                "InvalidSpec",
                f"model source {uri}: size {size!r} is not a Kubernetes quantity ({exc})",
            ) from exc
    scheme, _, _ = split_source_uri(uri)
    if scheme == "s3":
        return _s3_prefix_bytes(uri, s3_settings or {}, download_filter, s3_client, field)
    if scheme == "hf":
        raise AIMResolutionError(
            f"{field}.size" if field else "size",
            CACHE_SIZE_UNKNOWN,
            f"model source {uri} has no size: set `size` on the model source (a Kubernetes quantity such "
            "as 16Gi); Hugging Face repositories are not measured over the network at plan time",
        )
    raise AIMResolutionError(
        f"{field}.sourceUri" if field else "sourceUri",
        "InvalidSpec",
        f"model source {uri!r}: only hf://<org>/<repo> and s3://<bucket>/<prefix> sources can be cached",
    )


def _s3_prefix_bytes(
    uri: str,
    s3_settings: Mapping[str, Any],
    download_filter: Mapping[str, Any] | None,
    s3_client: S3Client | None,
    field: str,
) -> int:
    """Sum the objects under the prefix that pass the download filter."""
    _, bucket, prefix = split_source_uri(uri)
    field_path = f"{field}.sourceUri" if field else "sourceUri"

    def unknown(why: str) -> AIMResolutionError:
        return AIMResolutionError(
            field_path,
            CACHE_SIZE_UNKNOWN,
            f"cannot size model source {uri}: {why}; set `size` on the model source to skip listing",
        )

    if not bucket:
        raise unknown("the URI names no bucket")
    try:
        from botocore.exceptions import BotoCoreError, ClientError
    except ImportError:
        raise unknown(f"listing S3 needs boto3: pip install '{S3_EXTRA}'") from None

    client = s3_client if s3_client is not None else _s3_client(s3_settings)
    # `s3://b/models/llama` names the directory `models/llama/`, or a single object of that exact key.
    directory = prefix.rstrip("/") + "/" if prefix.strip("/") else ""
    total = 0
    listed = 0
    try:
        pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        for page in pages:
            for obj in page.get("Contents", []):
                key = obj.get("Key", "")
                if key == prefix and prefix:
                    relative = key.rsplit("/", 1)[-1]
                elif key.startswith(directory):
                    relative = key[len(directory) :]
                else:
                    continue
                if not relative or relative.endswith("/"):
                    continue  # a folder marker, not a file
                listed += 1
                if passes_filter(relative, download_filter):
                    total += int(obj.get("Size", 0))
    except ClientError as exc:
        error = exc.response.get("Error", {})
        code = error.get("Code", "error")
        if code in ("NoSuchBucket", "404"):
            raise unknown(f"bucket {bucket!r} does not exist") from None
        raise unknown(f"listing failed with {code}: {error.get('Message', '')}".rstrip(": ")) from None
    except BotoCoreError as exc:
        # botocore's own words (`Unable to locate credentials`), never its class names.
        raise unknown(f"listing failed: {escape(exc)}") from None
    if listed == 0:
        raise unknown(f"no objects under prefix {prefix or '/'!r} in bucket {bucket!r}")
    if total == 0:
        raise unknown("no object under the prefix passes the download filter")
    return total


def _s3_client(s3_settings: Mapping[str, Any]) -> S3Client:
    """A client configured like the download Job: endpoint, region, addressing, signing, TLS.

    Credentials come from the local AWS chain (environment, profile, instance role); the Job's Secret is
    in the cluster and is never read here. Likewise a cluster CA bundle cannot be read: a private CA is
    trusted through the local `AWS_CA_BUNDLE`.
    """
    import boto3
    from botocore import UNSIGNED
    from botocore.config import Config

    auth = s3_settings.get("auth") or {}
    tls = s3_settings.get("tls") or {}
    config_kwargs: dict[str, Any] = {}
    style = s3_settings.get("addressingStyle")
    if style:
        config_kwargs["s3"] = {"addressing_style": str(style).lower()}
    if auth.get("mode") == "anonymous":
        config_kwargs["signature_version"] = UNSIGNED
    elif s3_settings.get("signatureVersion"):
        version = str(s3_settings["signatureVersion"])
        config_kwargs["signature_version"] = _SIGNATURE_VERSIONS.get(version.lower(), version)
    client_kwargs: dict[str, Any] = {"config": Config(**config_kwargs)}
    if s3_settings.get("region"):
        client_kwargs["region_name"] = str(s3_settings["region"])
    if s3_settings.get("endpoint"):
        client_kwargs["endpoint_url"] = str(s3_settings["endpoint"])
    if tls.get("insecureSkipVerify") is True:
        client_kwargs["verify"] = False
    # boto3 is untyped (its stubs are not installed: see pyproject.toml); the S3 client's type is.
    return cast("S3Client", boto3.client("s3", **client_kwargs))
