#!/usr/bin/env node
// Drive a stdio MCP server with an official TypeScript SDK client and check what it sees.
//
// Usage:
//   node check_server.mjs [--sdk sdk|client] [--era ERA] [--timeout SECONDS] [--show-server-stderr] \
//        EXPECTATIONS.json -- SERVER_COMMAND...
//   node check_server.mjs --url http://HOST:PORT/mcp [--sdk ...] [--era ...] [--timeout S] EXPECTATIONS.json
//
// --http runs each era against `SERVER_COMMAND... --http 127.0.0.1:PORT` (started per era on a free
// port) through the SDK's StreamableHTTPClientTransport; --url (implies --http) runs every era against
// that running endpoint instead, starting nothing (nginx in front of a fleet: interop/fleet_run.sh).
// --sdk sdk     @modelcontextprotocol/sdk (the 1.x SDK every current host embeds). Speaks the
//               initialize handshake only; offers 2025-11-25. Eras: legacy.
// --sdk client  @modelcontextprotocol/client (the 2.x split SDK). Eras:
//               2024-11-05 | 2025-03-26 | 2025-06-18 | 2025-11-25 (the initialize handshake,
//               offering exactly that revision via `supportedProtocolVersions`), legacy (=2025-11-25),
//               modern (versionNegotiation mode 'auto': server/discover, must land on 2026-07-28).
// --era all (default) runs every era the chosen SDK has.
//
// Calls may also ask for progress (`onprogress` in the request options), a log level
// (`setLoggingLevel` in the handshake eras, the per-request `_meta` `io.modelcontextprotocol/logLevel`
// in the modern one) with the `notifications/message` a notification handler must receive, or a
// cancellation (an AbortSignal in the request options, which makes the SDK send
// `notifications/cancelled`); the wire is watched for that notification and for a response that
// must not come.
//
// The client declares `elicitation`, `sampling` and `roots` and registers a request handler for
// each. A call's `answers` are what the handlers return, in order, to the requests the server makes
// during the call: JSON-RPC requests on the connection in the handshake eras; in the modern era the
// `inputRequests` of `input_required` results, which the 2.x client's multi-round-trip driver
// dispatches to the same handlers before retrying `tools/call` itself. `asked` checks those requests,
// `rounds` the number of `input_required` results (counted on the wire).
//
// One PASS/FAIL line per check, then `<label>: N passed, M failed`; exit 1 on any failure.
// The expectation format is documented in interop/README.md; expect.mjs implements it.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import {
  CANCEL_GRACE_MS,
  checkAsked,
  checkCallOutcome,
  checkCapabilities,
  checkAppsRead,
  checkCompletionOutcome,
  checkErrorOutcome,
  checkListing,
  checkPromptOutcome,
  checkReadOutcome,
  describeCompletion,
  checkLogs,
  checkProgress,
  checkToolListing,
  ExpectationError,
  js,
  LISTINGS,
  loadExpectations,
  LOG_LEVEL_META_KEY,
  NOTIFICATION_GRACE_MS,
  Reporter,
  selected,
  short,
} from './expect.mjs';

const HANDSHAKE_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const MODERN = '2026-07-28';
const MAX_PAGES = 1000;

