"""The fuzz suite's inputs judged by a real API server: what the project plans, Kubernetes stores.

A deterministic sample of generated inputs, for each of several seeds (`hostile.corpus`: the fuzz
suite's text attacks and field mutations of its base stack, and the child-level mutations that put
env names, values and sources, quantities and resource names (a fallback runtime's too), key
references, service account, priority class, pull secret and storage class names and ConfigMap data
keys into the children, and broken plain objects beside them: Secret data and types, Services,
ConfigMaps with binary data, some of them inside a `kind: List`) is planned in-process as `aim-pulumi
plan FILE --validate` plans it. Then:

- accepted inputs: every manifest is created with `?dryRun=All&fieldValidation=Strict` (nothing is
  stored), and every InferenceService predictor also as the Pod KServe makes of it (and as the
  Deployment that holds that Pod's template); the API server must refuse none;
- refusals for a child-level reason: an input whose refusal names a Go rule of the children is
  planned again with the rules of `aim_pulumi/schemas/pod_rules.py` switched off. When it then plans,
  the project refused it for those rules alone, and its children now carry the refused values: the
  API server must refuse exactly the children the rules name, as invalid (400/422).

Inputs that declare one Kubernetes object twice are refused by the project every time (the API
server cannot judge them: each object alone is valid).

Run with `-s` to see the figures, one line per seed. The namespaces of the children, the service
accounts their Pods run as and the priority classes they name are created for real, once: a Pod
cannot be created, even in a dry run, when they do not exist, and nothing can be created in a
namespace that does not. `AIM_PULUMI_FUZZ_SEEDS` (comma-separated) replaces the seeds.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import http.client
import json
import os
import re
import ssl
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from cluster import TestCluster
from hostile.corpus import Case, child_value_mutations, corpus, duplicate_objects
from kube import CLUSTER_SCOPED, ApiError, object_path

from aim_pulumi.api import common as admission_rules
from aim_pulumi.cli.execution import execute
from aim_pulumi.cli.project import load_program
from aim_pulumi.offline.plan_document import kubernetes_manifests, validation_problems
from aim_pulumi.schemas import builtin, manifest_identity, pod_rules, validate_manifest
from aim_pulumi.schemas.builtin import PREDICTOR_IMPLEMENTATIONS
from aim_pulumi.schemas.structural import schema_for

pytestmark = pytest.mark.cluster

SEEDS = tuple(int(seed) for seed in os.environ.get("AIM_PULUMI_FUZZ_SEEDS", "17,18,19").split(","))
GENERIC_INPUTS = 100  # field mutations of the fuzz suite's base stack (after its text attacks), per seed
CHILD_INPUTS = 350  # child-level mutations, per seed
DUPLICATE_INPUTS = 12  # one object declared twice, per seed
WORKERS = 4  # dry runs in flight while the next input plans
DEFAULT_SERVICE_ACCOUNT = "default"
AS_POD = " as a Pod"
AS_DEPLOYMENT = " as a Deployment"

# --------------------------------------------------------------------------- the Pod of a predictor


def _properties(schema: Mapping[str, Any] | None, *path: str) -> frozenset[str]:
    node: Any = schema
    for key in path:
        node = node[key]
    return frozenset(node["properties"])


# The predictor inlines a core PodSpec: its fields are the pod's; the others are KServe's own
# (replicas, scaling, the pod's extra metadata, the model implementations).
_PREDICTOR_PROPERTIES = _properties(
    schema_for("serving.kserve.io/v1beta1", "InferenceService"),
    "properties",
    "spec",
    "properties",
    "predictor",
)
POD_FIELDS = _PREDICTOR_PROPERTIES & _properties(
    schema_for("batch/v1", "Job"), "$defs", "io.k8s.api.core.v1.PodSpec"
)
KSERVE_FIELDS = _PREDICTOR_PROPERTIES - POD_FIELDS
IMPLEMENTATIONS = frozenset((*PREDICTOR_IMPLEMENTATIONS, "workerSpec"))
ISVC_LABEL = "serving.kserve.io/inferenceservice"


def predictor_pod(isvc: Mapping[str, Any]) -> dict[str, Any]:
    """The Pod KServe's Deployment makes of an InferenceService's predictor.

    Its spec is the predictor's PodSpec fields; its metadata the InferenceService's labels and
    annotations with the predictor's own over them, and KServe's `serving.kserve.io/inferenceservice`
    label. The project emits `containers` only, never a model implementation (`model`, `sklearn`,
    ...) whose container KServe builds from a ServingRuntime: one here fails the conversion rather
    than being guessed at.
    """
    predictor: Mapping[str, Any] = isvc["spec"]["predictor"]
    implementations = sorted(set(predictor) & IMPLEMENTATIONS)
    assert not implementations, f"a predictor with a model implementation {implementations}: not converted"
    unknown = sorted(set(predictor) - POD_FIELDS - KSERVE_FIELDS)
    assert not unknown, f"predictor fields that are neither PodSpec's nor KServe's: {unknown}"
    meta: Mapping[str, Any] = isvc["metadata"]
    metadata: dict[str, Any] = {
        "name": f"{meta['name']}-predictor",
        "namespace": meta["namespace"],
        "labels": {**(meta.get("labels") or {}), **(predictor.get("labels") or {}), ISVC_LABEL: meta["name"]},
    }
    annotations = {**(meta.get("annotations") or {}), **(predictor.get("annotations") or {})}
    if annotations:
        metadata["annotations"] = annotations
    spec = {key: value for key, value in predictor.items() if key in POD_FIELDS}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}


def predictor_deployment(pod: Mapping[str, Any]) -> dict[str, Any]:
    """The Deployment KServe creates in its Standard mode, whose template is that Pod.

    Its pod template is validated as a Pod is, without the service-account lookup of a Pod's
    admission, so a service account name no object can have is judged by validation itself.
    """
    meta = pod["metadata"]
    selector = {ISVC_LABEL: meta["labels"][ISVC_LABEL]}
    template = {key: value for key, value in meta.items() if key in ("labels", "annotations")}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": meta["name"], "namespace": meta["namespace"], "labels": selector},
        "spec": {
            "selector": {"matchLabels": selector},
            "template": {"metadata": template, "spec": pod["spec"]},
        },
    }


def dry_run_targets(manifests: Iterable[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(what, object): every manifest, and after an InferenceService its predictor's Pod and Deployment."""
    targets = []
    for manifest in manifests:
        what = manifest_identity(manifest)
        targets.append((what, manifest))
        if manifest["kind"] == "InferenceService":
            pod = predictor_pod(manifest)
            targets += [(what + AS_POD, pod), (what + AS_DEPLOYMENT, predictor_deployment(pod))]
    return targets


