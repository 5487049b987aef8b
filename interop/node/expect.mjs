// The expectation format shared by the interop checks (Node side).
//
// interop/python/expectations.py implements the same semantics for the Python SDK;
// interop/README.md is the reference. Everything here works on plain JSON (the wire shape of
// results), never on SDK types.

import { readFileSync } from 'node:fs';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
export const STRUCTURED_SINCE = '2025-06-18'; // structuredContent / outputSchema exist from here on
export const MODERN_SINCE = '2026-07-28'; // stateless era: outputSchema may have any root (SEP-2106)

const TOP_KEYS = ['$comment', 'server', 'tools', 'allowExtraTools', 'requireDescriptions', 'allowDowngrade', 'toolChecks', 'calls'];
const CALL_KEYS = ['$comment', 'label', 'tool', 'arguments', 'expect', 'eras', 'minRevision', 'maxRevision', 'clients', 'progress', 'logLevel', 'logs', 'cancelAfterMs', 'answers', 'asked', 'rounds', 'httpResumes'];
const PROGRESS_KEYS = ['$comment', 'min', 'max', 'last', 'total'];
// The requests a server may send a client during a call (handshake eras), or embed in an
// `input_required` result (2026-07-28).
export const CLIENT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'];
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';
// How long after a call's result the checks keep collecting its progress / log notifications (an
// SDK may hand them to the handler a little after the result), and how long after a cancellation
// they wait for a response that must not come. Same values as expectations.py.
export const NOTIFICATION_GRACE_MS = 200;
export const CANCEL_GRACE_MS = 500;
export const CLIENTS = ['python', 'node-sdk', 'node-client', 'inspector'];
const EXPECT_KEYS = ['$comment', 'isError', 'text', 'textContains', 'textMatches', 'structured', 'textJson', 'content', 'protocolError', 'errorContains'];
const TOOLCHECK_KEYS = ['$comment', 'tool', 'match', 'eras', 'minRevision', 'maxRevision', 'clients'];
const RESULT_KEYS = ['isError', 'text', 'textContains', 'textMatches', 'structured', 'textJson', 'content'];

export class ExpectationError extends Error {}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function noUnknown(obj, allowed, where) {
  const unknown = Object.keys(obj).filter((k) => !allowed.includes(k)).sort();
  if (unknown.length) {
    throw new ExpectationError(`${where}: unknown key(s) ${JSON.stringify(unknown)}; allowed: ${JSON.stringify([...allowed].sort())}`);
  }
}

function checkFilters(obj, where) {
  for (const key of ['minRevision', 'maxRevision']) {
    if (key in obj && !REVISIONS.includes(obj[key])) throw new ExpectationError(`${where}.${key} must be one of ${REVISIONS.join(', ')}`);
  }
  if ('eras' in obj && (!Array.isArray(obj.eras) || !obj.eras.every((e) => e === 'legacy' || e === 'modern'))) {
    throw new ExpectationError(`${where}.eras must be a list of "legacy" / "modern"`);
  }
  if ('clients' in obj && (!Array.isArray(obj.clients) || !obj.clients.every((c) => CLIENTS.includes(c)))) {
    throw new ExpectationError(`${where}.clients must be a list of ${JSON.stringify(CLIENTS)}`);
  }
}