function pkgVersion(name) {
  // Not require(): these packages do not export their package.json.
  return JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

const SDKS = {
  sdk: {
    pkg: '@modelcontextprotocol/sdk',
    label: 'node-sdk',
    eras: ['legacy'],
    async load() {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const { LoggingMessageNotificationSchema, ElicitRequestSchema, CreateMessageRequestSchema, ListRootsRequestSchema, McpError } = await import(
        '@modelcontextprotocol/sdk/types.js'
      );
      // 1.x registers handlers by zod schema.
      const onLog = (client, handler) => client.setNotificationHandler(LoggingMessageNotificationSchema, handler);
      const schemas = { 'elicitation/create': ElicitRequestSchema, 'sampling/createMessage': CreateMessageRequestSchema, 'roots/list': ListRootsRequestSchema };
      const onRequest = (client, method, handler) => client.setRequestHandler(schemas[method], handler);
      const refusal = (code, message) => new McpError(code, message);
      return { Client, StdioClientTransport, StreamableHTTPClientTransport, onLog, onRequest, refusal };
    },
  },
  client: {
    pkg: '@modelcontextprotocol/client',
    label: 'node-client',
    eras: [...HANDSHAKE_REVISIONS, 'modern'],
    async load() {
      const { Client } = await import('@modelcontextprotocol/client');
      const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
      const { ProtocolError, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      const onLog = (client, handler) => client.setNotificationHandler('notifications/message', handler);
      const onRequest = (client, method, handler) => client.setRequestHandler(method, handler);
      const refusal = (code, message) => new ProtocolError(code, message);
      return { Client, StdioClientTransport, StreamableHTTPClientTransport, onLog, onRequest, refusal };
    },
  },
};

function parseArgs(argv) {
  const split = argv.indexOf('--');
  if (split < 0 && !argv.includes('--url')) usage('no `--` before the server command');
  const own = split < 0 ? argv : argv.slice(0, split);
  const command = split < 0 ? [] : argv.slice(split + 1);
  const opts = { sdk: 'sdk', era: 'all', timeout: 30, showStderr: false, http: false, url: null, expectations: null, command };
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    if (a === '--sdk') opts.sdk = own[++i];
    else if (a === '--era') opts.era = own[++i];
    else if (a === '--timeout') opts.timeout = Number(own[++i]);
    else if (a === '--show-server-stderr') opts.showStderr = true;
    else if (a === '--http') opts.http = true;
    else if (a === '--url') {
      opts.url = own[++i];
      opts.http = true;
    } else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (opts.expectations === null) opts.expectations = a;
    else usage(`unexpected argument ${a}`);
  }
  if (!SDKS[opts.sdk]) usage(`--sdk must be one of ${Object.keys(SDKS).join(', ')}`);
  if (!opts.expectations) usage('no expectations file');
  if (opts.url && command.length) usage('give either --url or a server command after --, not both');
  if (!opts.url && !command.length) usage('no server command after --');
  if (!(opts.timeout > 0)) usage('--timeout must be a positive number of seconds');
  return opts;
}

function usage(why) {
  console.error(`error: ${why}\nusage: check_server.mjs [--sdk sdk|client] [--era ERA|all] [--timeout S] [--show-server-stderr] [--http] EXPECTATIONS.json -- SERVER_COMMAND...\n       check_server.mjs --url URL [--sdk sdk|client] [--era ERA|all] [--timeout S] EXPECTATIONS.json`);
  process.exit(2);
}

function describe(e) {
  if (e instanceof AggregateError) return e.errors.map(describe).join(' | ');
  return `${e?.name ?? 'Error'}: ${short(String(e?.message ?? e).split(/\s+/).join(' '), 300)}`;
}

/** Run fn with Ajv's "unknown format ... ignored" console warnings muted (the SDK's own stay). */
function quietly(fn) {
  const warn = console.warn;
  console.warn = (...a) => {
    if (!(typeof a[0] === 'string' && a[0].startsWith('unknown format'))) warn(...a);
  };
  try {
    return fn();
  } finally {
    console.warn = warn;
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000}s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** What one era run means for a given SDK: client options and the revision it must end up on. */
function eraPlan(sdkKey, era) {
  if (era === 'modern') return { era: 'modern', want: MODERN, options: { versionNegotiation: { mode: 'auto' } }, how: "versionNegotiation 'auto'" };
  const revision = era === 'legacy' ? '2025-11-25' : era;
  if (sdkKey === 'sdk') return { era: 'legacy', want: revision, options: {}, how: 'initialize' };
  return { era: 'legacy', want: revision, options: { supportedProtocolVersions: [revision] }, how: `initialize offering only ${revision}` };
}

async function runEra(sdkKey, sdk, mod, eraName, opts, exp, rep) {
  const plan = eraPlan(sdkKey, eraName);
  const label = `${opts.http ? `${sdk.label}-http` : sdk.label}/${eraName}`;
  const version_ = pkgVersion(sdk.pkg);
  const kind = opts.http ? 'StreamableHTTPClientTransport' : 'StdioClientTransport';
  rep.section(`${label}: ${sdk.pkg} ${version_} Client + ${kind} (${plan.how}), expecting protocol ${plan.want}`);
  const ms = opts.timeout * 1000;
  const [cmd, ...args] = opts.command;
  let transport;
  let server;
  let stderr = '';
  const wire = { exchanges: [] };
  if (opts.http) {
    let url = opts.url;
    if (!url) {
      try {
        [server, url] = await startHttpServer(opts.command, opts.showStderr, (chunk) => {
          stderr = (stderr + chunk.toString()).slice(-20000);
        });
      } catch (e) {
        rep.fail(label, `server: ${describe(e)}`);
        return;
      }
    }
    wire.url = url;
    transport = new mod.StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch(wire) });
  } else {
    transport = new mod.StdioClientTransport({ command: cmd, args, env: { ...process.env }, stderr: opts.showStderr ? 'inherit' : 'pipe' });
    transport.stderr?.on('data', (chunk) => {
      stderr = (stderr + chunk.toString()).slice(-20000);
    });
  }
  let negotiated;
  if (sdkKey === 'sdk') {
    // The 1.x Client does not expose the negotiated revision; it hands it to the transport
    // (which, over HTTP, needs it for the MCP-Protocol-Version header).
    const set = transport.setProtocolVersion?.bind(transport);
    transport.setProtocolVersion = (v) => {
      negotiated = v;
      set?.(v);
    };
  }
  const client = new mod.Client(
    { name: `mcp-runtime-interop-${sdk.label}`, version: version_ },
    { capabilities: { elicitation: {}, sampling: {}, roots: {} }, ...plan.options },
  );
  // The client side of server-to-client requests: each handler records what it was asked and
  // returns the current call's next scripted answer (runCall sets `asks.answers`); with none left
  // it refuses, and the call's check fails on the unexpected request.
  const asks = { answers: [], requests: [] };
  for (const method of ['elicitation/create', 'sampling/createMessage', 'roots/list']) {
    mod.onRequest(client, method, (request) => {
      asks.requests.push({ method, params: request.params ?? {} });
      const answer = asks.answers.shift();
      if (answer === undefined) throw mod.refusal(-32603, `interop check: no scripted answer for ${method}`);
      if ('error' in answer) throw mod.refusal(answer.error.code ?? -32603, answer.error.message ?? '');
      return answer;
    });
  }
  const before = rep.failed;
  try {
    await withTimeout(client.connect(transport, { timeout: ms }), ms * 2, 'connect');
    await withTimeout(checkSession(sdkKey, mod, client, transport, plan, label, negotiated, exp, rep, ms, asks, opts.http ? wire : null), ms * 4, 'session');
    if (opts.http) {
      // The SDK's own session end: DELETE (a no-op without a session id, as in 2026-07-28).
      await withTimeout(transport.terminateSession(), ms, 'terminateSession');
      await client.close();
      await checkHttpSession(wire, plan.era, label, rep);
    }
  } catch (e) {
    rep.fail(label, `session aborted: ${describe(e)}`);
    if (process.env.INTEROP_DEBUG) console.error(e);
  } finally {
    await client.close().catch(() => {});
    if (server) {
      server.kill('SIGTERM');
      await new Promise((resolve) => {
        if (server.exitCode !== null || server.signalCode !== null) resolve();
        else server.once('exit', resolve);
      });
    }
  }
  if (rep.failed > before && !opts.showStderr && stderr.trim()) {
    console.log(`---- server stderr (last 3000 chars) for ${label} ----\n${stderr.slice(-3000)}\n---- end server stderr ----`);
  }
}

