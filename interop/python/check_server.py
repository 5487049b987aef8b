#!/usr/bin/env python3
"""Drive a stdio MCP server with the official Python SDK (`mcp` on PyPI) and check what it sees.

Usage:
    check_server.py [--http] [--era legacy|modern|all] [--timeout SECONDS] EXPECTATIONS.json -- SERVER_COMMAND...
    check_server.py --url http://HOST:PORT/mcp [--era ...] [--timeout SECONDS] EXPECTATIONS.json

Transport: stdio (`stdio_client`) by default. With --http, each era starts the server as
`SERVER_COMMAND... --http 127.0.0.1:PORT` (a free port) and connects the SDK's Streamable HTTP
client (`streamable_http_client`) to http://127.0.0.1:PORT/mcp; every HTTP exchange is recorded
(through httpx event hooks) and checked too: the session id on every request after `initialize`,
each call's POST answered with `text/event-stream`, resumptions (GET + Last-Event-ID) answered 200
(and required for calls with `httpResumes` in 2025-11-25 sessions), the SDK's DELETE on close
answered 200 and the ended session then answering 404; in the modern era no session at all.
With --url (implies --http) every era connects to that running endpoint instead of starting a
server (e.g. nginx in front of a fleet of instances: interop/fleet_run.sh).

Eras (mcp 2.3.0 speaks both):
    legacy  `Client(mode="legacy")`: the `initialize` handshake; the SDK offers 2025-11-25
            (its newest handshake revision) and the check requires the server to accept it.
    modern  `Client(mode="auto")`: the SDK probes `server/discover` at 2026-07-28 and falls back to
            `initialize` only if the server gives no modern evidence; the check requires 2026-07-28.

Calls may also ask for progress (a `progress_callback`), a log level (`logging/setLevel` in the
legacy era, the per-request `_meta` `io.modelcontextprotocol/logLevel` in the modern one) with
the `notifications/message` the `logging_callback` must receive, or a cancellation (an anyio
cancel scope around `call_tool`, which makes the SDK send `notifications/cancelled`).

The client declares `elicitation`, `sampling` and `roots` (it passes all three callbacks). A call's
`answers` are what the callbacks return, in order, to the requests the server makes during the call:
JSON-RPC requests on the connection in the legacy era, the `inputRequests` of `input_required`
results in the modern era, which `Client.call_tool` fulfils through the same callbacks and retries
by itself. `asked` checks those requests, `rounds` the number of `input_required` results.

Prints one PASS/FAIL line per check and a closing `python: N passed, M failed` line; exits 1 on any
failure. The expectation format is documented in interop/README.md; expectations.py implements it.
"""

from __future__ import annotations

import argparse
import inspect
import socket
import subprocess
import time
import json
import logging
import os
import sys
import tempfile
import traceback
import warnings
from importlib import metadata
from pathlib import Path
from typing import Any

import anyio
import jsonschema
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
import httpx2
from mcp.shared import jsonrpc_dispatcher
from mcp.shared.exceptions import MCPError
from mcp import types
from mcp.types import Implementation
from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION
from mcp_types import LOG_LEVEL_META_KEY
from pydantic import ValidationError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from apps_schema import check_apps_meta, check_apps_read  # noqa: E402
from expectations import (  # noqa: E402
    CANCEL_GRACE_S,
    NOTIFICATION_GRACE_S,
    ExpectationError,
    Reporter,
    check_asked,
    check_call_outcome,
    check_capabilities,
    check_completion_outcome,
    check_error_outcome,
    check_listing,
    check_prompt_outcome,
    check_read_outcome,
    describe_completion,
    check_logs,
    check_progress,
    check_tool_listing,
    load_expectations,
    selected,
    js,
    short,
)

ERAS = {
    # era -> (Client mode, protocol revision the check requires the connection to end up on)
    "legacy": ("legacy", LATEST_HANDSHAKE_VERSION),
    "modern": ("auto", LATEST_MODERN_VERSION),
}
MAX_PAGES = 1000


def describe(e: BaseException) -> str:
    """An exception as one line, with exception groups flattened to their leaves."""
    if isinstance(e, BaseExceptionGroup):
        return " | ".join(describe(x) for x in e.exceptions)
    text = " ".join(str(e).split()) or repr(e)
    return f"{type(e).__name__}: {short(text, 300)}"


