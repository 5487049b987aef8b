#!/usr/bin/env bash
# An MCPB bundle of a server, made with the official tool (@anthropic-ai/mcpb, pinned in
# node/package.json):
#
#   interop/mcpb_run.sh SERVER_BINARY [OTHER_BINARY...]   (e.g. target/debug/calculator)
#
# Writes the bundle's manifest.json with `MCP_CLI=mcpb-manifest`, lays out the bundle directory
# (manifest.json, server/<binary>), runs `mcpb validate manifest.json` and `mcpb pack`, then
# unpacks the bundle and runs the binary from it with `MCP_CLI=tools`. Each OTHER_BINARY's
# manifest (one with prompts, say) goes through `mcpb validate` only. Prints what mcpb prints;
# exits 1 on any failure. Installs nothing: run interop/setup.sh first.
set -Eeuo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 1 ] || {
  echo "usage: interop/mcpb_run.sh SERVER_BINARY [OTHER_BINARY...]" >&2
  exit 2
}
binary="$1"
for given in "$@"; do
  [ -x "$given" ] || {
    echo "interop/mcpb_run.sh: no such server binary: $given" >&2
    exit 2
  }
done
node22="$here/node/node_modules/node/bin/node"
mcpb_cli="$here/node/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"
if [ ! -x "$node22" ] || [ ! -f "$mcpb_cli" ]; then
  echo "interop/mcpb_run.sh: @anthropic-ai/mcpb is not installed; run interop/setup.sh first" >&2
  exit 2
fi
mcpb() { "$node22" "$mcpb_cli" "$@"; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
trap 'echo "interop mcpb: FAILED (line $LINENO): $BASH_COMMAND" >&2; exit 1' ERR

name="$(basename "$binary")"
bundle="$work/bundle"
mkdir -p "$bundle/server"
cp "$binary" "$bundle/server/$name"
MCP_CLI="mcpb-manifest --author 'mcp-runtime interop'" "$binary" >"$bundle/manifest.json"
echo "== manifest.json of $name: $(wc -c <"$bundle/manifest.json") bytes"

echo "== mcpb validate manifest.json"
(cd "$bundle" && mcpb validate manifest.json)

echo "== mcpb pack"
mcpb pack "$bundle" "$work/$name.mcpb"
[ -s "$work/$name.mcpb" ]

# The bundle holds a binary that runs, and serves what the manifest lists.
mcpb unpack "$work/$name.mcpb" "$work/unpacked" >/dev/null
listed="$(MCP_CLI=tools "$work/unpacked/server/$name")"
first_tool="$("$node22" -e 'const m = require(process.argv[1]); console.log(m.tools[0].name)' \
  "$work/unpacked/manifest.json")"
grep -q "^$first_tool " <<<"$listed"
echo "interop mcpb: $name packed, unpacked and run (tool $first_tool listed)"

shift
for other in "$@"; do
  other_name="$(basename "$other")"
  mkdir -p "$work/$other_name"
  MCP_CLI="mcpb-manifest --author 'mcp-runtime interop' --description '$other_name (interop)'" \
    "$other" >"$work/$other_name/manifest.json"
  prompts="$("$node22" -e 'console.log(require(process.argv[1]).prompts.length)' \
    "$work/$other_name/manifest.json")"
  echo "== mcpb validate: $other_name's manifest.json ($prompts prompts)"
  (cd "$work/$other_name" && mcpb validate manifest.json)
done