# --------------------------------------------------------------------------- planning


@dataclass
class Planned:
    """One input planned: its manifests as `plan --yaml - --show-secrets` writes them, or the refusal."""

    refusal: str | None
    manifests: list[dict[str, Any]] = field(default_factory=list)


def plan_case(case: Case, directory: Path) -> Planned:
    """`aim-pulumi plan FILE --validate`, in-process: refused when the plan fails or `--validate`
    finds a problem in a manifest."""
    path = directory / "input.yaml"
    path.write_bytes(case.data)
    # The engine's sweep after a failed run walks every object of the process: what earlier inputs
    # left is frozen out of it, so each input costs what it costs a `plan` command.
    gc.collect()
    gc.freeze()
    run = execute(load_program(str(path)))
    if run.error is not None:
        return Planned(run.error.line)
    assert run.recording is not None
    problems = validation_problems(run.recording)
    if problems:
        return Planned("--validate: " + "; ".join(problems))
    return Planned(None, kubernetes_manifests(run.recording, show_secrets=True))


@contextlib.contextmanager
def go_rules_off() -> Iterator[None]:
    """Plan as if the Go rules of the pods' fields did not exist, in admission and in the children's
    check alike: env names, config keys, quantity values, request against limit, and the DNS-1123
    names of service accounts, key references and storage classes. The NUL-in-an-env-value rule
    stays: it is not the API server's (test_oracle_cluster)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in (
            "env_name_errors", "config_map_key_errors", "dns1123_subdomain_errors", "value_from_errors",
            "container_resource_name_errors",
        ):  # fmt: skip
            patch.setattr(pod_rules, name, lambda value: [])
        patch.setattr(pod_rules, "quantity_value_errors", lambda name, raw: [])
        patch.setattr(pod_rules, "_resource_errors", lambda resources, path: [])
        patch.setattr(admission_rules, "key_selector_rules", lambda selector: [])
        # The Go rules of plain objects: Secret, ConfigMap and Service validation.
        go_coded = (builtin.secret_rules, builtin.config_map_rules, builtin.service_rules)
        rules = {
            kind: tuple(r for r in found if r not in go_coded)
            for kind, found in builtin.BUILTIN_RULES.items()
        }
        patch.setattr(builtin, "BUILTIN_RULES", rules)
        yield


# A refusal whose message is one of those rules' (admission words them as Go does, the children's
# check and `--validate` tag them `[apiserver]`): the candidates for a plan without them.
GO_RULE_REFUSAL = re.compile(
    r"\[apiserver\]|environment variable name|config key|RFC 1123 subdomain|greater than or equal to 0"
    r"|must be an integer|limit of|must not (?:be|start with) '\.|valueFrom|fieldPath|divisor"
    r"|standard resource|fully qualified|extended resource|integer multiple|HugePages|name part"
    r"|supported values|Required value"
)


# --------------------------------------------------------------------------- the API server


@dataclass(frozen=True)
class Answer:
    status: int
    body: str

    @property
    def stored(self) -> bool:
        return self.status in (200, 201)

    @property
    def invalid(self) -> bool:
        """Refused by validation (a field's value), not by the cluster's state."""
        return self.status in (400, 422)


class DryRuns:
    """Dry-run creates against one API server over kept-alive connections (one per thread)."""

    def __init__(self, cluster: TestCluster) -> None:
        config = yaml.safe_load(cluster.kubeconfig.read_text())
        server = urllib.parse.urlsplit(config["clusters"][0]["cluster"]["server"])
        self.host, self.port = server.hostname or "127.0.0.1", server.port or 443
        self.token = str(config["users"][0]["user"]["token"])
        ca = base64.b64decode(config["clusters"][0]["cluster"]["certificate-authority-data"]).decode()
        self.context = ssl.create_default_context(cadata=ca)
        self.kube = cluster.kube
        self.local = threading.local()
        self.namespaces: set[str] = set()
        self.service_accounts: set[tuple[str, str]] = set()
        self.priority_classes: set[str] = set()

    def _connection(self) -> http.client.HTTPSConnection:
        connection: http.client.HTTPSConnection | None = getattr(self.local, "connection", None)
        if connection is None:
            connection = http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=60)
            self.local.connection = connection
        return connection

    def create(self, manifest: Mapping[str, Any]) -> Answer:
        """The API server's answer to a dry-run create of `manifest` (nothing is stored).

        A Namespace that exists already is `AlreadyExists` (409), which the API server answers only
        once the object passed validation: it counts as stored.
        """
        meta = manifest.get("metadata") or {}
        path = object_path(str(manifest["apiVersion"]), str(manifest["kind"]), meta.get("namespace"))
        query = urllib.parse.urlencode({"dryRun": "All", "fieldValidation": "Strict"})
        body = json.dumps(manifest).encode()
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        for attempt in (1, 2):
            connection = self._connection()
            try:
                connection.request("POST", f"{path}?{query}", body, headers)
                response = connection.getresponse()
                text = response.read().decode(errors="replace")
                break
            except (http.client.HTTPException, OSError):
                connection.close()
                self.local.connection = None
                if attempt == 2:
                    raise
        if response.status == 409 and manifest["kind"] == "Namespace":
            return Answer(200, text)
        return Answer(response.status, text)

    def prepare(self, manifests: Iterable[Mapping[str, Any]]) -> None:
        """Create (for real, once) the namespaces of the manifests and the service accounts their
        Pods run as. A service account whose name no object can have is left out: its Pod is then
        judged by its Deployment."""
        for manifest in manifests:
            namespace = (manifest.get("metadata") or {}).get("namespace")
            if manifest["kind"] in CLUSTER_SCOPED or not namespace:
                continue
            if namespace not in self.namespaces:
                self.kube.ensure_namespace(namespace)
                self.namespaces.add(namespace)
            if manifest["kind"] in ("InferenceService", "Pod"):
                spec = manifest["spec"]
                pod = spec["predictor"] if manifest["kind"] == "InferenceService" else spec
                account = pod.get("serviceAccountName") or DEFAULT_SERVICE_ACCOUNT
                self._ensure_service_account(namespace, account)
                if pod.get("priorityClassName"):
                    self._ensure_priority_class(str(pod["priorityClassName"]))

    def _ensure_priority_class(self, name: str) -> None:
        """A Pod naming a priority class that does not exist is refused by admission, not validation."""
        if name in self.priority_classes:
            return
        self.priority_classes.add(name)
        manifest = {
            "apiVersion": "scheduling.k8s.io/v1",
            "kind": "PriorityClass",
            "metadata": {"name": name},
            "value": 1000,
        }
        try:
            self.kube.create(manifest)
        except ApiError as error:
            if error.status not in (409, 422):  # exists already; a name no object can have
                raise

    def _ensure_service_account(self, namespace: str, name: str) -> None:
        if (namespace, name) in self.service_accounts:
            return
        self.service_accounts.add((namespace, name))
        metadata = {"name": name, "namespace": namespace}
        account = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": metadata}
        try:
            self.kube.create(account)
        except ApiError as error:
            if error.status not in (409, 422):  # exists already; a name no object can have
                raise


# --------------------------------------------------------------------------- the run


@dataclass
class Judged:
    """One input and the API server's answer for each object made of it, by what it is."""

    case: Case
    answers: dict[str, Future[Answer]]
    # For a refusal planned again without the Go rules: the refusal, and each child's errors with
    # the rules on.
    refusal: str = ""
    project: dict[str, list[str]] = field(default_factory=dict)

    def refused(self) -> dict[str, Answer]:
        return {what: a.result() for what, a in self.answers.items() if not a.result().stored}

    def invalid(self) -> set[str]:
        """The children the API server refuses as invalid (an InferenceService by its Pod too)."""
        whats = (what for what, answer in self.refused().items() if answer.invalid)
        return {what.removesuffix(AS_POD).removesuffix(AS_DEPLOYMENT) for what in whats}

    def shown(self) -> str:
        lines = [f"input {self.case.name}:", self.case.data.decode("utf-8", errors="replace")[:3000]]
        lines += [f"  the project's refusal: {self.refusal}"] if self.refusal else []
        lines += [f"  {what}: HTTP {a.status}: {a.body[:1500]}" for what, a in self.refused().items()]
        lines += [
            f"  the project refuses {what}: {errors}" for what, errors in self.project.items() if errors
        ]
        return "\n".join(lines)


@dataclass
class Run:
    seed: int = 0
    inputs: int = 0
    duplicates: list[Planned] = field(default_factory=list)
    refused: int = 0
    candidates: int = 0
    accepted: list[Judged] = field(default_factory=list)
    sampled: list[Judged] = field(default_factory=list)
    overridden: list[Judged] = field(default_factory=list)
    planning_seconds: float = 0.0
    seconds: float = 0.0


# A profile's quantity refused at its own field (`ValidateResourceQuantityValue`): the profile is a
# catalog object every consumer's pod gets the value from, even when this stack's service overrides it.
PROFILE_QUANTITY = re.compile(
    r"AIMProfile/(?P<namespace>[^/]+)/(?P<name>[^:]+): spec\.resources\.(?P<side>requests|limits)\."
    r"(?P<resource>\S+): InvalidSpec"
)
VALUES_NAMESPACE = "fuzz-oracle-values"


def quantity_pod(resource: str, value: object) -> dict[str, Any]:
    """A minimal valid Pod but for one quantity, requested and limited alike (so that only the value
    is judged, not the request against the limit)."""
    resources = {"requests": {resource: value}, "limits": {resource: value}}
    container = {"name": "c", "image": "example.com/aim:1", "resources": resources}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "quantity", "namespace": VALUES_NAMESPACE},
        "spec": {"containers": [container]},
    }


