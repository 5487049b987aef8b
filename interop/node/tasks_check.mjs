#!/usr/bin/env node
// Drive an MCP server's tasks with the official clients that speak them, and check what they see.
//
// Usage:
//   node tasks_check.mjs [--client sdk|ext-tasks|all] [--era legacy|modern|all] [--timeout S]
//        [--show-server-stderr] (--url http://HOST:PORT/mcp | -- SERVER_COMMAND...)
//
// Without --url every run starts SERVER_COMMAND itself, over stdio; with --url every run connects to
// that Streamable HTTP endpoint (interop/tasks_run.sh starts the server there).
//
// The server is tests/src/bin/tasks.rs: `report` (task optional; progress and a log line per step;
// structured {quarter, revenue}), `build` (task required; sleeps `ms`), `steps` (task optional; ten
// steps over `ms`, each reported with the message "step N of 10", which is the task's statusMessage
// while it works), `confirm` (task optional; elicits {confirm: bool}), `fails` (task optional; an
// isError result), `echo` (never a task).
//
// Runs (label = client[-http]/era):
//   sdk/legacy        @modelcontextprotocol/sdk 1.x, `client.experimental.tasks` (callToolStream, getTask,
//                     getTaskResult, listTasks, cancelTask), 2025-11-25
//   ext-tasks/legacy  @modelcontextprotocol/ext-tasks `createTaskSessionFromClient` over a
//                     @modelcontextprotocol/client 2.x Client, 2025-11-25 (initialize)
//   ext-tasks/modern  the same, 2026-07-28 (versionNegotiation 'auto'), with the `rawDispatch` and
//                     `v2RequestFraming` the package needs for that era (RawWire below)
//
// One PASS/FAIL line per check (NOTE lines are information, not counted), a `-- LABEL: N passed,
// M failed` line per run and a closing `tasks: N passed, M failed` line; exit 1 on any failure.

import { readFileSync } from 'node:fs';
import { js, Reporter, short } from './expect.mjs';

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const GRACE_MS = 300;

function pkgVersion(name) {
  return JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

function parseArgs(argv) {
  const split = argv.indexOf('--');
  const own = split < 0 ? argv : argv.slice(0, split);
  const command = split < 0 ? [] : argv.slice(split + 1);
  const opts = { client: 'all', era: 'all', timeout: 30, showStderr: false, url: null, command };
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    if (a === '--client') opts.client = own[++i];
    else if (a === '--era') opts.era = own[++i];
    else if (a === '--timeout') opts.timeout = Number(own[++i]);
    else if (a === '--url') opts.url = own[++i];
    else if (a === '--show-server-stderr') opts.showStderr = true;
    else usage(`unknown argument ${a}`);
  }
  if (!['sdk', 'ext-tasks', 'all'].includes(opts.client)) usage('--client must be sdk, ext-tasks or all');
  if (!['legacy', 'modern', 'all'].includes(opts.era)) usage('--era must be legacy, modern or all');
  if (!(opts.timeout > 0)) usage('--timeout must be a positive number of seconds');
  if (!opts.url === !command.length) usage('give either --url or `-- SERVER_COMMAND...` (not both)');
  return opts;
}

function usage(why) {
  console.error(
    `error: ${why}\nusage: tasks_check.mjs [--client sdk|ext-tasks|all] [--era legacy|modern|all] [--timeout S] [--show-server-stderr] (--url URL | -- SERVER_COMMAND...)`,
  );
  process.exit(2);
}

function describe(e) {
  if (e === undefined || e === null) return String(e);
  const code = e.code !== undefined ? ` (code ${e.code})` : '';
  let text = `${e.name ?? 'Error'}${code}: ${short(String(e.message ?? e).split(/\s+/).join(' '), 400)}`;
  if (e.cause) text += ` <- ${describe(e.cause)}`;
  return text;
}

