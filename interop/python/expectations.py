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

TOP_KEYS = {
    "$comment",
    "server",
    "tools",
    "allowExtraTools",
    "requireDescriptions",
    "allowDowngrade",
    "toolChecks",
    "calls",
    # Resources, prompts, completion (all optional; an absent section checks nothing).
    "capabilities",
    "resources",
    "resourceChecks",
    "resourceTemplates",
    "resourceTemplateChecks",
    "reads",
    "readErrors",
    "subscribe",
    "prompts",
    "promptChecks",
    "promptGets",
    "promptErrors",
    "completions",
    # MCP Apps: every `_meta.ui` validated against the extension's own schema (apps_schema.py).
    "appsSchema",
}
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
FILTER_KEYS = {"eras", "minRevision", "maxRevision", "clients"}
# The server capabilities a `capabilities` entry may name in `declared` / `absent` / `match`.
CAPABILITY_NAMES = ("tools", "resources", "prompts", "completions", "logging", "experimental", "extensions", "tasks")
CAPABILITY_KEYS = {"$comment", "declared", "absent", "match"} | FILTER_KEYS
# The listings (resources/list, resources/templates/list, prompts/list): top-level key, its
# `...Checks` key, the field that names an item, and the key a check entry names it by.
LISTINGS = {
    "resources": ("resourceChecks", "uri", "uri"),
    "resourceTemplates": ("resourceTemplateChecks", "uriTemplate", "uriTemplate"),
    "prompts": ("promptChecks", "name", "prompt"),
}
READ_KEYS = {"$comment", "label", "uri", "expect"} | FILTER_KEYS
READ_EXPECT_KEYS = {"$comment", "mimeType", "uri", "text", "textContains", "textJson", "blob", "contentsCount", "contents"}
READ_ERROR_KEYS = {"$comment", "label", "uri", "code", "messageContains"} | FILTER_KEYS
SUBSCRIBE_KEYS = {"$comment", "uri"} | FILTER_KEYS
PROMPT_GET_KEYS = {"$comment", "label", "name", "arguments", "expect"} | FILTER_KEYS
PROMPT_EXPECT_KEYS = {"$comment", "description", "messagesCount", "text", "textContains", "contentTypes", "roles", "messages"}
PROMPT_ERROR_KEYS = {"$comment", "label", "name", "arguments", "code", "messageContains"} | FILTER_KEYS
COMPLETION_KEYS = {"$comment", "label", "ref", "argument", "context", "expect"} | FILTER_KEYS
COMPLETION_EXPECT_KEYS = {"$comment", "values", "valuesInclude", "total", "hasMore", "protocolError", "errorContains"}


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
    _load_primitives(exp)
    return exp


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _entries(exp: dict[str, Any], key: str, allowed: set[str], name_key: str, name_type: type = str) -> list[dict[str, Any]]:
    """Check the list `exp[key]` of objects, each naming its target by `name_key`; default []."""
    entries = exp.setdefault(key, [])
    if not isinstance(entries, list):
        raise ExpectationError(f'"{key}" must be a list')
    for i, entry in enumerate(entries):
        where = f"{key}[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get(name_key), name_type):
            raise ExpectationError(f'{where} must be an object with "{name_key}"')
        _no_unknown(entry, allowed, where)
        _check_filters(entry, where)
    return entries