/** The progress / logging / cancellation keys of a call. */
function checkNotificationKeys(call, where) {
  if ('progress' in call) {
    const p = call.progress;
    if (!isObject(p)) throw new ExpectationError(`${where}.progress must be an object`);
    noUnknown(p, PROGRESS_KEYS, `${where}.progress`);
    for (const key of ['min', 'max']) {
      if (key in p && !(Number.isInteger(p[key]) && p[key] >= 0)) throw new ExpectationError(`${where}.progress.${key} must be a non-negative integer`);
    }
    if ('last' in p && !isObject(p.last)) throw new ExpectationError(`${where}.progress.last must be an object pattern ({progress, total, message})`);
  }
  if ('logLevel' in call && !LOG_LEVELS.includes(call.logLevel)) throw new ExpectationError(`${where}.logLevel must be one of ${JSON.stringify(LOG_LEVELS)}`);
  if ('logs' in call && !(Array.isArray(call.logs) && call.logs.every(isObject))) {
    throw new ExpectationError(`${where}.logs must be a list of object patterns ({level, logger, data})`);
  }
  if ('cancelAfterMs' in call) {
    if (!(typeof call.cancelAfterMs === 'number' && call.cancelAfterMs > 0)) throw new ExpectationError(`${where}.cancelAfterMs must be a positive number`);
    const clash = ['expect', 'progress', 'logs', 'answers', 'asked', 'rounds'].filter((k) => k in call).sort();
    if (clash.length) throw new ExpectationError(`${where}: cancelAfterMs excludes ${JSON.stringify(clash)} (a cancelled call has no outcome to check)`);
  }
}

/** The `answers` / `asked` / `rounds` keys of a call (requests from the server to the client). */
function checkClientRequestKeys(call, where) {
  const { answers, asked } = call;
  if (answers !== undefined) {
    if (!(Array.isArray(answers) && answers.every(isObject))) throw new ExpectationError(`${where}.answers must be a list of objects (the results the client's callbacks return)`);
    answers.forEach((answer, i) => {
      if ('error' in answer && (Object.keys(answer).some((k) => k !== 'error' && k !== '$comment') || !isObject(answer.error))) {
        throw new ExpectationError(`${where}.answers[${i}]: an error answer is exactly {"error": {"code": N, "message": "..."}}`);
      }
    });
  }
  if (asked !== undefined) {
    if (!(Array.isArray(asked) && asked.every(isObject))) throw new ExpectationError(`${where}.asked must be a list of {method, params} patterns`);
    asked.forEach((pattern, i) => {
      noUnknown(pattern, ['$comment', 'method', 'params'], `${where}.asked[${i}]`);
      if (!CLIENT_REQUEST_METHODS.includes(pattern.method)) throw new ExpectationError(`${where}.asked[${i}].method must be one of ${JSON.stringify(CLIENT_REQUEST_METHODS)}`);
    });
  }
  if (asked !== undefined && answers !== undefined && asked.length !== answers.length) {
    throw new ExpectationError(`${where}: asked has ${asked.length} entries but answers has ${answers.length}`);
  }
  if ('rounds' in call && !(Number.isInteger(call.rounds) && call.rounds >= 0)) throw new ExpectationError(`${where}.rounds must be a non-negative integer`);
}

/**
 * The requests the client's handlers received during one call ({method, params}, in order)
 * against the call's `asked` patterns (same length, element-wise subset match). Without `asked`,
 * the number of requests must equal the number of `answers` (0 when there are none).
 */
export function checkAsked(patterns, requests, answers) {
  const shown = requests.slice(0, 4).map((r) => `${r.method} ${js(r.params, 60)}`).join(', ') + (requests.length > 4 ? ', ...' : '');
  const summary = `${requests.length} request(s) to the client` + (requests.length ? ` [${shown}]` : '');
  if (patterns !== undefined) {
    const why = subsetMismatch(patterns, requests, 'asked');
    return [why ? [why] : [], summary];
  }
  const want = (answers ?? []).length;
  return [requests.length !== want ? [`expected ${want} request(s) to the client, got ${requests.length}`] : [], summary];
}

/**
 * The progress notifications one call's handler received ({progress, total?, message?} each, in
 * arrival order) against a `progress` expectation. Returns [problems, summary].
 */