def judge_overridden(oracle: DryRuns, pool: ThreadPoolExecutor, case: Case, refusal: str) -> Judged:
    """An input refused for a value no child of this stack carries (a later layer replaced it): the
    value is judged in a minimal Pod. A refusal of another shape gets no answer: a disagreement."""
    found = PROFILE_QUANTITY.search(refusal)
    if found is None:
        return Judged(case, {}, refusal)
    profiles = [
        doc
        for doc in yaml.safe_load_all(case.data)
        if isinstance(doc, dict)
        and doc.get("kind") == "AIMProfile"
        and (doc.get("metadata") or {}).get("name") == found["name"]
    ]
    value = profiles[0]["spec"]["resources"][found["side"]][found["resource"]]
    pod = quantity_pod(found["resource"], value)
    oracle.prepare([pod])
    what = f"{found['resource']}: {value!r} in a Pod"
    return Judged(case, {what: pool.submit(oracle.create, pod)}, refusal, {what: [refusal]})


@pytest.fixture(scope="module", params=SEEDS, ids=[f"seed-{seed}" for seed in SEEDS])
def run(request: pytest.FixtureRequest, cluster: TestCluster) -> Iterator[Run]:
    """Plan every input of one seed, and dry-run what planned while the next input plans."""
    seed = int(request.param)
    oracle = DryRuns(cluster)
    cases = corpus(seed, GENERIC_INPUTS) + child_value_mutations(seed, CHILD_INPUTS)
    result = Run(seed=seed, inputs=len(cases))
    with tempfile.TemporaryDirectory() as directory:
        result.duplicates = [
            plan_case(case, Path(directory)) for case in duplicate_objects(seed, DUPLICATE_INPUTS)
        ]
    started = time.monotonic()

    def submit(pool: ThreadPoolExecutor, case: Case, manifests: list[dict[str, Any]]) -> Judged:
        oracle.prepare(manifests)
        targets = dry_run_targets(manifests)
        return Judged(case, {what: pool.submit(oracle.create, obj) for what, obj in targets})

    try:
        with tempfile.TemporaryDirectory() as directory, ThreadPoolExecutor(WORKERS) as pool:
            for case in cases:
                planning = time.monotonic()
                planned = plan_case(case, Path(directory))
                if planned.refusal is None:
                    result.planning_seconds += time.monotonic() - planning
                    result.accepted.append(submit(pool, case, planned.manifests))
                    continue
                result.refused += 1
                if not GO_RULE_REFUSAL.search(planned.refusal):
                    result.planning_seconds += time.monotonic() - planning
                    continue
                result.candidates += 1
                with go_rules_off():
                    without = plan_case(case, Path(directory))
                result.planning_seconds += time.monotonic() - planning
                if without.refusal is None:
                    # The children's check before registration (the CEL rules are not the Go rules').
                    project = {
                        manifest_identity(m): validate_manifest(m, cel=False) for m in without.manifests
                    }
                    if any(project.values()):
                        judged = submit(pool, case, without.manifests)
                        judged.refusal, judged.project = planned.refusal, project
                        result.sampled.append(judged)
                    else:
                        result.overridden.append(judge_overridden(oracle, pool, case, planned.refusal))
            for judged in (*result.accepted, *result.sampled, *result.overridden):
                for answer in judged.answers.values():
                    answer.result()
    finally:
        gc.unfreeze()
    result.seconds = time.monotonic() - started
    yield result


