"""The expectation format shared by the interop checks (Python side).

interop/node/expect.mjs implements the same semantics for the Node clients; interop/README.md is the
reference. Everything here works on plain JSON (the wire shape of results), never on SDK types.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

# Revision order; dates compare as strings, but keep the list explicit.
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
STRUCTURED_SINCE = "2025-06-18"  # structuredContent / outputSchema exist from this revision on
MODERN_SINCE = "2026-07-28"  # stateless era: outputSchema may have any root (SEP-2106)

TOP_KEYS = {"$comment", "server", "tools", "allowExtraTools", "requireDescriptions", "allowDowngrade", "toolChecks", "calls"}
CALL_KEYS = {
    "$comment",
    "label",
    "tool",
    "arguments",
    "expect",
    "eras",
    "minRevision",
    "maxRevision",
    "clients",
    "progress",
    "logLevel",
    "logs",
    "cancelAfterMs",
    "answers",
    "asked",
    "rounds",
    "httpResumes",
}
PROGRESS_KEYS = {"$comment", "min", "max", "last", "total"}
# The requests a server may send a client during a call (handshake eras), or embed in an
# `input_required` result (2026-07-28).
CLIENT_REQUEST_METHODS = ("elicitation/create", "sampling/createMessage", "roots/list")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
# How long after a call's result the checks keep collecting its progress / log notifications (an
# SDK may hand them to the callback a little after the result), and how long after a cancellation
# they wait for a response that must not come.
NOTIFICATION_GRACE_S = 0.2
CANCEL_GRACE_S = 0.5
CLIENTS = ("python", "node-sdk", "node-client", "inspector")
EXPECT_KEYS = {
    "$comment",
    "isError",
    "text",
    "textContains",
    "textMatches",
    "structured",
    "textJson",
    "content",
    "protocolError",
    "errorContains",
}
TOOLCHECK_KEYS = {"$comment", "tool", "match", "eras", "minRevision", "maxRevision", "clients"}


class ExpectationError(ValueError):
    pass


def load_expectations(path: Path) -> dict[str, Any]:
    exp = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(exp, dict):
        raise ExpectationError("top level must be an object")
    _no_unknown(exp, TOP_KEYS, "top level")
    if not isinstance(exp.get("tools"), list) or not all(isinstance(t, str) for t in exp["tools"]):
        raise ExpectationError('"tools" must be a list of tool names')
    exp.setdefault("calls", [])
    exp.setdefault("toolChecks", [])
    for i, call in enumerate(exp["calls"]):
        where = f"calls[{i}]"
        if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
            raise ExpectationError(f'{where} must be an object with a "tool" name')
        _no_unknown(call, CALL_KEYS, where)
        if not isinstance(call.get("arguments", {}), dict):
            raise ExpectationError(f"{where}.arguments must be an object")
        expect = call.get("expect", {})
        if not isinstance(expect, dict):
            raise ExpectationError(f"{where}.expect must be an object")
        _no_unknown(expect, EXPECT_KEYS, f"{where}.expect")
        if "protocolError" in expect and any(k in expect for k in ("isError", "text", "textContains", "textMatches", "structured", "textJson", "content")):
            raise ExpectationError(f"{where}.expect: protocolError excludes result expectations")
        if "textMatches" in expect:
            re.compile(expect["textMatches"])
        _check_notification_keys(call, where)
        _check_client_request_keys(call, where)
        _check_filters(call, where)
    for i, tc in enumerate(exp["toolChecks"]):
        where = f"toolChecks[{i}]"
        if not isinstance(tc, dict) or not isinstance(tc.get("tool"), str) or not isinstance(tc.get("match"), dict):
            raise ExpectationError(f'{where} must be {{"tool": NAME, "match": {{...}}}}')
        _no_unknown(tc, TOOLCHECK_KEYS, where)
        _check_filters(tc, where)
    return exp


def _no_unknown(obj: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise ExpectationError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")


def _check_notification_keys(call: dict[str, Any], where: str) -> None:
    """The progress / logging / cancellation keys of a call."""
    progress = call.get("progress")
    if progress is not None:
        if not isinstance(progress, dict):
            raise ExpectationError(f"{where}.progress must be an object")
        _no_unknown(progress, PROGRESS_KEYS, f"{where}.progress")
        for key in ("min", "max"):
            if key in progress and (not isinstance(progress[key], int) or isinstance(progress[key], bool) or progress[key] < 0):
                raise ExpectationError(f"{where}.progress.{key} must be a non-negative integer")
        if "last" in progress and not isinstance(progress["last"], dict):
            raise ExpectationError(f"{where}.progress.last must be an object pattern ({{progress, total, message}})")
    if "logLevel" in call and call["logLevel"] not in LOG_LEVELS:
        raise ExpectationError(f"{where}.logLevel must be one of {list(LOG_LEVELS)}")
    if "logs" in call and (not isinstance(call["logs"], list) or not all(isinstance(x, dict) for x in call["logs"])):
        raise ExpectationError(f"{where}.logs must be a list of object patterns ({{level, logger, data}})")
    if "cancelAfterMs" in call:
        ms = call["cancelAfterMs"]
        if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms <= 0:
            raise ExpectationError(f"{where}.cancelAfterMs must be a positive number")
        clash = sorted(k for k in ("expect", "progress", "logs", "answers", "asked", "rounds") if k in call)
        if clash:
            raise ExpectationError(f"{where}: cancelAfterMs excludes {clash} (a cancelled call has no outcome to check)")


def _check_client_request_keys(call: dict[str, Any], where: str) -> None:
    """The `answers` / `asked` / `rounds` keys of a call (requests from the server to the client)."""
    answers = call.get("answers")
    if answers is not None and (not isinstance(answers, list) or not all(isinstance(a, dict) for a in answers)):
        raise ExpectationError(f"{where}.answers must be a list of objects (the results the client's callbacks return)")
    for i, answer in enumerate(answers or []):
        if "error" in answer and (set(answer) - {"error", "$comment"} or not isinstance(answer["error"], dict)):
            raise ExpectationError(f'{where}.answers[{i}]: an error answer is exactly {{"error": {{"code": N, "message": "..."}}}}')
    asked = call.get("asked")
    if asked is not None:
        if not isinstance(asked, list) or not all(isinstance(a, dict) for a in asked):
            raise ExpectationError(f"{where}.asked must be a list of {{method, params}} patterns")
        for i, pattern in enumerate(asked):
            _no_unknown(pattern, {"$comment", "method", "params"}, f"{where}.asked[{i}]")
            if pattern.get("method") not in CLIENT_REQUEST_METHODS:
                raise ExpectationError(f"{where}.asked[{i}].method must be one of {list(CLIENT_REQUEST_METHODS)}")
    if asked is not None and answers is not None and len(asked) != len(answers):
        raise ExpectationError(f"{where}: asked has {len(asked)} entries but answers has {len(answers)}")
    if "rounds" in call:
        rounds = call["rounds"]
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
            raise ExpectationError(f"{where}.rounds must be a non-negative integer")


def check_asked(patterns: list[dict[str, Any]] | None, requests: list[dict[str, Any]], answers: list[dict[str, Any]] | None) -> tuple[list[str], str]:
    """The requests the client's callbacks received during one call ({method, params}, in order)
    against the call's `asked` patterns (same length, element-wise subset match). Without `asked`,
    the number of requests must equal the number of `answers` (0 when there are none)."""
    shown = ", ".join(f"{r.get('method')} {js(r.get('params'), 60)}" for r in requests[:4]) + (", ..." if len(requests) > 4 else "")
    summary = f"{len(requests)} request(s) to the client" + (f" [{shown}]" if requests else "")
    if patterns is not None:
        why = subset_mismatch(patterns, requests, "asked")
        return ([why] if why else []), summary
    want = len(answers or [])
    if len(requests) != want:
        return [f"expected {want} request(s) to the client, got {len(requests)}"], summary
    return [], summary


def check_progress(spec: dict[str, Any], updates: list[dict[str, Any]]) -> tuple[list[str], str]:
    """The progress notifications one call's callback received ({progress, total?, message?} each,
    in arrival order) against a `progress` expectation. Returns (problems, summary)."""
    problems: list[str] = []
    values = [u.get("progress") for u in updates]
    summary = f"{len(updates)} progress notification(s) " + ("[" + ", ".join(js(v) for v in values[:8]) + (", ..." if len(values) > 8 else "") + "]")
    want_min = spec.get("min", 1)
    if len(updates) < want_min:
        problems.append(f"expected at least {want_min}, got {len(updates)}")
    if "max" in spec and len(updates) > spec["max"]:
        problems.append(f"expected at most {spec['max']} (coalescing), got {len(updates)}")
    for i in range(1, len(values)):
        if not (_is_number(values[i - 1]) and _is_number(values[i]) and values[i] > values[i - 1]):
            problems.append(f"not strictly increasing at #{i}: {js(values[i - 1])} then {js(values[i])}")
            break
    if "total" in spec:
        bad = [u for u in updates if not _is_number(u.get("total")) or not math.isclose(u["total"], spec["total"])]
        if bad:
            problems.append(f"total is not {js(spec['total'])} in {len(bad)} notification(s), e.g. {js(bad[0])}")
    if "last" in spec:
        if not updates:
            problems.append(f"no last notification to match {js(spec['last'])}")
        else:
            why = subset_mismatch(spec["last"], updates[-1], "last")
            if why:
                problems.append(why)
    return problems, summary


def check_logs(patterns: list[dict[str, Any]], messages: list[dict[str, Any]]) -> tuple[list[str], str]:
    """The `notifications/message` params one call's handler received ({level, logger?, data}, in
    arrival order) against a `logs` expectation (same length, element-wise subset match)."""
    shown = ", ".join(f"{m.get('level')} {js(m.get('data'), 40)}" for m in messages[:6]) + (", ..." if len(messages) > 6 else "")
    summary = f"{len(messages)} notifications/message" + (f" [{shown}]" if messages else "")
    why = subset_mismatch(patterns, messages, "logs")
    return ([why] if why else []), summary


def _check_filters(obj: dict[str, Any], where: str) -> None:
    for key in ("minRevision", "maxRevision"):
        if key in obj and obj[key] not in REVISIONS:
            raise ExpectationError(f"{where}.{key} must be one of {REVISIONS}")
    eras = obj.get("eras")
    if eras is not None and (not isinstance(eras, list) or not all(e in ("legacy", "modern") for e in eras)):
        raise ExpectationError(f'{where}.eras must be a list of "legacy" / "modern"')
    clients = obj.get("clients")
    if clients is not None and (not isinstance(clients, list) or not all(c in CLIENTS for c in clients)):
        raise ExpectationError(f"{where}.clients must be a list of {list(CLIENTS)}")


def selected(obj: dict[str, Any], era: str, version: str, client: str = "python") -> bool:
    """Whether a call / toolCheck applies to this run (client and era filters, revision window)."""
    if "clients" in obj and client not in obj["clients"]:
        return False
    if "eras" in obj and era not in obj["eras"]:
        return False
    if "minRevision" in obj and version < obj["minRevision"]:
        return False
    if "maxRevision" in obj and version > obj["maxRevision"]:
        return False
    return True


def short(text: str, limit: int = 120) -> str:
    """`text` on one line, cut to `limit` characters."""
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def js(value: Any, limit: int = 120) -> str:
    """`value` as compact JSON (non-ASCII kept), cut to `limit` characters."""
    return short(json.dumps(value, ensure_ascii=False, separators=(",", ":")), limit)


def subset_mismatch(expected: Any, actual: Any, path: str = "$") -> str | None:
    """None if `actual` matches `expected` as a subset; else where and how it differs.

    Objects: every expected key must be present and match (extra actual keys are fine).
    Arrays: same length, element-wise. Numbers: equal as numbers (2 matches 2.0). Others: equal.
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {js(actual)}"
        for k, v in expected.items():
            if k not in actual:
                return f"{path}.{k}: missing"
            why = subset_mismatch(v, actual[k], f"{path}.{k}")
            if why:
                return why
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{path}: expected an array, got {js(actual)}"
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} element(s), got {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            why = subset_mismatch(e, a, f"{path}[{i}]")
            if why:
                return why
        return None
    if _is_number(expected):
        if not _is_number(actual) or not math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-12):
            return f"{path}: expected {js(expected)}, got {js(actual)}"
        return None
    if expected != actual or type(expected) is not type(actual):
        return f"{path}: expected {js(expected)}, got {js(actual)}"
    return None


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def joined_text(result: dict[str, Any]) -> str:
    return "\n".join(b.get("text", "") for b in result.get("content", []) if b.get("type") == "text")


