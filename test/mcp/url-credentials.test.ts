/**
 * G1 — an HTTP upstream URL with `user:password@`: fetch refuses such URLs, so the credentials
 * travel as `Authorization: Basic …` instead (unless the config sets an Authorization header).
 * The upstream is a real SDK `McpServer` over Streamable HTTP on loopback, behind a Basic-auth check.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { httpTarget } from '../../src/mcp/url-credentials.js';

const BASIC = `Basic ${Buffer.from('alice:p@ss:wörd', 'utf8').toString('base64')}`;
const BEARER = 'Bearer configured-token';

/** Stateless Streamable HTTP: a fresh server and transport per request, after the auth check. */
function basicAuthUpstream(seen: string[]): Server {
  return createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    seen.push(auth);
    if (auth !== BASIC && auth !== BEARER) {
      res.writeHead(401, { 'www-authenticate': 'Basic' }).end();
      return;
    }
    const server = new McpServer({ name: 'guarded', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Say who the caller authenticated as.' }, () => ({
      content: [{ type: 'text', text: auth.split(' ')[0]! }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
}

describe('G1: credentials in an HTTP upstream URL', () => {
  const seen: string[] = [];
  let upstream: Server;
  let port: number;
  const hubs: McpHub[] = [];

  beforeAll(async () => {
    upstream = basicAuthUpstream(seen);
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    port = (upstream.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const hub of hubs) await hub.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  async function connect(server: Record<string, unknown>): Promise<McpHub> {
    const hub = new McpHub(parseHubConfig({ mcpServers: { guarded: server } }, 'test'), {
      reconnect: { maxAttempts: 1 },
    });
    hubs.push(hub);
    hub.start();
    await hub.settled();
    return hub;
  }

  it('G1: user:password@ in the URL is sent as Authorization: Basic (percent-decoded); the server connects and its tools work', async () => {
    const hub = await connect({ url: `http://alice:p%40ss%3Aw%C3%B6rd@127.0.0.1:${port}/mcp` });
    expect(hub.status().find((s) => s.server === 'guarded')).toMatchObject({ state: 'connected' });
    expect(seen).toContain(BASIC);
    expect(hub.catalog.has('mcp__guarded__whoami')).toBe(true);
  });

  it('G1: an Authorization header in the config wins over URL credentials', async () => {
    seen.length = 0;
    const hub = await connect({ url: `http://alice:wrong@127.0.0.1:${port}/mcp`, headers: { authorization: BEARER } });
    expect(hub.status().find((s) => s.server === 'guarded')).toMatchObject({ state: 'connected' });
    expect(new Set(seen)).toEqual(new Set([BEARER]));
  });

  it('G1: httpTarget strips the credentials and keeps everything else', () => {
    const target = httpTarget('https://u:p@example.com:8443/mcp?x=1#f', { 'X-Other': '1' });
    expect(target.url.href).toBe('https://example.com:8443/mcp?x=1#f');
    expect(target.headers).toEqual({ 'X-Other': '1', Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
    expect(httpTarget('https://example.com/mcp', undefined)).toEqual({
      url: new URL('https://example.com/mcp'),
      headers: undefined,
    });
    expect(httpTarget('https://tok@example.com/mcp', undefined).headers).toEqual({
      Authorization: `Basic ${Buffer.from('tok:').toString('base64')}`,
    });
  });
});