/** A zod error as the short list of what failed where. */
function zodIssues(e) {
  const direct = Array.isArray(e?.issues);
  const issues = direct ? e.issues : e?.cause?.issues;
  if (!Array.isArray(issues)) return describe(e);
  const flat = [];
  const walk = (list, prefix) => {
    for (const issue of list) {
      const path = [...prefix, ...(issue.path ?? [])].join('.') || '(root)';
      if (issue.code === 'invalid_union' && Array.isArray(issue.errors)) {
        issue.errors.forEach((branch, i) => walk(branch.map((b) => ({ ...b, message: `union branch ${i}: ${b.message}` })), [...prefix, ...(issue.path ?? [])]));
      } else flat.push(`${path}: ${issue.message}`);
    }
  };
  walk(issues, []);
  return direct ? flat.join('; ') : `${e.message} [${flat.join('; ')}]`;
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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');

/** One run's checks: each is a named async step; an exception fails that step only. */
class Run {
  constructor(rep, label, ms) {
    this.rep = rep;
    this.label = label;
    this.ms = ms;
    this.passed = 0;
    this.failed = 0;
  }
  check(ok, text) {
    if (ok) this.passed++;
    else this.failed++;
    this.rep.check(ok, this.label, text);
  }
  note(text) {
    console.log(`NOTE ${this.label}: ${text}`);
  }
  /** Runs `fn`; if it throws, one FAIL line for `name`. Returns fn's value or undefined. */
  async step(name, fn) {
    try {
      return await withTimeout(Promise.resolve().then(fn), this.ms * 3, name);
    } catch (e) {
      this.check(false, `${name}: ${describe(e)}`);
      if (process.env.INTEROP_DEBUG) console.error(e);
      return undefined;
    }
  }
}

/** The server process of a stdio run: stderr kept for the failure report and the `build` check. */
/** The transport to the server under test: Streamable HTTP to `--url`, or the server command
 * over stdio with its stderr collected by `sink`. The classes come from the client package in
 * use (the 1.x SDK's or the 2.x client's). */
function openTransport(opts, sink, { StdioClientTransport, StreamableHTTPClientTransport }) {
  if (opts.url) return new StreamableHTTPClientTransport(new URL(opts.url));
  const [command, ...args] = opts.command;
  const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: opts.showStderr ? 'inherit' : 'pipe' });
  transport.stderr?.on('data', sink.push);
  return transport;
}

function stderrSink(run) {
  const sink = { text: '' };
  sink.push = (chunk) => {
    sink.text = (sink.text + chunk.toString()).slice(-200000);
  };
  sink.show = () => {
    if (run.failed && sink.text.trim()) {
      console.log(`---- server stderr (last 3000 chars) for ${run.label} ----\n${sink.text.slice(-3000)}\n---- end server stderr ----`);
    }
  };
  return sink;
}

async function waitFor(predicate, ms) {
  const deadline = Date.now() + ms;
  while (!predicate() && Date.now() < deadline) await sleep(25);
  return predicate();
}

// ======================================================================= 1.x TypeScript SDK

