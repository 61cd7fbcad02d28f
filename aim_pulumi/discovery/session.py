"""One program run's discoveries: answers from the lock, or read from the registry when allowed.

A program asks for an image's record (a model's `spec.image`) or a model source's listing; the
answer comes from `aim.lock.yaml`, and what the lock lacks is read live in `live` mode (the
default: a program whose lock is missing an image still plans, and says it read the registry),
refused in `locked` mode (`aim:discovery: locked`, for CI: an error naming the image and
`aim-pulumi discover`), and in `refresh` mode (the `discover` command) everything is read again
but for the names `refresh` lists, when given (`discover --update IMAGE` reads IMAGE again and
keeps every other entry as locked).

Reads run on a small thread pool, started as soon as a model is declared (`prefetch`), so that a
program's body and its registrations go on while the registry answers; the program's round waits
for them without blocking the event loop (`pending`). Each image is read once per run, and every
answer is remembered, so `used()` is exactly what the run named: what `discover` writes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from aim_pulumi.discovery.errors import DiscoveryError
from aim_pulumi.discovery.lock import LOCK_FILE, Lock
from aim_pulumi.discovery.model_source import (
    default_registry,
    effective_filters,
    select_images,
    source_spec_hash,
)
from aim_pulumi.discovery.reader import ReadStats
from aim_pulumi.discovery.records import ImageRecord, SourceImage, SourceRecord

__all__ = ["DISCOVERY_MODES", "Discoveries", "Mode", "Readers"]

Mode = Literal["live", "locked", "refresh"]
DISCOVERY_MODES: tuple[str, ...] = ("live", "locked")
_WORKERS = 4


@dataclass
class Readers:
    """What reads a registry: an image reader and a lister (`reader.py`, `listing.py`)."""

    read_image: Callable[[str], tuple[ImageRecord, ReadStats]]
    list_images: Callable[[Any, str, tuple[str, ...], str], list[SourceImage]]


@dataclass
class _State:
    images: dict[str, ImageRecord] = field(default_factory=dict)
    sources: dict[str, SourceRecord] = field(default_factory=dict)
    failures: dict[str, DiscoveryError] = field(default_factory=dict)
    futures: dict[str, Future[ImageRecord]] = field(default_factory=dict)
    live: set[str] = field(default_factory=set)
    stats: list[ReadStats] = field(default_factory=list)


class Discoveries:
    """The discoveries of one run; `readers` is built on first use (no registry is touched before)."""

    def __init__(
        self,
        lock: Lock,
        *,
        mode: Mode = "live",
        readers: Callable[[], Readers] | None = None,
        refresh: Iterable[str] | None = None,
        where: str = LOCK_FILE,
    ) -> None:
        self.lock = lock
        self.mode = mode
        self.where = where
        self._make_readers = readers
        self._readers: Readers | None = None
        self._refresh = frozenset(refresh) if refresh is not None else None
        self._state = _State()
        self._lock = threading.RLock()
        self._pool: ThreadPoolExecutor | None = None
        self._source_futures: dict[str, Future[SourceRecord]] = {}

    # ------------------------------------------------------------------ what the catalog asks

    def image(self, image: str) -> ImageRecord:
        """The record of `image`; raises DiscoveryError when it cannot be had."""
        with self._lock:
            if image in self._state.images:
                return self._state.images[image]
            if image in self._state.failures:
                raise self._state.failures[image]
            future = self._state.futures.get(image)
        if future is not None:
            return future.result()
        return self._answer(image)

    def prefetch(self, image: str) -> Future[ImageRecord] | None:
        """Start reading `image` in the background when the lock will not answer for it.

        The read is returned for the caller to wait on (None when nothing needs reading).
        """
        if not image or self.mode == "locked" or self._make_readers is None:
            return None
        if self._from_lock(image) is not None:
            return None
        with self._lock:
            if image in self._state.images or image in self._state.failures:
                return None
            if image not in self._state.futures:
                self._state.futures[image] = self._submit(self._answer, image)
            return self._state.futures[image]

    def prefetch_source(self, name: str, spec: Mapping[str, Any]) -> Future[SourceRecord] | None:
        """Start listing model source `name` in the background when the lock will not answer."""
        if self.mode == "locked" or self._make_readers is None or self._locked_source(name, spec):
            return None
        with self._lock:
            if name in self._state.sources or name in self._state.failures:
                return None
            if name not in self._source_futures:
                self._source_futures[name] = self._submit(self._listed, name, dict(spec))
            return self._source_futures[name]

    def pending(self) -> list[Future[Any]]:
        """The reads still running (the program's round waits for them before it resolves)."""
        with self._lock:
            running: list[Future[Any]] = [*self._state.futures.values(), *self._source_futures.values()]
            return [f for f in running if not f.done()]

    def read_live(self, image: str) -> bool:
        """Whether this run read `image` from its registry rather than from the lock."""
        with self._lock:
            return image in self._state.live

    def source(self, name: str, spec: Mapping[str, Any]) -> SourceRecord:
        """What model source `name` (its `spec`) materialises; listed live when the lock cannot say."""
        with self._lock:
            if name in self._state.sources:
                return self._state.sources[name]
            if name in self._state.failures:
                raise self._state.failures[name]
            future = self._source_futures.get(name)
        if future is not None:
            return future.result()
        return self._listed(name, spec)

    # ------------------------------------------------------------------ what discover reads back

    def used(self) -> Lock:
        """The images and sources this run answered for, as a lock."""
        with self._lock:
            return Lock(dict(self._state.images), dict(self._state.sources))

    def failures(self) -> dict[str, DiscoveryError]:
        with self._lock:
            return dict(self._state.failures)

    def stats(self) -> list[ReadStats]:
        with self._lock:
            return list(self._state.stats)

    def live_images(self) -> list[str]:
        with self._lock:
            return sorted(self._state.live)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    # ------------------------------------------------------------------ answers

    def _from_lock(self, image: str) -> ImageRecord | None:
        record = self.lock.images.get(image)
        if record is None:
            return None
        if self.mode == "refresh" and (self._refresh is None or image in self._refresh):
            return None
        return record

    def _locked_source(self, name: str, spec: Mapping[str, Any]) -> SourceRecord | None:
        locked = self.lock.sources.get(name)
        if locked is None or locked.spec_hash != source_spec_hash(spec):
            return None
        if self.mode == "refresh" and (self._refresh is None or name in self._refresh):
            return None
        return locked

    def _answer(self, image: str) -> ImageRecord:
        record = self._from_lock(image)
        try:
            if record is None:
                if self.mode == "locked":
                    raise DiscoveryError(
                        "NotInLock",
                        f"not in {self.where} and aim:discovery is locked: "
                        "run `aim-pulumi discover` to add it",
                        image=image,
                    )
                record, stats = self._get_readers(image).read_image(image)
                with self._lock:
                    self._state.live.add(image)
                    self._state.stats.append(stats)
        except DiscoveryError as error:
            with self._lock:
                self._state.failures[image] = error
            raise
        with self._lock:
            self._state.images[image] = record
        return record

    def _listed(self, name: str, spec: Mapping[str, Any]) -> SourceRecord:
        try:
            record = self._locked_source(name, spec)
            if record is None:
                if self.mode == "locked":
                    why = "is not in" if name not in self.lock.sources else "changed since it was written to"
                    raise DiscoveryError(
                        "NotInLock",
                        f"model source {name} {why} {self.where} and aim:discovery is locked: "
                        "run `aim-pulumi discover`",
                    )
                record = self._list(name, spec, self.lock.sources.get(name))
        except DiscoveryError as error:
            with self._lock:
                self._state.failures[name] = error
            raise
        with self._lock:
            self._state.sources[name] = record
        return record

    def _submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="aim-discovery")
        return self._pool.submit(function, *args)

    def _get_readers(self, image: str) -> Readers:
        with self._lock:
            if self._readers is None:
                if self._make_readers is None:
                    raise DiscoveryError(
                        "NotInLock", f"not in {self.where}, and this run reads no registry", image=image
                    )
                self._readers = self._make_readers()
            return self._readers

    def _list(self, name: str, spec: Mapping[str, Any], previous: SourceRecord | None) -> SourceRecord:
        readers = self._get_readers(f"model source {name}")
        registry = default_registry(spec)
        versions = tuple(str(v) for v in spec.get("versions") or ())
        listed: list[SourceImage] = []
        for parsed in effective_filters(spec):
            listed.extend(readers.list_images(parsed, registry, versions, f"model source {name}"))
        return select_images(name, spec, listed, previous)


def registry_readers(
    *,
    credentials: Any = None,
    insecure: Iterable[str] = (),
    cache_dir: Any = None,
    progress: Callable[[str], None] | None = None,
    limits: Any = None,
    hub: str | None = None,
    mirrors: Mapping[str, str] | None = None,
) -> Readers:
    """Readers over real registries: one client (credentials, plain-HTTP hosts, bounds), one cache.

    `cache_dir` None means the user's cache directory (`cache.default_cache_dir`).
    """
    from aim_pulumi.discovery.cache import DiscoveryCache, default_cache_dir
    from aim_pulumi.discovery.client import RegistryClient
    from aim_pulumi.discovery.listing import DOCKER_HUB_WEB, RegistryLister
    from aim_pulumi.discovery.reader import ImageReader

    client = RegistryClient(credentials, insecure=frozenset(insecure), limits=limits, mirrors=mirrors)
    reader = ImageReader(
        client, DiscoveryCache(cache_dir if cache_dir is not None else default_cache_dir()), progress
    )
    lister = RegistryLister(client, hub=hub or DOCKER_HUB_WEB)
    return Readers(read_image=reader.discover, list_images=lister.images)