async function checkSession(sdkKey, mod, client, transport, plan, label, negotiatedV1, exp, rep, ms, asks, http) {
  const who = SDKS[sdkKey].label;
  const version = sdkKey === 'sdk' ? negotiatedV1 : client.getNegotiatedProtocolVersion();
  const info = client.getServerVersion();
  const infoText = info ? `${info.name} ${info.version}` : 'none';
  const how = sdkKey === 'client' && client.getProtocolEra?.() === 'modern' ? 'server/discover' : 'initialize';
  const versionOk = version === plan.want || (exp.allowDowngrade && HANDSHAKE_REVISIONS.includes(version));
  rep.check(versionOk, label, `connect via ${how} -> protocol ${version} (wanted ${plan.want}), serverInfo ${infoText}`);
  for (const key of ['name', 'version']) {
    if (exp.server && key in exp.server) {
      const got = info?.[key];
      rep.check(got === exp.server[key], label, `serverInfo.${key} = ${js(got)} (expected ${js(exp.server[key])})`);
    }
  }
  checkCapabilities(exp.capabilities, client.getServerCapabilities(), plan.era, version, who, label, rep);

  // Sniff the wire (after connect) so a JSON-RPC error from the server can be told apart from an
  // error the SDK raised itself (e.g. output-schema validation, which also uses code -32602).
  const responses = new Map();
  const cancelsSent = new Set(); // requestId of every notifications/cancelled the SDK sent
  const rounds = { inputRequired: 0 }; // input_required results received (2026-07-28)
  let lastCallId;
  const lastIds = new Map(); // method -> id of the last request of that method the SDK sent
  const onmessage = transport.onmessage;
  const wire = Boolean(process.env.INTEROP_WIRE);
  transport.onmessage = (msg, extra) => {
    if (wire) console.error(`<< ${short(JSON.stringify(msg), 400)}`);
    if (msg && 'id' in msg && ('result' in msg || 'error' in msg)) responses.set(msg.id, msg);
    if (msg?.result?.resultType === 'input_required') rounds.inputRequired++;
    return onmessage?.call(transport, msg, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (msg, options) => {
    if (wire) console.error(`>> ${short(JSON.stringify(msg), 400)}`);
    if (msg?.method === 'tools/call') lastCallId = msg.id;
    if (msg?.method && 'id' in msg) lastIds.set(msg.method, msg.id);
    if (msg?.method === 'notifications/cancelled') cancelsSent.add(msg.params?.requestId);
    return send(msg, options);
  };
  // Log messages, whichever request they belong to; runCall clears the list before each call.
  const logs = [];
  mod.onLog(client, (notification) => {
    logs.push(notification.params);
  });
  // Both TypeScript SDKs run notification handlers a microtask late but drop a call's progress
  // handler as soon as its response is read, so a progress notification that arrives in the same
  // stdout chunk as the response is dropped; the SDK reports it to onerror, with its JSON.
  const droppedProgress = [];
  const unknownToken = /^Received a progress notification for an unknown token: (.*)$/s;
  client.onerror = (e) => {
    const m = unknownToken.exec(String(e?.message ?? ''));
    if (m) droppedProgress.push(JSON.parse(m[1]));
    else if (process.env.INTEROP_DEBUG) console.error(`client onerror: ${describe(e)}`);
  };
  const wireSeen = { responses, cancelsSent, logs, droppedProgress, rounds, asks, http };

  // tools/list, following nextCursor across every page.
  const tools = [];
  const pageCursor = new Map(); // tool name -> cursor of the page that listed it
  const seen = new Set();
  let cursor;
  let pages = 0;
  for (;;) {
    let page;
    if (sdkKey === 'client' && cursor === undefined) {
      // The 2.x listTools() without a cursor aggregates every page itself; fetch page 1 raw.
      page = await client.request({ method: 'tools/list', params: {} }, { timeout: ms });
    } else {
      page = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: ms });
    }
    pages++;
    for (const t of page.tools) {
      tools.push(t);
      pageCursor.set(t.name, cursor);
    }
    cursor = page.nextCursor;
    if (cursor === undefined || cursor === null) break;
    if (seen.has(cursor) || pages >= MAX_PAGES) {
      rep.fail(label, `tools/list: nextCursor ${js(cursor)} repeats (or > ${MAX_PAGES} pages); stopped`);
      break;
    }
    seen.add(cursor);
  }
  const byName = checkToolListing(tools, pages, exp, version, plan.era, label, rep, who);
  const withSchema = tools.filter((t) => t.outputSchema !== undefined && t.outputSchema !== null).map((t) => t.name);

  // Make sure the SDK's own output-schema validation is armed for every tool that has one.
  if (sdkKey === 'client') {
    // 2.x: callTool() validates against the aggregated listing the client caches; the explicit
    // per-page walk above does not populate it, listTools() without a cursor does.
    const all = await client.listTools(undefined, { timeout: ms });
    const walked = tools.map((t) => t.name).sort();
    const aggregated = all.tools.map((t) => t.name).sort();
    rep.check(js(walked, 10000) === js(aggregated, 10000), label, `listTools() (SDK-aggregated pages) agrees with the cursor walk (${aggregated.length} tools)`);
    if (withSchema.length) {
      if (typeof client._cache?.outputValidator !== 'function' || typeof client._compileOutputValidator !== 'function') {
        rep.fail(label, "cannot confirm the SDK's output-schema validation (Client internals changed)");
      } else {
        const missing = [];
        for (const name of withSchema) {
          const v = await client._cache.outputValidator(name, (t) => client._compileOutputValidator(t));
          if (!v?.ok) missing.push(name);
        }
        rep.check(!missing.length, label, `SDK output-schema validation armed for ${withSchema.length} tool(s)` + (missing.length ? `; NOT for ${js(missing)}` : ''));
      }
    }
  } else if (withSchema.length && typeof client.getToolOutputValidator !== 'function') {
    rep.fail(label, "cannot confirm the SDK's output-schema validation (Client internals changed)");
  }

  await checkPrimitives(sdkKey, client, plan.era, version, label, exp, rep, ms, { responses, lastIds });

  // The harness's own output-schema check: the 2.x SDK's Ajv provider (picks the engine by the
  // schema's $schema dialect, 2020-12 by default), whichever SDK is under test.
  const ajv = new AjvJsonSchemaValidator();
  let noted = false;
  const armed = new Set();
  const unarmed = new Set();
  for (const call of exp.calls) {
    if (!selected(call, plan.era, version, who)) continue;
    const name = call.tool;
    const tool = byName.get(name);
    if (sdkKey === 'sdk' && tool?.outputSchema && !client.getToolOutputValidator(name)) {
      // 1.x quirk: every listTools() page REPLACES the client's output validators, so only the
      // last page's tools are validated. Re-list the tool's own page so its validator is armed.
      if (!noted) {
        console.log(`NOTE ${label}: @modelcontextprotocol/sdk forgets earlier pages' output validators on each tools/list page; re-listing a tool's page before calling it`);
        noted = true;
      }
      const c = pageCursor.get(name);
      await client.listTools(c === undefined ? undefined : { cursor: c }, { timeout: ms });
    }
    if (sdkKey === 'sdk' && tool?.outputSchema) (client.getToolOutputValidator(name) ? armed : unarmed).add(name);
    const start = http ? http.exchanges.length : 0;
    await runCall(sdkKey, client, call, tool, version, plan.era, label, rep, ms, ajv, wireSeen, () => lastCallId);
    if (http) checkCallWire(http, start, call, name, plan.era, version, label, rep);
  }
  if (armed.size || unarmed.size) {
    rep.check(!unarmed.size, label, `SDK output-schema validation was armed when calling ${armed.size + unarmed.size} tool(s) with an outputSchema` + (unarmed.size ? `; NOT for ${js([...unarmed])}` : ''));
  }
}