def dump(model: Any) -> Any:
    """A pydantic result as it looks on the wire (camelCase, no None fields)."""
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


# The dispatcher logs (at DEBUG) every response whose request is no longer pending, which is how a
# response to a cancelled request would show; the SDK raises nothing for it.
LATE_RESPONSE_LOG = "dropping response for unknown/late request id"


class Notifications(logging.Handler):
    """What arrives outside the results: log messages (the session's `logging_callback`) and the
    dispatcher's note of responses to requests no longer pending (late responses)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.logs: list[dict[str, Any]] = []
        self.late: list[str] = []
        # Without this text in the SDK, a late response would go unnoticed: fail instead.
        self.can_see_late = LATE_RESPONSE_LOG in inspect.getsource(jsonrpc_dispatcher)
        log = logging.getLogger(jsonrpc_dispatcher.__name__)
        log.setLevel(logging.DEBUG)
        log.propagate = False
        log.addHandler(self)

    def close(self) -> None:
        logging.getLogger(jsonrpc_dispatcher.__name__).removeHandler(self)
        super().close()

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text.startswith(LATE_RESPONSE_LOG):
            self.late.append(text)

    async def on_log(self, params: Any) -> None:
        self.logs.append(dump(params))


class ClientAnswers:
    """The client side of server-to-client requests: the callbacks the SDK runs for elicitation,
    sampling and roots. Each records what it was asked ({method, params} as on the wire) and
    returns the current call's next scripted answer; with none left it refuses (JSON-RPC error),
    and the call's check fails on the unexpected request."""

    def __init__(self) -> None:
        self.answers: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.ids: list[Any] = []  # the request id each callback saw (JSON-RPC id, or the input key)
        self.rounds = 0  # input_required results seen by Client.call_tool's retry loop

    def start(self, answers: list[dict[str, Any]] | None) -> None:
        self.answers = list(answers or [])
        self.requests = []
        self.ids = []
        self.rounds = 0

    def _next(self, method: str, params: Any, ctx: Any, model: Any) -> Any:
        self.requests.append({"method": method, "params": dump(params) if params is not None else {}})
        self.ids.append(getattr(ctx, "request_id", None))
        if not self.answers:
            return types.ErrorData(code=-32603, message=f"interop check: no scripted answer for {method}")
        answer = self.answers.pop(0)
        if "error" in answer:
            return types.ErrorData(code=answer["error"].get("code", -32603), message=answer["error"].get("message", ""))
        return model.model_validate(answer)

    async def on_elicit(self, ctx: Any, params: Any) -> Any:
        return self._next("elicitation/create", params, ctx, types.ElicitResult)

    async def on_sample(self, ctx: Any, params: Any) -> Any:
        return self._next("sampling/createMessage", params, ctx, types.CreateMessageResult)

    async def on_roots(self, ctx: Any) -> Any:
        return self._next("roots/list", None, ctx, types.ListRootsResult)

    def count_rounds(self, client: Client) -> bool:
        """Wrap the session's `call_tool` (each retry of `Client.call_tool` goes through it) to
        count `input_required` results. False if the SDK's internals changed."""
        session = client.session
        original = getattr(session, "call_tool", None)
        if original is None:
            return False

        async def counting(*args: Any, **kwargs: Any) -> Any:
            result = await original(*args, **kwargs)
            if isinstance(result, types.InputRequiredResult):
                self.rounds += 1
            return result

        session.call_tool = counting  # type: ignore[method-assign]
        return True


