// The expectation format shared by the interop checks (Node side).
//
// interop/python/expectations.py implements the same semantics for the Python SDK;
// interop/README.md is the reference. Everything here works on plain JSON (the wire shape of
// results), never on SDK types.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
export const STRUCTURED_SINCE = '2025-06-18'; // structuredContent / outputSchema exist from here on
export const MODERN_SINCE = '2026-07-28'; // stateless era: outputSchema may have any root (SEP-2106)

const TOP_KEYS = [
  '$comment', 'server', 'tools', 'allowExtraTools', 'requireDescriptions', 'allowDowngrade', 'toolChecks', 'calls',
  // Resources, prompts, completion (all optional; an absent section checks nothing).
  'capabilities', 'resources', 'resourceChecks', 'resourceTemplates', 'resourceTemplateChecks', 'reads', 'readErrors', 'subscribe',
  'prompts', 'promptChecks', 'promptGets', 'promptErrors', 'completions',
  // MCP Apps: every `_meta.ui` validated against the extension's own schema.
  'appsSchema',
];
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
const FILTER_KEYS = ['eras', 'minRevision', 'maxRevision', 'clients'];
// The server capabilities a `capabilities` entry may name in `declared` / `absent` / `match`.
export const CAPABILITY_NAMES = ['tools', 'resources', 'prompts', 'completions', 'logging', 'experimental', 'extensions', 'tasks'];
const CAPABILITY_KEYS = ['$comment', 'declared', 'absent', 'match', ...FILTER_KEYS];
// The listings: top-level key -> [its `...Checks` key, the field naming an item, the key a check names it by, method].
export const LISTINGS = {
  resources: ['resourceChecks', 'uri', 'uri', 'resources/list'],
  resourceTemplates: ['resourceTemplateChecks', 'uriTemplate', 'uriTemplate', 'resources/templates/list'],
  prompts: ['promptChecks', 'name', 'prompt', 'prompts/list'],
};
const READ_KEYS = ['$comment', 'label', 'uri', 'expect', ...FILTER_KEYS];
const READ_EXPECT_KEYS = ['$comment', 'mimeType', 'uri', 'text', 'textContains', 'textJson', 'blob', 'contentsCount', 'contents'];
const READ_ERROR_KEYS = ['$comment', 'label', 'uri', 'code', 'messageContains', ...FILTER_KEYS];
const SUBSCRIBE_KEYS = ['$comment', 'uri', ...FILTER_KEYS];
const PROMPT_GET_KEYS = ['$comment', 'label', 'name', 'arguments', 'expect', ...FILTER_KEYS];
const PROMPT_EXPECT_KEYS = ['$comment', 'description', 'messagesCount', 'text', 'textContains', 'contentTypes', 'roles', 'messages'];
const PROMPT_ERROR_KEYS = ['$comment', 'label', 'name', 'arguments', 'code', 'messageContains', ...FILTER_KEYS];
const COMPLETION_KEYS = ['$comment', 'label', 'ref', 'argument', 'context', 'expect', ...FILTER_KEYS];
const COMPLETION_EXPECT_KEYS = ['$comment', 'values', 'valuesInclude', 'total', 'hasMore', 'protocolError', 'errorContains'];

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
  loadPrimitives(exp);
  return exp;
}

const isStrings = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Check the list `exp[key]` of objects, each naming its target by `nameKey`; default []. */
function entries(exp, key, allowed, nameKey, isName = (v) => typeof v === 'string') {
  exp[key] ??= [];
  if (!Array.isArray(exp[key])) throw new ExpectationError(`"${key}" must be a list`);
  exp[key].forEach((entry, i) => {
    const where = `${key}[${i}]`;
    if (!isObject(entry) || !isName(entry[nameKey])) throw new ExpectationError(`${where} must be an object with "${nameKey}"`);
    noUnknown(entry, allowed, where);
    checkFilters(entry, where);
  });
  return exp[key];
}