def _load_primitives(exp: dict[str, Any]) -> None:
    """The resources / prompts / completion sections (README, "Resources, prompts, completion")."""
    caps = exp.get("capabilities")
    if caps is not None:
        if isinstance(caps, dict):
            caps = exp["capabilities"] = [caps]
        if not isinstance(caps, list):
            raise ExpectationError('"capabilities" must be an object or a list of objects')
        for i, entry in enumerate(caps):
            where = f"capabilities[{i}]"
            if not isinstance(entry, dict):
                raise ExpectationError(f"{where} must be an object")
            _no_unknown(entry, CAPABILITY_KEYS, where)
            _check_filters(entry, where)
            for key in ("declared", "absent"):
                if key in entry and not (_strings(entry[key]) and all(c in CAPABILITY_NAMES for c in entry[key])):
                    raise ExpectationError(f"{where}.{key} must be a list of {list(CAPABILITY_NAMES)}")
            if "match" in entry and not isinstance(entry["match"], dict):
                raise ExpectationError(f"{where}.match must be an object pattern")
            both = sorted(set(entry.get("declared", [])) & set(entry.get("absent", [])))
            if both:
                raise ExpectationError(f"{where}: {both} both declared and absent")
    for key, (checks_key, _field, by) in LISTINGS.items():
        if key in exp and not _strings(exp[key]):
            raise ExpectationError(f'"{key}" must be a list of strings')
        for i, check in enumerate(exp.setdefault(checks_key, [])):
            where = f"{checks_key}[{i}]"
            if not isinstance(check, dict) or not isinstance(check.get(by), str) or not isinstance(check.get("match"), dict):
                raise ExpectationError(f'{where} must be {{"{by}": ..., "match": {{...}}}}')
            _no_unknown(check, {"$comment", by, "match"} | FILTER_KEYS, where)
            _check_filters(check, where)
        if exp[checks_key] and key not in exp:
            raise ExpectationError(f'"{checks_key}" needs "{key}" (the listing it checks)')
    for i, read in enumerate(_entries(exp, "reads", READ_KEYS, "uri")):
        expect = read.setdefault("expect", {})
        if not isinstance(expect, dict):
            raise ExpectationError(f"reads[{i}].expect must be an object")
        _no_unknown(expect, READ_EXPECT_KEYS, f"reads[{i}].expect")
    for i, err in enumerate(_entries(exp, "readErrors", READ_ERROR_KEYS, "uri")):
        _check_error_entry(err, f"readErrors[{i}]")
    subs = exp.setdefault("subscribe", [])
    if not isinstance(subs, list):
        raise ExpectationError('"subscribe" must be a list of URIs or {"uri": ...} objects')
    exp["subscribe"] = [{"uri": s} if isinstance(s, str) else s for s in subs]
    _entries(exp, "subscribe", SUBSCRIBE_KEYS, "uri")
    for i, get in enumerate(_entries(exp, "promptGets", PROMPT_GET_KEYS, "name")):
        _check_prompt_arguments(get, f"promptGets[{i}]")
        expect = get.setdefault("expect", {})
        if not isinstance(expect, dict):
            raise ExpectationError(f"promptGets[{i}].expect must be an object")
        _no_unknown(expect, PROMPT_EXPECT_KEYS, f"promptGets[{i}].expect")
    for i, err in enumerate(_entries(exp, "promptErrors", PROMPT_ERROR_KEYS, "name")):
        _check_prompt_arguments(err, f"promptErrors[{i}]")
        _check_error_entry(err, f"promptErrors[{i}]")
    for i, comp in enumerate(_entries(exp, "completions", COMPLETION_KEYS, "ref", dict)):
        where = f"completions[{i}]"
        ref = comp["ref"]
        if not (
            (ref.get("type") == "ref/prompt" and isinstance(ref.get("name"), str))
            or (ref.get("type") == "ref/resource" and isinstance(ref.get("uri"), str))
        ):
            raise ExpectationError(f'{where}.ref must be {{"type": "ref/prompt", "name": ...}} or {{"type": "ref/resource", "uri": ...}}')
        arg = comp.get("argument")
        if not isinstance(arg, dict) or not isinstance(arg.get("name"), str) or not isinstance(arg.get("value"), str):
            raise ExpectationError(f'{where}.argument must be {{"name": ..., "value": ...}} (strings)')
        context = comp.get("context")
        if context is not None and not (isinstance(context, dict) and set(context) <= {"arguments"} and isinstance(context.get("arguments", {}), dict)):
            raise ExpectationError(f'{where}.context must be {{"arguments": {{NAME: VALUE}}}}')
        expect = comp.get("expect")
        if not isinstance(expect, dict):
            raise ExpectationError(f"{where}.expect must be an object")
        _no_unknown(expect, COMPLETION_EXPECT_KEYS, f"{where}.expect")
        if "protocolError" in expect and any(k in expect for k in ("values", "valuesInclude", "total", "hasMore")):
            raise ExpectationError(f"{where}.expect: protocolError excludes result expectations")
        for key in ("values", "valuesInclude"):
            if key in expect and not _strings(expect[key]):
                raise ExpectationError(f"{where}.expect.{key} must be a list of strings")


