#!/usr/bin/env bash
# Builds the real Pulumi engine the real-engine tests run (tests/real_engine): the Pulumi CLI, a Python
# language host, the YAML language host (for programs of another language, which reach the components
# through the component provider) and the Kubernetes provider, from the Go module proxy at the
# versions pinned in scripts/real-engine/*/go.mod, plus the Python SDK's own exec and dynamic-provider
# scripts; then the Node.js and Go language hosts (scripts/real-engine/language-nodejs, -go), which
# run TypeScript and Go programs and generate their SDKs.
#
# The result goes to a cache directory outside the checkout and is reused while its stamps match, so a
# warm run takes a second: `.stamp` (versions, the version the Kubernetes provider reports and the
# engine wrapper modules' hash; a hash of all of it names the directory, so a changed stamp builds a
# new directory and never rebuilds one another checkout is using) for the engine, `.stamp-hosts` (the
# Node.js and Go host modules' hash) for the two hosts, which are rebuilt on their own when only they
# change. Prints the directory on its last line.
#
#   scripts/real-engine-toolchain.sh          build if needed, print the directory
#   scripts/real-engine-toolchain.sh --check  print the directory if it is built and current, else exit 1
#
# AIM_PULUMI_TOOLCHAIN overrides the directory.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
wrappers="$here/real-engine"

# Versions. pkg/v3 is the closest release to the Python SDK (pyproject pins pulumi==3.272.0) that the
# proxy serves; the exec scripts come from the SDK's own release. The Kubernetes provider module is
# served at one commit only (its v4 tags are not), between releases 4.24 and 4.25.
pulumi_version="3.274.0"
python_sdk_version="3.272.0"
kubernetes_version="v4.0.0-20260115033456-f47bc2d6f199"
# What the provider reports (GetPluginInfo, its schema). Each pulumi-kubernetes SDK asks the engine for
# a provider of at least its own version, and the proxy's pseudo-version (4.0.0-...) is older than all
# of them, so every run warned. It reports the newest SDK release the package registry serves here
# (pyproject's pulumi-kubernetes resolves to it; the TypeScript example pins 4.24.1), with the commit
# its code is from as build metadata: the code is that commit's, between 4.24 and 4.25.
kubernetes_reports="4.34.2+git.f47bc2d6f199"
# pulumi-yaml builds only against the Pulumi SDK it pins (v3.206.0); it talks to the CLI over gRPC.
yaml_version="v1.25.0"