/**
 * Run one SDK request of `method` and classify what came back: {result} (the SDK parsed and
 * validated it), {error} (a JSON-RPC error response on the wire), or {sdkRejected} (the SDK
 * refused a result the server sent, or no response came); the wire tells the last two apart.
 */
async function outcomeOf(method, run, seen) {
  const before = seen.lastIds.get(method);
  try {
    return [{ result: await run() }, null];
  } catch (e) {
    const id = seen.lastIds.get(method);
    const raw = id !== before ? seen.responses.get(id) : undefined;
    if (raw?.error) return [{ error: { code: raw.error.code, message: raw.error.message, data: raw.error.data } }, null];
    const note = raw && 'result' in raw ? `SDK rejected the result: ${describe(e)}` : `no response: ${describe(e)}`;
    return [{ sdkRejected: String(e?.message ?? e) }, note];
  }
}

/**
 * Resources, resource templates, reads, subscriptions, prompts and completions, each through the
 * SDK's own method (listResources, readResource, subscribeResource / listen, getPrompt, complete),
 * so its result schemas validate every answer. Runs before the tool calls.
 */
async function checkPrimitives(sdkKey, client, era, version, label, exp, rep, ms, seen) {
  const who = SDKS[sdkKey].label;
  const sel = (entry) => selected(entry, era, version, who);
  const line = (title, [problems, summary], note) => {
    if (note) problems.unshift(note);
    rep.check(!problems.length, label, `${title} -> ${summary}` + (problems.length ? ` :: ${problems.join('; ')}` : ''));
  };
  const listings = [
    ['resources', 'resources', (p) => client.listResources(p, { timeout: ms })],
    ['resourceTemplates', 'resourceTemplates', (p) => client.listResourceTemplates(p, { timeout: ms })],
    ['prompts', 'prompts', (p) => client.listPrompts(p, { timeout: ms })],
  ];
  for (const [kind, field, list] of listings) {
    if (!(kind in exp)) continue;
    const method = LISTINGS[kind][3];
    // Each page through the SDK's list method: the 1.x one returns the page; the 2.x one,
    // called without a cursor, walks every page itself and returns them all.
    const items = [];
    const seenCursors = new Set();
    let cursor;
    let pages = 0;
    try {
      for (;;) {
        const page = await list(cursor === undefined ? undefined : { cursor });
        pages++;
        items.push(...page[field]);
        cursor = page.nextCursor;
        if (cursor === undefined || cursor === null) break;
        if (seenCursors.has(cursor) || pages >= MAX_PAGES) {
          rep.fail(label, `${method}: nextCursor ${js(cursor)} repeats (or > ${MAX_PAGES} pages); stopped`);
          break;
        }
        seenCursors.add(cursor);
      }
    } catch (e) {
      rep.fail(label, `${method} -> ${describe(e)}`);
      continue;
    }
    checkListing(kind, items, sdkKey === 'client' ? null : pages, exp, era, version, who, label, rep);
  }

  for (const read of exp.reads.filter(sel)) {
    const [outcome, note] = await outcomeOf('resources/read', () => client.readResource({ uri: read.uri }, { timeout: ms }), seen);
    line(read.label ?? `resources/read ${read.uri}`, checkReadOutcome(read.expect, outcome), note);
    if (exp.appsSchema) checkAppsRead(read.uri, outcome, label, rep);
  }
  for (const err of exp.readErrors.filter(sel)) {
    const [outcome, note] = await outcomeOf('resources/read', () => client.readResource({ uri: err.uri }, { timeout: ms }), seen);
    line(err.label ?? `resources/read ${err.uri} fails`, checkErrorOutcome(err, outcome), note);
  }

  for (const { uri } of exp.subscribe.filter(sel)) {
    if (era === 'modern') {
      // 2026-07-28 has no resources/subscribe: a subscriptions/listen stream with the URI in its
      // filter, acknowledged with the part of the filter the server honours.
      try {
        const sub = await client.listen({ resourceSubscriptions: [uri] }, { timeout: ms });
        const honored = sub.honoredFilter ?? {};
        await sub.close();
        const ok = (honored.resourceSubscriptions ?? []).includes(uri);
        rep.check(ok, label, `listen({resourceSubscriptions: [${uri}]}) -> acknowledged, honoured ${js(honored, 120)}` + (ok ? '' : ` :: ${uri} not honoured`));
      } catch (e) {
        rep.fail(label, `listen({resourceSubscriptions: [${uri}]}) -> ${describe(e)}`);
      }
      continue;
    }
    for (const [method, fn] of [['resources/subscribe', 'subscribeResource'], ['resources/unsubscribe', 'unsubscribeResource']]) {
      const [outcome, note] = await outcomeOf(method, () => client[fn]({ uri }, { timeout: ms }), seen);
      const ok = 'result' in outcome && !note;
      rep.check(ok, label, `${method} ${uri} -> ${'result' in outcome ? js(outcome.result) : note ?? js(outcome.error, 160)}`);
    }
  }

  const promptParams = (entry) => ({ name: entry.name, ...(Object.keys(entry.arguments).length && { arguments: entry.arguments }) });
  for (const get of exp.promptGets.filter(sel)) {
    const [outcome, note] = await outcomeOf('prompts/get', () => client.getPrompt(promptParams(get), { timeout: ms }), seen);
    line(get.label ?? `prompts/get ${get.name} ${js(get.arguments, 80)}`, checkPromptOutcome(get.expect, outcome), note);
  }
  for (const err of exp.promptErrors.filter(sel)) {
    const [outcome, note] = await outcomeOf('prompts/get', () => client.getPrompt(promptParams(err), { timeout: ms }), seen);
    line(err.label ?? `prompts/get ${err.name} ${js(err.arguments, 80)} fails`, checkErrorOutcome(err, outcome), note);
  }

  for (const comp of exp.completions.filter(sel)) {
    const params = { ref: comp.ref, argument: comp.argument, ...(comp.context && { context: { arguments: comp.context.arguments ?? {} } }) };
    const [outcome, note] = await outcomeOf('completion/complete', () => client.complete(params, { timeout: ms }), seen);
    line(describeCompletion(comp), checkCompletionOutcome(comp.expect, outcome), note);
  }
}

