#!/usr/bin/env bash
# Skills (the io.modelcontextprotocol/skills extension) with the official Python SDK, over stdio:
#
#   interop/skills_run.sh SERVER_BINARY [SERVER_ARGS...]     (e.g. target/debug/conformance)
#
# Runs python/skills_check.py (see its header): lists and gets every skill, reads every file
# through the SDK and checks its SHA-256 digest and size against the skill's entry. Prints every
# PASS/FAIL line, then `interop skills: N passed, M failed`; exits 1 on any failure.
#
# Environment: INTEROP_TIMEOUT (per-request timeout in seconds, default 30), INTEROP_MIN_SKILLS
# (default 2, what the conformance example serves). Installs nothing: run interop/setup.sh first.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 1 ] || {
  echo "usage: interop/skills_run.sh SERVER_BINARY [SERVER_ARGS...]" >&2
  exit 2
}
python="$here/python/.venv/bin/python"
[ -x "$python" ] || {
  echo "interop/skills_run.sh: the Python SDK is not installed; run interop/setup.sh first" >&2
  exit 2
}
command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || {
  echo "interop/skills_run.sh: no such server binary: $1" >&2
  exit 2
}
exec "$python" "$here/python/skills_check.py" --timeout "${INTEROP_TIMEOUT:-30}" \
  --min-skills "${INTEROP_MIN_SKILLS:-2}" -- "$@"
