#!/usr/bin/env node
// MCP Apps in a real host: a web page built on @modelcontextprotocol/ext-apps's AppBridge and an
// @modelcontextprotocol/client 2.x Client (../apps/host.js), in headless Chromium, against a
// running MCP Apps server (examples/apps; interop/apps_run.sh starts it).
//
// Usage:
//   node apps_check.mjs --url http://127.0.0.1:PORT/mcp --chromium PATH [--host-port PORT]
//        [--city NAME] [--artifacts DIR] [--timeout S]
//
// What it does: bundles ../apps/host.js with esbuild into a temporary directory; serves the host
// page on one loopback port (--host-port, an origin the server must allow: the page calls the
// server from the browser, across origins, through the server's CORS) and the sandbox proxy
// (../apps/sandbox.html) on another, as the spec wants the two on different origins; opens the
// page in Chromium (playwright-core, the system browser, no download). The page lists the tools,
// calls `forecast`, reads the view, renders it in the sandbox and hands it the call's input and
// result through the bridge. Then this script checks the host's view of the server and the view's
// DOM, clicks Refresh inside the view (which calls the app-only `refresh_forecast` through the
// host), checks the new table, saves screenshots to --artifacts, and tears the view down.
//
// One PASS/FAIL line per check, NOTE lines for information, a closing `apps: N passed, M failed`
// line; exit 1 on any failure.

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { js, Reporter } from './expect.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const appsDir = join(here, '..', 'apps');
const VIEW_URI = 'ui://forecast/view';
const MIME = 'text/html;profile=mcp-app';
const EXTENSION = 'io.modelcontextprotocol/ui';

function pkgVersion(name) {
  return JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;
}

function parseArgs(argv) {
  const opts = { city: 'Oslo', timeout: 30, artifacts: null, url: null, chromium: null, hostPort: 0 };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
      return argv[++i];
    };
    switch (argv[i]) {
      case '--url': opts.url = value(); break;
      case '--chromium': opts.chromium = value(); break;
      case '--host-port': opts.hostPort = Number(value()); break;
      case '--city': opts.city = value(); break;
      case '--artifacts': opts.artifacts = value(); break;
      case '--timeout': opts.timeout = Number(value()); break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  if (!opts.url || !opts.chromium) throw new Error('usage: apps_check.mjs --url URL --chromium PATH [--host-port PORT] [--city NAME] [--artifacts DIR] [--timeout S]');
  return opts;
}

