#!/usr/bin/env node
// Drive a stdio MCP server with the MCP Inspector CLI (@modelcontextprotocol/inspector --cli) and
// check what it sees.
//
// Usage:
//   node inspector_check.mjs [--era legacy|modern|all] [--timeout SECONDS] EXPECTATIONS.json -- SERVER_COMMAND...
//
// The Inspector needs Node >= 22.19; this script runs it with the Node 22 binary that the pinned
// `node` devDependency installs (node_modules/node/bin/node), or $INTEROP_NODE22 if set. The
// script itself runs on any Node >= 20.
//
// Each Inspector invocation is one process that spawns the server, connects, does one method and
// exits, so every check below is a fresh server process:
//   --method initialize               negotiated protocolVersion and serverInfo
//   --method tools/list               (the Inspector follows nextCursor itself)
//   --method tools/call --tool-args-json ...   one per expectation call
//   --method resources/list | resources/templates/list | prompts/list     the listings
//   --method resources/read --uri URI          one per `reads` / `readErrors` entry
//   --method prompts/get --prompt-name N --prompt-args k=v ...   one per `promptGets` / `promptErrors` entry
// (`subscribe` and `completions` entries are SKIPPED: the one-shot CLI has neither method)
// Eras: legacy = --protocol-era legacy (initialize, offers 2025-11-25);
//       modern = --protocol-era auto (server/discover first; must land on 2026-07-28).
//
// Known Inspector behaviour the expectations must live with (see interop/README.md):
//   * it coerces top-level STRING argument values to the type the inputSchema declares
//     ("x" for an integer parameter is sent as null, "2" as 2), even with --tool-args-json;
//   * it refuses to call a tool the server did not list (error code tool_not_found) without
//     sending anything, so a protocolError expectation for an unlisted tool is SKIPPED here;
//   * its error envelope drops the JSON-RPC error code, and a client-side rejection (its own
//     output-schema validation failing, say) looks the same as a server's JSON-RPC error; so
//     protocolError checks only that the call failed (errorContains still applies to the message);
//   * it cannot answer requests from the server (elicitation, sampling, roots): a call with
//     `answers` / `asked` is SKIPPED;
//   * one CLI run is one request in its own server process, and the CLI prints only the result:
//     a call's `cancelAfterMs` is SKIPPED, and its `progress` / `logLevel` / `logs` are reported as
//     a SKIP line after the result check (the result itself is still checked).
// The Inspector validates structuredContent against outputSchema itself (a violation surfaces as
// an error envelope whose message is the Ajv error); this script validates it again (Ajv) too.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import {
  checkAppsRead,
  checkCallOutcome,
  checkCapabilities,
  checkErrorOutcome,
  checkListing,
  checkPromptOutcome,
  checkReadOutcome,
  checkToolListing,
  describeCompletion,
  ExpectationError,
  js,
  LISTINGS,
  loadExpectations,
  Reporter,
  selected,
  short,
} from './expect.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const INSPECTOR = join(HERE, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const NODE22 = process.env.INTEROP_NODE22 || join(HERE, 'node_modules/node/bin/node');
const ERAS = {
  legacy: { flag: 'legacy', want: '2025-11-25' },
  modern: { flag: 'auto', want: '2026-07-28' },
};
const TOOL_ERROR_EXIT = 5;
// Environment the Inspector hands to the server it spawns: it passes only HOME, PATH, SHELL, TERM
// (and PWD) plus `-e` pairs, so forward what a Rust/Python server launched via cargo may need,
// plus every variable named in $INTEROP_FORWARD_ENV (space- or comma-separated).
const FORWARD_ENV = /^(CARGO_|RUST|RUSTUP_|LANG$|LC_|TMPDIR$|PYTHON|VIRTUAL_ENV$|NODE_PATH$|MCP_RUNTIME_)/;

function usage(why) {
  console.error(`error: ${why}\nusage: inspector_check.mjs [--era legacy|modern|all] [--timeout S] EXPECTATIONS.json -- SERVER_COMMAND...`);
  process.exit(2);
}

