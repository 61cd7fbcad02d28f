#!/usr/bin/env bash
# A real Kubernetes control plane for the cluster tests (tests/cluster, `pytest -m cluster`) and the
# benchmarks: etcd, kube-apiserver and the few controllers the tests need (namespace, garbage collector,
# PVC protection), built from the Go module proxy at the versions pinned in scripts/test-cluster/go.mod.
# No kubelet, no scheduler, no Job, volume or KServe controller: nothing runs a pod. Beside them, kubectl
# at the same Kubernetes version (scripts/test-cluster/kubectl, a module of its own with a stamp of its own,
# so adding or changing it never rebuilds, or removes, the control plane others may be running): the
# cluster tests run the commands `aim-pulumi import` prints exactly as printed.
#
#   scripts/test-cluster.sh build        build if needed (cached outside the checkout), print the directory
#   scripts/test-cluster.sh --check      print the directory (it holds kubectl too) if it is built and
#                                        current, else exit 1
#   scripts/test-cluster.sh start DIR    start a cluster whose state lives in DIR (created), listening on
#                                        127.0.0.1 only on free ports; waits for /readyz; writes
#                                        DIR/kubeconfig and DIR/cluster.env and prints the kubeconfig path
#   scripts/test-cluster.sh stop DIR     stop the processes started for DIR (by their PIDs, nothing else)
#
# To try `pulumi up` on one (docs/installation-configuration.md), with a Python that has the
# checkout's requirements (its virtualenv active; PYTHON overrides `python3`):
#   scripts/test-cluster.sh up DIR       start, then add the CRDs of InferenceService, HTTPRoute,
#                                        ScaledObject and the AIM kinds and two StorageClasses, as the
#                                        tests do (tests/cluster/cluster.py); prints the kubeconfig path
#   scripts/test-cluster.sh stand-in DIR [NAMESPACE...]
#                                        in the foreground until Ctrl-C, write what KServe, the Job
#                                        controller and a gateway would: every InferenceService Ready,
#                                        every Job Complete, every HTTPRoute accepted (all namespaces
#                                        unless named; tests/cluster/status_writer.py)
#   scripts/test-cluster.sh down DIR     the same as stop
#
# AIM_PULUMI_CLUSTER_BIN overrides the build directory.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
module="$here/test-cluster"
kubernetes_version="v1.34.4"
etcd_version="v3.6.4"

# The control plane's sources only (kubectl's module has its own hash, below).
module_hash="$(cd "$module" && cat go.mod go.sum ./controllers/*.go ./etcd/*.go | sha256sum | cut -c1-12)"
stamp_text="kubernetes=$kubernetes_version etcd=$etcd_version module=$module_hash"
bin="${AIM_PULUMI_CLUSTER_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/aim-pulumi/test-cluster/k8s-$kubernetes_version-$module_hash}"
stamp="$bin/.stamp"
kubectl_hash="$(cd "$module/kubectl" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-12)"
kubectl_stamp_text="kubectl=$kubernetes_version module=$kubectl_hash"
kubectl_stamp="$bin/.stamp-kubectl"

control_plane_current() { [[ -f "$stamp" && "$(cat "$stamp")" == "$stamp_text" ]]; }
kubectl_current() { [[ -f "$kubectl_stamp" && "$(cat "$kubectl_stamp")" == "$kubectl_stamp_text" ]]; }
current() { control_plane_current && kubectl_current; }

build() {
  if current; then
    echo "test cluster is current ($stamp_text, $kubectl_stamp_text)"
    echo "$bin"
    return
  fi
  command -v go >/dev/null || { echo "go is required to build the test cluster" >&2; exit 1; }
  export GOFLAGS="-mod=readonly -trimpath"
  local start=$SECONDS minor="${kubernetes_version#v1.}"
  minor="${minor%%.*}"
  # Without these /version says v0.0.0-master, and clients that compare versions misbehave.
  local version_flags=""
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    version_flags+=" -X $pkg.gitVersion=$kubernetes_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    version_flags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  timed() {
    local what="$1" t=$SECONDS
    shift
    nice -n 10 "$@"
    echo "built $what in $((SECONDS - t)) s"
  }
  if ! control_plane_current; then
    # A stale directory goes whole (kubectl with it: its stamp lives inside).
    rm -rf "$bin"
    mkdir -p "$bin"
    (cd "$module" && timed "kube-apiserver $kubernetes_version" go build -ldflags "-s -w $version_flags" \
      -o "$bin/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
    (cd "$module" && timed "etcd $etcd_version" go build -ldflags "-s -w" -o "$bin/etcd" ./etcd)
    (cd "$module" && timed "controllers" go build -ldflags "-s -w $version_flags" \
      -o "$bin/aim-test-controllers" ./controllers)
    echo "$stamp_text" >"$stamp"
  fi
  if ! kubectl_current; then
    # Only kubectl is (re)built: a control plane that is current stays as it is, in use or not.
    # Written beside and then renamed, so a test never runs half a binary.
    rm -f "$kubectl_stamp"
    (cd "$module/kubectl" && timed "kubectl $kubernetes_version" go build -ldflags "-s -w $version_flags" \
      -o "$bin/kubectl.new" .)
    mv -f "$bin/kubectl.new" "$bin/kubectl"
    echo "$kubectl_stamp_text" >"$kubectl_stamp"
  fi
  echo "test cluster built in $((SECONDS - start)) s ($stamp_text, $kubectl_stamp_text)"
  echo "$bin"
}