/** Starts `command --http 127.0.0.1:PORT` (a free port); resolves once it accepts connections. */
async function startHttpServer(command, showStderr, onStderr) {
  const port = await new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const [cmd, ...args] = command;
  const child = spawn(cmd, [...args, '--http', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', showStderr ? 'inherit' : 'pipe'] });
  child.stderr?.on('data', onStderr);
  const deadline = Date.now() + 30000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before listening`);
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return [child, `http://127.0.0.1:${port}/mcp`];
    if (Date.now() > deadline) {
      child.kill();
      throw new Error('the server did not listen within 30 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A fetch for the SDK's transport that records every exchange: method, the JSON-RPC method
 * and id of a POST body, the session and resumption headers, status and content type. */
function recordingFetch(wire) {
  return async (url, init = {}) => {
    const response = await fetch(url, init);
    const headers = new Headers(init.headers ?? {});
    const method = init.method ?? 'GET';
    let rpc = null;
    let id = null;
    if (method === 'POST' && typeof init.body === 'string') {
      try {
        const body = JSON.parse(init.body);
        rpc = body.method ?? ('result' in body || 'error' in body ? 'response' : null);
        id = body.id ?? null;
      } catch {
        // not JSON: recorded without a method
      }
    }
    const entry = {
      method,
      status: response.status,
      type: (response.headers.get('content-type') ?? '').split(';')[0].trim(),
      session: headers.get('mcp-session-id'),
      issued: response.headers.get('mcp-session-id'),
      lastEventId: headers.get('last-event-id'),
      rpc,
      id,
      aborted: Boolean(init.signal?.aborted),
    };
    init.signal?.addEventListener('abort', () => {
      entry.aborted = true;
    });
    wire.exchanges.push(entry);
    return response;
  };
}

/** The HTTP exchanges of one call (same checks as check_server.py --http). */
function checkCallWire(wire, start, call, name, era, version, label, rep) {
  const ex = wire.exchanges.slice(start);
  const calls = ex.filter((e) => e.method === 'POST' && e.rpc === 'tools/call');
  if ('progress' in call || 'logs' in call || (call.answers && era !== 'modern')) {
    rep.check(
      calls.some((e) => e.type === 'text/event-stream'),
      label,
      `${name}: http: tools/call POST(s) answered with ${js(calls.map((e) => e.type || e.status))} (progress, logs and requests travel on its SSE stream)`,
    );
  }
  if (call.httpResumes) {
    const resumes = ex.filter((e) => e.method === 'GET' && e.lastEventId);
    if (era === 'legacy' && version >= '2025-11-25') {
      rep.check(
        resumes.length > 0 && resumes.every((e) => e.status === 200),
        label,
        `${name}: http: the server closed the call's stream mid-call; the SDK resumed it: ${js(resumes.map((e) => [e.lastEventId, e.status]))} (GET + Last-Event-ID)`,
      );
    } else {
      rep.check(!resumes.length, label, `${name}: http: no resumption under ${version} (no SSE polling there): ${resumes.length} GET(s) with Last-Event-ID`);
    }
  }
}

/** What the wire showed over the whole session, once the SDK ended it. */
async function checkHttpSession(wire, era, label, rep) {
  const ex = wire.exchanges;
  const posts = ex.filter((e) => e.method === 'POST');
  const resumes = ex.filter((e) => e.method === 'GET' && e.lastEventId);
  const badResumes = resumes.filter((e) => e.status !== 200);
  rep.check(
    !badResumes.length,
    label,
    `http: ${resumes.length} resumption(s) (GET + Last-Event-ID: ${js([...new Set(resumes.map((e) => e.lastEventId))].slice(0, 8))}), all answered 200` +
      (badResumes.length ? ` :: ${js(badResumes, 200)}` : ''),
  );
  if (era === 'modern') {
    const issued = ex.filter((e) => e.issued);
    const deletes = ex.filter((e) => e.method === 'DELETE');
    rep.check(
      !issued.length && !resumes.length && !deletes.length,
      label,
      `http: 2026-07-28 stands alone: ${posts.length} POSTs, no Mcp-Session-Id issued, no resumption, no DELETE` +
        (issued.length || resumes.length || deletes.length ? ` :: issued ${issued.length}, resumes ${resumes.length}, deletes ${deletes.length}` : ''),
    );
    return;
  }
  const init = posts.find((e) => e.rpc === 'initialize');
  const session = init?.issued;
  rep.check(Boolean(session), label, `http: initialize answered with Mcp-Session-Id ${session}`);
  const later = ex.filter((e) => e !== init);
  const strays = later.filter((e) => e.session !== session);
  rep.check(later.length > 0 && !strays.length, label, `http: all ${later.length} later requests carry that session id` + (strays.length ? ` :: ${js(strays, 200)}` : ''));
  const deletes = ex.filter((e) => e.method === 'DELETE');
  rep.check(
    deletes.length === 1 && deletes[0].status === 200,
    label,
    `http: terminateSession() ended the session: DELETE -> ${js(deletes.map((d) => d.status))} (expected [200])`,
  );
  if (session) {
    const after = await fetch(wire.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    rep.check(after.status === 404, label, `http: a request on the ended session -> ${after.status} (expected 404)`);
  }
}

/** The SDK's callTool, whichever major version. */
function callTool(sdkKey, client, params, options) {
  return sdkKey === 'sdk' ? client.callTool(params, undefined, options) : client.callTool(params, options);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A call's `logLevel`: `logging/setLevel` before it (handshake eras; the level then holds for the
 * rest of the connection), or the request's own `_meta` level (modern). Returns [_meta, description].
 */
async function applyLogLevel(client, call, era, label, rep, ms) {
  const level = call.logLevel;
  if (level === undefined) return [undefined, era === 'modern' ? 'no _meta logLevel' : "the connection's current level"];
  if (era === 'modern') return [{ [LOG_LEVEL_META_KEY]: level }, `_meta logLevel ${level}`];
  try {
    const result = await client.setLoggingLevel(level, { timeout: ms });
    rep.ok(label, `logging/setLevel ${level} -> ${js(result)}`);
  } catch (e) {
    rep.fail(label, `logging/setLevel ${level} -> ${describe(e)}`);
  }
  return [undefined, `setLoggingLevel ${level}`];
}

/**
 * Start the call, abort its AbortSignal after `cancelAfterMs`: the SDK sends
 * `notifications/cancelled`, and the server must send no response for it.
 */
async function runCancel(sdkKey, client, call, params, title, label, rep, ms, wireSeen, lastCallId) {
  const after = call.cancelAfterMs;
  const problems = [];
  const before = lastCallId();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('interop check cancelled the call')), after);
  try {
    const result = await callTool(sdkKey, client, params, { timeout: ms, signal: abort.signal });
    problems.push(`the call finished before it was cancelled: ${js(result, 120)}`);
  } catch (e) {
    if (!abort.signal.aborted) problems.push(`the call failed before it was cancelled: ${describe(e)}`);
  } finally {
    clearTimeout(timer);
  }
  const id = lastCallId();
  if (id === before) problems.push('the SDK sent no tools/call');
  else {
    await sleep(CANCEL_GRACE_MS);
    // Over HTTP in 2026-07-28 a request is cancelled by closing its stream: the SDK aborts
    // the POST (recorded by the fetch wrapper) instead of sending notifications/cancelled.
    const closed = wireSeen.http?.exchanges.some((e) => e.method === 'POST' && e.rpc === 'tools/call' && e.id === id && e.aborted);
    if (abort.signal.aborted && !wireSeen.cancelsSent.has(id) && !closed) {
      problems.push(`the SDK sent no notifications/cancelled for request ${js(id)}${wireSeen.http ? ' and did not close its POST stream' : ''}`);
    }
    const raw = wireSeen.responses.get(id);
    if (raw && abort.signal.aborted) problems.push(`the server answered the cancelled request: ${js(raw, 200)}`);
  }
  rep.check(
    !problems.length,
    label,
    `${title} cancelled after ${after} ms (AbortSignal -> notifications/cancelled, or over HTTP in 2026-07-28 the POST stream closed) -> expecting no response within ${CANCEL_GRACE_MS} ms` + (problems.length ? ` :: ${problems.join('; ')}` : ''),
  );
}

async function runCall(sdkKey, client, call, tool, version, era, label, rep, ms, ajv, wireSeen, lastCallId) {
  const responses = wireSeen.responses;
  const name = call.tool;
  const args = call.arguments ?? {};
  const title = call.label ?? `tools/call ${name} ${js(args, 100)}`;
  const [meta, levelHow] = await applyLogLevel(client, call, era, label, rep, ms);
  const params = { name, arguments: args, ...(meta && { _meta: meta }) };
  if ('cancelAfterMs' in call) {
    await runCancel(sdkKey, client, call, params, title, label, rep, ms, wireSeen, lastCallId);
    return;
  }
  const updates = [];
  const options = { timeout: ms };
  if ('progress' in call) {
    options.onprogress = ({ progress, total, message }) => {
      updates.push({ progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) });
    };
  }
  wireSeen.logs.length = 0;
  wireSeen.droppedProgress.length = 0;
  const asks = wireSeen.asks;
  asks.answers = [...(call.answers ?? [])];
  asks.requests = [];
  wireSeen.rounds.inputRequired = 0;
  let outcome;
  let sdkNote = null;
  const before = lastCallId();
  try {
    const result = await callTool(sdkKey, client, params, options);
    outcome = { result };
  } catch (e) {
    const id = lastCallId();
    const raw = id !== before ? responses.get(id) : undefined;
    if (raw?.error) {
      outcome = { error: { code: raw.error.code, message: raw.error.message, data: raw.error.data } };
    } else if (raw && 'result' in raw) {
      sdkNote = `SDK rejected the result: ${describe(e)}`;
      outcome = { sdkRejected: String(e?.message ?? e) };
    } else {
      sdkNote = `no response: ${describe(e)}`;
      outcome = { sdkRejected: String(e?.message ?? e) };
    }
  }
  const [problems, summary] = checkCallOutcome(call.expect ?? {}, outcome, version);
  if (sdkNote) problems.unshift(sdkNote);

  // Belt and braces: validate structuredContent against outputSchema here too, so a client-side
  // validation that silently stopped happening cannot hide a server bug.
  const result = outcome.result;
  const schema = tool?.outputSchema;
  if (result && schema && !result.isError) {
    if (result.structuredContent === undefined) problems.push('tool declares outputSchema but result has no structuredContent');
    else {
      try {
        const verdict = quietly(() => ajv.getValidator(schema))(result.structuredContent);
        if (!verdict.valid) problems.push(`structuredContent violates outputSchema (the SDK let it through!): ${verdict.errorMessage}`);
      } catch (e) {
        problems.push(`outputSchema does not compile: ${describe(e)}`);
      }
    }
  }
  rep.check(!problems.length, label, `${title} -> ${summary}` + (problems.length ? ` :: ${problems.join('; ')}` : ''));

  // Requests to the client: always checked (a call without `answers` must cause none).
  const [askedBad, askedGot] = checkAsked(call.asked, [...asks.requests], call.answers);
  if (asks.answers.length) askedBad.push(`${asks.answers.length} scripted answer(s) never asked for`);
  const how = era === 'modern' ? "input_required rounds, fulfilled by the client's driver" : 'server requests on the connection';
  if (call.answers?.length || call.asked || asks.requests.length) {
    rep.check(!askedBad.length, label, `${name}: the handlers got ${askedGot} (${how})` + (askedBad.length ? ` :: ${askedBad.join('; ')}` : ''));
  }
  const seenRounds = wireSeen.rounds.inputRequired;
  if (era === 'modern' && 'rounds' in call) {
    rep.check(seenRounds === call.rounds, label, `${name}: ${seenRounds} input_required round(s) before the result (expected ${call.rounds})`);
  } else if (era === 'modern' && seenRounds && !(call.answers?.length || call.asked)) {
    rep.fail(label, `${name}: unexpected input_required round(s): ${seenRounds}`);
  } else if (era !== 'modern' && seenRounds) {
    rep.fail(label, `${name}: ${seenRounds} input_required result(s) under handshake revision ${version}`);
  }

  if ('progress' in call || 'logs' in call) await sleep(NOTIFICATION_GRACE_MS); // stragglers handed over just after the result
  if ('progress' in call) {
    const callId = lastCallId();
    const dropped = wireSeen.droppedProgress
      .filter((n) => n?.params?.progressToken === callId)
      .map(({ params: { progress, total, message } }) => ({ progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) }));
    const [bad, got] = checkProgress(call.progress, [...updates, ...dropped]);
    const note = dropped.length
      ? ` (the SDK dropped the last ${dropped.length}: they came with the response, and it reported them to onerror as "unknown token"; an SDK race, see interop/README.md)`
      : '';
    rep.check(!bad.length, label, `${name}: onprogress got ${got}${note} (wanted ${js(call.progress, 100)})` + (bad.length ? ` :: ${bad.join('; ')}` : ''));
  }
  if ('logs' in call) {
    const [bad, got] = checkLogs(call.logs, [...wireSeen.logs]);
    rep.check(!bad.length, label, `${name} (${levelHow}): notifications/message handler got ${got}` + (bad.length ? ` :: ${bad.join('; ')}` : ''));
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let exp;
  try {
    exp = loadExpectations(opts.expectations);
  } catch (e) {
    console.error(`error: ${opts.expectations}: ${e instanceof ExpectationError || e instanceof SyntaxError ? e.message : describe(e)}`);
    process.exit(2);
  }
  const sdk = SDKS[opts.sdk];
  const mod = await sdk.load();
  const rep = new Reporter();
  let eras;
  if (opts.era === 'all') eras = sdk.eras;
  else if (sdk.eras.includes(opts.era) || (opts.era === 'legacy' && opts.sdk === 'client')) eras = [opts.era];
  else usage(`${sdk.pkg} has no era ${opts.era}; it has: ${sdk.eras.join(', ')}`);
  if (opts.http && opts.era === 'all' && eras.includes('2024-11-05')) {
    // 2024-11-05 has no Streamable HTTP (its HTTP transport was HTTP+SSE, which the runtime
    // does not offer; 2024-11-05 clients use stdio).
    console.log(`SKIP ${sdk.label}-http/2024-11-05: Streamable HTTP starts with 2025-03-26; the 2024-11-05 HTTP+SSE transport is not offered (stdio covers 2024-11-05)`);
    eras = eras.filter((e) => e !== '2024-11-05');
  }
  const speaks = opts.sdk === 'sdk' ? `handshake revisions ${HANDSHAKE_REVISIONS.join(', ')} (always offers 2025-11-25); NOT ${MODERN}` : `handshake revisions ${HANDSHAKE_REVISIONS.join(', ')} and stateless ${MODERN}`;
  console.log(`${sdk.label}: ${sdk.pkg} ${pkgVersion(sdk.pkg)} speaks ${speaks}; running era(s): ${eras.join(', ')}`);
  for (const era of eras) await runEra(opts.sdk, sdk, mod, era, opts, exp, rep);
  rep.summary(opts.http ? `${sdk.label}-http` : sdk.label);
  process.exitCode = rep.failed ? 1 : 0;
}

await main();