function checkPromptArguments(entry, where) {
  entry.arguments ??= {};
  if (!isObject(entry.arguments) || !Object.values(entry.arguments).every((v) => typeof v === 'string')) {
    throw new ExpectationError(`${where}.arguments must be an object of strings (prompt arguments are strings)`);
  }
}

function checkErrorEntry(entry, where) {
  if ('code' in entry && !Number.isInteger(entry.code)) throw new ExpectationError(`${where}.code must be an integer (a JSON-RPC error code)`);
  if ('messageContains' in entry && typeof entry.messageContains !== 'string') throw new ExpectationError(`${where}.messageContains must be a string`);
  if (!('code' in entry) && !('messageContains' in entry)) throw new ExpectationError(`${where} needs "code" and/or "messageContains"`);
}

/** The resources / prompts / completion sections (README, "Resources, prompts, completion"). */
function loadPrimitives(exp) {
  if ('capabilities' in exp) {
    if (isObject(exp.capabilities)) exp.capabilities = [exp.capabilities];
    if (!Array.isArray(exp.capabilities)) throw new ExpectationError('"capabilities" must be an object or a list of objects');
    exp.capabilities.forEach((entry, i) => {
      const where = `capabilities[${i}]`;
      if (!isObject(entry)) throw new ExpectationError(`${where} must be an object`);
      noUnknown(entry, CAPABILITY_KEYS, where);
      checkFilters(entry, where);
      for (const key of ['declared', 'absent']) {
        if (key in entry && !(isStrings(entry[key]) && entry[key].every((c) => CAPABILITY_NAMES.includes(c)))) {
          throw new ExpectationError(`${where}.${key} must be a list of ${JSON.stringify(CAPABILITY_NAMES)}`);
        }
      }
      if ('match' in entry && !isObject(entry.match)) throw new ExpectationError(`${where}.match must be an object pattern`);
      const both = (entry.declared ?? []).filter((c) => (entry.absent ?? []).includes(c)).sort();
      if (both.length) throw new ExpectationError(`${where}: ${JSON.stringify(both)} both declared and absent`);
    });
  }
  for (const [key, [checksKey, , by]] of Object.entries(LISTINGS)) {
    if (key in exp && !isStrings(exp[key])) throw new ExpectationError(`"${key}" must be a list of strings`);
    exp[checksKey] ??= [];
    exp[checksKey].forEach((check, i) => {
      const where = `${checksKey}[${i}]`;
      if (!isObject(check) || typeof check[by] !== 'string' || !isObject(check.match)) throw new ExpectationError(`${where} must be {"${by}": ..., "match": {...}}`);
      noUnknown(check, ['$comment', by, 'match', ...FILTER_KEYS], where);
      checkFilters(check, where);
    });
    if (exp[checksKey].length && !(key in exp)) throw new ExpectationError(`"${checksKey}" needs "${key}" (the listing it checks)`);
  }
  entries(exp, 'reads', READ_KEYS, 'uri').forEach((read, i) => {
    read.expect ??= {};
    if (!isObject(read.expect)) throw new ExpectationError(`reads[${i}].expect must be an object`);
    noUnknown(read.expect, READ_EXPECT_KEYS, `reads[${i}].expect`);
  });
  entries(exp, 'readErrors', READ_ERROR_KEYS, 'uri').forEach((err, i) => checkErrorEntry(err, `readErrors[${i}]`));
  exp.subscribe ??= [];
  if (!Array.isArray(exp.subscribe)) throw new ExpectationError('"subscribe" must be a list of URIs or {"uri": ...} objects');
  exp.subscribe = exp.subscribe.map((s) => (typeof s === 'string' ? { uri: s } : s));
  entries(exp, 'subscribe', SUBSCRIBE_KEYS, 'uri');
  entries(exp, 'promptGets', PROMPT_GET_KEYS, 'name').forEach((get, i) => {
    checkPromptArguments(get, `promptGets[${i}]`);
    get.expect ??= {};
    if (!isObject(get.expect)) throw new ExpectationError(`promptGets[${i}].expect must be an object`);
    noUnknown(get.expect, PROMPT_EXPECT_KEYS, `promptGets[${i}].expect`);
  });
  entries(exp, 'promptErrors', PROMPT_ERROR_KEYS, 'name').forEach((err, i) => {
    checkPromptArguments(err, `promptErrors[${i}]`);
    checkErrorEntry(err, `promptErrors[${i}]`);
  });
  entries(exp, 'completions', COMPLETION_KEYS, 'ref', isObject).forEach((comp, i) => {
    const where = `completions[${i}]`;
    const { ref, argument, context, expect } = comp;
    if (!((ref.type === 'ref/prompt' && typeof ref.name === 'string') || (ref.type === 'ref/resource' && typeof ref.uri === 'string'))) {
      throw new ExpectationError(`${where}.ref must be {"type": "ref/prompt", "name": ...} or {"type": "ref/resource", "uri": ...}`);
    }
    if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      throw new ExpectationError(`${where}.argument must be {"name": ..., "value": ...} (strings)`);
    }
    if (context !== undefined && !(isObject(context) && Object.keys(context).every((k) => k === 'arguments') && isObject(context.arguments ?? {}))) {
      throw new ExpectationError(`${where}.context must be {"arguments": {NAME: VALUE}}`);
    }
    if (!isObject(expect)) throw new ExpectationError(`${where}.expect must be an object`);
    noUnknown(expect, COMPLETION_EXPECT_KEYS, `${where}.expect`);
    if ('protocolError' in expect && ['values', 'valuesInclude', 'total', 'hasMore'].some((k) => k in expect)) {
      throw new ExpectationError(`${where}.expect: protocolError excludes result expectations`);
    }
    for (const key of ['values', 'valuesInclude']) {
      if (key in expect && !isStrings(expect[key])) throw new ExpectationError(`${where}.expect.${key} must be a list of strings`);
    }
  });
}