def check_call_outcome(expect: dict[str, Any], outcome: dict[str, Any], version: str) -> tuple[list[str], str]:
    """Compare one tools/call outcome with its expectation.

    `outcome` is {"result": <CallToolResult JSON>} or {"error": {"code", "message", "data"}} or
    {"sdkRejected": message}. Returns (problems, one-line summary of what was seen).
    """
    problems: list[str] = []
    if "sdkRejected" in outcome:
        return problems, "rejected by the client SDK"
    if "error" in outcome:
        err = outcome["error"]
        summary = f"JSON-RPC error {err['code']} {js(err.get('message', ''), 80)}"
        want = expect.get("protocolError")
        if want is None:
            problems.append("expected a result, got a JSON-RPC error")
        elif err["code"] != want:
            problems.append(f"expected JSON-RPC error {want}, got {err['code']}")
        if "errorContains" in expect and expect["errorContains"] not in (err.get("message") or ""):
            problems.append(f"error message lacks {expect['errorContains']!r}")
        return problems, summary

    result = outcome["result"]
    text = joined_text(result)
    is_error = bool(result.get("isError", False))
    summary = ("isError " if is_error else "") + (js(text, 80) if text else "(no text)")
    if "structuredContent" in result:
        summary += f" structured={js(result['structuredContent'], 80)}"
    if "protocolError" in expect:
        problems.append(f"expected JSON-RPC error {expect['protocolError']}, got a result")
        return problems, summary

    want_error = bool(expect.get("isError", False))
    if is_error != want_error:
        problems.append(f"isError is {str(is_error).lower()}, expected {str(want_error).lower()}")
    content = result.get("content")
    if not isinstance(content, list):
        problems.append("result has no content array")
        content = []
    if "text" in expect and text != expect["text"]:
        problems.append(f"text is {js(text)}, expected {js(expect['text'])}")
    contains = expect.get("textContains", [])
    for needle in [contains] if isinstance(contains, str) else contains:
        if needle not in text:
            problems.append(f"text lacks {js(needle)}")
    if "textMatches" in expect and not re.search(expect["textMatches"], text):
        problems.append(f"text does not match /{expect['textMatches']}/")
    if "content" in expect:
        why = subset_mismatch(expect["content"], content, "content")
        if why:
            problems.append(why)
    if "structured" in expect:
        if version < STRUCTURED_SINCE:
            summary += f" (structured not checked: {version} predates structuredContent)"
        elif "structuredContent" not in result:
            problems.append("no structuredContent")
        else:
            why = subset_mismatch(expect["structured"], result["structuredContent"], "structuredContent")
            if why:
                problems.append(why)
    if "textJson" in expect:
        try:
            parsed = json.loads(text)
        except ValueError:
            problems.append("text is not JSON")
        else:
            why = subset_mismatch(expect["textJson"], parsed, "json(text)")
            if why:
                problems.append(why)
    return problems, summary