# What kind of value a mutated AIM field or a refused child value holds: the classes of the issues.
# Each pattern reads both a mutated field as a case's name records it (`Kind:path=value`) and a
# refusal as the project words it (`field: message`).
_CLASSES = [
    ("key reference", re.compile(r"KeyRef\.(name|key)\b|KeyRef\W+<key>")),
    ("env name", re.compile(r"[eE]nv\W+\d+\W+name")),
    ("env value", re.compile(r"[eE]nv\W+\d+\W+value\b(?!From)")),
    ("env source", re.compile(r"valueFrom(?!\.(secret|configMap)KeyRef)")),
    (
        "quantity",
        re.compile(
            r"resources\.(requests|limits)\.[^<]*$|must be (greater than or equal to 0|an integer)|limit of"
            r"|Limit must be set|integer multiple|HugePages"
        ),
    ),
    (
        "resource name",
        re.compile(
            r"resources\.(requests|limits)\.[^=]*<key>|standard resource|fully qualified|extended resource"
        ),
    ),
    ("fallback runtime", re.compile(r"fallbacks")),
    ("service account name", re.compile(r"serviceAccountName")),
    ("priority class name", re.compile(r"priorityClassName")),
    ("image pull secret", re.compile(r"imagePullSecrets")),
    ("storage class name", re.compile(r"[sS]torageClassName")),
    ("ConfigMap data key", re.compile(r"^(ConfigMap:)?data(\.(level|vllm-args\.yaml)\.<key>|\[)")),
    ("Secret data", re.compile(r"^Secret:data\.token|not base64")),
    ("Secret type", re.compile(r"^Secret:(type|data\.tls)|^data\[(tls|ssh|username|password|\.docker)")),
    ("Service", re.compile(r"^Service:spec|^spec\.(ports|type|externalName)")),
    ("ConfigMap binaryData", re.compile(r"binaryData|duplicate of key")),
    ("kind: List", re.compile(r"^List:items")),
]
CLASSES = {name for name, _ in _CLASSES}
# Classes the API server takes whatever the value (an env value, a pull secret's name) or that
# only place objects (a List): no refusal of theirs can be confirmed.
NEVER_REFUSED = {"env value", "image pull secret", "kind: List"}