/**
 * The server's capabilities (from `initialize` or `server/discover`) against `capabilities`:
 * every `declared` one present (an object), every `absent` one missing, `match` subset-matching.
 */
export function checkCapabilities(list, caps, era, version, client, label, rep) {
  caps ??= {};
  for (const entry of list ?? []) {
    if (!selected(entry, era, version, client)) continue;
    const problems = [];
    for (const name of entry.declared ?? []) {
      if (!isObject(caps[name])) problems.push(name in caps ? `${name} is ${js(caps[name], 60)}, not an object` : `${name} not declared`);
    }
    for (const name of entry.absent ?? []) {
      if (caps[name] !== undefined && caps[name] !== null) problems.push(`${name} declared (${js(caps[name], 60)}) but must not be`);
    }
    if ('match' in entry) {
      const why = subsetMismatch(entry.match, caps, 'capabilities');
      if (why) problems.push(why);
    }
    const want = [
      entry.declared?.length ? `declared ${entry.declared.join('/')}` : '',
      entry.absent?.length ? `not ${entry.absent.join('/')}` : '',
      'match' in entry ? `match ${js(entry.match, 80)}` : '',
    ].filter(Boolean).join(', ');
    rep.check(!problems.length, label, `capabilities ${js(caps, 160)}: ${want}` + (problems.length ? ` :: ${problems.join('; ')}` : ''));
  }
}

/**
 * A complete resources/list, resources/templates/list or prompts/list walk (`kind` is the
 * expectation key) against the expected set and its `...Checks`. Returns a Map of the items.
 */