function parseArgs(argv) {
  const split = argv.indexOf('--');
  if (split < 0) usage('no `--` before the server command');
  const own = argv.slice(0, split);
  const opts = { era: 'all', timeout: 30, expectations: null, command: argv.slice(split + 1) };
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    if (a === '--era') opts.era = own[++i];
    else if (a === '--timeout') opts.timeout = Number(own[++i]);
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (opts.expectations === null) opts.expectations = a;
    else usage(`unexpected argument ${a}`);
  }
  if (!opts.expectations) usage('no expectations file');
  if (!opts.command.length) usage('no server command after --');
  if (opts.era !== 'all' && !ERAS[opts.era]) usage('--era must be legacy, modern or all');
  if (!(opts.timeout > 0)) usage('--timeout must be a positive number of seconds');
  return opts;
}

/** Run one Inspector CLI invocation; resolves to {code, stdout, stderr, timedOut}. */
function inspector(args, opts, env) {
  const extraEnv = [];
  const extra = new Set((process.env.INTEROP_FORWARD_ENV ?? '').split(/[\s,]+/).filter(Boolean));
  for (const [k, v] of Object.entries(process.env)) {
    if ((FORWARD_ENV.test(k) || extra.has(k)) && !v.includes('\n')) extraEnv.push('-e', `${k}=${v}`);
  }
  const full = [
    INSPECTOR,
    '--cli',
    '--format',
    'json',
    '--connect-timeout',
    String(Math.round(opts.timeout * 1000)),
    ...extraEnv,
    ...args,
    '--',
    ...opts.command,
  ];
  return new Promise((resolve) => {
    const child = spawn(NODE22, full, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-20000)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeout * 3000);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}\n${e.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** The JSON error envelope the Inspector prints on stderr (last JSON line), if any. */
function errorEnvelope(stderr) {
  const lines = stderr.trim().split('\n').reverse();
  for (const line of lines) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const obj = JSON.parse(t);
      if (obj && typeof obj.error === 'object') return obj.error;
    } catch {
      // not JSON
    }
  }
  return null;
}

function parseResult(run) {
  try {
    const obj = JSON.parse(run.stdout);
    return obj && typeof obj === 'object' && 'result' in obj ? obj.result : undefined;
  } catch {
    return undefined;
  }
}

function failure(run) {
  if (run.timedOut) return 'the Inspector timed out';
  const env = errorEnvelope(run.stderr);
  if (env) return `exit ${run.code}, ${env.code}: ${short(env.message ?? '', 300)}`;
  return `exit ${run.code}; stderr: ${short(run.stderr.trim().split('\n').slice(-3).join(' | '), 300)}`;
}

function showStderr(label, runs) {
  const text = runs.map((r) => r.stderr.trim()).filter(Boolean).join('\n').slice(-3000);
  if (text) console.log(`---- Inspector + server stderr (last 3000 chars) for ${label} ----\n${text}\n---- end stderr ----`);
}