def value_classes(fields: Iterable[str]) -> set[str]:
    return {name for text in fields for name, pattern in _CLASSES if pattern.search(text)}


def mutated_fields(case: Case) -> list[str]:
    """The fields a generated input changed, as its name records them (`n:Kind:path[=value],...`)."""
    return [part.split("=")[0] for part in case.name.partition(":")[2].split(",") if ":" in part]


def test_the_api_server_refuses_no_child_of_an_accepted_input(run: Run) -> None:
    failures = [judged.shown() for judged in run.accepted if judged.refused()]
    whats = [what for judged in run.accepted for what in judged.answers]
    pods = sum(what.endswith(AS_POD) for what in whats)
    deployments = sum(what.endswith(AS_DEPLOYMENT) for what in whats)
    covered = Counter(c for judged in run.accepted for c in value_classes(mutated_fields(judged.case)))
    print(
        f"\nfuzz oracle, seed {run.seed}: {run.inputs} inputs planned ({run.planning_seconds:.0f} s of "
        f"planning, {run.seconds:.0f} s in all); accepted {len(run.accepted)}: "
        f"{len(whats) - pods - deployments} manifests, {pods} predictor Pods and {deployments} "
        f"Deployments dry-run; accepted inputs with an object the API server refuses: {len(failures)}"
        f"\naccepted inputs by class of mutated value: {dict(sorted(covered.items()))}"
    )
    assert not failures, "\n\n".join(failures[:10])
    assert set(covered) == CLASSES, CLASSES - set(covered)
    assert len(run.accepted) >= 100