def _check_prompt_arguments(entry: dict[str, Any], where: str) -> None:
    args = entry.setdefault("arguments", {})
    if not isinstance(args, dict) or not all(isinstance(v, str) for v in args.values()):
        raise ExpectationError(f"{where}.arguments must be an object of strings (prompt arguments are strings)")


def _check_error_entry(entry: dict[str, Any], where: str) -> None:
    if "code" in entry and (not isinstance(entry["code"], int) or isinstance(entry["code"], bool)):
        raise ExpectationError(f"{where}.code must be an integer (a JSON-RPC error code)")
    if "messageContains" in entry and not isinstance(entry["messageContains"], str):
        raise ExpectationError(f"{where}.messageContains must be a string")
    if "code" not in entry and "messageContains" not in entry:
        raise ExpectationError(f'{where} needs "code" and/or "messageContains"')


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


def check_capabilities(entries: list[dict[str, Any]], caps: dict[str, Any], era: str, version: str, client: str, label: str, rep: Reporter) -> None:
    """The server's capabilities (from `initialize` or `server/discover`) against `capabilities`:
    every `declared` one present (an object), every `absent` one missing, `match` subset-matching."""
    for entry in entries:
        if not selected(entry, era, version, client):
            continue
        problems = []
        for name in entry.get("declared", []):
            if not isinstance(caps.get(name), dict):
                problems.append(f"{name} not declared" if name not in caps else f"{name} is {js(caps[name], 60)}, not an object")
        for name in entry.get("absent", []):
            if name in caps and caps[name] is not None:
                problems.append(f"{name} declared ({js(caps[name], 60)}) but must not be")
        if "match" in entry:
            why = subset_mismatch(entry["match"], caps, "capabilities")
            if why:
                problems.append(why)
        want = ", ".join(
            x
            for x in (
                "declared " + "/".join(entry["declared"]) if entry.get("declared") else "",
                "not " + "/".join(entry["absent"]) if entry.get("absent") else "",
                "match " + js(entry["match"], 80) if "match" in entry else "",
            )
            if x
        )
        rep.check(not problems, label, f"capabilities {js(caps, 160)}: {want}" + ("" if not problems else " :: " + "; ".join(problems)))


def check_listing(kind: str, items: list[dict[str, Any]], pages: int | None, exp: dict[str, Any], era: str, version: str, client: str, label: str, rep: Reporter) -> dict[str, dict[str, Any]]:
    """A complete resources/list, resources/templates/list or prompts/list walk (`kind` is the
    expectation key) against the expected set and its `...Checks`. Returns the items by name."""
    checks_key, field, by = LISTINGS[kind]
    method = {"resources": "resources/list", "resourceTemplates": "resources/templates/list", "prompts": "prompts/list"}[kind]
    names = [i.get(field) for i in items]
    over = f" over {pages} page(s)" if pages is not None else ""
    rep.ok(label, f"{method} -> {len(items)} item(s){over}: {', '.join(map(str, names))}")
    dupes = sorted({str(n) for n in names if names.count(n) > 1})
    if dupes:
        rep.fail(label, f"{method}: duplicate {field}(s) {dupes}")
    want, got = set(exp[kind]), set(names)
    missing, extra = sorted(want - got), sorted(str(x) for x in got - want)
    detail = (f"; missing {missing}" if missing else "") + (f"; unexpected {extra}" if extra else "")
    rep.check(not missing and not extra, label, f"{method}: the {field}s are exactly the {len(want)} expected{detail}")
    for item in items:
        if not item.get("name"):
            rep.fail(label, f"{method}: {item.get(field)} has no name")
    by_name = {i[field]: i for i in items if isinstance(i.get(field), str)}
    for check in exp[checks_key]:
        if not selected(check, era, version, client):
            continue
        item = by_name.get(check[by])
        if item is None:
            rep.fail(label, f"{checks_key} {check[by]}: not listed")
            continue
        why = subset_mismatch(check["match"], item, check[by])
        rep.check(why is None, label, f"{method}: {check[by]} matches {js(check['match'], 100)}" + (f" :: {why}" if why else ""))
    return by_name


