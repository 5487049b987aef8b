#!/usr/bin/env python3
"""Writes the committed seed corpus, fuzz/seeds/<target>/<name>: for `dispatch`, whole
client sessions in each protocol revision (handshake, listing, every kind of call,
cancellation, answers to the server's requests), batches, and bad input of each kind the
server refuses; for `arguments`, the `arguments` of a call of the `rich` tool, valid and
not; for `http`, connections of HTTP requests: stateless calls, sessions of each handshake
revision over two connections, and malformed requests. Run it after changing the targets' tools, and commit what changes:
    python3 fuzz/make_seeds.py
"""

import json
import pathlib
import shutil

HERE = pathlib.Path(__file__).resolve().parent
HANDSHAKE = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
STATELESS = "2026-07-28"


def line(message):
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def request(id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method, params=None):
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def handshake(revision, capabilities=None):
    return line(request(0, "initialize", {
        "protocolVersion": revision,
        "capabilities": capabilities or {},
        "clientInfo": {"name": "seed", "version": "0"},
    })) + line(notification("notifications/initialized"))


def call(id, name, arguments=None, meta=None, **extra):
    params = {"name": name, "arguments": arguments or {}, **extra}
    if meta is not None:
        params["_meta"] = meta
    return request(id, "tools/call", params)


CALLS = [
    ("echo", {"text": "hello"}),
    ("add", {"a": 2, "b": 40}),
    ("add", {"a": 9223372036854775807, "b": 1}),
    ("stats", {"values": [1, 2.5, -3]}),
    ("slow", {"ms": 300}),
    ("fail", {"how": "public"}),
    ("fail", {"how": "panic"}),
    ("fail", {"how": "quietly"}),
    ("hang", {}),
    ("ask", {}),
    ("rationed", {}),
    ("echo", {"text": 5}),
    ("nope", {}),
]


