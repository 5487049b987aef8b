#!/usr/bin/env bash
# Installs the system programs the tests start, when missing (Debian/Ubuntu, apt-get; as root or
# through sudo): nginx, the load balancer of the HTTP scale-out and fleet tests
# (http-tests/tests/scale_out.rs, fleet.rs, interop/fleet_run.sh); redis-server, the store the
# fleet's instances share (the `redis` feature's tests start their own on free loopback ports);
# chromium, the browser the MCP Apps host page runs in (interop/apps_run.sh drives it with
# playwright-core, which downloads no browser of its own). Elsewhere it says what to install.
set -euo pipefail

need=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v redis-server >/dev/null || need+=(redis-server)
command -v chromium >/dev/null || need+=(chromium)
[ ${#need[@]} -gt 0 ] || exit 0

if ! command -v apt-get >/dev/null; then
  echo "scripts/system-packages.sh: the tests need ${need[*]} (nginx, redis-server, chromium); install them with your package manager" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "== system packages: installing ${need[*]}"
$sudo apt-get update -qq
for package in "${need[@]}"; do
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$package" \
    || { [ "$package" = nginx-light ] \
      && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nginx; }
done