async function runEra(eraName, opts, exp, rep, env, inspectorVersion) {
  const era = ERAS[eraName];
  const label = `inspector/${eraName}`;
  rep.section(`${label}: @modelcontextprotocol/inspector ${inspectorVersion} --cli --protocol-era ${era.flag} on Node ${nodeVersion()}, expecting protocol ${era.want}`);
  const before = rep.failed;
  const failedRuns = [];
  const common = ['--protocol-era', era.flag];

  const init = await inspector([...common, '--method', 'initialize'], opts, env);
  const info = parseResult(init);
  if (init.code !== 0 || !info) {
    rep.fail(label, `initialize: ${failure(init)}`);
    showStderr(label, [init]);
    return;
  }
  const version = info.protocolVersion;
  const si = info.serverInfo;
  const versionOk = version === era.want || (exp.allowDowngrade && eraName === 'legacy');
  rep.check(versionOk, label, `connect -> protocol ${version} (wanted ${era.want}), serverInfo ${si ? `${si.name} ${si.version}` : 'none'}`);
  for (const key of ['name', 'version']) {
    if (exp.server && key in exp.server) {
      rep.check(si?.[key] === exp.server[key], label, `serverInfo.${key} = ${js(si?.[key])} (expected ${js(exp.server[key])})`);
    }
  }

  checkCapabilities(exp.capabilities, info.capabilities, eraName, version, 'inspector', label, rep);

  const list = await inspector([...common, '--method', 'tools/list'], opts, env);
  const listed = parseResult(list);
  if (list.code !== 0 || !Array.isArray(listed?.tools)) {
    rep.fail(label, `tools/list: ${failure(list)}`);
    showStderr(label, [list]);
    return;
  }
  const byName = checkToolListing(listed.tools, null, exp, version, eraName, label, rep, 'inspector');
  await checkPrimitives(common, opts, env, exp, eraName, version, label, rep, failedRuns);

  const ajv = new AjvJsonSchemaValidator();
  for (const call of exp.calls) {
    if (!selected(call, eraName, version, 'inspector')) continue;
    const name = call.tool;
    const args = call.arguments ?? {};
    const title = call.label ?? `tools/call ${name} ${js(args, 100)}`;
    const expect = call.expect ?? {};
    if ('cancelAfterMs' in call) {
      rep.skip(label, `${title} -> cancellation not exercised: each Inspector CLI run is a single request in a server process of its own`);
      continue;
    }
    if (call.answers?.length || call.asked) {
      const methods = [...new Set((call.asked ?? []).map((a) => a.method))].join(', ') || 'elicitation/sampling/roots';
      rep.skip(label, `${title} -> not exercised: the Inspector CLI cannot answer requests from the server (${methods}); it runs one request and prints its result, with no way to script the user's or model's answer`);
      continue;
    }
    const unchecked = ['progress', 'logLevel', 'logs'].filter((k) => k in call);
    const run = await inspector([...common, '--method', 'tools/call', '--tool-name', name, '--tool-args-json', JSON.stringify(args)], opts, env);
    const result = parseResult(run);
    const envelope = errorEnvelope(run.stderr);
    let problems;
    let summary;
    if (result !== undefined && (run.code === 0 || run.code === TOOL_ERROR_EXIT)) {
      [problems, summary] = checkCallOutcome(expect, { result }, version);
      const schema = byName.get(name)?.outputSchema;
      if (schema && !result.isError) {
        if (result.structuredContent === undefined) problems.push('tool declares outputSchema but result has no structuredContent');
        else {
          const warn = console.warn;
          console.warn = (...a) => (typeof a[0] === 'string' && a[0].startsWith('unknown format') ? undefined : warn(...a));
          let verdict;
          try {
            verdict = ajv.getValidator(schema)(result.structuredContent);
          } finally {
            console.warn = warn;
          }
          if (!verdict.valid) problems.push(`structuredContent violates outputSchema: ${verdict.errorMessage}`);
        }
      }
    } else if (envelope?.code === 'tool_not_found' && 'protocolError' in expect && !byName.has(name)) {
      rep.skip(label, `${title} -> the Inspector refuses to call an unlisted tool (tool_not_found) without asking the server; JSON-RPC ${expect.protocolError} not exercised`);
      continue;
    } else if (envelope && !run.timedOut) {
      // A failed call. The Inspector's envelope carries no JSON-RPC code: check what it can.
      summary = `error (${envelope.code}) ${js(envelope.message ?? '', 80)}`;
      problems = [];
      if (!('protocolError' in expect)) problems.push(`expected a result, got an error (a JSON-RPC error from the server, or the Inspector rejecting the result, e.g. failed output-schema validation): ${failure(run)}`);
      if ('errorContains' in expect && !(envelope.message ?? '').includes(expect.errorContains)) problems.push(`error message lacks ${js(expect.errorContains)}`);
      if ('protocolError' in expect) summary += ` (JSON-RPC code not reported by the Inspector; expected ${expect.protocolError})`;
    } else {
      summary = 'no result';
      problems = [failure(run)];
    }
    if (problems.length) failedRuns.push(run);
    rep.check(!problems.length, label, `${title} -> ${summary}` + (problems.length ? ` :: ${problems.join('; ')}` : ''));
    if (unchecked.length) {
      rep.skip(label, `${title}: ${unchecked.join(', ')} not checked: the Inspector CLI prints only the result (no progress or log notifications), and logging/setLevel would be a run of its own`);
    }
  }
  if (rep.failed > before) showStderr(label, failedRuns.length ? failedRuns : [init, list]);
}

