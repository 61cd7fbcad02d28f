"""The registry's HTTP API (the OCI distribution spec), bounded in time, tries and bytes.

urllib3 is the transport: it is already a dependency (the Kubernetes client's), streams bodies,
and takes separate connect and read timeouts. A registry library was considered: oras-py writes
every blob to disk before handing it over and pulls `requests` in; discovery must stream layers
and keep nothing of them but a few small files, so the little the distribution API needs (the
token flow, retries, redirects) is written here, against the spec rather than one registry's
quirks.

- Authentication: a request goes out with what worked last for its host and scope; a 401's
  `WWW-Authenticate` challenge says what to do. `Bearer realm=...,service=...,scope=...` gets a
  token from the realm (anonymously, or with the registry's login as Basic credentials),
  `Basic` gets the login itself. Credentials (`credentials.py`) are never logged or put in an
  error; an error says whether a login was known and where it came from.
- Plain HTTP only to this machine (`localhost`, loopback addresses) or to hosts the user lists
  (`aim:insecureRegistries`); HTTPS everywhere else, with the system's trust store.
- A 429 or 5xx answer, a refused or reset connection and a timeout are tried again, at most
  `Limits.attempts` times in all, after `Retry-After` or an exponential pause (both capped).
- Redirects (blob storage often answers with one) are followed up to five times; the
  Authorization header is not sent to another host.
- Every body is read with a bound; `bytes_read` counts what came over the wire.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

import urllib3
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import NewConnectionError, ProtocolError, TimeoutError

from aim_pulumi.discovery.credentials import Credentials, Login
from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.reference import is_loopback

__all__ = ["Limits", "RegistryClient", "RegistryResponse"]

_RETRIED_STATUS = frozenset({429, 500, 502, 503, 504})
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_MAX_REDIRECTS = 5
_CHALLENGE_PARAM = re.compile(r'(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))')
_MAX_TOKEN_BYTES = 64 * 1024
# urllib3 2 tells a name that does not resolve from a refused connection; 1.26 does not.
_NAME_RESOLUTION: type[BaseException] | None = getattr(urllib3.exceptions, "NameResolutionError", None)


@dataclass(frozen=True)
class Limits:
    """How long, how often and how much discovery may read; every bound has an error of its own."""

    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    attempts: int = 4
    backoff_seconds: float = 0.5
    max_backoff_seconds: float = 10.0
    max_manifest_bytes: int = 4 * 1024 * 1024
    max_config_bytes: int = 8 * 1024 * 1024
    max_listing_bytes: int = 16 * 1024 * 1024
    max_listing_pages: int = 1000
    listing_page_size: int = 100
    # Profile files: one is a few kilobytes; an image has a few dozen.
    max_profile_bytes: int = 1024 * 1024
    max_profile_files: int = 4096
    # Tar entries of one layer (a CUDA or ROCm base layer has a few hundred thousand).
    max_layer_entries: int = 5_000_000


class RegistryResponse:
    """A streamed response body; `read_all` bounds what is read, `chunks` counts as it goes."""

    def __init__(self, client: RegistryClient, raw: Any, url: str) -> None:
        self._client = client
        self.raw = raw
        self.url = url
        self.status: int = raw.status
        self.headers: Mapping[str, str] = raw.headers

    def chunks(self, size: int = 256 * 1024) -> Iterator[bytes]:
        for chunk in self.raw.stream(size, decode_content=False):
            self._client.count(len(chunk))
            yield chunk

    def read_all(self, limit: int, what: str, image: str) -> bytes:
        out = bytearray()
        for chunk in self.chunks():
            out.extend(chunk)
            if len(out) > limit:
                self.close()
                raise DiscoveryError(
                    "InvalidManifest",
                    f"the {what} is larger than {limit} bytes; refusing to read it",
                    image=image,
                )
        return bytes(out)

    def close(self) -> None:
        _done_with(self.raw)


class RegistryClient:
    """Requests to registries, with authentication, retries and redirects; safe across threads.

    `insecure` lists hosts (host or host:port) that may be reached over plain HTTP besides this
    machine. `sleep` is what pauses between tries (tests pass one that records instead).
    """

    def __init__(
        self,
        credentials: Credentials | None = None,
        *,
        insecure: frozenset[str] = frozenset(),
        limits: Limits | None = None,
        sleep: Callable[[float], None] = time.sleep,
        pool: urllib3.PoolManager | None = None,
        mirrors: Mapping[str, str] | None = None,
    ) -> None:
        self.credentials = credentials or Credentials()
        self.mirrors = dict(mirrors or {})
        self.insecure = frozenset(insecure)
        self.limits = limits or Limits()
        self._sleep = sleep
        self._pool = pool or urllib3.PoolManager(
            num_pools=16,
            maxsize=8,
            retries=False,
            timeout=urllib3.Timeout(connect=self.limits.connect_timeout, read=self.limits.read_timeout),
        )
        self._auth: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()
        self._bytes = 0

    # ------------------------------------------------------------------ accounting

    def count(self, n: int) -> None:
        with self._lock:
            self._bytes += n

    @property
    def bytes_read(self) -> int:
        with self._lock:
            return self._bytes

    # ------------------------------------------------------------------ URLs

    def scheme(self, host: str) -> str:
        return "http" if is_loopback(host) or host in self.insecure else "https"

    def url(self, host: str, path: str) -> str:
        """The URL of `path` on `host`, or on the mirror that stands in for it (`mirrors`)."""
        target = self.mirrors.get(host, host)
        return f"{self.scheme(target)}://{target}{path}"

    def _check_scheme(self, url: str, image: str) -> None:
        parts = urlsplit(url)
        host = parts.netloc.rpartition("@")[2]
        if parts.scheme == "https":
            return
        if parts.scheme == "http" and (is_loopback(host) or host in self.insecure):
            return
        raise DiscoveryError(
            "InsecureRegistry",
            f"{parts.scheme}://{host} is not HTTPS; plain HTTP is used only for this machine and the hosts "
            "listed in aim:insecureRegistries",
            image=image,
        )

    # ------------------------------------------------------------------ requests

    def get(
        self,
        host: str,
        path: str,
        *,
        scope: str,
        image: str,
        accept: str | None = None,
        method: str = "GET",
        absolute: str | None = None,
    ) -> RegistryResponse:
        """GET (or HEAD) `path` on `host`, authenticated for `scope`; the caller closes the response.

        A 2xx response is returned; 401, 403 and a retried-out 429/5xx raise; other statuses are
        returned for the caller to judge (404 means something different for each request).
        """
        url = absolute or self.url(host, path)
        headers = {"Accept": accept} if accept else {}
        key = (host, scope)
        tried_auth = False
        while True:
            with self._lock:
                auth = self._auth.get(key)
            response = self._send(method, url, headers, auth, host, image)
            if response.status != 401:
                if response.status == 403:
                    response.close()
                    raise self._forbidden(host, scope, image)
                return response
            challenge = response.headers.get("WWW-Authenticate", "")
            response.close()
            if tried_auth:
                raise self._unauthorized(host, image, refused=True)
            tried_auth = True
            value = self._answer(challenge, host, scope, image)
            with self._lock:
                self._auth[key] = value

    def get_json(self, host: str, path: str, *, scope: str, image: str, limit: int, what: str) -> Any:
        response = self.get(host, path, scope=scope, image=image, accept="application/json")
        try:
            if response.status != 200:
                raise DiscoveryError(
                    "ListingFailed", f"{what}: the registry answered {response.status}", image=image
                )
            body = response.read_all(limit, what, image)
        finally:
            response.close()
        try:
            return json.loads(body)
        except ValueError:
            raise DiscoveryError(
                "ListingFailed", f"{what}: the registry's answer is not JSON", image=image
            ) from None

    def _send(
        self, method: str, url: str, headers: dict[str, str], auth: str | None, host: str, image: str
    ) -> RegistryResponse:
        """One request with retries, following redirects (no Authorization to another host)."""
        for _ in range(_MAX_REDIRECTS + 1):
            self._check_scheme(url, image)
            sent = dict(headers)
            target_host = urlsplit(url).netloc
            if auth and target_host == self.mirrors.get(host, host):
                sent["Authorization"] = auth
            raw = self._with_retries(method, url, sent, image)
            if raw.status in _REDIRECTS and raw.headers.get("Location"):
                location = raw.headers["Location"]
                _done_with(raw)
                url = urljoin(url, location)
                continue
            return RegistryResponse(self, raw, url)
        raise DiscoveryError(
            "RegistryUnavailable", f"more than {_MAX_REDIRECTS} redirects from {host}", image=image
        )

    def _with_retries(self, method: str, url: str, headers: Mapping[str, str], image: str) -> Any:
        host = urlsplit(url).netloc
        last: str = ""
        for attempt in range(1, self.limits.attempts + 1):
            try:
                raw = self._pool.request(
                    method, url, headers=dict(headers), preload_content=False, redirect=False, retries=False
                )
            except NewConnectionError as error:
                # A subclass of the connect timeout in urllib3, but a name that does not resolve
                # or a refused connection is said as such, and not tried again.
                if _NAME_RESOLUTION is not None and isinstance(error, _NAME_RESOLUTION):
                    raise DiscoveryError(
                        "RegistryUnreachable",
                        f"{host} could not be resolved (no such host, or no network)",
                        image=image,
                    ) from None
                # Nothing listens there: not a pause's worth of waiting either.
                raise DiscoveryError(
                    "RegistryUnreachable",
                    f"{host} refused the connection (is the registry running?)",
                    image=image,
                ) from None
            except TimeoutError:
                last = "timed out"
                reason = "RegistryTimeout"
            except (ProtocolError, Urllib3Error, OSError) as error:
                last = _network_words(error)
                reason = "RegistryUnreachable"
            else:
                if raw.status not in _RETRIED_STATUS:
                    return raw
                last = f"answered {raw.status}"
                reason = "RateLimited" if raw.status == 429 else "RegistryUnavailable"
                pause = _retry_after(raw.headers.get("Retry-After"))
                _done_with(raw)
                if attempt < self.limits.attempts:
                    self._pause(attempt, pause)
                    continue
                break
            if attempt < self.limits.attempts:
                self._pause(attempt, None)
        raise DiscoveryError(
            reason,
            f"{host} {last} {self.limits.attempts} times in a row; try again later"
            + (" (the registry limits how often it may be asked)" if reason == "RateLimited" else ""),
            image=image,
        )

    def _pause(self, attempt: int, asked: float | None) -> None:
        limits = self.limits
        delay = asked if asked is not None else limits.backoff_seconds * (2 ** (attempt - 1))
        self._sleep(min(max(delay, 0.0), limits.max_backoff_seconds))

    # ------------------------------------------------------------------ authentication

    def _answer(self, challenge: str, host: str, scope: str, image: str) -> str:
        scheme, _, rest = challenge.strip().partition(" ")
        params = {
            m.group(1).lower(): m.group(2) if m.group(2) is not None else m.group(3)
            for m in _CHALLENGE_PARAM.finditer(rest)
        }
        login = self.credentials.for_registry(_registry_name(host))
        if scheme.lower() == "basic":
            if login is None:
                raise self._unauthorized(host, image, refused=False)
            return _basic(login)
        if scheme.lower() != "bearer" or not params.get("realm"):
            raise DiscoveryError(
                "Unauthorized",
                f"{host} asks for an authentication scheme discovery does not speak: {scheme or '(none)'}",
                image=image,
            )
        query = {"service": params.get("service") or ""}
        query["scope"] = params.get("scope") or scope
        realm = params["realm"]
        url = f"{realm}{'&' if '?' in realm else '?'}{urlencode({k: v for k, v in query.items() if v})}"
        headers = {"Accept": "application/json"}
        if login is not None:
            headers["Authorization"] = _basic(login)
        self._check_scheme(url, image)
        raw = self._with_retries("GET", url, headers, image)
        response = RegistryResponse(self, raw, url)
        try:
            if raw.status in (401, 403):
                raise self._unauthorized(host, image, refused=login is not None)
            if raw.status != 200:
                raise DiscoveryError(
                    "Unauthorized", f"the token service of {host} answered {raw.status}", image=image
                )
            body = response.read_all(_MAX_TOKEN_BYTES, "token", image)
        finally:
            response.close()
        try:
            answer = json.loads(body)
            token = answer.get("token") or answer.get("access_token")
        except (ValueError, AttributeError):
            token = None
        if not isinstance(token, str) or not token:
            raise DiscoveryError("Unauthorized", f"the token service of {host} gave no token", image=image)
        return f"Bearer {token}"

    def _unauthorized(self, host: str, image: str, *, refused: bool) -> DiscoveryError:
        login = self.credentials.for_registry(_registry_name(host))
        if login is None or not refused:
            return DiscoveryError(
                "Unauthorized",
                f"{host} asks for a login and none is known for it: "
                f"run `docker login {_registry_name(host)}` "
                "or give the program aim:registryAuth (a secret)",
                image=image,
            )
        return DiscoveryError(
            "Unauthorized",
            f"{host} refused the login of user {login.username!r} (from {login.origin}); "
            "check those credentials",
            image=image,
        )

    def _forbidden(self, host: str, scope: str, image: str) -> DiscoveryError:
        login = self.credentials.for_registry(_registry_name(host))
        who = f"user {login.username!r} (from {login.origin})" if login is not None else "anonymous access"
        return DiscoveryError(
            "Forbidden",
            f"{host} denies {who} to {scope.split(':')[1] if ':' in scope else scope} (403)",
            image=image,
        )


def _done_with(raw: Any) -> None:
    """Give the connection back: read out a small unread body, else close the connection, so the
    next request on it never reads this one's leftovers."""
    try:
        remaining = raw.length_remaining
        if remaining is not None and remaining <= 64 * 1024:
            raw.drain_conn()
        elif not raw.closed and remaining != 0:
            raw.close()
    except (Urllib3Error, OSError):
        raw.close()
    raw.release_conn()


def _registry_name(host: str) -> str:
    return "docker.io" if host == "registry-1.docker.io" else host


def _basic(login: Login) -> str:
    import base64

    pair = f"{login.username}:{login.password.reveal()}".encode()
    return "Basic " + base64.b64encode(pair).decode("ascii")


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return float(value.strip())
    except ValueError:
        return None


def _network_words(error: BaseException) -> str:
    """What went wrong on the wire, without a URL that might carry a token."""
    text = type(error).__name__
    inner = getattr(error, "reason", None)
    if inner is not None:
        text = f"{text} ({type(inner).__name__})"
    words = {
        "NewConnectionError": "refused the connection",
        "MaxRetryError": "could not be reached",
        "ProtocolError": "broke the connection",
        "SSLError": "failed the TLS handshake",
        "NameResolutionError": "could not be resolved",
    }
    for name, said in words.items():
        if name in text:
            return said
    return f"could not be reached ({text})"