def _error_outcome(want_code: int | None, contains: str | None, outcome: dict[str, Any]) -> tuple[list[str], str] | None:
    """The shared part of every outcome check: an SDK rejection, or a JSON-RPC error (wanted or
    not). None when the outcome is a result and no error was wanted."""
    if "sdkRejected" in outcome:
        return [], "rejected by the client SDK"
    if "error" in outcome:
        err = outcome["error"]
        problems = []
        if want_code is None and contains is None:
            problems.append("expected a result, got a JSON-RPC error")
        elif want_code is not None and err["code"] != want_code:
            problems.append(f"expected JSON-RPC error {want_code}, got {err['code']}")
        if contains is not None and contains not in (err.get("message") or ""):
            problems.append(f"error message lacks {contains!r}")
        return problems, f"JSON-RPC error {err['code']} {js(err.get('message', ''), 100)}"
    return None


def check_error_outcome(entry: dict[str, Any], outcome: dict[str, Any]) -> tuple[list[str], str]:
    """A `readErrors` / `promptErrors` entry: the request must fail with a JSON-RPC error (`code`,
    `messageContains`)."""
    seen = _error_outcome(entry.get("code"), entry.get("messageContains"), outcome)
    if seen is not None:
        return seen
    return ["expected a JSON-RPC error, got a result"], f"result {js(outcome['result'], 100)}"


def _texts(values: Any) -> list[str]:
    return [values] if isinstance(values, str) else list(values)


def check_read_outcome(expect: dict[str, Any], outcome: dict[str, Any], uri: str) -> tuple[list[str], str]:
    """One resources/read outcome against a `reads` entry's `expect`."""
    seen = _error_outcome(None, None, outcome)
    if seen is not None:
        return seen
    import base64
    import binascii

    problems: list[str] = []
    contents = outcome["result"].get("contents")
    if not isinstance(contents, list):
        return ["result has no contents array"], "no contents"
    text = "\n".join(c.get("text", "") for c in contents if isinstance(c.get("text"), str))
    kinds = ["blob" if "blob" in c else "text" if "text" in c else "?" for c in contents]
    summary = f"{len(contents)} content(s) [" + ", ".join(f"{k} {c.get('mimeType')}" for k, c in zip(kinds, contents)) + "]"
    if text:
        summary += f" {js(text, 80)}"
    for i, c in enumerate(contents):
        if not isinstance(c.get("uri"), str):
            problems.append(f"contents[{i}] has no uri")
        if kinds[i] == "?":
            problems.append(f"contents[{i}] has neither text nor blob")
        if kinds[i] == "blob":
            try:
                base64.b64decode(c["blob"], validate=True)
            except (binascii.Error, TypeError, ValueError):
                problems.append(f"contents[{i}].blob is not base64")
    if "contentsCount" in expect and len(contents) != expect["contentsCount"]:
        problems.append(f"{len(contents)} contents, expected {expect['contentsCount']}")
    for key in ("mimeType", "uri"):
        if key in expect:
            bad = [c.get(key) for c in contents if c.get(key) != expect[key]]
            if bad or not contents:
                problems.append(f"{key} is {js(bad or None)}, expected {js(expect[key])}")
    if "blob" in expect:
        want = "blob" if expect["blob"] else "text"
        if not contents or any(k != want for k in kinds):
            problems.append(f"contents are {kinds}, expected {want} only")
    if "text" in expect and text != expect["text"]:
        problems.append(f"text is {js(text)}, expected {js(expect['text'])}")
    for needle in _texts(expect.get("textContains", [])):
        if needle not in text:
            problems.append(f"text lacks {js(needle)}")
    if "textJson" in expect:
        try:
            parsed = json.loads(text)
        except ValueError:
            problems.append("text is not JSON")
        else:
            why = subset_mismatch(expect["textJson"], parsed, "json(text)")
            if why:
                problems.append(why)
    if "contents" in expect:
        why = subset_mismatch(expect["contents"], contents, "contents")
        if why:
            problems.append(why)
    return problems, summary