class HttpWire:
    """Every HTTP exchange of the SDK's Streamable HTTP client, via httpx event hooks: method,
    JSON-RPC method and id of a POST body, the headers that matter, status and content type."""

    def __init__(self) -> None:
        self.exchanges: list[dict[str, Any]] = []

    async def on_response(self, response: Any) -> None:
        request = response.request
        entry: dict[str, Any] = {
            "method": request.method,
            "status": response.status_code,
            "type": response.headers.get("content-type", "").partition(";")[0].strip(),
            "session": request.headers.get("mcp-session-id"),
            "issued": response.headers.get("mcp-session-id"),
            "lastEventId": request.headers.get("last-event-id"),
            "rpc": None,
            "id": None,
        }
        if request.method == "POST":
            try:
                body = json.loads(request.content or b"null")
                if isinstance(body, dict):
                    entry["rpc"] = body.get("method") or ("response" if "result" in body or "error" in body else None)
                    entry["id"] = body.get("id")
            except (ValueError, httpx2.RequestNotRead):
                pass
        self.exchanges.append(entry)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http_server(command: list[str], errlog: Any) -> tuple[subprocess.Popen[bytes], str]:
    """Start `command --http 127.0.0.1:PORT`; return it and its endpoint once it accepts."""
    port = free_port()
    proc = subprocess.Popen(
        [*command, "--http", f"127.0.0.1:{port}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errlog
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not listen within 30 s")


async def check_http_session(wire: HttpWire, url: str, era: str, label: str, rep: Reporter) -> None:
    """What the wire showed over the whole session, checked once it is closed."""
    ex = wire.exchanges
    posts = [e for e in ex if e["method"] == "POST"]
    resumes = [e for e in ex if e["method"] == "GET" and e["lastEventId"]]
    bad_resumes = [e for e in resumes if e["status"] != 200]
    rep.check(
        not bad_resumes,
        label,
        f"http: {len(resumes)} resumption(s) (GET + Last-Event-ID: {sorted({e['lastEventId'] for e in resumes})[:8]}), all answered 200"
        + ("" if not bad_resumes else f" :: {js(bad_resumes, 200)}"),
    )
    if era == "modern":
        issued = [e for e in ex if e["issued"]]
        gets = [e for e in ex if e["method"] == "GET"]
        rep.check(
            not issued and not resumes,
            label,
            f"http: 2026-07-28 stands alone: {len(posts)} POSTs, no Mcp-Session-Id issued, no resumption"
            + ("" if not issued and not resumes else f" :: issued {js(issued, 120)}, resumes {len(resumes)}"),
        )
        _ = gets
        return
    init = next((e for e in posts if e["rpc"] == "initialize"), None)
    session = init and init["issued"]
    rep.check(bool(session), label, f"http: initialize answered with Mcp-Session-Id {session}")
    later = [e for e in ex if e is not init]
    strays = [e for e in later if e["session"] != session]
    rep.check(
        bool(later) and not strays,
        label,
        f"http: all {len(later)} later requests carry that session id" + ("" if not strays else f" :: {js(strays, 200)}"),
    )
    deletes = [e for e in ex if e["method"] == "DELETE"]
    rep.check(
        len(deletes) == 1 and deletes[0]["status"] == 200,
        label,
        f"http: the SDK ended the session on close: DELETE -> {[d['status'] for d in deletes]} (expected [200])",
    )
    if session:
        async with httpx2.AsyncClient(timeout=10) as raw:
            after = await raw.post(
                url,
                headers={"content-type": "application/json", "accept": "application/json, text/event-stream", "mcp-session-id": session},
                content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            )
        rep.check(after.status_code == 404, label, f"http: a request on the ended session -> {after.status_code} (expected 404)")


def check_call_wire(wire: HttpWire, start: int, call: dict[str, Any], name: str, era: str, version: str, label: str, rep: Reporter) -> None:
    """The HTTP exchanges of one call: its POST streamed (SSE) when it sent progress, logs or
    requests; resumed when the server closes its stream mid-call (`httpResumes`, 2025-11-25)."""
    ex = wire.exchanges[start:]
    calls = [e for e in ex if e["method"] == "POST" and e["rpc"] == "tools/call"]
    streamed = [e for e in calls if e["type"] == "text/event-stream"]
    if "progress" in call or "logs" in call or (call.get("answers") and era != "modern"):
        rep.check(
            bool(streamed),
            label,
            f"{name}: http: tools/call POST(s) answered with {[e['type'] or e['status'] for e in calls]} (progress, logs and requests travel on its SSE stream)",
        )
    if call.get("httpResumes"):
        resumes = [e for e in ex if e["method"] == "GET" and e["lastEventId"]]
        if era == "legacy" and version >= "2025-11-25":
            rep.check(
                bool(resumes) and all(e["status"] == 200 for e in resumes),
                label,
                f"{name}: http: the server closed the call's stream mid-call; the SDK resumed it: "
                f"{[(e['lastEventId'], e['status']) for e in resumes]} (GET + Last-Event-ID)",
            )
        else:
            rep.check(
                not resumes,
                label,
                f"{name}: http: no resumption under {version} (no SSE polling there): {len(resumes)} GET(s) with Last-Event-ID",
            )


async def run_era(
    era: str,
    command: list[str],
    exp: dict[str, Any],
    rep: Reporter,
    timeout: float,
    show_stderr: bool,
    http: bool = False,
    given_url: str | None = None,
) -> None:
    mode, want_version = ERAS[era]
    label = f"python-http/{era}" if http else f"python/{era}"
    how = "streamable_http_client" if http else "stdio_client"
    rep.section(f"{label}: mcp {metadata.version('mcp')} Client(mode={mode!r}) over {how}, expecting protocol {want_version}")
    notes = Notifications()
    asks = ClientAnswers()
    wire = HttpWire() if http else None
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        proc = None
        if http and given_url:
            url = given_url
        elif http:
            try:
                proc, url = start_http_server(command, sys.stderr if show_stderr else errlog)
            except RuntimeError as e:
                rep.fail(label, f"server: {e}")
                return
        if http:
            http_client = httpx2.AsyncClient(
                timeout=httpx2.Timeout(timeout, read=300), event_hooks={"response": [wire.on_response]}
            )
            transport = streamable_http_client(url, http_client=http_client)
        else:
            params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
            transport = stdio_client(params, errlog=sys.stderr if show_stderr else errlog)
        client = Client(
            transport,
            mode=mode,
            read_timeout_seconds=timeout,
            client_info=Implementation(name="mcp-runtime-interop-python", version=metadata.version("mcp")),
            cache=None,  # every list_tools goes to the server
            logging_callback=notes.on_log,
            elicitation_callback=asks.on_elicit,
            sampling_callback=asks.on_sample,
            list_roots_callback=asks.on_roots,
            # No client-wide log_level: a modern-era call opts in to log messages itself (logLevel).
        )
        failures_before = rep.failed
        try:
            with anyio.fail_after(timeout * 4):
                if http:
                    async with http_client:
                        async with client:
                            await check_session(client, era, label, want_version, exp, rep, notes, asks, wire)
                        await check_http_session(wire, url, era, label, rep)
                else:
                    async with client:
                        await check_session(client, era, label, want_version, exp, rep, notes, asks)
        except TimeoutError:
            rep.fail(label, f"session timed out after {timeout * 4:.0f}s")
        except Exception as e:  # noqa: BLE001 - anything escaping is a failed run, reported, never a crash
            rep.fail(label, f"session aborted: {describe(e)}")
            if os.environ.get("INTEROP_DEBUG"):
                traceback.print_exc()
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if rep.failed > failures_before and not show_stderr:
            errlog.seek(0)
            tail = errlog.read()[-3000:]
            if tail.strip():
                print(f"---- server stderr (last 3000 chars) for {label} ----\n{tail}\n---- end server stderr ----")
    notes.close()


async def check_session(
    client: Client,
    era: str,
    label: str,
    want_version: str,
    exp: dict[str, Any],
    rep: Reporter,
    notes: Notifications,
    asks: ClientAnswers,
    wire: HttpWire | None = None,
) -> None:
    version = client.protocol_version
    info = client.server_info
    info_text = f"{info.name} {info.version}" if info else "none"
    how = "server/discover" if client.session.discover_result is not None else "initialize"
    rep.check(
        version == want_version or (exp.get("allowDowngrade") and version in HANDSHAKE_PROTOCOL_VERSIONS),
        label,
        f"connect via {how} -> protocol {version} (wanted {want_version}), serverInfo {info_text}",
    )
    want_server = exp.get("server") or {}
    for key in ("name", "version"):
        if key in want_server:
            got = getattr(info, key, None) if info else None
            rep.check(got == want_server[key], label, f"serverInfo.{key} = {got!r} (expected {want_server[key]!r})")

    check_capabilities(exp.get("capabilities") or [], dump(client.server_capabilities), era, version, "python", label, rep)

    # tools/list, following nextCursor across every page.
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    pages = 0
    seen_cursors: set[str] = set()
    while True:
        page = await client.list_tools(cursor=cursor)
        pages += 1
        tools.extend(dump(t) for t in page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
        if cursor in seen_cursors or pages >= MAX_PAGES:
            rep.fail(label, f"tools/list: nextCursor {cursor!r} repeats (or > {MAX_PAGES} pages); stopped")
            break
        seen_cursors.add(cursor)
    by_name = check_tool_listing(tools, pages, exp, version, era, label, rep)
    if exp.get("appsSchema"):
        for tool in tools:
            check_apps_meta("McpUiToolMeta", tool, f"{tool.get('name')}: tools/list", label, rep)

    # The SDK validates structuredContent against each tool's outputSchema itself. It arms a
    # validator only for tools it has seen in a listing (the walk above), so confirm that.
    with_schema = [n for n, t in by_name.items() if t.get("outputSchema") is not None]
    known = getattr(client.session, "_tool_output_schemas", None)
    if known is None:
        rep.fail(label, "cannot confirm the SDK's output-schema validation (ClientSession internals changed)")
    elif with_schema:
        missing = [n for n in with_schema if known.get(n) is None]
        rep.check(
            not missing,
            label,
            f"SDK output-schema validation armed for {len(with_schema)} tool(s)"
            + (f"; NOT for {missing}" if missing else ""),
        )

    await check_primitives(client, era, version, label, exp, rep)

    if not asks.count_rounds(client):
        rep.fail(label, "cannot count input_required rounds (ClientSession internals changed)")
    for i, call in enumerate(exp["calls"]):
        if not selected(call, era, version):
            continue
        start = len(wire.exchanges) if wire else 0
        await run_call(client, call, i, by_name, version, era, label, rep, notes, asks)
        if wire is not None:
            check_call_wire(wire, start, call, call["tool"], era, version, label, rep)


async def outcome_of(request: Any) -> tuple[dict[str, Any], str | None]:
    """Await one SDK request: {"result": wire JSON} / {"error": ...} / {"sdkRejected": ...}, and
    a note when the SDK refused the result (its pydantic models are the schema check)."""
    try:
        return {"result": dump(await request)}, None
    except MCPError as e:
        return {"error": {"code": e.code, "message": e.error.message, "data": e.error.data}}, None
    except ValidationError as e:
        return {"sdkRejected": str(e)}, f"SDK rejected the result: {short(' '.join(str(e).split()), 300)}"


async def list_all(fetch: Any, field: str, method: str, label: str, rep: Reporter) -> tuple[list[dict[str, Any]], int]:
    """Walk every page of a paginated list through the SDK's own list method."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    pages = 0
    seen: set[str] = set()
    while True:
        page = await fetch(cursor)
        pages += 1
        items.extend(dump(x) for x in getattr(page, field))
        cursor = page.next_cursor
        if cursor is None:
            return items, pages
        if cursor in seen or pages >= MAX_PAGES:
            rep.fail(label, f"{method}: nextCursor {cursor!r} repeats (or > {MAX_PAGES} pages); stopped")
            return items, pages
        seen.add(cursor)


async def check_primitives(client: Client, era: str, version: str, label: str, exp: dict[str, Any], rep: Reporter) -> None:
    """Resources, resource templates, reads, subscriptions, prompts and completions, each through
    the SDK's own method (`list_resources`, `read_resource`, `get_prompt`, `complete`, ...), so its
    result models validate every answer. Runs before the tool calls."""

    def sel(entry: dict[str, Any]) -> bool:
        return selected(entry, era, version, "python")

    listings = (
        ("resources", "resources", lambda c: client.list_resources(cursor=c), "resources/list"),
        ("resourceTemplates", "resource_templates", lambda c: client.list_resource_templates(cursor=c), "resources/templates/list"),
        ("prompts", "prompts", lambda c: client.list_prompts(cursor=c), "prompts/list"),
    )
    for kind, field, fetch, method in listings:
        if kind not in exp:
            continue
        try:
            items, pages = await list_all(fetch, field, method, label, rep)
        except MCPError as e:
            rep.fail(label, f"{method} -> JSON-RPC error {e.code} {js(e.error.message, 100)}")
            continue
        except ValidationError as e:
            rep.fail(label, f"{method} -> SDK rejected the result: {short(' '.join(str(e).split()), 300)}")
            continue
        check_listing(kind, items, pages, exp, era, version, "python", label, rep)
        if exp.get("appsSchema") and kind == "resources":
            for item in items:
                check_apps_meta("McpUiResourceMeta", item, f"{item.get('uri')}: resources/list", label, rep)

    for read in filter(sel, exp["reads"]):
        outcome, note = await outcome_of(client.read_resource(read["uri"]))
        problems, summary = check_read_outcome(read["expect"], outcome, read["uri"])
        if note:
            problems.insert(0, note)
        title = read.get("label") or f"resources/read {read['uri']}"
        rep.check(not problems, label, f"{title} -> {summary}" + ("" if not problems else " :: " + "; ".join(problems)))
        if exp.get("appsSchema"):
            check_apps_read(read["uri"], outcome, label, rep)
    for err in filter(sel, exp["readErrors"]):
        outcome, note = await outcome_of(client.read_resource(err["uri"]))
        problems, summary = check_error_outcome(err, outcome)
        if note:
            problems.insert(0, note)
        title = err.get("label") or f"resources/read {err['uri']} fails"
        rep.check(not problems, label, f"{title} -> {summary}" + ("" if not problems else " :: " + "; ".join(problems)))

    for sub in filter(sel, exp["subscribe"]):
        uri = sub["uri"]
        if era == "modern":
            # 2026-07-28 has no resources/subscribe: a subscriptions/listen stream with the URI in
            # its filter, acknowledged with the part of the filter the server honours.
            try:
                async with client.listen(resource_subscriptions=[uri]) as stream:
                    honored = dump(stream.honored)
                ok = uri in (honored.get("resourceSubscriptions") or [])
                rep.check(ok, label, f"subscriptions/listen resourceSubscriptions [{uri}] -> acknowledged, honoured {js(honored, 120)}" + ("" if ok else f" :: {uri} not honoured"))
            except Exception as e:  # noqa: BLE001 - reported as the check's failure
                rep.fail(label, f"subscriptions/listen resourceSubscriptions [{uri}] -> {describe(e)}")
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # resources/subscribe is deprecated as of 2026-07-28
            for method, fn in (("resources/subscribe", client.subscribe_resource), ("resources/unsubscribe", client.unsubscribe_resource)):
                outcome, note = await outcome_of(fn(uri))
                ok = "result" in outcome and not note
                seen = js(outcome.get("result")) if "result" in outcome else (note or js(outcome.get("error"), 160))
                rep.check(ok, label, f"{method} {uri} -> {seen}")

    for get in filter(sel, exp["promptGets"]):
        outcome, note = await outcome_of(client.get_prompt(get["name"], get["arguments"] or None))
        problems, summary = check_prompt_outcome(get["expect"], outcome)
        if note:
            problems.insert(0, note)
        title = get.get("label") or f"prompts/get {get['name']} {js(get['arguments'], 80)}"
        rep.check(not problems, label, f"{title} -> {summary}" + ("" if not problems else " :: " + "; ".join(problems)))
    for err in filter(sel, exp["promptErrors"]):
        outcome, note = await outcome_of(client.get_prompt(err["name"], err["arguments"] or None))
        problems, summary = check_error_outcome(err, outcome)
        if note:
            problems.insert(0, note)
        title = err.get("label") or f"prompts/get {err['name']} {js(err['arguments'], 80)} fails"
        rep.check(not problems, label, f"{title} -> {summary}" + ("" if not problems else " :: " + "; ".join(problems)))

    for comp in filter(sel, exp["completions"]):
        ref_spec = comp["ref"]
        ref: Any = (
            types.PromptReference(type="ref/prompt", name=ref_spec["name"])
            if ref_spec["type"] == "ref/prompt"
            else types.ResourceTemplateReference(type="ref/resource", uri=ref_spec["uri"])
        )
        context = comp["context"].get("arguments", {}) if "context" in comp else None
        outcome, note = await outcome_of(client.complete(ref, dict(comp["argument"]), context))
        problems, summary = check_completion_outcome(comp["expect"], outcome)
        if note:
            problems.insert(0, note)
        rep.check(not problems, label, f"{describe_completion(comp)} -> {summary}" + ("" if not problems else " :: " + "; ".join(problems)))


async def run_call(
    client: Client,
    call: dict[str, Any],
    index: int,
    by_name: dict[str, dict[str, Any]],
    version: str,
    era: str,
    label: str,
    rep: Reporter,
    notes: Notifications,
    asks: ClientAnswers,
) -> None:
    name = call["tool"]
    args = call.get("arguments", {})
    title = call.get("label") or f"tools/call {name} {js(args, 100)}"
    meta, level_how = await apply_log_level(client, call, era, label, rep)
    if "cancelAfterMs" in call:
        await run_cancel(client, call, name, args, meta, title, label, rep, notes)
        return

    updates: list[dict[str, Any]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        update: dict[str, Any] = {"progress": progress}
        if total is not None:
            update["total"] = total
        if message is not None:
            update["message"] = message
        updates.append(update)

    notes.logs.clear()
    asks.start(call.get("answers"))
    outcome: dict[str, Any]
    sdk_note = None
    try:
        result = await client.call_tool(name, args, progress_callback=on_progress if "progress" in call else None, meta=meta)
        outcome = {"result": dump(result)}
    except MCPError as e:
        outcome = {"error": {"code": e.code, "message": e.error.message, "data": e.error.data}}
    except RuntimeError as e:
        # Raised by ClientSession.validate_tool_result: structuredContent missing or not matching outputSchema.
        sdk_note = f"SDK rejected the result: {short(str(e).strip().splitlines()[0], 300)}"
        outcome = {"sdkRejected": str(e)}
    except ValidationError as e:
        sdk_note = f"SDK could not parse the result for protocol {version}: {short(' '.join(str(e).split()), 300)}"
        outcome = {"sdkRejected": str(e)}

    problems, summary = check_call_outcome(call.get("expect", {}), outcome, version)
    if sdk_note:
        problems.insert(0, sdk_note)

    # Belt and braces: validate structuredContent against outputSchema here too, so a client-side
    # validation that silently stopped happening cannot hide a server bug.
    result = outcome.get("result")
    schema = (by_name.get(name) or {}).get("outputSchema")
    if result is not None and schema is not None and not result.get("isError"):
        if "structuredContent" not in result:
            problems.append("tool declares outputSchema but result has no structuredContent")
        else:
            try:
                cls = jsonschema.validators.validator_for(schema)
                cls(schema).validate(result["structuredContent"])
            except jsonschema.ValidationError as e:
                problems.append(f"structuredContent violates outputSchema (the SDK let it through!): {e.message}")
            except jsonschema.SchemaError as e:
                problems.append(f"outputSchema is not a valid JSON Schema: {e.message}")

    rep.check(not problems, label, f"{title} -> {summary}" + ("" if not problems else " :: " + "; ".join(problems)))

    # Requests to the client: always checked (a call without `answers` must cause none).
    asked_problems, asked_summary = check_asked(call.get("asked"), list(asks.requests), call.get("answers"))
    if asks.answers:
        asked_problems.append(f"{len(asks.answers)} scripted answer(s) never asked for")
    how = "input_required rounds, fulfilled by Client.call_tool" if era == "modern" else "server requests on the connection"
    if call.get("answers") or call.get("asked") or asks.requests:
        ids = js(asks.ids, 60)
        rep.check(
            not asked_problems,
            label,
            f"{name}: the callbacks got {asked_summary} (ids {ids}; {how})" + ("" if not asked_problems else " :: " + "; ".join(asked_problems)),
        )
    if era == "modern" and "rounds" in call:
        rep.check(
            asks.rounds == call["rounds"],
            label,
            f"{name}: {asks.rounds} input_required round(s) before the result (expected {call['rounds']})",
        )
    elif era == "modern" and asks.rounds and not (call.get("answers") or call.get("asked")):
        rep.fail(label, f"{name}: unexpected input_required round(s): {asks.rounds}")
    elif era == "legacy" and asks.rounds:
        rep.fail(label, f"{name}: {asks.rounds} input_required result(s) under handshake revision {version}")

    if "progress" in call or "logs" in call:
        await anyio.sleep(NOTIFICATION_GRACE_S)  # stragglers the SDK hands over just after the result
    if "progress" in call:
        problems, summary = check_progress(call["progress"], list(updates))
        rep.check(
            not problems,
            label,
            f"{name}: progress_callback got {summary} (wanted {js(call['progress'], 100)})"
            + ("" if not problems else " :: " + "; ".join(problems)),
        )
    if "logs" in call:
        problems, summary = check_logs(call["logs"], list(notes.logs))
        rep.check(
            not problems,
            label,
            f"{name} ({level_how}): logging_callback got {summary}" + ("" if not problems else " :: " + "; ".join(problems)),
        )


async def apply_log_level(
    client: Client, call: dict[str, Any], era: str, label: str, rep: Reporter
) -> tuple[dict[str, Any] | None, str]:
    """A call's `logLevel`: `logging/setLevel` before it (legacy; the level then holds for the rest
    of the connection), or the request's own `_meta` level (modern). Returns (meta, description)."""
    level = call.get("logLevel")
    if level is None:
        return None, "no _meta logLevel" if era == "modern" else "the connection's current level"
    if era == "modern":
        return {LOG_LEVEL_META_KEY: level}, f"_meta logLevel {level}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # logging/setLevel is deprecated as of 2026-07-28
            result = await client.set_logging_level(level)
        rep.check(True, label, f"logging/setLevel {level} -> {js(dump(result))}")
    except MCPError as e:
        rep.fail(label, f"logging/setLevel {level} -> JSON-RPC error {e.code} {js(e.error.message, 80)}")
    return None, f"logging/setLevel {level}"


async def run_cancel(
    client: Client,
    call: dict[str, Any],
    name: str,
    args: dict[str, Any],
    meta: dict[str, Any] | None,
    title: str,
    label: str,
    rep: Reporter,
    notes: Notifications,
) -> None:
    """Start the call, cancel it (anyio cancel scope) after `cancelAfterMs`; the SDK then sends
    `notifications/cancelled`. The server must send no response for it."""
    ms = call["cancelAfterMs"]
    problems: list[str] = []
    if not notes.can_see_late:
        problems.append("cannot watch for late responses (the SDK dispatcher's log text changed)")
    late_before = len(notes.late)
    with anyio.move_on_after(ms / 1000) as scope:
        try:
            result = await client.call_tool(name, args, meta=meta)
            problems.append(f"the call finished before it was cancelled: {js(dump(result), 120)}")
        except MCPError as e:
            problems.append(f"the call failed before it was cancelled: JSON-RPC error {e.code} {js(e.error.message, 80)}")
    if not scope.cancelled_caught and not problems:
        problems.append("the cancel scope did not cancel the call")
    await anyio.sleep(CANCEL_GRACE_S)
    late = notes.late[late_before:]
    if late:
        problems.append(f"the server answered the cancelled request: {js(late, 200)}")
    rep.check(
        not problems,
        label,
        f"{title} cancelled after {ms} ms (anyio cancel scope; the SDK sends notifications/cancelled)"
        f" -> expecting no response within {CANCEL_GRACE_S * 1000:.0f} ms" + ("" if not problems else " :: " + "; ".join(problems)),
    )


def main() -> int:
    argv = sys.argv[1:]
    if "--" not in argv and "--url" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index("--") if "--" in argv else len(argv)
    own, command = argv[:split], argv[split + 1 :]
    ap = argparse.ArgumentParser(description="Check a stdio MCP server with the official Python SDK.")
    ap.add_argument("expectations", type=Path)
    ap.add_argument("--era", choices=["legacy", "modern", "all"], default="all")
    ap.add_argument("--timeout", type=float, default=30.0, help="per-request timeout in seconds (default 30)")
    ap.add_argument("--show-server-stderr", action="store_true", help="pass the server's stderr through live")
    ap.add_argument("--http", action="store_true", help="Streamable HTTP: start the server with --http 127.0.0.1:PORT")
    ap.add_argument("--url", help="Streamable HTTP to this running endpoint (implies --http; no server command)")
    opts = ap.parse_args(own)
    if opts.url:
        opts.http = True
        if command:
            ap.error("give either --url or a server command after --, not both")
    elif not command:
        ap.error("no server command after --")

    rep = Reporter()
    try:
        exp = load_expectations(opts.expectations)
    except (OSError, ValueError, ExpectationError) as e:
        print(f"error: {opts.expectations}: {e}", file=sys.stderr)
        return 2

    eras = ["legacy", "modern"] if opts.era == "all" else [opts.era]
    print(
        f"python: mcp {metadata.version('mcp')} speaks handshake revisions {', '.join(HANDSHAKE_PROTOCOL_VERSIONS)}"
        f" and stateless {LATEST_MODERN_VERSION}; running era(s): {', '.join(eras)}"
    )
    for era in eras:
        anyio.run(run_era, era, command, exp, rep, opts.timeout, opts.show_server_stderr, opts.http, opts.url)
    rep.summary("python-http" if opts.http else "python")
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