export function checkListing(kind, items, pages, exp, era, version, client, label, rep) {
  const [checksKey, field, by, method] = LISTINGS[kind];
  const names = items.map((i) => i?.[field]);
  rep.ok(label, `${method} -> ${items.length} item(s)${pages === null ? '' : ` over ${pages} page(s)`}: ${names.join(', ')}`);
  const dupes = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].sort();
  if (dupes.length) rep.fail(label, `${method}: duplicate ${field}(s) ${js(dupes)}`);
  const want = new Set(exp[kind]);
  const got = new Set(names);
  const missing = [...want].filter((n) => !got.has(n)).sort();
  const extra = [...got].filter((n) => !want.has(n)).map(String).sort();
  const detail = (missing.length ? `; missing ${js(missing)}` : '') + (extra.length ? `; unexpected ${js(extra)}` : '');
  rep.check(!missing.length && !extra.length, label, `${method}: the ${field}s are exactly the ${want.size} expected${detail}`);
  for (const item of items) if (!item?.name) rep.fail(label, `${method}: ${item?.[field]} has no name`);
  if (exp.appsSchema && kind === 'resources') for (const item of items) checkAppsMeta('McpUiResourceMeta', item, `${item?.uri}: ${method}`, label, rep);
  const byName = new Map(items.filter((i) => typeof i?.[field] === 'string').map((i) => [i[field], i]));
  for (const check of exp[checksKey]) {
    if (!selected(check, era, version, client)) continue;
    const item = byName.get(check[by]);
    if (!item) {
      rep.fail(label, `${checksKey} ${check[by]}: not listed`);
      continue;
    }
    const why = subsetMismatch(check.match, item, check[by]);
    rep.check(why === null, label, `${method}: ${check[by]} matches ${js(check.match, 100)}` + (why ? ` :: ${why}` : ''));
  }
  return byName;
}

// MCP Apps (`appsSchema`): the `$defs` of `@modelcontextprotocol/ext-apps`'s published schema,
// compiled once, with Ajv's draft 2020-12 dialect (the schema's own).
const APP_MIME_TYPE = 'text/html;profile=mcp-app';
let appsValidators;
function appsValidator(def) {
  if (!appsValidators) {
    const require = createRequire(import.meta.url);
    const schemaPath = require.resolve('@modelcontextprotocol/ext-apps/schema.json');
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
    const Ajv2020 = require('ajv/dist/2020').default;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(schema);
    appsValidators = { ajv, id: schema.$id };
  }
  return appsValidators.ajv.getSchema(`${appsValidators.id}#/$defs/${def}`);
}

/**
 * `appsSchema`: an item's `_meta.ui` (a tool, a listed resource, a read's contents) must be valid
 * against the extension's definition `def`; one check line for each item that has one.
 */
export function checkAppsMeta(def, item, what, label, rep) {
  const ui = item?._meta?.ui;
  if (ui === undefined) return;
  const validate = appsValidator(def);
  if (!validate) throw new Error(`ext-apps schema.json has no $defs/${def}`);
  const ok = validate(ui);
  const why = ok ? '' : ` :: ${validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`;
  rep.check(ok, label, `${what}: _meta.ui ${js(ui, 120)} is a valid ext-apps ${def}${why}`);
}

/**
 * `appsSchema` for a `resources/read` result: every `ui://` content is served as
 * `text/html;profile=mcp-app`, and its `_meta.ui` is a valid `McpUiResourceMeta`.
 */
export function checkAppsRead(uri, outcome, label, rep) {
  for (const content of outcome.result?.contents ?? []) {
    if (String(content?.uri).startsWith('ui://')) {
      const mime = content.mimeType;
      rep.check(mime === APP_MIME_TYPE, label, `resources/read ${uri}: ${content.uri} is ${js(mime)} (MCP Apps needs ${APP_MIME_TYPE})`);
    }
    checkAppsMeta('McpUiResourceMeta', content, `resources/read ${uri}: ${content?.uri}`, label, rep);
  }
}

