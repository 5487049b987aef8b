// The official TypeScript SDK's own OAuth support (@modelcontextprotocol/sdk 1.x,
// ClientCredentialsProvider) against a server verifying JWTs (http-tests' jwt_server):
// from the 401 it finds the protected-resource metadata, the authorization server's
// metadata, gets a client-credentials token for the resource, and calls tools with it.
//
//   node sdk_client.mjs MCP_URL ISSUER
//
// Prints a PASS or FAIL line per check, then `interop auth: N passed, M failed`; exits 1 on a
// failure. Clients of interop/auth/provider.mjs: writer (notes:read notes:write), reader
// (notes:read).

const sdk = (path) => import(new URL(`../node/node_modules/@modelcontextprotocol/sdk/dist/esm/${path}`, import.meta.url));
const { Client } = await sdk('client/index.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const { ClientCredentialsProvider } = await sdk('client/auth-extensions.js');

const url = new URL(process.argv[2]);
// Credentials go only to this authorization server, whatever the MCP server's metadata says.
const expectedIssuer = process.argv[3];
let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed += 1; else failed += 1;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
}

async function connect(clientId, scope) {
  const authProvider = new ClientCredentialsProvider({ clientId, clientSecret: 'secret', scope, expectedIssuer });
  const client = new Client({ name: `interop-${clientId}`, version: '0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider }));
  return { client, authProvider };
}

const text = (result) => result.content?.[0]?.text;

try {
  const { client, authProvider } = await connect('writer', 'notes:read notes:write');
  check('writer: connected after the SDK fetched a token itself', Boolean(authProvider.tokens()?.access_token));
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  check('writer: tools/list shows both tools', JSON.stringify(tools) === '["read_notes","write_note"]', JSON.stringify(tools));
  const wrote = await client.callTool({ name: 'write_note', arguments: { text: 'from the SDK' } });
  check('writer: write_note runs as the token\'s client', text(wrote) === 'writer wrote from the SDK', JSON.stringify(wrote));
  await client.close();
} catch (error) {
  check('writer: connect and call', false, error?.stack ?? String(error));
}

try {
  const { client } = await connect('reader', 'notes:read');
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  check('reader: tools/list leaves out write_note', JSON.stringify(tools) === '["read_notes"]', JSON.stringify(tools));
  const read = await client.callTool({ name: 'read_notes', arguments: {} });
  check('reader: read_notes runs', text(read) === 'the notes', JSON.stringify(read));
  let refused;
  try {
    const result = await client.callTool({ name: 'write_note', arguments: { text: 'not allowed' } });
    refused = result.isError ? `isError: ${text(result)}` : undefined;
  } catch (error) {
    refused = String(error?.message ?? error);
  }
  check('reader: write_note is refused (the step-up the AS will not grant fails)', refused !== undefined, 'it ran');
  if (refused) console.log(`     (${refused.slice(0, 200)})`);
  await client.close();
} catch (error) {
  check('reader: connect and call', false, error?.stack ?? String(error));
}

console.log(`interop auth: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
