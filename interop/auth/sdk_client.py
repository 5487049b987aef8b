"""The official Python SDK's own OAuth support (mcp 2.x, ClientCredentialsOAuthProvider) against
a server verifying JWTs (http-tests' jwt_server): from the 401 it finds the protected-resource
metadata, the authorization server's metadata, gets a client-credentials token for the resource,
and calls tools with it.

    python sdk_client.py MCP_URL ISSUER

Prints a PASS or FAIL line per check, then `interop auth (python): N passed, M failed`; exits 1
on a failure. The client is interop/auth/provider.mjs's writer (notes:read notes:write).

Only a client allowed every scope the server lists can connect: on a 401 without a `scope`, the
SDK asks for all of the metadata's `scopes_supported` (the MCP spec's scope selection), whatever
scope it was given, and oidc-provider refuses the reader `notes:write` (`invalid_scope`). The
TypeScript client (sdk_client.mjs) asks for its own scope, and runs the reader too.
"""

from __future__ import annotations

import sys
import traceback

import anyio
import httpx2
from mcp import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

url, issuer = sys.argv[1], sys.argv[2]
results = {"passed": 0, "failed": 0}


def check(name: str, ok: bool, detail: str = "") -> None:
    results["passed" if ok else "failed"] += 1
    print(f"{'PASS' if ok else 'FAIL'} {name}{'' if ok or not detail else f': {detail}'}", flush=True)


class Memory:
    """The SDK's TokenStorage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


def text(result) -> str | None:
    content = getattr(result, "content", None) or []
    return getattr(content[0], "text", None) if content else None


async def session(client_id: str, scope: str, mode: str, body) -> None:
    storage = Memory()
    # Credentials go only to this authorization server, whatever the MCP server's metadata says.
    auth = ClientCredentialsOAuthProvider(
        server_url=url, storage=storage, client_id=client_id, client_secret="secret", scope=scope, issuer=issuer
    )
    async with httpx2.AsyncClient(auth=auth, timeout=20) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            await body(client, storage)


async def writer(client: Client, storage: Memory) -> None:
    print(f"     (protocol {client.protocol_version})")
    check("writer: connected after the SDK fetched a token itself", bool(storage.tokens and storage.tokens.access_token))
    tools = sorted(tool.name for tool in (await client.list_tools()).tools)
    check("writer: tools/list shows both tools", tools == ["read_notes", "write_note"], str(tools))
    wrote = await client.call_tool("write_note", {"text": "from the Python SDK"})
    check(
        "writer: write_note runs as the token's client",
        text(wrote) == "writer wrote from the Python SDK",
        repr(wrote),
    )


async def main() -> None:
    # `legacy`: the initialize handshake; `auto`: 2026-07-28, every request on its own.
    for mode in ["legacy", "auto"]:
        try:
            with anyio.fail_after(60):
                await session("writer", "notes:read notes:write", mode, writer)
        except Exception:  # noqa: BLE001 - anything escaping is a failed check, reported
            check(f"writer ({mode}): connect and call", False, traceback.format_exc())


anyio.run(main)
print(f"interop auth (python): {results['passed']} passed, {results['failed']} failed")
sys.exit(0 if results["failed"] == 0 else 1)