/** SDK rejection or JSON-RPC error (wanted or not); null when the outcome is a result and none was wanted. */
function errorOutcome(wantCode, contains, outcome) {
  if ('sdkRejected' in outcome) return [[], 'rejected by the client SDK'];
  if ('error' in outcome) {
    const err = outcome.error;
    const problems = [];
    if (wantCode === undefined && contains === undefined) problems.push('expected a result, got a JSON-RPC error');
    else if (wantCode !== undefined && err.code !== wantCode) problems.push(`expected JSON-RPC error ${wantCode}, got ${err.code}`);
    if (contains !== undefined && !(err.message ?? '').includes(contains)) problems.push(`error message lacks ${js(contains)}`);
    return [problems, `JSON-RPC error ${err.code} ${js(err.message ?? '', 100)}`];
  }
  return null;
}

/** A `readErrors` / `promptErrors` entry: the request must fail with a JSON-RPC error. */
export function checkErrorOutcome(entry, outcome) {
  return errorOutcome(entry.code, entry.messageContains, outcome) ?? [['expected a JSON-RPC error, got a result'], `result ${js(outcome.result, 100)}`];
}

const texts = (v) => (typeof v === 'string' ? [v] : v ?? []);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** One resources/read outcome against a `reads` entry's `expect`. */
export function checkReadOutcome(expect, outcome) {
  const seen = errorOutcome(undefined, undefined, outcome);
  if (seen) return seen;
  const problems = [];
  const contents = outcome.result?.contents;
  if (!Array.isArray(contents)) return [['result has no contents array'], 'no contents'];
  const text = contents.filter((c) => typeof c?.text === 'string').map((c) => c.text).join('\n');
  const kinds = contents.map((c) => ('blob' in c ? 'blob' : 'text' in c ? 'text' : '?'));
  let summary = `${contents.length} content(s) [${contents.map((c, i) => `${kinds[i]} ${c.mimeType}`).join(', ')}]`;
  if (text) summary += ` ${js(text, 80)}`;
  contents.forEach((c, i) => {
    if (typeof c.uri !== 'string') problems.push(`contents[${i}] has no uri`);
    if (kinds[i] === '?') problems.push(`contents[${i}] has neither text nor blob`);
    if (kinds[i] === 'blob' && !(typeof c.blob === 'string' && BASE64.test(c.blob))) problems.push(`contents[${i}].blob is not base64`);
  });
  if ('contentsCount' in expect && contents.length !== expect.contentsCount) problems.push(`${contents.length} contents, expected ${expect.contentsCount}`);
  for (const key of ['mimeType', 'uri']) {
    if (key in expect) {
      const bad = contents.filter((c) => c[key] !== expect[key]).map((c) => c[key]);
      if (bad.length || !contents.length) problems.push(`${key} is ${js(bad.length ? bad : null)}, expected ${js(expect[key])}`);
    }
  }
  if ('blob' in expect) {
    const want = expect.blob ? 'blob' : 'text';
    if (!contents.length || kinds.some((k) => k !== want)) problems.push(`contents are ${js(kinds)}, expected ${want} only`);
  }
  if ('text' in expect && text !== expect.text) problems.push(`text is ${js(text)}, expected ${js(expect.text)}`);
  for (const needle of texts(expect.textContains)) if (!text.includes(needle)) problems.push(`text lacks ${js(needle)}`);
  if ('textJson' in expect) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      problems.push('text is not JSON');
    }
    if (parsed !== undefined) {
      const why = subsetMismatch(expect.textJson, parsed, 'json(text)');
      if (why) problems.push(why);
    }
  }
  if ('contents' in expect) {
    const why = subsetMismatch(expect.contents, contents, 'contents');
    if (why) problems.push(why);
  }
  return [problems, summary];
}