def check_tool_listing(
    tools: list[dict[str, Any]],
    pages: int,
    exp: dict[str, Any],
    version: str,
    era: str,
    label: str,
    rep: Reporter,
) -> dict[str, dict[str, Any]]:
    """The checks on a complete tools/list walk. Returns the tools by name."""
    names = [t.get("name") for t in tools]
    rep.ok(label, f"tools/list -> {len(tools)} tool(s) over {pages} page(s): {', '.join(map(str, names))}")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        rep.fail(label, f"tools/list: duplicate tool name(s) {dupes}")
    want = set(exp["tools"])
    got = set(names)
    missing, extra = sorted(want - got), sorted(got - want)
    ok = not missing and (not extra or exp.get("allowExtraTools", False))
    detail = (f"; missing {missing}" if missing else "") + (f"; unexpected {extra}" if extra else "")
    rep.check(ok, label, f"tool set matches expectations ({len(want)} expected){detail}")

    by_name = {t["name"]: t for t in tools if isinstance(t.get("name"), str)}
    for t in tools:
        name = t.get("name")
        schema = t.get("inputSchema")
        rep.check(
            isinstance(schema, dict) and schema.get("type") == "object",
            label,
            f'{name}: inputSchema has type "object"'
            + ("" if isinstance(schema, dict) and schema.get("type") == "object" else f" (got {js(schema, 80)})"),
        )
        out = t.get("outputSchema")
        if out is not None and version < MODERN_SINCE:
            rep.check(
                isinstance(out, dict) and out.get("type") == "object",
                label,
                f'{name}: outputSchema has type "object" (required before {MODERN_SINCE})',
            )
        if exp.get("requireDescriptions"):
            rep.check(bool(t.get("description")), label, f"{name}: has a description")
    for tc in exp["toolChecks"]:
        if not selected(tc, era, version):
            continue
        tool = by_name.get(tc["tool"])
        if tool is None:
            rep.fail(label, f"toolCheck {tc['tool']}: tool not listed")
            continue
        why = subset_mismatch(tc["match"], tool, tc["tool"])
        rep.check(why is None, label, f"toolCheck {tc['tool']} matches {js(tc['match'], 100)}" + (f" :: {why}" if why else ""))
    return by_name


class Reporter:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def section(self, title: str) -> None:
        print(f"== {title}", flush=True)

    def ok(self, label: str, text: str) -> None:
        self.check(True, label, text)

    def fail(self, label: str, text: str) -> None:
        self.check(False, label, text)

    def check(self, ok: Any, label: str, text: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {label}: {text}", flush=True)

    def summary(self, who: str) -> None:
        print(f"{who}: {self.passed} passed, {self.failed} failed", flush=True)