free_ports() {
  python3 - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

wait_ready() {
  local dir="$1" url="$2" token="$3" deadline=$((SECONDS + 120))
  until curl -sf --cacert "$dir/pki/ca.crt" -H "Authorization: Bearer $token" "$url/readyz" >/dev/null 2>&1; do
    for pidfile in "$dir"/*.pid; do
      if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
        echo "$(basename "$pidfile" .pid) exited while the cluster was starting; its log:" >&2
        tail -30 "$dir/$(basename "$pidfile" .pid).log" >&2
        exit 1
      fi
    done
    if ((SECONDS > deadline)); then
      echo "kube-apiserver was not ready in 120 s; its log: $dir/kube-apiserver.log" >&2
      tail -30 "$dir/kube-apiserver.log" >&2
      exit 1
    fi
    sleep 0.5
  done
}

start() {
  local dir="$1"
  control_plane_current || { echo "test cluster not built at $bin: run scripts/test-cluster.sh build" >&2; exit 1; }
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  if compgen -G "$dir/*.pid" >/dev/null; then
    echo "a cluster was started in $dir already: stop it first" >&2
    exit 1
  fi
  local pki="$dir/pki"
  mkdir -p "$pki"
  # A CA, a serving certificate for 127.0.0.1 and the service-account signing key.
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=aim-test-cluster-ca" \
    -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" \
    -keyout "$pki/apiserver.key" -out "$pki/apiserver.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$pki/san.ext"
  openssl x509 -req -in "$pki/apiserver.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial \
    -days 3650 -extfile "$pki/san.ext" -out "$pki/apiserver.crt" 2>/dev/null
  openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  local token
  token="$(openssl rand -hex 24)"
  printf '%s,aim-test-admin,aim-test-admin,"system:masters"\n' "$token" >"$pki/tokens.csv"

  local ports etcd_client etcd_peer secure
  ports="$(free_ports 3)"
  read -r etcd_client etcd_peer secure <<<"$ports"

  "$bin/etcd" --name aim-test --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
    --initial-cluster "aim-test=http://127.0.0.1:$etcd_peer" --listen-metrics-urls "" \
    --quota-backend-bytes 4294967296 >"$dir/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"

  "$bin/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$etcd_client" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$secure" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
    --cert-dir "$pki" --token-auth-file "$pki/tokens.csv" \
    --authorization-mode RBAC --anonymous-auth=false \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
    --service-cluster-ip-range 10.96.0.0/24 \
    --endpoint-reconciler-type none \
    >"$dir/kube-apiserver.log" 2>&1 &
  echo $! >"$dir/kube-apiserver.pid"

  local server="https://127.0.0.1:$secure"
  wait_ready "$dir" "$server" "$token"
  cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: aim-test
  cluster:
    server: $server
    certificate-authority-data: $(base64 -w0 <"$pki/ca.crt")
users:
- name: aim-test-admin
  user:
    token: $token
contexts:
- name: aim-test
  context:
    cluster: aim-test
    user: aim-test-admin
current-context: aim-test
EOF
  chmod 600 "$dir/kubeconfig"

  "$bin/aim-test-controllers" --kubeconfig "$dir/kubeconfig" >"$dir/controllers.log" 2>&1 &
  echo $! >"$dir/controllers.pid"

  cat >"$dir/cluster.env" <<EOF
KUBECONFIG=$dir/kubeconfig
AIM_TEST_CLUSTER_KUBECTL=$bin/kubectl
AIM_TEST_CLUSTER_SERVER=$server
AIM_TEST_CLUSTER_DIR=$dir
EOF
  echo "test cluster ready at $server (state in $dir)"
  echo "$dir/kubeconfig"
}

stop() {
  local dir="$1" pidfile pid name
  # Controllers first, etcd last: each one's clients are gone before it stops.
  for name in controllers kube-apiserver etcd; do
    pidfile="$dir/$name.pid"
    [[ -f "$pidfile" ]] || continue
    pid="$(cat "$pidfile")"
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
  echo "test cluster in $dir stopped"
}

case "${1:-}" in
  build) build ;;
  --check)
    if current; then echo "$bin"; else
      echo "test cluster missing or stale at $bin: run scripts/test-cluster.sh build" >&2
      exit 1
    fi
    ;;
  start) start "${2:?usage: test-cluster.sh start DIR}" ;;
  stop | down) stop "${2:?usage: test-cluster.sh stop DIR}" ;;
  up)
    dir="${2:?usage: test-cluster.sh up DIR}"
    exec "${PYTHON:-python3}" "$here/../tests/cluster/cluster.py" start "$dir"
    ;;
  stand-in)
    dir="${2:?usage: test-cluster.sh stand-in DIR [NAMESPACE...]}"
    namespaces=()
    for ns in "${@:3}"; do namespaces+=(--namespace "$ns"); done
    exec "${PYTHON:-python3}" "$here/../tests/cluster/status_writer.py" "$dir/kubeconfig" "${namespaces[@]}"
    ;;
  *)
    echo "usage: test-cluster.sh build | --check | start DIR | stop DIR | up DIR | stand-in DIR [NS...] | down DIR" >&2
    exit 2
    ;;
esac
