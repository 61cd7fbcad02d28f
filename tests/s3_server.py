"""A local S3 endpoint for the listing tests: ListObjectsV2 over real HTTP on 127.0.0.1.

The package makes one S3 call (`list_objects_v2`, paginated) to size a model source. These tests
serve that call from buckets held in memory, so boto3 and botocore run unchanged: endpoint
resolution, path addressing, SigV4 signing or none, the XML parser, the paginator, the error
codes. Every request is kept, so a test can check how it was addressed and signed.

A whole S3 mock (moto) served the same purpose; it brought a web framework, cryptography and
seven more distributions into a cold install for this one call. What is served here follows
the S3 API reference for ListObjectsV2: at most 1,000 keys a page in key order, an opaque
`NextContinuationToken` while `IsTruncated`, keys URL-encoded when the client asks for
`encoding-type=url` (botocore does), and `NoSuchBucket` (404) for an unknown bucket.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, unquote, urlsplit
from xml.sax.saxutils import escape

PAGE = 1000
NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/"


@dataclass(frozen=True)
class Request:
    """What one request asked for: the bucket (path addressing), its query and its headers."""

    method: str
    bucket: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass
class LocalS3:
    """Buckets of `key -> size` served at `url`; `requests` holds every request received."""

    url: str = ""
    buckets: dict[str, dict[str, int]] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)

    def list_page(self, bucket: str, query: dict[str, str]) -> tuple[int, str]:
        """The status and XML body of a ListObjectsV2 request."""
        if bucket not in self.buckets:
            return 404, (
                "<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message>"
                f"<BucketName>{escape(bucket)}</BucketName></Error>"
            )
        if query.get("list-type") != "2":
            return 400, "<Error><Code>NotImplemented</Code><Message>only ListObjectsV2</Message></Error>"
        prefix = query.get("prefix", "")
        page = min(int(query.get("max-keys", PAGE)), PAGE)
        after = query.get("continuation-token", "")
        keys = sorted(k for k in self.buckets[bucket] if k.startswith(prefix) and k > after)
        shown, truncated = keys[:page], len(keys) > page
        encode = query.get("encoding-type") == "url"

        def text(value: str) -> str:
            return escape(quote(value, safe="/") if encode else value)

        contents = "".join(
            f"<Contents><Key>{text(key)}</Key><Size>{self.buckets[bucket][key]}</Size>"
            "<StorageClass>STANDARD</StorageClass></Contents>"
            for key in shown
        )
        token = f"<NextContinuationToken>{escape(shown[-1])}</NextContinuationToken>" if truncated else ""
        return 200, (
            f'<ListBucketResult xmlns="{NAMESPACE}"><Name>{escape(bucket)}</Name>'
            f"<Prefix>{text(prefix)}</Prefix><KeyCount>{len(shown)}</KeyCount><MaxKeys>{page}</MaxKeys>"
            f"{'<EncodingType>url</EncodingType>' if encode else ''}"
            f"<IsTruncated>{'true' if truncated else 'false'}</IsTruncated>{token}{contents}"
            "</ListBucketResult>"
        )


@contextmanager
def local_s3(buckets: dict[str, dict[str, int]] | None = None) -> Iterator[LocalS3]:
    """Serve `buckets` on 127.0.0.1 (a free port) until the block ends."""
    s3 = LocalS3(buckets=dict(buckets or {}))

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            bucket = unquote(parts.path.lstrip("/").split("/", 1)[0])
            query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            s3.requests.append(Request("GET", bucket, query, {k.lower(): v for k, v in self.headers.items()}))
            status, body = s3.list_page(bucket, query)
            data = ('<?xml version="1.0" encoding="UTF-8"?>\n' + body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:  # quiet: pytest shows failures
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    s3.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield s3
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