/** One prompts/get outcome against a `promptGets` entry's `expect`. */
export function checkPromptOutcome(expect, outcome) {
  const seen = errorOutcome(undefined, undefined, outcome);
  if (seen) return seen;
  const problems = [];
  const result = outcome.result;
  const messages = result?.messages;
  if (!Array.isArray(messages)) return [['result has no messages array'], 'no messages'];
  const types = messages.map((m) => m?.content?.type);
  const roles = messages.map((m) => m?.role);
  const text = messages.filter((m) => m?.content?.type === 'text').map((m) => m.content.text ?? '').join('\n');
  const summary = `${messages.length} message(s) ${js(types)}` + (text ? ` ${js(text, 80)}` : '');
  if ('messagesCount' in expect && messages.length !== expect.messagesCount) problems.push(`${messages.length} messages, expected ${expect.messagesCount}`);
  if ('contentTypes' in expect && js(types, 10000) !== js(expect.contentTypes, 10000)) problems.push(`content types ${js(types)}, expected ${js(expect.contentTypes)}`);
  if ('roles' in expect && js(roles, 10000) !== js(expect.roles, 10000)) problems.push(`roles ${js(roles)}, expected ${js(expect.roles)}`);
  if ('description' in expect && result.description !== expect.description) problems.push(`description is ${js(result.description)}, expected ${js(expect.description)}`);
  if ('text' in expect && text !== expect.text) problems.push(`text is ${js(text)}, expected ${js(expect.text)}`);
  for (const needle of texts(expect.textContains)) if (!text.includes(needle)) problems.push(`text lacks ${js(needle)}`);
  if ('messages' in expect) {
    const why = subsetMismatch(expect.messages, messages, 'messages');
    if (why) problems.push(why);
  }
  return [problems, summary];
}

/** One completion/complete outcome against a `completions` entry's `expect`. */
export function checkCompletionOutcome(expect, outcome) {
  if ('protocolError' in expect || 'errorContains' in expect) {
    return errorOutcome(expect.protocolError, expect.errorContains, outcome) ?? [['expected a JSON-RPC error, got a result'], `result ${js(outcome.result, 100)}`];
  }
  const seen = errorOutcome(undefined, undefined, outcome);
  if (seen) return seen;
  const completion = outcome.result?.completion;
  if (!isObject(completion) || !Array.isArray(completion.values)) return [['result has no completion.values'], js(outcome.result, 100)];
  const { values } = completion;
  const summary = `values ${js(values, 100)}` + ['total', 'hasMore'].filter((k) => k in completion).map((k) => ` ${k}=${js(completion[k])}`).join('');
  const problems = [];
  if (values.length > 100) problems.push(`${values.length} values (at most 100 allowed)`);
  if ('values' in expect && js(values, 100000) !== js(expect.values, 100000)) problems.push(`expected exactly ${js(expect.values)}`);
  const missing = (expect.valuesInclude ?? []).filter((v) => !values.includes(v));
  if (missing.length) problems.push(`lacks ${js(missing)}`);
  for (const key of ['total', 'hasMore']) {
    if (key in expect && completion[key] !== expect[key]) problems.push(`${key} is ${js(completion[key])}, expected ${js(expect[key])}`);
  }
  return [problems, summary];
}

export function describeCompletion(comp) {
  const { ref, argument } = comp;
  const target = ref.type === 'ref/prompt' ? ref.name : ref.uri;
  const ctx = comp.context ? ` context ${js(comp.context.arguments ?? {}, 60)}` : '';
  return comp.label ?? `completion/complete ${ref.type} ${target} ${argument.name}=${js(argument.value)}${ctx}`;
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
  if (exp.appsSchema) for (const t of tools) checkAppsMeta('McpUiToolMeta', t, `${t.name}: tools/list`, label, rep);
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
  skipped = 0;
  skip(label, text) {
    this.skipped++;
    console.log(`SKIP ${label}: ${text}`);
  }
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
    console.log(`${who}: ${this.passed} passed, ${this.failed} failed` + (this.skipped ? `, ${this.skipped} skipped` : ''));
  }
}
