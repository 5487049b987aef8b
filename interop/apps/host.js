// A web MCP Apps host, the way ext-apps' examples/basic-host builds one: an MCP client
// (@modelcontextprotocol/client 2.x over Streamable HTTP) and the host side of the postMessage
// protocol (@modelcontextprotocol/ext-apps's AppBridge + PostMessageTransport), the view in a
// sandbox proxy frame on another origin, as the spec requires of a web page host.
//
// Bundled by esbuild (interop/node/apps_check.mjs) and loaded in Chromium. It runs the whole
// flow on its own: list the tools, call `forecast`, read the view its `_meta.ui.resourceUri`
// names, render it, connect the bridge, send the call's input and result. Everything it saw goes
// to `window.host` for the driver to check; the driver clicks inside the view itself.
//
// The page's query: `city` (the argument), `mcp` (the server's URL), `sandbox` (the sandbox
// proxy's URL, on another origin).

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, getUiCapability } from '@modelcontextprotocol/ext-apps/server';

const HOST_INFO = { name: 'mcp-runtime-interop-apps-host', version: '1.0.0' };
const query = new URLSearchParams(location.search);

// What the driver reads. `wire` is every JSON-RPC message the host POSTed to the server, so the
// driver can tell the view's call went through the host.
const host = {
  state: 'starting',
  error: null,
  wire: [],
  appCalls: [],
  sizes: [],
  warnings: [],
};
window.host = host;

function step(state) {
  host.state = state;
  document.getElementById('state').textContent = state;
}

// The transport's fetch, recording what the host sends (the bridge forwards the view's calls
// through this same client).
async function recordingFetch(url, init = {}) {
  if ((init.method ?? 'GET') === 'POST' && typeof init.body === 'string') {
    try {
      const body = JSON.parse(init.body);
      for (const message of Array.isArray(body) ? body : [body]) {
        if (message.method) host.wire.push({ method: message.method, params: message.params ?? null });
      }
    } catch {
      // Not JSON: nothing to record.
    }
  }
  return fetch(url, init);
}

// The sandbox proxy's frame, and its `ui/notifications/sandbox-proxy-ready`.
function loadSandbox(frame, csp) {
  const ready = new Promise((resolve) => {
    const listener = ({ source, data }) => {
      if (source === frame.contentWindow && data?.method === 'ui/notifications/sandbox-proxy-ready') {
        window.removeEventListener('message', listener);
        resolve();
      }
    };
    window.addEventListener('message', listener);
  });
  const url = new URL(query.get('sandbox'));
  // The proxy's server turns the view's declared domains into the frame's CSP header.
  if (csp) url.searchParams.set('csp', JSON.stringify(csp));
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.src = url.href;
  return ready;
}

async function main() {
  const city = query.get('city');
  const client = new Client(HOST_INFO, {
    // An MCP Apps host declares the extension with the MIME types it renders.
    capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(query.get('mcp')), { fetch: recordingFetch }));
  host.serverCapabilities = client.getServerCapabilities();
  host.uiCapability = getUiCapability(host.serverCapabilities) ?? null;
  host.protocolVersion = client.getNegotiatedProtocolVersion?.() ?? null;
  step('connected');

  const { tools } = await client.listTools();
  host.tools = tools;
  // The spec's rule for the agent's list: no tool whose visibility leaves out "model".
  host.modelTools = tools.filter((tool) => !isToolVisibilityAppOnly(tool)).map((tool) => tool.name);
  host.appOnlyTools = tools.filter((tool) => isToolVisibilityAppOnly(tool)).map((tool) => tool.name);
  const tool = tools.find((t) => t.name === 'forecast');
  if (!tool) throw new Error('the server lists no `forecast` tool');
  const uri = getToolUiResourceUri(tool);
  host.viewUri = uri ?? null;
  if (!uri) throw new Error('`forecast` names no view (_meta.ui.resourceUri)');

  // As basic-host does: the call and the read run together.
  const input = { city };
  const resultPromise = client.callTool({ name: 'forecast', arguments: input });
  const read = await client.readResource({ uri });
  if (read.contents.length !== 1) throw new Error(`${uri}: ${read.contents.length} contents, expected 1`);
  const content = read.contents[0];
  host.viewContent = { uri: content.uri, mimeType: content.mimeType, meta: content._meta ?? null, textLength: content.text?.length ?? null };
  if (content.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`${uri} is ${content.mimeType}, not ${RESOURCE_MIME_TYPE}`);
  const html = 'blob' in content ? atob(content.blob) : content.text;
  const ui = content._meta?.ui ?? {};
  step('read');

  const frame = document.getElementById('view');
  if (ui.prefersBorder) frame.classList.add('bordered');
  await loadSandbox(frame, ui.csp);
  step('sandbox-ready');

  const caps = client.getServerCapabilities();
  const bridge = new AppBridge(
    client,
    HOST_INFO,
    { openLinks: {}, serverTools: caps?.tools, serverResources: caps?.resources, logging: {} },
    {
      hostContext: {
        toolInfo: { tool },
        theme: 'light',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { width: 520, maxHeight: 800 },
        platform: 'web',
      },
    },
  );
  // Handlers before connect(): the view may ask as soon as it is up.
  bridge.onmessage = async () => ({});
  bridge.onopenlink = async () => ({});
  bridge.onloggingmessage = (params) => host.warnings.push(`view log: ${JSON.stringify(params)}`);
  bridge.onsizechange = ({ width, height }) => {
    host.sizes.push({ width, height });
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  const initialized = new Promise((resolve) => bridge.addEventListener('initialized', resolve));
  // The view's tools/call reaches the server through the bridge's own forwarding (installed by
  // connect() since the server has tools); this listener only records what the view asked for.
  window.addEventListener('message', ({ source, data }) => {
    if (source === frame.contentWindow && data?.method === 'tools/call') host.appCalls.push(data.params);
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  await bridge.sendSandboxResourceReady({ html, csp: ui.csp, permissions: ui.permissions });
  await initialized;
  host.appInfo = bridge.getAppVersion() ?? null;
  host.appCapabilities = bridge.getAppCapabilities() ?? null;
  step('initialized');

  await bridge.sendToolInput({ arguments: input });
  const result = await resultPromise;
  host.result = result;
  await bridge.sendToolResult(result);
  step('result-sent');

  // The driver calls this at the end: the spec's graceful teardown, answered by the view.
  window.teardown = async () => {
    host.teardown = await bridge.teardownResource({});
    return host.teardown;
  };
}

main().catch((error) => {
  host.error = String(error?.stack ?? error);
  step('failed');
});
