// A real OAuth 2.1 authorization server (oidc-provider, pinned in ../node) for the token tests:
// client-credentials clients, resource indicators (RFC 8707) issuing access tokens for the
// resource asked for (JWTs, or opaque ones for the client `opaque`), introspection (RFC 7662,
// `/token/introspection`) and revocation (RFC 7009, `/token/revocation`), and keys that can be
// rotated while it runs.
//
//   node provider.mjs --keys FILE [--port N]
//
// Prints `listening http://127.0.0.1:PORT` once it serves. The keys (private JWKs) live in
// FILE: read if it exists, else made and written, so a second provider given the same file
// signs with the same keys under another issuer. Clients (secret = `secret`):
//   reader  scope `notes:read`;  writer  `notes:read notes:write`;
//   brief   `notes:read notes:write`, tokens living 1 s;
//   opaque  `notes:read notes:write`, opaque tokens; opaque-brief  the same, living 1 s;
//   mcp-server  no scope: the resource server, which introspects the others' tokens (the
//   default `introspection.allowedPolicy` lets any client that authenticates do so).
// Admin routes (not OAuth): POST /admin/rotate signs with a new key from then on (the old one
// is no longer published); GET /admin/stats answers {"jwks": requests of /jwks so far,
// "introspections": requests of /token/introspection so far};
// POST /admin/sign with a JSON object of claims answers a JWT of exactly those claims, signed
// with the current key (for the claims no OAuth request makes the provider issue).

import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../node/package.json', import.meta.url));
const { default: Provider } = await import(require.resolve('oidc-provider'));
const { SignJWT, importJWK } = await import(require.resolve('jose'));

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const keysFile = option('--keys');
if (!keysFile) {
  console.error('usage: node provider.mjs --keys FILE [--port N]');
  process.exit(2);
}

function newKey(generation) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: `key-${generation}`, alg: 'RS256', use: 'sig' };
}

let keys = existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, 'utf8')) : [newKey(1)];
writeFileSync(keysFile, JSON.stringify(keys));

const scopes = {
  reader: 'notes:read',
  writer: 'notes:read notes:write',
  brief: 'notes:read notes:write',
  opaque: 'notes:read notes:write',
  'opaque-brief': 'notes:read notes:write',
  'mcp-server': '',
};
const opaque = new Set(['opaque', 'opaque-brief']);
const brief = new Set(['brief', 'opaque-brief']);

function configuration() {
  return {
    clients: Object.keys(scopes).map((client_id) => ({
      client_id,
      client_secret: 'secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: scopes[client_id] || undefined,
    })),
    scopes: ['openid', 'notes:read', 'notes:write'],
    jwks: { keys: [keys[keys.length - 1]] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: () => true,
        // Any resource asked for gets a token with it as audience: the tests ask for others too.
        getResourceServerInfo: (_ctx, resource, client) => ({
          scope: scopes[client.clientId],
          audience: resource,
          accessTokenTTL: brief.has(client.clientId) ? 1 : 300,
          ...(opaque.has(client.clientId)
            ? { accessTokenFormat: 'opaque' }
            : { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
        }),
      },
    },
  };
}

let jwksRequests = 0;
let introspections = 0;
let provider;
const server = http.createServer((request, response) => {
  const path = new URL(request.url, 'http://x').pathname;
  if (path === '/admin/rotate' && request.method === 'POST') {
    keys = [...keys, newKey(keys.length + 1)];
    writeFileSync(keysFile, JSON.stringify(keys));
    provider = new Provider(provider.issuer, configuration());
    response.end(JSON.stringify({ kid: keys[keys.length - 1].kid }));
    return;
  }
  if (path === '/admin/sign' && request.method === 'POST') {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', async () => {
      const key = keys[keys.length - 1];
      const signed = await new SignJWT(JSON.parse(body))
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
        .sign(await importJWK(key, 'RS256'));
      response.end(signed);
    });
    return;
  }
  if (path === '/admin/stats') {
    response.end(JSON.stringify({ jwks: jwksRequests, introspections }));
    return;
  }
  if (path === '/jwks') jwksRequests += 1;
  if (path === '/token/introspection') introspections += 1;
  provider.callback()(request, response);
});

server.listen(Number(option('--port', '0')), '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = new Provider(issuer, configuration());
  console.log(`listening ${issuer}`);
});