/**
 * Resources, templates, reads and prompts through the CLI's own methods (`resources/list`,
 * `resources/templates/list`, `resources/read --uri`, `prompts/list`, `prompts/get --prompt-name
 * --prompt-args`), one process each; the Inspector's client validates each result. The one-shot
 * CLI has no `resources/subscribe` and no `completion/complete` (those exist only in its
 * interactive session mode): SKIP lines.
 */
async function checkPrimitives(common, opts, env, exp, eraName, version, label, rep, failedRuns) {
  const sel = (entry) => selected(entry, eraName, version, 'inspector');
  const line = (title, [problems, summary], run) => {
    if (problems.length) failedRuns.push(run);
    rep.check(!problems.length, label, `${title} -> ${summary}` + (problems.length ? ` :: ${problems.join('; ')}` : ''));
  };
  // The outcome of one CLI run: {result}, or {error} with the envelope's message; the envelope
  // has no JSON-RPC code (README), so `code` checks are reported as not exercised.
  const outcomeOf = async (args) => {
    const run = await inspector([...common, ...args], opts, env);
    const result = parseResult(run);
    if (run.code === 0 && result !== undefined) return [{ result }, run];
    const envelope = errorEnvelope(run.stderr);
    if (envelope && !run.timedOut) return [{ error: { code: undefined, message: envelope.message ?? '', envelope: envelope.code } }, run];
    return [{ sdkRejected: failure(run) }, run];
  };
  const errorLine = (title, entry, outcome, run) => {
    if ('sdkRejected' in outcome) return line(title, [[outcome.sdkRejected], 'no result'], run);
    if ('result' in outcome) return line(title, checkErrorOutcome(entry, outcome), run);
    const [problems, summary] = checkErrorOutcome({ messageContains: entry.messageContains ?? '' }, outcome);
    const note = 'code' in entry ? ` (JSON-RPC code not reported by the Inspector; expected ${entry.code})` : '';
    line(title, [problems, `error (${outcome.error.envelope}) ${js(outcome.error.message, 100)}${note}`], run);
  };

  for (const kind of Object.keys(LISTINGS)) {
    if (!(kind in exp)) continue;
    const method = LISTINGS[kind][3];
    const [outcome, run] = await outcomeOf(['--method', method]);
    const items = outcome.result?.[kind];
    if (!Array.isArray(items)) {
      failedRuns.push(run);
      rep.fail(label, `${method}: ${'error' in outcome ? `${outcome.error.envelope}: ${outcome.error.message}` : failure(run)}`);
      continue;
    }
    // The Inspector follows nextCursor itself and prints the whole listing.
    checkListing(kind, items, null, exp, eraName, version, 'inspector', label, rep);
  }
  for (const read of exp.reads.filter(sel)) {
    const [outcome, run] = await outcomeOf(['--method', 'resources/read', '--uri', read.uri]);
    const checked = 'sdkRejected' in outcome ? [[outcome.sdkRejected], 'no result'] : 'error' in outcome
      ? [[`expected a result, got an error (${outcome.error.envelope}): ${short(outcome.error.message, 200)}`], 'error']
      : checkReadOutcome(read.expect, outcome);
    line(read.label ?? `resources/read ${read.uri}`, checked, run);
    if (exp.appsSchema) checkAppsRead(read.uri, outcome, label, rep);
  }
  for (const err of exp.readErrors.filter(sel)) {
    const [outcome, run] = await outcomeOf(['--method', 'resources/read', '--uri', err.uri]);
    errorLine(err.label ?? `resources/read ${err.uri} fails`, err, outcome, run);
  }
  for (const { uri } of exp.subscribe.filter(sel)) {
    rep.skip(label, `resources/subscribe ${uri} -> not exercised: the one-shot Inspector CLI has no resources/subscribe (only its interactive session mode streams subscriptions)`);
  }
  const promptArgs = (entry) => {
    const pairs = Object.entries(entry.arguments).map(([k, v]) => `${k}=${v}`);
    return pairs.length ? ['--prompt-args', ...pairs] : [];
  };
  for (const get of exp.promptGets.filter(sel)) {
    const [outcome, run] = await outcomeOf(['--method', 'prompts/get', '--prompt-name', get.name, ...promptArgs(get)]);
    const checked = 'sdkRejected' in outcome ? [[outcome.sdkRejected], 'no result'] : 'error' in outcome
      ? [[`expected a result, got an error (${outcome.error.envelope}): ${short(outcome.error.message, 200)}`], 'error']
      : checkPromptOutcome(get.expect, outcome);
    line(get.label ?? `prompts/get ${get.name} ${js(get.arguments, 80)}`, checked, run);
  }
  for (const err of exp.promptErrors.filter(sel)) {
    const [outcome, run] = await outcomeOf(['--method', 'prompts/get', '--prompt-name', err.name, ...promptArgs(err)]);
    errorLine(err.label ?? `prompts/get ${err.name} ${js(err.arguments, 80)} fails`, err, outcome, run);
  }
  for (const comp of exp.completions.filter(sel)) {
    rep.skip(label, `${describeCompletion(comp)} -> not exercised: the one-shot Inspector CLI has no completion/complete (only its interactive session mode completes)`);
  }
}

