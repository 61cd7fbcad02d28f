#!/usr/bin/env bash
# Prints the shell lines that put the Pulumi CLI this repository builds on PATH, for trying the
# package for real without installing Pulumi (docs/installation-configuration.md):
#
#   scripts/real-engine-toolchain.sh        # build it once (about 15 minutes on two cores)
#   eval "$(scripts/pulumi-env.sh)"         # pulumi, its language hosts and the Kubernetes provider
#
# The toolchain directory holds the CLI, the Python, YAML, Node.js and Go language hosts, the
# Kubernetes provider and the Python SDK's scripts; the CLI finds each of them on PATH. Plugins are
# never downloaded (there is no plugin registry here) and the CLI does not look for updates.
# Fails, saying what to run, when the toolchain is not built or is stale.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! dir="$(bash "$here/real-engine-toolchain.sh" --check 2>/dev/null)"; then
  echo "the Pulumi toolchain is not built (or is stale): run scripts/real-engine-toolchain.sh first" >&2
  exit 1
fi
dir="$(tail -n 1 <<<"$dir")"
printf 'export PATH=%q:"$PATH"\n' "$dir"
echo "export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true"
echo "export PULUMI_SKIP_UPDATE_CHECK=true"