def dispatch_seeds():
    seeds = {}
    for revision in HANDSHAKE:
        session = handshake(revision, {"elicitation": {}})
        session += line(request(1, "ping"))
        session += line(request(2, "tools/list"))
        session += line(request(3, "tools/list", {"cursor": "bogus"}))
        for offset, (name, arguments) in enumerate(CALLS):
            session += line(call(10 + offset, name, arguments))
        session += line(request(4, "logging/setLevel", {"level": "debug"}))
        session += line(request(5, "resources/list"))
        seeds[f"session-{revision}"] = session

        cancelled = handshake(revision)
        cancelled += line(call("slow-1", "slow", {"ms": 5000}))
        cancelled += line(notification("notifications/cancelled", {"requestId": "slow-1", "reason": "bored"}))
        cancelled += line(call(7, "slow", {"ms": 10, "_meta": {"progressToken": "p"}}))
        seeds[f"cancel-{revision}"] = cancelled

        # The server asks for a name; the client answers (id 0 is the server's first request).
        elicited = handshake(revision, {"elicitation": {}})
        elicited += line(call(1, "ask"))
        elicited += line({"jsonrpc": "2.0", "id": 0, "result": {"action": "accept", "content": {"name": "Ada"}}})
        seeds[f"elicit-{revision}"] = elicited

    seeds["batch-2025-03-26"] = handshake("2025-03-26") + line([
        request(1, "ping"),
        call(2, "echo", {"text": "in a batch"}),
        notification("notifications/progress", {"progressToken": 1, "progress": 1}),
        request(3, "tools/list"),
        {"jsonrpc": "2.0", "id": 4},
        5,
    ])
    seeds["batch-refused-2025-06-18"] = handshake("2025-06-18") + line([request(1, "ping")])
    seeds["batch-before-initialize"] = line([request(1, "ping")])
    seeds["batch-empty"] = handshake("2025-03-26") + "[]\n"
    seeds["batch-initialize"] = line([request(1, "initialize", {"protocolVersion": "2025-03-26"})])

    meta = {
        "io.modelcontextprotocol/protocolVersion": STATELESS,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "seed", "version": "0"},
    }
    stateless = line(request(1, "server/discover", {"_meta": meta}))
    stateless += line(request(2, "tools/list", {"_meta": meta}))
    for offset, (name, arguments) in enumerate(CALLS):
        stateless += line(call(10 + offset, name, arguments, meta))
    stateless += line(request(3, "ping", {"_meta": meta}))
    stateless += line(request(4, "subscriptions/listen", {"_meta": meta}))
    stateless += line(request(5, "tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01"}}))
    seeds[f"session-{STATELESS}"] = stateless
    answers = {"input-0": {"action": "accept", "content": {"name": "Ada"}}}
    seeds[f"input-required-{STATELESS}"] = (
        line(call(1, "ask", {}, meta))
        + line(call(2, "ask", {}, meta, inputResponses=answers))
        + line(call(3, "ask", {}, meta, inputResponses=answers, requestState="forged"))
    )

    seeds["bad-json"] = '{"jsonrpc":"2.0","id":1,"method":"ping"\n{]\nnull\n"text"\n'
    seeds["bad-utf8"] = b'{"jsonrpc":"2.0","id":1,"method":"\xff\xfe"}\n'
    seeds["bad-envelopes"] = "".join(line(message) for message in [
        {"jsonrpc": "1.0", "id": 1, "method": "ping"},
        {"id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "id": 3.5, "method": "ping"},
        {"jsonrpc": "2.0", "id": None, "method": "ping"},
        {"jsonrpc": "2.0", "id": [4], "method": "ping"},
        {"jsonrpc": "2.0", "id": 5, "method": 7},
        {"jsonrpc": "2.0", "id": 6, "method": "ping", "params": [1]},
        {"jsonrpc": "2.0", "id": 7},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": 3},
        {"jsonrpc": "2.0", "id": 8, "result": {}},
        {"jsonrpc": "2.0", "id": 9, "error": {"code": "x"}},
    ])
    seeds["before-initialize"] = line(request(1, "tools/list")) + line(call(2, "echo", {"text": "early"}))
    seeds["initialize-twice"] = handshake("2025-11-25") + line(request(1, "initialize", {"protocolVersion": "2025-11-25"}))
    seeds["unknown-revision"] = line(request(1, "initialize", {"protocolVersion": "2099-12-31", "capabilities": {}}))
    seeds["duplicate-ids"] = handshake("2025-11-25") + line(call(1, "slow", {"ms": 100})) + line(call(1, "echo", {"text": "same id"}))
    seeds["deep-nesting"] = "[" * 200 + "]" * 200 + "\n"
    seeds["crlf-and-blank-lines"] = handshake("2025-06-18").replace("\n", "\r\n") + "\n   \n" + line(request("a", "ping"))
    seeds["no-final-newline"] = handshake("2024-11-05") + json.dumps(request(1, "ping"))
    return seeds


ARGUMENTS = {
    "valid-minimal": {
        "name": "n", "count": 1, "offset": -5, "ratio": 0.5, "big": 18446744073709551615,
        "tags": [], "flags": [], "labels": {}, "mode": "fast", "shape": {"kind": "point"},
        "target": 7, "pair": [1, True],
    },
    "valid-full": {
        "name": "ünï 🦀", "count": 255, "offset": -9223372036854775808, "ratio": -1e308,
        "big": 0, "initial": "é", "tags": ["a", "b"], "flags": [1, 2, 3],
        "labels": {"x": 4294967295}, "mode": "careful",
        "shape": {"kind": "rect", "width": 3, "height": 4}, "target": "by name",
        "window": {"start": -1, "end": 2, "step": 1}, "limit": 0, "pair": [65535, False],
        "nested": [None, [1, -128, 127], []],
    },
    "valid-nulls": {
        "name": "", "count": 0, "offset": 0, "ratio": 0, "big": 1, "initial": None,
        "tags": [""], "flags": [0], "labels": {"": 0}, "mode": "off",
        "shape": {"kind": "circle", "radius": 2.5}, "target": 0, "window": None,
        "limit": None, "pair": [0, True], "nested": None,
    },
    "out-of-range": {
        "name": "n", "count": 256, "offset": 9223372036854775808, "ratio": 1, "big": -1,
        "tags": [], "flags": [1, 1], "labels": {}, "mode": "fast", "shape": {"kind": "point"},
        "target": 7, "pair": [65536, True], "nested": [[128]],
    },
    "wrong-types": {
        "name": 1, "count": "1", "offset": 1.5, "ratio": "NaN", "big": 1e30, "initial": "ab",
        "tags": "a", "flags": {}, "labels": [], "mode": "FAST", "shape": {"kind": "hexagon"},
        "target": True, "window": {"start": 1, "extra": 2, "step": 0}, "pair": [1],
    },
    "missing": {},
    "unknown-argument": {"surprise": True},
    "not-an-object": [1, 2, 3],
    "null": None,
    "string": "name",
}


def http_request(method, body=None, headers=None, path="/mcp"):
    """One HTTP/1.1 request as a client writes it; `{sid}` stands for the session id."""
    data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
    lines = [f"{method} {path} HTTP/1.1", "host: localhost"]
    if body is not None:
        lines += ["content-type: application/json", f"content-length: {len(data)}"]
    lines += ["accept: application/json, text/event-stream"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


STATELESS_META = {
    "io.modelcontextprotocol/protocolVersion": STATELESS,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "seed", "version": "0"},
}


def stateless(id, method, params, name=None):
    headers = {"mcp-protocol-version": STATELESS, "mcp-method": method}
    if name is not None:
        headers["mcp-name"] = name
    return http_request("POST", request(id, method, {**params, "_meta": STATELESS_META}), headers)


def session(revision, *requests):
    """`initialize` on one connection, then the rest on the next, in the session."""
    opened = http_request("POST", request(0, "initialize", {
        "protocolVersion": revision,
        "capabilities": {},
        "clientInfo": {"name": "seed", "version": "0"},
    }))
    headers = {"mcp-session-id": "{sid}", "mcp-protocol-version": revision}
    rest = b"".join(http_request(method, body, {**headers, **extra}) for method, body, extra in requests)
    return opened + b"\n--\n" + rest


def http_seeds():
    """Connections of the `http` target, split at `\\n--\\n`."""
    seeds = {
        "stateless-call": stateless(1, "tools/call", {"name": "echo", "arguments": {"text": "hi"}}, "echo"),
        "stateless-slow": stateless(1, "tools/call", {"name": "slow", "arguments": {"ms": 100}}, "slow"),
        "stateless-list": stateless(1, "tools/list", {}),
        "stateless-mismatch": stateless(1, "tools/call", {"name": "echo", "arguments": {"text": "x"}}, "slow"),
        "get-without-session": http_request("GET"),
        "delete-without-session": http_request("DELETE"),
        "two-hosts": b"GET /mcp HTTP/1.1\r\nhost: localhost\r\nhost: evil.example\r\n\r\n",
        "no-host": b"POST /mcp HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}",
        "half-body": b"POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-length: 100\r\n\r\n{\"jsonrpc\"",
        "chunked": b"POST /mcp HTTP/1.1\r\nhost: localhost\r\ntransfer-encoding: chunked\r\n"
                   b"content-type: application/json\r\n\r\n5\r\n{\"a\":\r\n2\r\n1}\r\n0\r\n\r\n",
        "evil-origin": http_request("POST", request(1, "ping"), {"origin": "http://evil.example"}),
        "not-json": http_request("POST", None) + b"",
        "initialize-notification": http_request("POST", notification("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "seed", "version": "0"},
        })),
    }
    for revision in ["2025-03-26", "2025-06-18", "2025-11-25"]:
        seeds[f"session-{revision}"] = session(
            revision,
            ("POST", notification("notifications/initialized"), {}),
            ("POST", call(1, "echo", {"text": "hello"}), {}),
            ("POST", call(2, "slow", {"ms": 50}, {"progressToken": "p"}), {}),
            ("POST", request(3, "tools/list"), {}),
            ("GET", None, {}),
            ("GET", None, {"last-event-id": "1-0"}),
            ("DELETE", None, {}),
        )
    seeds["session-batch"] = session(
        "2025-03-26",
        ("POST", [request(1, "ping"), call(2, "echo", {"text": "a"})], {}),
    )
    seeds["session-resume-huge"] = session(
        "2025-11-25",
        ("GET", None, {"last-event-id": "18446744073709551615-18446744073709551615"}),
    )
    seeds["session-subscribe"] = session(
        "2025-11-25",
        ("POST", request(1, "resources/subscribe", {"uri": "file:///x"}), {}),
        ("POST", request(2, "logging/setLevel", {"level": "debug"}), {}),
    )
    return seeds


def main():
    seeds = HERE / "seeds"
    shutil.rmtree(seeds, ignore_errors=True)
    for target, files in [("dispatch", dispatch_seeds()), ("arguments", {
        name: json.dumps(value, ensure_ascii=False) for name, value in ARGUMENTS.items()
    }), ("http", http_seeds())]:
        directory = seeds / target
        directory.mkdir(parents=True)
        for name, content in sorted(files.items()):
            data = content if isinstance(content, bytes) else content.encode()
            (directory / name).write_bytes(data)
        print(f"{directory.relative_to(HERE.parent)}: {len(files)} seeds")


if __name__ == "__main__":
    main()