export function checkProgress(spec, updates) {
  const problems = [];
  const values = updates.map((u) => u.progress);
  const summary = `${updates.length} progress notification(s) [${values.slice(0, 8).map((v) => js(v)).join(', ')}${values.length > 8 ? ', ...' : ''}]`;
  const min = spec.min ?? 1;
  if (updates.length < min) problems.push(`expected at least ${min}, got ${updates.length}`);
  if ('max' in spec && updates.length > spec.max) problems.push(`expected at most ${spec.max} (coalescing), got ${updates.length}`);
  for (let i = 1; i < values.length; i++) {
    if (!(isNumber(values[i - 1]) && isNumber(values[i]) && values[i] > values[i - 1])) {
      problems.push(`not strictly increasing at #${i}: ${js(values[i - 1])} then ${js(values[i])}`);
      break;
    }
  }
  if ('total' in spec) {
    const bad = updates.filter((u) => subsetMismatch(spec.total, u.total) !== null);
    if (bad.length) problems.push(`total is not ${js(spec.total)} in ${bad.length} notification(s), e.g. ${js(bad[0])}`);
  }
  if ('last' in spec) {
    if (!updates.length) problems.push(`no last notification to match ${js(spec.last)}`);
    else {
      const why = subsetMismatch(spec.last, updates[updates.length - 1], 'last');
      if (why) problems.push(why);
    }
  }
  return [problems, summary];
}

/**
 * The `notifications/message` params one call's handler received ({level, logger?, data}, in
 * arrival order) against a `logs` expectation (same length, element-wise subset match).
 */
export function checkLogs(patterns, messages) {
  const shown = messages.slice(0, 6).map((m) => `${m.level} ${js(m.data, 40)}`).join(', ') + (messages.length > 6 ? ', ...' : '');
  const summary = `${messages.length} notifications/message` + (messages.length ? ` [${shown}]` : '');
  const why = subsetMismatch(patterns, messages, 'logs');
  return [why ? [why] : [], summary];
}

export function loadExpectations(path) {
  const exp = JSON.parse(readFileSync(path, 'utf8'));
  if (!isObject(exp)) throw new ExpectationError('top level must be an object');
  noUnknown(exp, TOP_KEYS, 'top level');
  if (!Array.isArray(exp.tools) || !exp.tools.every((t) => typeof t === 'string')) {
    throw new ExpectationError('"tools" must be a list of tool names');
  }
  exp.calls ??= [];
  exp.toolChecks ??= [];
  exp.calls.forEach((call, i) => {
    const where = `calls[${i}]`;
    if (!isObject(call) || typeof call.tool !== 'string') throw new ExpectationError(`${where} must be an object with a "tool" name`);
    noUnknown(call, CALL_KEYS, where);
    if ('arguments' in call && !isObject(call.arguments)) throw new ExpectationError(`${where}.arguments must be an object`);
    const expect = call.expect ?? {};
    if (!isObject(expect)) throw new ExpectationError(`${where}.expect must be an object`);
    noUnknown(expect, EXPECT_KEYS, `${where}.expect`);
    if ('protocolError' in expect && RESULT_KEYS.some((k) => k in expect)) {
      throw new ExpectationError(`${where}.expect: protocolError excludes result expectations`);
    }
    if ('textMatches' in expect) new RegExp(expect.textMatches);
    checkNotificationKeys(call, where);
    checkClientRequestKeys(call, where);
    checkFilters(call, where);
  });
  exp.toolChecks.forEach((tc, i) => {
    const where = `toolChecks[${i}]`;
    if (!isObject(tc) || typeof tc.tool !== 'string' || !isObject(tc.match)) {
      throw new ExpectationError(`${where} must be {"tool": NAME, "match": {...}}`);
    }
    noUnknown(tc, TOOLCHECK_KEYS, where);
    checkFilters(tc, where);
  });
  return exp;
}