def test_the_api_server_refuses_what_the_go_rules_refuse(run: Run) -> None:
    disagreements = []
    confirmed: Counter[str] = Counter()
    for judged in run.sampled:
        ours = {what for what, errors in judged.project.items() if errors}
        if judged.invalid() != ours:
            disagreements.append(judged.shown())
            continue
        refused = [e for errors in judged.project.values() for e in errors]
        found = value_classes(refused)
        # A value from a fallback runtime is refused at the child field it reached.
        if found & {"quantity", "resource name"}:
            found |= value_classes(mutated_fields(judged.case)) & {"fallback runtime"}
        confirmed.update(found)
    for judged in run.overridden:
        if not judged.answers or not all(a.result().invalid for a in judged.answers.values()):
            disagreements.append(judged.shown())
        else:
            confirmed["quantity (a profile's, overridden in its stack)"] += 1
    sampled = len(run.sampled) + len(run.overridden)
    print(
        f"\nfuzz oracle, seed {run.seed}: {run.refused} inputs refused; {run.candidates} refused by a Go "
        f"rule of the children planned again without those rules; {sampled} then planned: the refusals "
        f"sampled ({len(run.sampled)} whose children carry the refused value, {len(run.overridden)} refused "
        f"at a profile's quantity that this stack's service overrides, judged in a minimal Pod); confirmed "
        f"refused by the API server (the same children, as invalid): {sampled - len(disagreements)} of "
        f"{sampled}\nconfirmed refusals by class of refused child value: {dict(sorted(confirmed.items()))}"
    )
    assert not disagreements, "\n\n".join(disagreements[:10])
    assert set(confirmed) >= CLASSES - NEVER_REFUSED, CLASSES - NEVER_REFUSED - set(confirmed)
    assert sampled >= 100


def test_one_object_declared_twice_is_always_refused(run: Run) -> None:
    """The API server takes each of two declarations of one object alone (and the second overwrites
    the first): only the project can refuse them, and it does, every time, before anything registers."""
    reasons = Counter(
        next((r for r in ("DuplicateObject", "DuplicateName") if r in (p.refusal or "")), "accepted")
        for p in run.duplicates
    )
    print(f"\nfuzz oracle, seed {run.seed}: objects declared twice: {dict(sorted(reasons.items()))}")
    assert reasons["accepted"] == 0, [p.refusal for p in run.duplicates]
    assert len(run.duplicates) == DUPLICATE_INPUTS
