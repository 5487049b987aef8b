"""Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640) with the official Python SDK.

    skills_check.py [--timeout S] [--min-skills N] -- SERVER_COMMAND...

Starts SERVER_COMMAND over stdio with `Client(mode="auto")`, which must end on 2026-07-28, and
checks what a host would: the extension declared in `server/discover` with `directoryRead`,
beside the `resources` capability; every page of `skills/list` (at least N entries, each with
`uri`, `frontmatter.name` equal to the URI's last skill-path segment, a `description`, and a
complete `resources` list holding the SKILL.md); `skills/get` of each answering the same entry;
every file read through the SDK's own `read_resource` and its bytes' SHA-256 and length equal to
the entry's `digest` and `size`; the SKILL.md frontmatter's name in the file; a directory read of
each skill's root; and `-32602` for an unknown skill. One PASS/FAIL line per check, then
`interop skills: N passed, M failed`; exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import sys
import tempfile
from typing import Any

import anyio
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import Implementation
from pydantic import TypeAdapter

EXTENSION = "io.modelcontextprotocol/skills"
RAW = TypeAdapter(dict[str, Any])


class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        if ok:
            self.passed += 1
            print(f"PASS python-skills: {what}")
        else:
            self.failed += 1
            print(f"FAIL python-skills: {what}{': ' + detail if detail else ''}")
        return ok


async def request(client: Client, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return await client.session.send_request(types.Request[dict[str, Any], str](method=method, params=params), RAW)


async def check(client: Client, rep: Report, min_skills: int) -> None:
    session = client.session
    rep.check(session.discover_result is not None, "the session is stateless 2026-07-28 (server/discover)")
    capabilities = session.server_capabilities
    dumped = capabilities.model_dump(by_alias=True, mode="json", exclude_none=True) if capabilities else {}
    declared = (dumped.get("extensions") or {}).get(EXTENSION)
    rep.check(isinstance(declared, dict), f"{EXTENSION} declared", f"capabilities: {dumped}")
    rep.check(isinstance(declared, dict) and declared.get("directoryRead") is True, "directoryRead: true inline")
    rep.check("resources" in dumped, "the resources capability declared beside it")

    skills: list[dict[str, Any]] = []
    cursor = None
    for _ in range(100):
        page = await request(client, "skills/list", {"cursor": cursor} if cursor else {})
        skills.extend(page.get("skills", []))
        cursor = page.get("nextCursor")
        if not cursor:
            break
    rep.check(len(skills) >= min_skills, f"skills/list lists at least {min_skills} skills", f"got {len(skills)}")

    for skill in skills:
        uri = skill.get("uri", "")
        frontmatter = skill.get("frontmatter") or {}
        name = frontmatter.get("name")
        segments = uri.split("://", 1)[-1].split("/")
        rep.check(uri.endswith("/SKILL.md") and len(segments) >= 2 and segments[-2] == name,
                  f"{uri}: frontmatter.name {name!r} is the URI's last skill-path segment")
        rep.check(bool(frontmatter.get("description")), f"{uri}: has a description")
        files = skill.get("resources")
        if not rep.check(isinstance(files, list) and any(f.get("uri") == uri for f in files),
                         f"{uri}: resources lists every file, SKILL.md among them", f"{files!r}"):
            continue
        got = await request(client, "skills/get", {"uri": uri})
        rep.check(got.get("skill") == skill, f"{uri}: skills/get answers the listed entry")
        for file in files:
            read = await client.read_resource(file["uri"])
            content = read.contents[0]
            if isinstance(content, types.TextResourceContents):
                data = content.text.encode("utf-8")
            else:
                data = base64.b64decode(content.blob)
            digest = "sha256:" + hashlib.sha256(data).hexdigest()
            rep.check(digest == file["digest"] and len(data) == file["size"],
                      f"{file['uri']}: {len(data)} bytes hashing to the entry's digest",
                      f"read {len(data)} bytes, {digest}; entry says {file['size']}, {file['digest']}")
            if file["uri"] == uri:
                rep.check(data.decode("utf-8").startswith("---") and f"name: {name}" in data.decode("utf-8"),
                          f"{uri}: SKILL.md begins with its frontmatter naming {name}")
        root = uri[: -len("/SKILL.md")]
        listing = await request(client, "resources/directory/read", {"uri": root})
        children = {child["uri"] for child in listing.get("resources", [])}
        rep.check(uri in children, f"{root}: resources/directory/read lists SKILL.md among its children")

    try:
        await request(client, "skills/get", {"uri": "skill://no-such-skill-here/SKILL.md"})
        rep.check(False, "skills/get of an unknown skill is -32602", "it succeeded")
    except MCPError as error:
        rep.check(error.error.code == -32602, "skills/get of an unknown skill is -32602", f"code {error.error.code}")


async def run(command: list[str], timeout: float, min_skills: int) -> Report:
    rep = Report()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        client = Client(
            stdio_client(params, errlog=errlog),
            mode="auto",
            read_timeout_seconds=timeout,
            client_info=Implementation(name="mcp-runtime-interop-skills", version="1"),
            cache=None,
        )
        try:
            with anyio.fail_after(timeout * 4):
                async with client:
                    await check(client, rep, min_skills)
        except Exception as error:  # noqa: BLE001 - a failed run, reported
            rep.check(False, "session", f"{type(error).__name__}: {error}")
            errlog.seek(0)
            print(errlog.read()[-3000:])
    return rep


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--min-skills", type=int, default=1)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the server command after --")
    rep = anyio.run(run, command, args.timeout, args.min_skills)
    print(f"interop skills: {rep.passed} passed, {rep.failed} failed")
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