engine_wrappers=(cli kubernetes language-python language-yaml)
host_wrappers=(language-nodejs language-go)
# The hash of some wrapper modules: their go.mod files, then go.sum files, then Go sources.
hash_of() (
  cd "$wrappers"
  shopt -s nullglob
  files=()
  for w in "$@"; do files+=("$w/go.mod"); done
  for w in "$@"; do files+=("$w/go.sum"); done
  for w in "$@"; do files+=("$w"/*.go); done
  cat "${files[@]}" | sha256sum | cut -c1-12
)
wrappers_hash="$(hash_of "${engine_wrappers[@]}")"
hosts_hash="$(hash_of "${host_wrappers[@]}")"
stamp_text="pulumi=$pulumi_version python-sdk=$python_sdk_version kubernetes=$kubernetes_version kubernetes-reports=$kubernetes_reports yaml=$yaml_version wrappers=$wrappers_hash"
hosts_stamp_text="pulumi=$pulumi_version hosts=$hosts_hash"
stamp_hash="$(printf '%s' "$stamp_text" | sha256sum | cut -c1-12)"
dir="${AIM_PULUMI_TOOLCHAIN:-${XDG_CACHE_HOME:-$HOME/.cache}/aim-pulumi/toolchain/pulumi-$pulumi_version-k8s-${kubernetes_version##*-}-$stamp_hash}"
stamp="$dir/.stamp"
hosts_stamp="$dir/.stamp-hosts"

current() { [[ -f "$stamp" && "$(cat "$stamp")" == "$stamp_text" ]]; }
hosts_current() { [[ -f "$hosts_stamp" && "$(cat "$hosts_stamp")" == "$hosts_stamp_text" ]]; }

if [[ "${1:-}" == "--check" ]]; then
  if current && hosts_current; then
    echo "$dir"
    exit 0
  fi
  echo "real-engine toolchain missing or stale at $dir: run scripts/real-engine-toolchain.sh" >&2
  exit 1
fi

if current && hosts_current; then
  echo "real-engine toolchain is current ($stamp_text $hosts_stamp_text)"
  echo "$dir"
  exit 0
fi

command -v go >/dev/null || { echo "go is required to build the real-engine toolchain" >&2; exit 1; }
export GOFLAGS="-mod=readonly -trimpath"
ldflags_common="-s -w"
total_start=$SECONDS

timed() {
  local what="$1"
  shift
  local start=$SECONDS
  # The machine is shared: the long compile runs at low priority.
  nice -n 10 "$@"
  echo "built $what in $((SECONDS - start)) s"
}

module_dir() { (cd "$1" && go mod download -json "$2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])'); }

build_engine() {
rm -rf "$dir"
mkdir -p "$dir/build"

# 1. The Pulumi CLI, straight from its main package.
(cd "$wrappers/cli" && timed "pulumi $pulumi_version" go build \
  -ldflags "$ldflags_common -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$pulumi_version" \
  -o "$dir/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)

# 2. The Python language host (see scripts/real-engine/language-python/main.go for why it is ours).
(cd "$wrappers/language-python" && timed "pulumi-language-python (sdk $pulumi_version)" go build \
  -ldflags "$ldflags_common -X main.version=$python_sdk_version" -o "$dir/pulumi-language-python" .)

# 3. The Kubernetes provider. Its main package embeds a schema that upstream's build generates, so the
#    package is copied next to the wrapper go.mod and the embeds are written as its generate.go does.
kbuild="$dir/build/kubernetes"
mkdir -p "$kbuild/cmd/pulumi-resource-kubernetes"
cp "$wrappers/kubernetes/go.mod" "$wrappers/kubernetes/go.sum" "$kbuild/"
kmain="$(module_dir "$wrappers/kubernetes" "github.com/pulumi/pulumi-kubernetes/provider/v4@$kubernetes_version")/cmd/pulumi-resource-kubernetes"
cp "$kmain/main.go" "$kbuild/cmd/pulumi-resource-kubernetes/"
chmod -R u+w "$kbuild"
python3 - "$kmain" "$kbuild/cmd/pulumi-resource-kubernetes" "$kubernetes_reports" <<'EOF'
import json, pathlib, sys

src, dst, version = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
schema = json.loads((src / "schema.json").read_text())
schema["version"] = version
(dst / "schema-embed.json").write_text(json.dumps(schema, separators=(",", ":")))
mapping = json.loads((src / "terraform-mapping.json").read_text())
(dst / "terraform-mapping-embed.json").write_text(json.dumps(mapping, separators=(",", ":")))
EOF
(cd "$kbuild" && timed "pulumi-resource-kubernetes $kubernetes_version" go build \
  -ldflags "$ldflags_common -X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=$kubernetes_reports" \
  -o "$dir/pulumi-resource-kubernetes" ./cmd/pulumi-resource-kubernetes)

# 4. The YAML language host, straight from its main package (a tool of the wrapper module).
(cd "$wrappers/language-yaml" && timed "pulumi-language-yaml $yaml_version" go build \
  -ldflags "$ldflags_common -X github.com/pulumi/pulumi-yaml/pkg/version.Version=${yaml_version#v}" \
  -o "$dir/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)

# 5. The SDK's scripts the CLI finds on PATH: the program runner and the dynamic-provider plugin. (Python
#    policy packs need no script of their own: the CLI runs them through the language host's RunPlugin,
#    as upstream has since it dropped the SDK's pulumi-analyzer-policy-python shim.)
sdk="$(module_dir "$wrappers/language-python" "github.com/pulumi/pulumi/sdk/v3@v$python_sdk_version")"
install -m 0755 "$sdk/python/cmd/pulumi-language-python-exec" "$dir/pulumi-language-python-exec"
install -m 0755 "$sdk/python/dist/pulumi-resource-pulumi-python" "$dir/pulumi-resource-pulumi-python"
echo "copied pulumi-language-python-exec and pulumi-resource-pulumi-python from sdk v$python_sdk_version"

rm -rf "$dir/build"
echo "$stamp_text" >"$stamp"
}

# 6. The Node.js and Go language hosts (see their main.go for why they are ours), on the CLI's pkg/v3 for
#    the SDK generators: their go.mod keeps the CLI's versions, so a warm Go build cache shares its
#    packages. Each is built beside its final name and moved into place, so a run using the directory
#    never sees half a binary.
build_hosts() {
  rm -f "$hosts_stamp"
  local host
  for host in "${host_wrappers[@]}"; do
    (cd "$wrappers/$host" && timed "pulumi-$host (sdk $pulumi_version)" go build \
      -ldflags "$ldflags_common -X main.version=$pulumi_version" -o "$dir/.pulumi-$host.new" .)
    mv -f "$dir/.pulumi-$host.new" "$dir/pulumi-$host"
  done
  echo "$hosts_stamp_text" >"$hosts_stamp"
}

if ! current; then
  build_engine
fi
if ! hosts_current; then
  build_hosts
fi
echo "real-engine toolchain built in $((SECONDS - total_start)) s ($stamp_text $hosts_stamp_text)"
echo "$dir"