/** The CSP the spec asks of a host for a view's declared domains (its restrictive default when none). */
function viewCsp(csp = {}) {
  const list = (domains) => (domains?.length ? ' ' + domains.join(' ') : '');
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `connect-src ${csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
    "object-src 'none'",
  ].join('; ');
}

function listen(server, port = 0) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

/** The host page's origin: the page and its bundle (the page calls the MCP server itself). */
function hostServer(bundle) {
  const page = readFileSync(join(appsDir, 'host.html'));
  return http.createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    } else if (req.method === 'GET' && path === '/host.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else if (path === '/favicon.ico') {
      // Chromium asks for one; a 404 would be an error line in the console.
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
}

/** The sandbox proxy's origin: sandbox.html with the CSP built from its `csp` query. */
function sandboxServer() {
  const page = readFileSync(join(appsDir, 'sandbox.html'));
  return http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.method !== 'GET' || url.pathname !== '/sandbox.html') return res.writeHead(404).end();
    let csp;
    try {
      csp = url.searchParams.has('csp') ? JSON.parse(url.searchParams.get('csp')) : undefined;
    } catch {
      return res.writeHead(400).end('bad csp');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': viewCsp(csp) }).end(page);
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const ms = opts.timeout * 1000;
  const rep = new Reporter();
  const versions = ['@modelcontextprotocol/ext-apps', '@modelcontextprotocol/client', 'playwright-core', 'esbuild']
    .map((name) => `${name} ${pkgVersion(name)}`)
    .join(', ');
  rep.section(`apps: a web host (AppBridge + PostMessageTransport, Client over Streamable HTTP) in Chromium against ${opts.url}; ${versions}`);

  const work = mkdtempSync(join(tmpdir(), 'mcp-apps-host-'));
  const servers = [];
  let browser;
  const consoleLines = [];
  const pageErrors = [];
  try {
    // The host page's bundle: app-bridge imports the client, core and zod by bare name.
    const esbuild = await import('esbuild');
    const out = join(work, 'host.js');
    await esbuild.build({
      entryPoints: [join(appsDir, 'host.js')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outfile: out,
      nodePaths: [join(here, 'node_modules')],
      logLevel: 'error',
    });
    const bundle = readFileSync(out);
    rep.ok('bundle', `../apps/host.js bundled by esbuild (${bundle.length} bytes)`);

    const hostHttp = hostServer(bundle);
    const sandboxHttp = sandboxServer();
    servers.push(hostHttp, sandboxHttp);
    const hostOrigin = await listen(hostHttp, opts.hostPort);
    const sandboxOrigin = await listen(sandboxHttp);

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: opts.chromium,
      headless: true,
      // Chromium's own sandbox cannot start as root (CI containers); the frames' sandboxing,
      // which is what the spec's rules are about, does not depend on it.
      chromiumSandbox: process.getuid?.() !== 0,
      timeout: ms,
    });
    rep.section(`chromium ${browser.version()} (${opts.chromium}); host ${hostOrigin}, sandbox proxy ${sandboxOrigin}`);
    const page = await browser.newPage({ viewport: { width: 640, height: 560 } });
    page.setDefaultTimeout(ms);
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => pageErrors.push(String(error)));

    const query = new URLSearchParams({ city: opts.city, mcp: opts.url, sandbox: `${sandboxOrigin}/sandbox.html` });
    await page.goto(`${hostOrigin}/?${query}`);
    await page.waitForFunction(() => ['result-sent', 'failed'].includes(window.host?.state), null, { timeout: ms }).catch(() => {});
    const host = await page.evaluate(() => window.host);
    if (host?.state !== 'result-sent') {
      rep.fail('host', `the host page stopped at \`${host?.state}\`: ${host?.error ?? 'no error recorded (timed out)'}`);
      return rep;
    }
    rep.ok('host', 'connected, listed the tools, called `forecast`, read its view, rendered it and sent the result');
    const serverOrigin = new URL(opts.url).origin;
    rep.check(
      serverOrigin !== hostOrigin,
      'cors',
      `the page of ${hostOrigin} called the server at ${serverOrigin} from the browser, across origins (the server's CORS for its allowed origin)`,
    );

    // What the host saw of the server.
    rep.check(
      Array.isArray(host.uiCapability?.mimeTypes) && host.uiCapability.mimeTypes.includes(MIME),
      'capability',
      `capabilities.extensions["${EXTENSION}"] (getUiCapability) = ${js(host.uiCapability)}; negotiated ${host.protocolVersion}`,
    );
    rep.check(host.viewUri === VIEW_URI, 'resourceUri', `getToolUiResourceUri(forecast) = ${js(host.viewUri)}`);
    rep.check(
      js(host.modelTools) === js(['forecast']) && js(host.appOnlyTools) === js(['refresh_forecast']),
      'visibility',
      `the agent's list (isToolVisibilityAppOnly filtered out) = ${js(host.modelTools)}; app-only = ${js(host.appOnlyTools)}`,
    );
    rep.check(
      host.viewContent.uri === VIEW_URI && host.viewContent.mimeType === MIME && host.viewContent.meta?.ui?.prefersBorder === true,
      'view read',
      `resources/read ${VIEW_URI}: ${js(host.viewContent, 200)}`,
    );
    rep.check(
      host.appInfo?.name === 'forecast-view',
      'ui/initialize',
      `the view initialized through the sandbox proxy: appInfo ${js(host.appInfo)}, appCapabilities ${js(host.appCapabilities)}`,
    );
    const first = host.result?.structuredContent;
    rep.check(
      first?.city === opts.city && first?.revision === 0 && first?.days?.length === 3,
      'forecast result',
      `structuredContent ${js(first, 200)}`,
    );

    // The view, two frames down: the sandbox proxy (another origin), then the view's srcdoc frame.
    const sandboxFrame = await (await page.locator('#view').elementHandle()).contentFrame();
    const viewFrame = await (await sandboxFrame.locator('iframe').elementHandle()).contentFrame();
    // The spec's isolation: the view runs on the proxy's origin, which cannot reach into the host.
    const isolation = await viewFrame.evaluate(() => {
      let hostReachable;
      try {
        hostReachable = Boolean(window.parent.parent.document);
      } catch {
        hostReachable = false;
      }
      return { origin: self.origin, hostReachable };
    });
    rep.check(
      isolation.origin === sandboxOrigin && !isolation.hostReachable,
      'sandbox',
      `the view's origin ${isolation.origin} (the host's is ${hostOrigin}); the host's document ${isolation.hostReachable ? 'IS' : 'is not'} reachable from it`,
    );
    const cells = () => viewFrame.locator('#days td').allTextContents();
    const expected = (forecast) => forecast.days.flatMap((day) => [day.day, day.low, day.high].map(String));
    await viewFrame.waitForFunction(() => document.getElementById('revision').textContent === '0', null, { timeout: ms }).catch(() => {});
    const before = await cells();
    const heading = await viewFrame.locator('#city').textContent();
    rep.check(
      js(before) === js(expected(first)) && heading === `Forecast for ${opts.city}`,
      'view table',
      `the view drew the tool result: "${heading}", cells ${js(before)}`,
    );
    // The view reports its size once drawn (a notification, so it may come after the table).
    await page.waitForFunction(() => window.host.sizes.length > 0, null, { timeout: ms }).catch(() => {});
    const sizes = await page.evaluate(() => window.host.sizes);
    const frameHeight = await page.locator('#view').evaluate((frame) => frame.style.height);
    rep.check(
      sizes.length > 0 && sizes.at(-1).height > 0 && frameHeight === `${sizes.at(-1).height}px`,
      'size-changed',
      sizes.length
        ? `the view reported ${js(sizes)}; the host sized its frame to ${frameHeight}`
        : 'the view never sent ui/notifications/size-changed',
    );
    if (opts.artifacts) {
      mkdirSync(opts.artifacts, { recursive: true });
      await page.screenshot({ path: join(opts.artifacts, 'forecast.png') });
    }

    // The user clicks Refresh in the view: an app-only call, through the host to the server.
    const wireBefore = host.wire.length;
    await viewFrame.locator('#refresh').click();
    await viewFrame.waitForFunction(() => document.getElementById('revision').textContent === '1', null, { timeout: ms }).catch(() => {});
    const after = await cells();
    const revision = await viewFrame.locator('#revision').textContent();
    const moved = first.days.flatMap((day) => [day.day, day.low + 1, day.high + 1].map(String));
    rep.check(revision === '1' && js(after) === js(moved), 'refresh', `after Refresh: revision ${revision}, cells ${js(after)} (expected ${js(moved)})`);
    const afterHost = await page.evaluate(() => window.host);
    const appCall = afterHost.appCalls.find((call) => call.name === 'refresh_forecast');
    const forwarded = afterHost.wire.slice(wireBefore).find((m) => m.method === 'tools/call' && m.params?.name === 'refresh_forecast');
    rep.check(
      js(appCall?.arguments) === js({ city: opts.city, revision: 0 }) && js(forwarded?.params?.arguments) === js(appCall?.arguments),
      'through the host',
      `the view asked the host for ${js(appCall)}; the host sent the server ${js(forwarded?.params)}`,
    );
    if (opts.artifacts) await page.screenshot({ path: join(opts.artifacts, 'forecast-refreshed.png') });

    // The spec's graceful end: ui/resource-teardown, answered by the view.
    const teardown = await page.evaluate(() => window.teardown()).then(
      (result) => ({ result }),
      (error) => ({ error: String(error) }),
    );
    rep.check('result' in teardown, 'teardown', `ui/resource-teardown answered ${js(teardown)}`);

    // The host, the proxy and the view ran without a script error or an error in the console
    // (where the bridge reports a message it could not parse, and Chromium a CSP violation).
    const consoleErrors = consoleLines.filter((line) => line.startsWith('error: '));
    rep.check(
      pageErrors.length === 0 && consoleErrors.length === 0,
      'no errors',
      pageErrors.length || consoleErrors.length
        ? `page errors ${js(pageErrors, 400)}; console errors ${js(consoleErrors, 400)}`
        : 'no script error and no console error in the host, the sandbox proxy or the view',
    );
    const consoleWarnings = consoleLines.filter((line) => line.startsWith('warning: '));
    if (consoleWarnings.length) console.log(`NOTE console warnings: ${js(consoleWarnings, 600)}`);
    if (afterHost.warnings.length) console.log(`NOTE host warnings: ${js(afterHost.warnings, 400)}`);
    if (opts.artifacts) console.log(`NOTE screenshots: ${join(opts.artifacts, 'forecast.png')}, forecast-refreshed.png`);
  } catch (error) {
    rep.fail('apps', String(error?.stack ?? error));
  } finally {
    await browser?.close().catch(() => {});
    for (const server of servers) {
      server.closeAllConnections?.();
      server.close();
    }
    rmSync(work, { recursive: true, force: true });
    if (rep.failed && consoleLines.length) {
      console.log('---- browser console (last 40 lines) ----');
      for (const line of consoleLines.slice(-40)) console.log(line);
      console.log('---- end browser console ----');
    }
  }
  return rep;
}

const rep = await main().catch((error) => {
  console.log(`FAIL apps: ${error?.message ?? error}`);
  process.exit(1);
});
rep.summary('apps');
process.exit(rep.failed ? 1 : 0);