/** Whether a call / toolCheck applies to this run (client and era filters, revision window). */
export function selected(obj, era, version, client) {
  if ('clients' in obj && !obj.clients.includes(client)) return false;
  if ('eras' in obj && !obj.eras.includes(era)) return false;
  if ('minRevision' in obj && version < obj.minRevision) return false;
  if ('maxRevision' in obj && version > obj.maxRevision) return false;
  return true;
}

/** `text` on one line, cut to `limit` characters. */
export function short(text, limit = 120) {
  text = String(text).replaceAll('\n', '\\n');
  return text.length <= limit ? text : text.slice(0, limit - 3) + '...';
}

/** `value` as compact JSON, cut to `limit` characters. */
export function js(value, limit = 120) {
  return short(JSON.stringify(value) ?? 'undefined', limit);
}

const isNumber = (v) => typeof v === 'number';

/**
 * null if `actual` matches `expected` as a subset; else where and how it differs.
 * Objects: every expected key present and matching (extra keys fine). Arrays: same length,
 * element-wise. Numbers: numerically equal (2 matches 2.0). Others: strictly equal.
 */
export function subsetMismatch(expected, actual, path = '$') {
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path}: expected an object, got ${js(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      if (!(k in actual)) return `${path}.${k}: missing`;
      const why = subsetMismatch(v, actual[k], `${path}.${k}`);
      if (why) return why;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${js(actual)}`;
    if (expected.length !== actual.length) return `${path}: expected ${expected.length} element(s), got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const why = subsetMismatch(expected[i], actual[i], `${path}[${i}]`);
      if (why) return why;
    }
    return null;
  }
  if (isNumber(expected)) {
    const close = isNumber(actual) && Math.abs(expected - actual) <= Math.max(1e-12, 1e-9 * Math.max(Math.abs(expected), Math.abs(actual)));
    return close ? null : `${path}: expected ${js(expected)}, got ${js(actual)}`;
  }
  return expected === actual ? null : `${path}: expected ${js(expected)}, got ${js(actual)}`;
}

export function joinedText(result) {
  return (result.content ?? []).filter((b) => b?.type === 'text').map((b) => b.text ?? '').join('\n');
}

/**
 * Compare one tools/call outcome with its expectation. `outcome` is {result}, {error: {code,
 * message, data}} or {sdkRejected: message}. Returns [problems, one-line summary].
 */
export function checkCallOutcome(expect, outcome, version) {
  const problems = [];
  if ('sdkRejected' in outcome) return [problems, 'rejected by the client SDK'];
  if ('error' in outcome) {
    const err = outcome.error;
    const summary = `JSON-RPC error ${err.code} ${js(err.message ?? '', 80)}`;
    const want = expect.protocolError;
    if (want === undefined) problems.push('expected a result, got a JSON-RPC error');
    else if (err.code !== want) problems.push(`expected JSON-RPC error ${want}, got ${err.code}`);
    if ('errorContains' in expect && !(err.message ?? '').includes(expect.errorContains)) {
      problems.push(`error message lacks ${js(expect.errorContains)}`);
    }
    return [problems, summary];
  }

  const result = outcome.result;
  const text = joinedText(result);
  const isError = Boolean(result.isError ?? false);
  let summary = (isError ? 'isError ' : '') + (text ? js(text, 80) : '(no text)');
  if ('structuredContent' in result && result.structuredContent !== undefined) summary += ` structured=${js(result.structuredContent, 80)}`;
  if ('protocolError' in expect) {
    problems.push(`expected JSON-RPC error ${expect.protocolError}, got a result`);
    return [problems, summary];
  }
  const wantError = Boolean(expect.isError ?? false);
  if (isError !== wantError) problems.push(`isError is ${isError}, expected ${wantError}`);
  let content = result.content;
  if (!Array.isArray(content)) {
    problems.push('result has no content array');
    content = [];
  }
  if ('text' in expect && text !== expect.text) problems.push(`text is ${js(text)}, expected ${js(expect.text)}`);
  const contains = expect.textContains ?? [];
  for (const needle of typeof contains === 'string' ? [contains] : contains) {
    if (!text.includes(needle)) problems.push(`text lacks ${js(needle)}`);
  }
  if ('textMatches' in expect && !new RegExp(expect.textMatches).test(text)) problems.push(`text does not match /${expect.textMatches}/`);
  if ('content' in expect) {
    const why = subsetMismatch(expect.content, content, 'content');
    if (why) problems.push(why);
  }
  if ('structured' in expect) {
    if (version < STRUCTURED_SINCE) summary += ` (structured not checked: ${version} predates structuredContent)`;
    else if (result.structuredContent === undefined) problems.push('no structuredContent');
    else {
      const why = subsetMismatch(expect.structured, result.structuredContent, 'structuredContent');
      if (why) problems.push(why);
    }
  }
  if ('textJson' in expect) {
    let parsed;
    let ok = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      ok = false;
      problems.push('text is not JSON');
    }
    if (ok) {
      const why = subsetMismatch(expect.textJson, parsed, 'json(text)');
      if (why) problems.push(why);
    }
  }
  return [problems, summary];
}