def check_prompt_outcome(expect: dict[str, Any], outcome: dict[str, Any]) -> tuple[list[str], str]:
    """One prompts/get outcome against a `promptGets` entry's `expect`."""
    seen = _error_outcome(None, None, outcome)
    if seen is not None:
        return seen
    problems: list[str] = []
    result = outcome["result"]
    messages = result.get("messages")
    if not isinstance(messages, list):
        return ["result has no messages array"], "no messages"
    types_ = [(m.get("content") or {}).get("type") for m in messages]
    roles = [m.get("role") for m in messages]
    text = "\n".join(m["content"].get("text", "") for m in messages if (m.get("content") or {}).get("type") == "text")
    summary = f"{len(messages)} message(s) {types_}" + (f" {js(text, 80)}" if text else "")
    if "messagesCount" in expect and len(messages) != expect["messagesCount"]:
        problems.append(f"{len(messages)} messages, expected {expect['messagesCount']}")
    if "contentTypes" in expect and types_ != expect["contentTypes"]:
        problems.append(f"content types {types_}, expected {expect['contentTypes']}")
    if "roles" in expect and roles != expect["roles"]:
        problems.append(f"roles {roles}, expected {expect['roles']}")
    if "description" in expect and result.get("description") != expect["description"]:
        problems.append(f"description is {js(result.get('description'))}, expected {js(expect['description'])}")
    if "text" in expect and text != expect["text"]:
        problems.append(f"text is {js(text)}, expected {js(expect['text'])}")
    for needle in _texts(expect.get("textContains", [])):
        if needle not in text:
            problems.append(f"text lacks {js(needle)}")
    if "messages" in expect:
        why = subset_mismatch(expect["messages"], messages, "messages")
        if why:
            problems.append(why)
    return problems, summary


def check_completion_outcome(expect: dict[str, Any], outcome: dict[str, Any]) -> tuple[list[str], str]:
    """One completion/complete outcome against a `completions` entry's `expect`."""
    if "protocolError" in expect or "errorContains" in expect:
        seen = _error_outcome(expect.get("protocolError"), expect.get("errorContains"), outcome)
        if seen is not None:
            return seen
        return ["expected a JSON-RPC error, got a result"], f"result {js(outcome['result'], 100)}"
    seen = _error_outcome(None, None, outcome)
    if seen is not None:
        return seen
    completion = outcome["result"].get("completion")
    if not isinstance(completion, dict) or not isinstance(completion.get("values"), list):
        return ["result has no completion.values"], js(outcome["result"], 100)
    values = completion["values"]
    summary = f"values {js(values, 100)}" + "".join(f" {k}={js(completion[k])}" for k in ("total", "hasMore") if k in completion)
    problems: list[str] = []
    if len(values) > 100:
        problems.append(f"{len(values)} values (at most 100 allowed)")
    if "values" in expect and values != expect["values"]:
        problems.append(f"expected exactly {js(expect['values'])}")
    missing = [v for v in expect.get("valuesInclude", []) if v not in values]
    if missing:
        problems.append(f"lacks {js(missing)}")
    for key in ("total", "hasMore"):
        if key in expect and completion.get(key) != expect[key]:
            problems.append(f"{key} is {js(completion.get(key))}, expected {js(expect[key])}")
    return problems, summary


def describe_completion(comp: dict[str, Any]) -> str:
    ref = comp["ref"]
    target = ref.get("name") if ref["type"] == "ref/prompt" else ref.get("uri")
    ctx = f" context {js(comp['context'].get('arguments', {}), 60)}" if "context" in comp else ""
    return comp.get("label") or f"completion/complete {ref['type']} {target} {comp['argument']['name']}={js(comp['argument']['value'])}{ctx}"


class Reporter:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.skipped = 0

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

    def skip(self, label: str, text: str) -> None:
        self.skipped += 1
        print(f"SKIP {label}: {text}", flush=True)

    def summary(self, who: str) -> None:
        skipped = f", {self.skipped} skipped" if self.skipped else ""
        print(f"{who}: {self.passed} passed, {self.failed} failed{skipped}", flush=True)