async function runSdk(opts, rep) {
  const label = `sdk${opts.url ? '-http' : ''}/legacy`;
  const version = pkgVersion('@modelcontextprotocol/sdk');
  rep.section(
    `${label}: @modelcontextprotocol/sdk ${version} Client.experimental.tasks + ${opts.url ? 'StreamableHTTPClientTransport' : 'StdioClientTransport'}, expecting ${LEGACY}`,
  );
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { CallToolResultSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, TaskStatusNotificationSchema } = await import(
    '@modelcontextprotocol/sdk/types.js'
  );
  const ms = opts.timeout * 1000;
  const run = new Run(rep, label, ms);
  const sink = stderrSink(run);
  const transport = openTransport(opts, sink, { StdioClientTransport, StreamableHTTPClientTransport });
  // The 1.x Client keeps the negotiated revision to itself and hands it to the transport.
  let negotiated;
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v) => {
    negotiated = v;
    setVersion?.(v);
  };
  const client = new Client({ name: 'mcp-runtime-interop-tasks-sdk', version }, { capabilities: { elicitation: {} } });
  const elicitations = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params);
    return { action: 'accept', content: { confirm: true } };
  });
  const statusNotes = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => statusNotes.push(n.params));
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  const tasks = client.experimental.tasks;
  const collect = async (stream) => {
    const messages = [];
    for await (const message of stream) messages.push(message);
    return messages;
  };
  const shape = (messages) => messages.map((m) => (m.type === 'taskStatus' ? `taskStatus(${m.task.status})` : m.type === 'taskCreated' ? `taskCreated(${m.task.status})` : m.type)).join(' -> ');
  const expectError = async (fn) => {
    try {
      const value = await fn();
      return { value };
    } catch (error) {
      return { error };
    }
  };
  const statusesOf = (taskId) => statusNotes.filter((n) => n.taskId === taskId).map((n) => n.status);

  try {
    const connected = await run.step('connect', async () => {
      await client.connect(transport, { timeout: ms });
      return true;
    });
    if (!connected) return run;
    run.check(negotiated === LEGACY, `connect: negotiated ${negotiated} (expected ${LEGACY})`);
    const caps = client.getServerCapabilities()?.tasks;
    run.check(
      caps?.list !== undefined && caps?.cancel !== undefined && caps?.requests?.tools?.call !== undefined,
      `capabilities.tasks = ${js(caps)} (list, cancel and requests.tools.call)`,
    );

    await run.step('tools/list', async () => {
      // The SDK's Ajv warns about schemars' non-standard formats (`uint64`) while compiling the
      // output validators; harmless (see README), and muted here as in check_server.mjs.
      const warn = console.warn;
      console.warn = (...a) => (typeof a[0] === 'string' && a[0].startsWith('unknown format') ? undefined : warn(...a));
      let tools;
      try {
        ({ tools } = await client.listTools({}, { timeout: ms }));
      } finally {
        console.warn = warn;
      }
      const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? null]));
      const want = { report: 'optional', build: 'required', confirm: 'optional', fails: 'optional', echo: ['forbidden', null] };
      const wrong = Object.entries(want).filter(([name, w]) => (Array.isArray(w) ? !w.includes(support[name]) : support[name] !== w));
      run.check(!wrong.length, `tools/list: execution.taskSupport ${js(support, 200)}` + (wrong.length ? ` :: wrong for ${wrong.map(([n]) => n)}` : ''));
    });
    await run.step('logging/setLevel', () => client.setLoggingLevel('info', { timeout: ms }));

    // report: a task from start to result, with progress and logs on the way.
    const progress = [];
    const reportMessages = await run.step('report', () =>
      collect(
        tasks.callToolStream({ name: 'report', arguments: { quarter: 'Q3' } }, CallToolResultSchema, {
          task: { ttl: 60000 },
          timeout: ms,
          onprogress: (p) => progress.push(p),
        }),
      ),
    );
    let reportId;
    if (reportMessages) {
      const created = reportMessages[0]?.type === 'taskCreated' ? reportMessages[0].task : undefined;
      reportId = created?.taskId;
      const last = reportMessages.at(-1);
      const statuses = reportMessages.filter((m) => m.type === 'taskStatus').map((m) => m.task.status);
      run.check(
        created?.status === 'working' && created.ttl === 60000 && created.pollInterval === 100 && typeof created.createdAt === 'string' && typeof created.lastUpdatedAt === 'string',
        `report: callToolStream -> taskCreated ${js(created, 240)} (status working, ttl 60000 as asked, pollInterval 100)`,
      );
      run.check(
        last?.type === 'result' && statuses.length > 0 && statuses.at(-1) === 'completed' && last.result?.structuredContent?.quarter === 'Q3',
        `report: ${shape(reportMessages)}; result structuredContent ${js(last?.result?.structuredContent ?? last?.error?.message)} (validated by the SDK against the outputSchema)`,
      );
      await sleep(GRACE_MS);
      const steps = progress.map((p) => `${p.progress}/${p.total}`);
      run.check(js(steps) === js(['1/3', '2/3', '3/3']), `report: progress via onprogress ${js(steps)} (expected 1/3, 2/3, 3/3)`);
      const taskLogs = logs.filter((l) => l._meta?.[RELATED_TASK]?.taskId === reportId).map((l) => l.data);
      run.check(
        js(taskLogs) === js(['step 1 of 3', 'step 2 of 3', 'step 3 of 3']),
        `report: notifications/message tagged with _meta["${RELATED_TASK}"] of the task: ${js(taskLogs)} (of ${logs.length} log messages)`,
      );
    }
    if (reportId) {
      await run.step('tasks/get', async () => {
        const task = await tasks.getTask(reportId, { timeout: ms });
        run.check(task.taskId === reportId && task.status === 'completed', `getTask(report) -> ${js(task, 240)} (completed)`);
      });
      await run.step('tasks/list', async () => {
        const ids = [];
        let cursor;
        for (let page = 0; page < 100; page++) {
          const result = await tasks.listTasks(cursor, { timeout: ms });
          ids.push(...result.tasks.map((t) => t.taskId));
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        run.check(ids.includes(reportId), `listTasks() (every page): ${ids.length} task(s), the report task among them`);
      });
      await run.step('tasks/result', async () => {
        const result = await tasks.getTaskResult(reportId, CallToolResultSchema, { timeout: ms });
        run.check(
          result.structuredContent?.quarter === 'Q3' && result._meta?.[RELATED_TASK]?.taskId === reportId,
          `getTaskResult(report) on the finished task -> structuredContent ${js(result.structuredContent)}, _meta ${js(result._meta)}`,
        );
      });
      const statuses = statusesOf(reportId);
      run.check(statuses.at(-1) === 'completed', `report: notifications/tasks/status for the task: ${js(statuses)} (ending completed)`);
    }

    // build: a required-task tool, cancelled while it runs.
    await run.step('build cancel', async () => {
      const stream = tasks.callToolStream({ name: 'build', arguments: { ms: 60000 } }, CallToolResultSchema, { timeout: ms });
      const messages = [];
      let cancelled;
      for await (const message of stream) {
        messages.push(message);
        if (message.type === 'taskCreated') cancelled = await tasks.cancelTask(message.task.taskId, { timeout: ms });
      }
      const id = messages[0]?.task?.taskId;
      run.check(messages[0]?.type === 'taskCreated', `build: callToolStream made it a task by itself (the listing's taskSupport "required"): ${shape(messages)}`);
      run.check(cancelled?.status === 'cancelled' && cancelled.taskId === id, `build: cancelTask while working -> ${js(cancelled, 200)}`);
      const task = await tasks.getTask(id, { timeout: ms });
      run.check(task.status === 'cancelled', `build: getTask after the cancel -> status ${task.status}`);
      const again = await expectError(() => tasks.cancelTask(id, { timeout: ms }));
      run.check(again.error?.code === -32602, `build: cancelTask again (already cancelled) -> ${again.error ? describe(again.error) : js(again.value)} (expected -32602)`);
      await waitFor(() => statusesOf(id).includes('cancelled'), 2000);
      run.check(statusesOf(id).at(-1) === 'cancelled', `build: notifications/tasks/status for the task: ${js(statusesOf(id))} (ending cancelled)`);
    });

    // steps: the SDK's stream polls tasks/get; the task's statusMessage is its latest progress word.
    await run.step('steps', async () => {
      const stream = tasks.callToolStream({ name: 'steps', arguments: { ms: 1500 } }, CallToolResultSchema, { task: {}, timeout: ms });
      const messages = [];
      for await (const message of stream) messages.push(message);
      const words = messages.filter((m) => m.type === 'taskStatus' && m.task.status === 'working').map((m) => m.task.statusMessage);
      const last = messages.at(-1);
      run.check(
        words.some((word) => /^step \d+ of 10$/.test(word ?? '')) && last?.type === 'result' && textOf(last.result) === 'done in ten steps',
        `steps: statusMessage while working ${js([...new Set(words)])}; ${shape(messages)}`,
      );
    });

    // confirm: a task that asks the user; the SDK's elicitation handler answers.
    await run.step('confirm', async () => {
      const messages = await collect(
        tasks.callToolStream({ name: 'confirm', arguments: { action: 'deploy' } }, CallToolResultSchema, { task: { ttl: 60000 }, timeout: ms }),
      );
      const id = messages[0]?.task?.taskId;
      const last = messages.at(-1);
      run.check(last?.type === 'result' && textOf(last.result) === 'deploy: confirmed', `confirm: ${shape(messages)}; result ${js(last?.result?.content ?? last?.error?.message)}`);
      const asked = elicitations.filter((p) => p._meta?.[RELATED_TASK]?.taskId === id);
      run.check(
        asked.length === 1 && asked[0].message === 'Go ahead with deploy?' && elicitations.length === 1,
        `confirm: elicitation/create reached the client's handler once, tagged with the task: ${js(elicitations.map((p) => ({ message: p.message, related: p._meta?.[RELATED_TASK] })), 240)}`,
      );
      await waitFor(() => statusesOf(id).includes('completed'), 2000);
      const statuses = statusesOf(id);
      run.check(
        statuses.includes('input_required') && statuses.at(-1) === 'completed',
        `confirm: notifications/tasks/status ${js(statuses)} (input_required while asking, then completed)`,
      );
    });

    // fails: an isError result fails a 2025-11-25 task; tasks/result still gives the result.
    await run.step('fails', async () => {
      const messages = await collect(tasks.callToolStream({ name: 'fails', arguments: {} }, CallToolResultSchema, { task: {}, timeout: ms }));
      const id = messages[0]?.task?.taskId;
      run.check(messages.at(-1)?.type === 'error' && messages.some((m) => m.type === 'taskStatus' && m.task.status === 'failed'), `fails: ${shape(messages)} (${messages.at(-1)?.error?.message})`);
      const task = await tasks.getTask(id, { timeout: ms });
      run.check(task.status === 'failed', `fails: getTask -> status ${task.status}, statusMessage ${js(task.statusMessage)}`);
      const result = await tasks.getTaskResult(id, CallToolResultSchema, { timeout: ms });
      run.check(
        result.isError === true && textOf(result) === 'the report source is offline',
        `fails: getTaskResult -> isError ${result.isError}, content ${js(result.content)}`,
      );
    });

    // Refusals.
    await run.step('build without a task', async () => {
      const sdkGuard = await expectError(() => client.callTool({ name: 'build', arguments: { ms: 1 } }, CallToolResultSchema, { timeout: ms }));
      run.check(/requires task-based execution/.test(sdkGuard.error?.message ?? ''), `build: callTool() without a task refused by the SDK itself, from the listing: ${describe(sdkGuard.error)}`);
      const wire = await expectError(() => client.request({ method: 'tools/call', params: { name: 'build', arguments: { ms: 1 } } }, CallToolResultSchema, { timeout: ms }));
      run.check(wire.error?.code === -32601, `build: tools/call without a task, sent anyway -> ${wire.error ? describe(wire.error) : js(wire.value)} (expected -32601)`);
    });
    await run.step('echo as a task', async () => {
      const messages = await collect(tasks.callToolStream({ name: 'echo', arguments: { text: 'hi' } }, CallToolResultSchema, { task: {}, timeout: ms }));
      const error = messages.at(-1)?.error;
      run.check(messages.length === 1 && error?.code === -32601, `echo: as a task (taskSupport forbidden) -> ${error ? describe(error) : shape(messages)} (expected -32601)`);
    });
    await run.step('unknown task', async () => {
      const got = await expectError(() => tasks.getTask('no-such-task', { timeout: ms }));
      run.check(got.error?.code === -32602, `getTask("no-such-task") -> ${got.error ? describe(got.error) : js(got.value)} (expected -32602)`);
    });
    if (opts.url) await run.step('terminateSession', () => transport.terminateSession());
  } finally {
    await client.close().catch(() => {});
    sink.show();
  }
  return run;
}