/** The checks on a complete tools/list walk. Returns a Map of the tools by name. */
export function checkToolListing(tools, pages, exp, version, era, label, rep, client) {
  const names = tools.map((t) => t?.name);
  rep.ok(label, `tools/list -> ${tools.length} tool(s)${pages === null ? '' : ` over ${pages} page(s)`}: ${names.join(', ')}`);
  const dupes = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].sort();
  if (dupes.length) rep.fail(label, `tools/list: duplicate tool name(s) ${js(dupes)}`);
  const want = new Set(exp.tools);
  const got = new Set(names);
  const missing = [...want].filter((n) => !got.has(n)).sort();
  const extra = [...got].filter((n) => !want.has(n)).sort();
  const ok = !missing.length && (!extra.length || Boolean(exp.allowExtraTools));
  const detail = (missing.length ? `; missing ${js(missing)}` : '') + (extra.length ? `; unexpected ${js(extra)}` : '');
  rep.check(ok, label, `tool set matches expectations (${want.size} expected)${detail}`);

  const byName = new Map(tools.filter((t) => typeof t?.name === 'string').map((t) => [t.name, t]));
  for (const t of tools) {
    const schema = t.inputSchema;
    const good = isObject(schema) && schema.type === 'object';
    rep.check(good, label, `${t.name}: inputSchema has type "object"` + (good ? '' : ` (got ${js(schema, 80)})`));
    if (t.outputSchema !== undefined && t.outputSchema !== null && version < MODERN_SINCE) {
      rep.check(isObject(t.outputSchema) && t.outputSchema.type === 'object', label, `${t.name}: outputSchema has type "object" (required before ${MODERN_SINCE})`);
    }
    if (exp.requireDescriptions) rep.check(Boolean(t.description), label, `${t.name}: has a description`);
  }
  for (const tc of exp.toolChecks) {
    if (!selected(tc, era, version, client)) continue;
    const tool = byName.get(tc.tool);
    if (!tool) {
      rep.fail(label, `toolCheck ${tc.tool}: tool not listed`);
      continue;
    }
    const why = subsetMismatch(tc.match, tool, tc.tool);
    rep.check(why === null, label, `toolCheck ${tc.tool} matches ${js(tc.match, 100)}` + (why ? ` :: ${why}` : ''));
  }
  return byName;
}

export class Reporter {
  passed = 0;
  failed = 0;
  section(title) {
    console.log(`== ${title}`);
  }
  ok(label, text) {
    this.check(true, label, text);
  }
  fail(label, text) {
    this.check(false, label, text);
  }
  check(ok, label, text) {
    if (ok) this.passed++;
    else this.failed++;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${label}: ${text}`);
  }
  summary(who) {
    console.log(`${who}: ${this.passed} passed, ${this.failed} failed`);
  }
}
