"""Sizing model sources at plan time (behaviour §12): declared sizes, S3 listings, clear errors."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from aim_pulumi.manifests.cache import build_cache_pvc, build_download_job
from aim_pulumi.resolve.children.caching import CacheConsumer, CacheProfile, CacheSettings, plan_caches
from aim_pulumi.resolve.children.source_size import passes_filter, source_size_bytes
from aim_pulumi.resolve.errors import AIMResolutionError

GI = 1024**3
MI = 1024**2
BUCKET = "models"
REGION: Final = "eu-west-1"
ACCESS_KEY = "AKIATESTINGLOCAL0001"
SECRET_KEY = "local-chain-secret-never-in-a-manifest"
SESSION_TOKEN = "local-chain-session-token"

# Under `acme/llama/`: three top-level files (2.5 MiB) and files in subdirectories.
OBJECTS = {
    "acme/llama/model-00001.safetensors": 1 * MI,
    "acme/llama/model-00002.safetensors": 1 * MI,
    "acme/llama/config.json": MI // 2,
    "acme/llama/original/consolidated.pth": 3 * MI,
    "acme/llama/onnx/model.onnx": 2 * MI,
    "acme/llama-2/model.safetensors": 7 * MI,  # a sibling prefix, never part of acme/llama
    "acme/other/model.bin": 5 * MI,
}
TOP_LEVEL = 2 * MI + MI // 2
EVERYTHING = TOP_LEVEL + 5 * MI


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Credentials of a local chain that must never leave this machine, and no real AWS config."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
    monkeypatch.setenv("AWS_SESSION_TOKEN", SESSION_TOKEN)
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL_S3", raising=False)


def use_local_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    # moto swaps in its own keys when a mock starts; ours must be the ones boto3 really signs with.
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)


@pytest.fixture
def bucket(aws_env: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with mock_aws():
        use_local_credentials(monkeypatch)
        client = boto3.client("s3", region_name=REGION)
        client.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": REGION})
        for key, size in OBJECTS.items():
            client.put_object(Bucket=BUCKET, Key=key, Body=b"\0" * size)
        yield


def s3_source(uri: str, **extra: Any) -> dict[str, Any]:
    return {"modelId": "acme/llama", "sourceUri": uri, **extra}


S3_SETTINGS = {"region": REGION}


# ------------------------------------------------------------------------------- listing sizes


@pytest.mark.parametrize(
    ("uri", "download_filter", "expected"),
    [
        pytest.param("s3://models/acme/llama", None, TOP_LEVEL, id="default-filter-top-level-only"),
        pytest.param("s3://models/acme/llama/", None, TOP_LEVEL, id="trailing-slash"),
        pytest.param("s3://models/acme/llama", {}, EVERYTHING, id="empty-filter-everything"),
        pytest.param(
            "s3://models/acme/llama",
            {"include": ["*.safetensors"]},
            2 * MI,
            id="include-replaces-default-exclude",
        ),
        pytest.param(
            "s3://models/acme/llama",
            {"exclude": ["original/*"]},
            EVERYTHING - 3 * MI,
            id="exclude-one-directory",
        ),
        pytest.param(
            "s3://models/acme/llama",
            {"include": ["*"], "exclude": ["*.pth", "*.onnx"]},
            TOP_LEVEL,
            id="include-and-exclude",
        ),
        pytest.param("s3://models/acme/llama/config.json", None, MI // 2, id="single-object"),
    ],
)
def test_s3_prefix_is_listed_and_filtered(
    bucket: None, uri: str, download_filter: Mapping[str, Any] | None, expected: int
) -> None:
    size = source_size_bytes(s3_source(uri), s3_settings=S3_SETTINGS, download_filter=download_filter)
    assert size == expected


def test_listing_follows_pagination(aws_env: None) -> None:
    with mock_aws():
        client = boto3.client("s3", region_name=REGION)
        client.create_bucket(Bucket="many", CreateBucketConfiguration={"LocationConstraint": REGION})
        for index in range(1005):  # more than one page of 1000 keys
            client.put_object(Bucket="many", Key=f"shards/part-{index:04d}.bin", Body=b"ab")
        size = source_size_bytes(s3_source("s3://many/shards"), s3_settings=S3_SETTINGS, download_filter=None)
    assert size == 2 * 1005


def test_anonymous_auth_lists_unsigned(bucket: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    monkeypatch.delenv("AWS_SESSION_TOKEN")
    settings = {"region": REGION, "auth": {"mode": "anonymous"}}
    size = source_size_bytes(s3_source("s3://models/acme/llama"), s3_settings=settings, download_filter=None)
    assert size == TOP_LEVEL


def test_custom_endpoint_with_path_addressing(aws_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    endpoint = "https://minio.storage.example:9000"
    monkeypatch.setenv("MOTO_S3_CUSTOM_ENDPOINTS", endpoint)
    with mock_aws():
        client = boto3.client("s3", region_name=REGION, endpoint_url=endpoint)
        client.create_bucket(Bucket="weights", CreateBucketConfiguration={"LocationConstraint": REGION})
        client.put_object(Bucket="weights", Key="m/model.gguf", Body=b"x" * 300)
        settings = {
            "endpoint": endpoint,
            "region": REGION,
            "addressingStyle": "path",
            "signatureVersion": "v4",
        }
        size = source_size_bytes(s3_source("s3://weights/m"), s3_settings=settings, download_filter=None)
    assert size == 300


def test_declared_size_wins_without_listing() -> None:
    class NoNetwork:
        def get_paginator(self, _: str) -> Any:
            raise AssertionError("a declared size must not list the bucket")

    source = s3_source("s3://models/acme/llama", size="3Gi")
    size = source_size_bytes(source, s3_settings={}, download_filter=None, s3_client=NoNetwork())  # type: ignore[arg-type]
    assert size == 3 * GI


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        pytest.param("64Gi", 64 * GI, id="binary-suffix"),
        pytest.param("1.5Gi", 3 * GI // 2, id="fractional-binary"),
        pytest.param("10G", 10 * 10**9, id="decimal-suffix"),
        pytest.param("1500m", 2, id="fractional-byte-rounds-up"),
        pytest.param(1024, 1024, id="plain-integer"),
    ],
)
def test_declared_sizes(size: Any, expected: int) -> None:
    source = {"sourceUri": "hf://Qwen/Qwen3-32B", "size": size}
    assert source_size_bytes(source, s3_settings=None, download_filter=None) == expected


@pytest.mark.parametrize(
    "size",
    [pytest.param("ten gigs", id="not-a-quantity"), pytest.param("-1Gi", id="negative")],
)
def test_bad_declared_size_is_an_invalid_spec(size: str) -> None:
    source = {"sourceUri": "hf://Qwen/Qwen3-32B", "size": size}
    with pytest.raises(AIMResolutionError) as err:
        source_size_bytes(source, s3_settings=None, download_filter=None, field="spec.modelSources[2]")
    assert (err.value.reason, err.value.field) == ("InvalidSpec", "spec.modelSources[2].size")


# ------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("uri", "download_filter", "fragment"),
    [
        pytest.param("s3://no-such-bucket/acme/llama", None, "does not exist", id="missing-bucket"),
        pytest.param("s3://models/acme/missing", None, "no objects under prefix", id="empty-prefix"),
        pytest.param(
            "s3://models/acme/lla", None, "no objects under prefix", id="partial-name-is-not-a-prefix"
        ),
        pytest.param(
            "s3://models/acme/llama",
            {"include": ["*.gguf"]},
            "passes the download filter",
            id="everything-filtered-out",
        ),
    ],
)
def test_unsizable_s3_sources_are_cache_size_unknown(
    bucket: None, uri: str, download_filter: Mapping[str, Any] | None, fragment: str
) -> None:
    with pytest.raises(AIMResolutionError) as err:
        source_size_bytes(
            s3_source(uri),
            s3_settings=S3_SETTINGS,
            download_filter=download_filter,
            field="spec.modelSources[0]",
        )
    assert err.value.reason == "CacheSizeUnknown"
    assert err.value.field == "spec.modelSources[0].sourceUri"
    assert uri in str(err.value)
    assert fragment in err.value.message
    assert "size" in err.value.message


def test_access_denied_is_cache_size_unknown(aws_env: None) -> None:
    client = boto3.client("s3", region_name=REGION)
    with Stubber(client) as stubber:
        stubber.add_client_error(
            "list_objects_v2",
            service_error_code="AccessDenied",
            service_message="Access Denied",
            http_status_code=403,
        )
        with pytest.raises(AIMResolutionError) as err:
            source_size_bytes(
                s3_source("s3://private/acme"),
                s3_settings=S3_SETTINGS,
                download_filter=None,
                s3_client=client,
            )
    assert err.value.reason == "CacheSizeUnknown"
    assert "s3://private/acme" in str(err.value)
    assert "AccessDenied" in err.value.message


def test_hf_source_without_size_asks_for_one() -> None:
    source = {"modelId": "Qwen/Qwen3-32B", "sourceUri": "hf://Qwen/Qwen3-32B"}
    with pytest.raises(AIMResolutionError) as err:
        source_size_bytes(source, s3_settings=None, download_filter=None, field="spec.modelSources[0]")
    assert err.value.reason == "CacheSizeUnknown"
    assert err.value.field == "spec.modelSources[0].size"
    assert "hf://Qwen/Qwen3-32B" in str(err.value)
    assert "`size`" in err.value.message


@pytest.mark.parametrize(
    ("key", "download_filter", "expected"),
    [
        pytest.param("model.safetensors", None, True, id="default-keeps-top-level"),
        pytest.param("original/model.pth", None, False, id="default-drops-nested"),
        pytest.param("original/model.pth", {}, True, id="empty-filter-keeps-all"),
        pytest.param("Model.SAFETENSORS", {"include": ["*.safetensors"]}, False, id="case-sensitive"),
        pytest.param("a.bin", {"include": ["*.json"], "exclude": []}, False, id="include-must-match"),
        pytest.param(
            "a.json", {"include": ["*.json"], "exclude": ["a.*"]}, False, id="exclude-beats-include"
        ),
    ],
)
def test_download_filter(key: str, download_filter: Mapping[str, Any] | None, expected: bool) -> None:
    assert passes_filter(key, download_filter) is expected


# -------------------------------------------------------------- through the plan, end to end


@pytest.mark.parametrize(
    ("headroom", "expected_gi"),
    [
        # 2.5 MiB x (100 + h) / 100: x401 = 1002.5 MiB -> 1 Gi; x411 = 1027.5 MiB -> 2 Gi;
        # x820 = 2050 MiB -> 3 Gi (2048 MiB is exactly 2 Gi).
        pytest.param(40000, 1, id="just-under-one-gi"),
        pytest.param(41000, 2, id="just-over-one-gi-rounds-up"),
        pytest.param(81900, 3, id="just-over-two-gi-rounds-up"),
        pytest.param(None, 1, id="default-headroom"),
    ],
)
def test_s3_source_sizes_the_pvc_with_headroom_and_rounding(
    bucket: None, headroom: int | None, expected_gi: int
) -> None:
    storage = {"pvcHeadroomPercent": headroom} if headroom is not None else {}
    plans, _ = plan_caches(
        "Shared",
        CacheProfile("ml-team", "llama", {"modelSources": [s3_source("s3://models/acme/llama")]}),
        CacheConsumer(name="chat", uid="uid"),
        rc_spec={"storage": storage, "artifact": {"s3": S3_SETTINGS}},
        settings=CacheSettings(list_s3=True),
    )
    assert plans[0].size_gi == expected_gi
    assert {"name": "EXPECTED_SIZE_BYTES", "value": str(TOP_LEVEL)} in plans[0].job_env


def test_local_credentials_never_reach_a_plan_or_a_manifest(bucket: None) -> None:
    s3 = {
        "region": REGION,
        "auth": {"mode": "static", "credentialsSecretRef": {"name": "s3-creds", "sessionTokenKey": "token"}},
    }
    plans, diagnostics = plan_caches(
        "Dedicated",
        CacheProfile("ml-team", "llama", {"modelSources": [s3_source("s3://models/acme/llama")]}),
        CacheConsumer(name="chat", uid="uid"),
        rc_spec={"artifact": {"s3": s3}},
        settings=CacheSettings(list_s3=True),
    )
    assert plans[0].size_gi == 1
    assert boto3.session.Session().get_credentials().access_key == ACCESS_KEY  # type: ignore[union-attr]
    rendered = (
        json.dumps([build_cache_pvc(p) for p in plans] + [build_download_job(p) for p in plans])
        + repr(plans)
        + repr(diagnostics)
    )
    for secret in (ACCESS_KEY, SECRET_KEY, SESSION_TOKEN):
        assert secret not in rendered
    job_env = {
        var["name"]: var
        for var in build_download_job(plans[0])["spec"]["template"]["spec"]["containers"][0]["env"]
    }
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        assert set(job_env[name]) == {"name", "valueFrom"}
        assert job_env[name]["valueFrom"]["secretKeyRef"]["name"] == "s3-creds"


@pytest.mark.parametrize("mode", ["Shared", "Dedicated"])
def test_no_listing_with_local_credentials_unless_trusted_config_allows_it(
    bucket: None, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """A source the input names (bucket, endpoint) is not listed with the user's AWS credentials
    by default: the plan says it would list, where, and how to allow it (otherwise a PR planned in CI
    handed its key id and signed requests to any host the YAML named)."""
    listed: list[str] = []

    def spy(source: Mapping[str, Any], **kwargs: Any) -> int:
        listed.append(str(source["sourceUri"]))
        return 1024

    profile = CacheProfile("ml-team", "llama", {"modelSources": [s3_source("s3://models/acme/llama")]})
    s3 = {"endpoint": "http://10.0.0.1:9000"}
    with pytest.raises(AIMResolutionError) as refused:
        plan_caches(
            mode,
            profile,
            CacheConsumer(name="chat", uid="uid"),
            rc_spec={"artifact": {"s3": s3}},
            size_of=spy,
        )
    assert listed == []
    assert refused.value.reason == "CacheSizeUnknown"
    assert (
        "listing the bucket with the local AWS credentials at http://10.0.0.1:9000" in refused.value.message
    )
    assert "`aim:listS3: true`" in refused.value.message
    plans, diagnostics = plan_caches(
        mode,
        profile,
        CacheConsumer(name="chat", uid="uid"),
        rc_spec={"artifact": {"s3": s3}},
        size_of=spy,
        settings=CacheSettings(list_s3=True),
    )
    assert listed == ["s3://models/acme/llama"] and plans[0].size_gi == 1
    said = [d for d in diagnostics if d.reason == "S3Listing"]
    assert len(said) == 1 and "at http://10.0.0.1:9000" in said[0].message


def test_a_failed_listing_names_no_exception_class() -> None:
    from botocore.exceptions import NoCredentialsError

    class Client:
        def get_paginator(self, _: str) -> Any:
            raise NoCredentialsError()

    with pytest.raises(AIMResolutionError) as refused:
        source_size_bytes(
            s3_source("s3://models/acme/llama"),
            s3_settings={},
            download_filter=None,
            s3_client=Client(),  # type: ignore[arg-type]
        )
    assert "listing failed: Unable to locate credentials" in refused.value.message
    assert "NoCredentialsError" not in str(refused.value)
