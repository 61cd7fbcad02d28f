#!/usr/bin/env bash
# Prints the shell lines that put the Pulumi CLI this repository builds to use, for trying the package
# for real without installing Pulumi (docs/installation-configuration.md):
#
#   scripts/real-engine-toolchain.sh        # build it once (about 15 minutes on two cores)
#   eval "$(scripts/pulumi-env.sh)"
#
# The lines put the toolchain directory on PATH (the CLI, and the language hosts and the Python SDK's
# scripts the CLI takes from beside itself), register the toolchain's Kubernetes provider in Pulumi's
# plugin cache at the version it reports (once per PULUMI_HOME), and tell the CLI to take plugins
# from that cache rather than from PATH: a provider found on PATH makes every run warn "using
# pulumi-resource-kubernetes from $PATH". Plugins are never downloaded (there is no plugin registry
# here) and the CLI does not look for updates. Fails, saying what to run, when the toolchain is not
# built or is stale.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! dir="$(bash "$here/real-engine-toolchain.sh" --check 2>/dev/null)"; then
  echo "the Pulumi toolchain is not built (or is stale): run scripts/real-engine-toolchain.sh first" >&2
  exit 1
fi
dir="$(tail -n 1 <<<"$dir")"
version="$(tr ' ' '\n' <"$dir/.stamp" | sed -n 's/^kubernetes-reports=//p')"
printf 'export PATH=%q:"$PATH"\n' "$dir"
echo "export PULUMI_IGNORE_AMBIENT_PLUGINS=true"
echo "export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true"
echo "export PULUMI_SKIP_UPDATE_CHECK=true"
printf '[ -d "${PULUMI_HOME:-$HOME/.pulumi}/plugins/resource-kubernetes-v%s" ] || ' "$version"
printf 'pulumi plugin install resource kubernetes %q --file %q >/dev/null\n' "$version" "$dir/pulumi-resource-kubernetes"