// ======================================================================= ext-tasks over the 2.x Client

/**
 * The `rawDispatch` ext-tasks needs for 2026-07-28: the 2.x Client's codecs reject the extension's
 * wire shapes (`resultType: "task"`, `tasks/*`), so task requests bypass the Client and go to the
 * transport directly, with ids of their own; their responses are taken off the transport before
 * the Client sees them (the MCP Inspector does the same, with its RawWireChannel).
 */
class RawWire {
  pending = new Map();
  counter = 0;
  /** When each CreateTaskResult (2025-11-25 `{task}`) reached the transport, by task id. */
  created = new Map();
  /** When each server request tied to a task reached the transport, by JSON-RPC id. */
  requestsAt = new Map();
  /** Every raw exchange: [method, response], for the wire audit. */
  exchanges = [];
  constructor(transport, timeoutMs) {
    this.transport = transport;
    this.timeoutMs = timeoutMs;
  }
  /** After `client.connect(transport)`: responses to our ids stop here. */
  attach() {
    const clientOnMessage = this.transport.onmessage;
    this.transport.onmessage = (message, extra) => {
      const taskId = message?.result?.task?.taskId;
      if (typeof taskId === 'string') this.created.set(taskId, performance.now());
      if (typeof message?.method === 'string' && message.id !== undefined && message.params?._meta?.[RELATED_TASK]) this.requestsAt.set(message.id, performance.now());
      if (!this.consume(message)) clientOnMessage?.(message, extra);
    };
  }
  consume(message) {
    const id = message?.id;
    if (typeof id !== 'string' || !id.startsWith('tasks-check-raw-') || !('result' in message || 'error' in message)) return false;
    const pending = this.pending.get(id);
    if (pending) {
      this.pending.delete(id);
      pending.settle('error' in message ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result });
    }
    return true;
  }
  dispatch = (request, options = {}) => {
    const id = `tasks-check-raw-${++this.counter}`;
    const message = { jsonrpc: '2.0', id, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) };
    const signal = options.signal;
    const timeoutMs = options.context?.requestTimeoutMs ?? this.timeoutMs;
    return new Promise((resolve, reject) => {
      const wireAbort = new AbortController();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const onAbort = () => {
        done();
        wireAbort.abort(signal.reason);
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError'));
      };
      const timer = setTimeout(() => {
        done();
        wireAbort.abort();
        reject(new Error(`raw ${request.method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        settle: (response) => {
          done();
          this.exchanges.push([request.method, response]);
          resolve(response);
        },
      });
      this.transport.send(message, { ...(options.context?.headers ? { headers: options.context.headers } : {}), requestSignal: wireAbort.signal }).catch((error) => {
        if (!this.pending.has(id)) return;
        done();
        reject(error);
      });
    });
  };
}

async function runExtTasks(opts, rep, era) {
  const label = `ext-tasks${opts.url ? '-http' : ''}/${era}`;
  const want = era === 'modern' ? MODERN : LEGACY;
  const extVersion = pkgVersion('@modelcontextprotocol/ext-tasks');
  const clientVersion = pkgVersion('@modelcontextprotocol/client');
  rep.section(
    `${label}: @modelcontextprotocol/ext-tasks ${extVersion} createTaskSessionFromClient over @modelcontextprotocol/client ${clientVersion} + ${opts.url ? 'StreamableHTTPClientTransport' : 'StdioClientTransport'} (${era === 'modern' ? "versionNegotiation 'auto', rawDispatch + v2RequestFraming" : 'initialize'}), expecting ${want}`,
  );
  const { Client, StreamableHTTPClientTransport, ProtocolError } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const ext = await import('@modelcontextprotocol/ext-tasks/client');
  const ms = opts.timeout * 1000;
  const run = new Run(rep, label, ms);
  const sink = stderrSink(run);
  const transport = openTransport(opts, sink, { StdioClientTransport, StreamableHTTPClientTransport });
  const clientInfo = { name: 'mcp-runtime-interop-ext-tasks', version: extVersion };
  const capabilities = { elicitation: { form: {} } };
  const client = new Client(clientInfo, { capabilities, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}) });
  const raw = new RawWire(transport, ms);
  const asked = [];
  const backgroundErrors = [];
  let session;
  const v1 = era === 'legacy';
  const isCompleted = (outcome) => outcome?.status === 'completed';
  const outcomeText = (outcome) =>
    outcome?.status === 'completed'
      ? `completed ${js(outcome.result, 200)}`
      : outcome?.status === 'failed'
        ? `failed: ${zodIssues(outcome.error.cause ?? outcome.error)}`
        : js(outcome);
  // What the server put in the task, as ext-tasks last saw it (raw wire object), for FAIL lines.
  const rawResult = (settled) => js(settled?.lastTask?.raw?.result ?? settled?.outcome?.task?.raw?.result, 300);
  try {
    const connected = await run.step('connect', async () => {
      await client.connect(transport, { timeout: ms });
      return true;
    });
    if (!connected) return run;
    raw.attach();
    const version = client.getNegotiatedProtocolVersion();
    run.check(version === want, `connect: negotiated ${version} (era ${client.getProtocolEra()}; expected ${want})`);
    const serverCaps = client.getServerCapabilities();
    run.check(
      v1 ? serverCaps?.tasks?.requests?.tools?.call !== undefined : js(serverCaps?.extensions?.[TASKS_EXTENSION]) === '{}',
      v1 ? `capabilities.tasks ${js(serverCaps?.tasks)}` : `capabilities.extensions["${TASKS_EXTENSION}"] = ${js(serverCaps?.extensions?.[TASKS_EXTENSION])} (server/discover)`,
    );

    // ext-tasks leaves a server request it cannot tie to a task it tracks to the host's prior
    // fallback handler. In 2025-11-25 it registers a task only after several awaits past the
    // CreateTaskResult, so an elicitation sent right after that response (by a tool that asks at
    // once) can reach it first: InputCorrelationError "zero-matches" to onError, and, with no host
    // handler, the answer `{action: "cancel"}`. This host handler offers such a request to the
    // session again a little later (at most 40 times); every occurrence is printed as a NOTE.
    const reoffers = new WeakMap();
    let sessionHandler;
    const raceNotes = [];
    client.fallbackRequestHandler = async (request, context) => {
      const taskId = request.params?._meta?.[RELATED_TASK]?.taskId;
      const tries = reoffers.get(request) ?? 0;
      if (sessionHandler && taskId && tries < 40) {
        reoffers.set(request, tries + 1);
        if (tries === 0) {
          // On the wire: when the CreateTaskResult and this request reached the transport.
          const created = raw.created.get(taskId);
          const arrived = raw.requestsAt.get(request.id) ?? performance.now();
          raceNotes.push(
            `${request.method} for task ${taskId}, ` +
              (created === undefined || created > arrived
                ? 'on the wire BEFORE its CreateTaskResult'
                : `on the wire ${(arrived - created).toFixed(2)} ms after its CreateTaskResult`),
          );
        }
        await sleep(25);
        return sessionHandler(request, context);
      }
      throw new ProtocolError(-32601, `Method not found: ${request.method}`);
    };
    session = await run.step('createTaskSessionFromClient', () =>
      ext.createTaskSessionFromClient(client, {
        endpointId: `mcp-runtime-interop-${label}`,
        ...(v1
          ? {}
          : {
              rawDispatch: raw.dispatch,
              v2RequestFraming: { protocolVersion: version, clientInfo, clientCapabilities: capabilities },
            }),
        onInputRequest: ext.createApplicationInputHandler({
          elicitation: async (request, context) => {
            asked.push({ request, context: { scope: context.scope, delivery: context.delivery, taskId: context.taskId, inputId: context.inputId } });
            return { action: 'accept', content: { confirm: true } };
          },
          sampling: async () => {
            throw new Error('tasks_check: no sampling expected');
          },
          roots: async () => ({ roots: [] }),
        }),
        onError: (error) => backgroundErrors.push(error),
      }),
    );
    if (!session) return run;
    sessionHandler = client.fallbackRequestHandler;
    const caps = session.capabilities;
    run.check(
      caps.execution && caps.cancellation && (v1 ? caps.inventory === 'server-list' : caps.inputResponses),
      `session.capabilities ${js(caps)} (${v1 ? 'execution, cancellation, server-list inventory' : 'execution, cancellation, input responses'})`,
    );

    const events = (list) => (event) => {
      list.push(event.type === 'task' ? event.task.status : `outcome:${event.outcome.status}`);
    };

    // report
    await run.step('report', async () => {
      // 2025-11-25 takes a requested ttl (`params.task.ttl`): ext-tasks' retentionMs.
      const task = v1 ? { preference: 'prefer', retentionMs: 60000, retention: 'require-capability' } : { preference: 'prefer' };
      const execution = await session.callTool('report', { quarter: 'Q3' }, { task, requestTimeoutMs: ms });
      run.check(execution.kind === 'task' && typeof execution.handle?.taskId === 'string', `report: callTool -> ${execution.kind} execution ${js(execution.handle)}`);
      const seen = [];
      const settled = await execution.settle({ onEvent: events(seen) });
      const result = isCompleted(settled.outcome) ? ext.resultFromTaskOutcome(settled.outcome) : undefined;
      run.check(
        result?.structuredContent?.quarter === 'Q3',
        `report: settle() -> ${outcomeText(settled.outcome)}; events ${js(seen)}` + (result ? '' : `; the server's task result: ${rawResult(settled)}`),
      );
      if (v1) {
        const page = await session.listTasks();
        run.check(page.tasks.some((t) => t.taskId === execution.handle.taskId), `listTasks(): ${page.tasks.length} task(s), the report task among them`);
      }
      const snapshot = await session.task(execution.handle.taskId).snapshot();
      run.check(
        snapshot.status === 'completed' && (v1 ? snapshot.retentionMs === 60000 : snapshot.retentionMs === null || snapshot.retentionMs > 0) && snapshot.suggestedPollIntervalMs === 100,
        `report: task(id).snapshot() -> ${snapshot.status}, retentionMs ${snapshot.retentionMs} (${v1 ? 'as asked' : "the server's choice"}), poll ${snapshot.suggestedPollIntervalMs} ms`,
      );
    });

    // steps: while it works, the task's statusMessage is its latest progress word (2026-07-28 sends
    // a task no notifications, so polling is how its progress shows).
    await run.step('steps', async () => {
      const execution = await session.callTool('steps', { ms: 3000 }, { task: { preference: 'prefer' }, requestTimeoutMs: ms });
      const id = execution.handle?.taskId;
      const words = [];
      const deadline = Date.now() + 2500;
      while (id && Date.now() < deadline) {
        const snapshot = await session.task(id).snapshot();
        if (snapshot.status !== 'working') break;
        words.push(snapshot.statusMessage);
        if (/^step \d+ of 10$/.test(snapshot.statusMessage ?? '')) break;
        await sleep(50);
      }
      run.check(
        words.some((word) => /^step \d+ of 10$/.test(word ?? '')),
        `steps: task(id).snapshot() while working -> statusMessage ${js([...new Set(words)])}`,
      );
      const settled = await execution.settle();
      const result = isCompleted(settled.outcome) ? ext.resultFromTaskOutcome(settled.outcome) : undefined;
      run.check(textOf(result) === 'done in ten steps', `steps: settle() -> ${outcomeText(settled.outcome)}`);
    });

    // confirm: the elicitation reaches onInputRequest (2025-11-25: a request on the connection;
    // 2026-07-28: inputRequests in tasks/get, answered with tasks/update).
    await run.step('confirm', async () => {
      const execution = await session.callTool('confirm', { action: 'deploy' }, { task: { preference: 'prefer' }, requestTimeoutMs: ms });
      const seen = [];
      const settled = await execution.settle({ onEvent: events(seen) });
      const result = isCompleted(settled.outcome) ? ext.resultFromTaskOutcome(settled.outcome) : undefined;
      const mine = asked.filter((a) => a.context.taskId === execution.handle?.taskId);
      const delivery = v1 ? 'peer-request' : 'task-update';
      run.check(
        mine.length === 1 && mine[0].request.kind === 'elicitation' && mine[0].request.params.message === 'Go ahead with deploy?' && mine[0].context.delivery === delivery,
        `confirm: onInputRequest got ${js(mine.map((a) => ({ kind: a.request.kind, message: a.request.params.message, ...a.context })), 260)} (delivery ${delivery})` +
          (raceNotes.length ? ` [NOTE: ${raceNotes.length} request(s) reached ext-tasks before it tracked the task and were offered again: ${js(raceNotes)}]` : ''),
      );
      run.check(
        textOf(result) === 'deploy: confirmed',
        `confirm: settle() -> ${outcomeText(settled.outcome)}; events ${js(seen)}` + (result ? '' : `; the server's task result: ${rawResult(settled)}`),
      );
      if (!v1) run.check(seen.includes('input_required'), `confirm: a tasks/get snapshot showed input_required: ${js(seen)}`);
    });

    // build: cancelled while it runs.
    await run.step('build cancel', async () => {
      const execution = await session.callTool('build', { ms: 60000 }, { requestTimeoutMs: ms });
      run.check(execution.kind === 'task', `build: callTool (taskSupport "required"${v1 ? '' : ', learned from nothing: 2026-07-28 lists no taskSupport'}) -> ${execution.kind} execution`);
      await sleep(200);
      await execution.cancel();
      const settled = await execution.settle();
      run.check(settled.outcome.status === 'cancelled', `build: cancel() while working -> settle() ${outcomeText(settled.outcome)}`);
      const snapshot = await session.task(execution.handle.taskId).snapshot();
      run.check(snapshot.status === 'cancelled', `build: task(id).snapshot() after the cancel -> ${snapshot.status} ${js(snapshot.statusMessage)}`);
    });

    // fails: 2025-11-25 fails the task (ext-tasks then reports the status message, it never asks
    // tasks/result for a failed v1 task); 2026-07-28 completes it with the isError result.
    await run.step('fails', async () => {
      const execution = await session.callTool('fails', {}, { task: { preference: 'prefer' }, requestTimeoutMs: ms });
      const settled = await execution.settle();
      if (v1) {
        run.check(
          settled.outcome.status === 'failed' && settled.outcome.error.message === 'The tool reported an error (isError).',
          `fails: settle() -> ${outcomeText(settled.outcome)} (a failed 2025-11-25 task; the message is the task's statusMessage)`,
        );
        const snapshot = await session.task(execution.handle.taskId).snapshot();
        run.check(snapshot.status === 'failed', `fails: task(id).snapshot() -> ${snapshot.status} ${js(snapshot.statusMessage)}`);
      } else {
        const result = isCompleted(settled.outcome) ? ext.resultFromTaskOutcome(settled.outcome) : undefined;
        run.check(
          result?.isError === true && textOf(result) === 'the report source is offline',
          `fails: settle() -> ${outcomeText(settled.outcome)} (an isError result completes the task in 2026-07-28)` +
            (result ? '' : `; the server's task (${settled.lastTask?.status}) result: ${rawResult(settled)}`),
        );
      }
    });

    // echo: no task support, so an immediate result.
    await run.step('echo', async () => {
      const execution = await session.callTool('echo', { text: 'hi' }, { requestTimeoutMs: ms });
      const settled = await execution.settle();
      const result = isCompleted(settled.outcome) ? ext.resultFromTaskOutcome(settled.outcome) : undefined;
      run.check(execution.kind === 'immediate' && textOf(result) === 'hi', `echo (never a task): callTool -> ${execution.kind} execution, ${outcomeText(settled.outcome)}`);
    });

    if (!v1) {
      // Every raw 2026-07-28 answer against the package's own wire schemas (core/v2); a completed
      // task's `result` is the original request's result, so a CallToolResult of 2026-07-28.
      const v2 = await import('@modelcontextprotocol/ext-tasks/core/v2');
      const schemaFor = (method, result) =>
        method === 'tools/call'
          ? result?.resultType === 'task'
            ? ['CreateTaskResult', v2.CreateTaskResultV2Schema]
            : ['CallToolResult', v2.CallToolResultV2Schema]
          : method === 'tasks/get'
            ? ['GetTaskResult', v2.GetTaskResultV2Schema]
            : method === 'tasks/update'
              ? ['UpdateTaskResult', v2.UpdateTaskResultV2Schema]
              : method === 'tasks/cancel'
                ? ['CancelTaskResult', v2.CancelTaskResultV2Schema]
                : [null, null];
      const problems = new Map();
      const counts = {};
      for (const [method, response] of raw.exchanges) {
        counts[method] = (counts[method] ?? 0) + 1;
        if (response.kind !== 'result') continue;
        const found = [];
        const [name, schema] = schemaFor(method, response.result);
        if (schema) {
          const parsed = schema.safeParse(response.result);
          if (!parsed.success) found.push(`${method} -> ${name}: ${zodIssues(parsed.error)}`);
        }
        if (method === 'tasks/get' && response.result?.status === 'completed') {
          const parsed = v2.CallToolResultV2Schema.safeParse(response.result.result);
          if (!parsed.success) found.push(`tasks/get (completed) -> result as CallToolResult: ${zodIssues(parsed.error)}`);
        }
        for (const problem of found) problems.set(problem, (problems.get(problem) ?? 0) + 1);
      }
      run.check(
        !problems.size,
        `wire: every raw answer ${js(counts)} matched ext-tasks' core/v2 schemas` +
          (problems.size ? ` :: ${[...problems].map(([p, n]) => `${n}x ${p}`).join(' | ')}` : ''),
      );
    }

    const unexpected = backgroundErrors.filter((e) => !(e instanceof ext.InputCorrelationError && e.reason === 'zero-matches'));
    run.check(!unexpected.length, `no other background errors from ext-tasks (onError): ${unexpected.map(describe).join(' | ') || 'none'}`);
    if (raceNotes.length) {
      run.note(
        `${raceNotes.length} server request(s) reached ext-tasks before it had registered their task (InputCorrelationError zero-matches, answered on the host's re-offer): ${js(raceNotes)}`,
      );
    }
  } finally {
    await session?.close().catch(() => {});
    if (opts.url && era === 'legacy') await transport.terminateSession?.().catch(() => {});
    await client.close().catch(() => {});
    sink.show();
  }
  return run;
}

// ======================================================================= main

const opts = parseArgs(process.argv.slice(2));
const rep = new Reporter();
const runs = [];
const eras = opts.era === 'all' ? ['legacy', 'modern'] : [opts.era];
try {
  if ((opts.client === 'all' || opts.client === 'sdk') && eras.includes('legacy')) runs.push(await runSdk(opts, rep));
  if (opts.client === 'all' || opts.client === 'ext-tasks') {
    for (const era of eras) runs.push(await runExtTasks(opts, rep, era));
  }
} catch (e) {
  rep.fail('tasks', `aborted: ${describe(e)}`);
  if (process.env.INTEROP_DEBUG) console.error(e);
}
console.log();
for (const run of runs) console.log(`-- ${run.label}: ${run.passed} passed, ${run.failed} failed`);
rep.summary('tasks');
// Transports and timers of a failed run may linger; the verdict is in.
process.exit(rep.failed ? 1 : 0);