function nodeVersion() {
  const r = spawnSync(NODE22, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

class InspectorReporter extends Reporter {
  skipped = 0;
  skip(label, text) {
    this.skipped++;
    console.log(`SKIP ${label}: ${text}`);
  }
  summary(who) {
    console.log(`${who}: ${this.passed} passed, ${this.failed} failed` + (this.skipped ? `, ${this.skipped} skipped` : ''));
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let exp;
  try {
    exp = loadExpectations(opts.expectations);
  } catch (e) {
    console.error(`error: ${opts.expectations}: ${e instanceof ExpectationError || e instanceof SyntaxError ? e.message : e}`);
    process.exit(2);
  }
  const v = nodeVersion();
  const [major, minor] = (v ?? 'v0.0').slice(1).split('.').map(Number);
  if (!v || major < 22 || (major === 22 && minor < 19)) {
    console.error(`error: the Inspector needs Node >= 22.19; ${NODE22} is ${v ?? 'missing'} (run interop/setup.sh, or set INTEROP_NODE22)`);
    process.exit(2);
  }
  const inspectorVersion = JSON.parse(readFileSync(join(HERE, 'node_modules/@modelcontextprotocol/inspector/package.json'), 'utf8')).version;
  // Keep the Inspector away from ~/.mcp-inspector: catalog, client config and OAuth state go to a
  // scratch directory. HOME stays, because the Inspector hands it to the server (cargo needs it).
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
  const env = {
    ...process.env,
    MCP_CATALOG_PATH: join(scratch, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: join(scratch, 'client.json'),
    MCP_STORAGE_DIR: join(scratch, 'storage'),
    MCP_INSPECTOR_OAUTH_STATE_PATH: join(scratch, 'oauth.json'),
  };
  const rep = new InspectorReporter();
  const eras = opts.era === 'all' ? ['legacy', 'modern'] : [opts.era];
  console.log(`inspector: @modelcontextprotocol/inspector ${inspectorVersion} (CLI mode) on ${NODE22} ${v}; running era(s): ${eras.join(', ')}`);
  try {
    for (const era of eras) await runEra(era, opts, exp, rep, env, inspectorVersion);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  rep.summary('inspector');
  process.exitCode = rep.failed ? 1 : 0;
}

await main();
