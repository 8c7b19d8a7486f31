/**
 * G5/G9 (issue 32, case 4): a client holding the token sends tool names and protocol versions of
 * its own making; metric series and labels must not grow with them. Over a real HTTP gateway
 * (`serve --http` with `--metrics`, the fixture server over stdio):
 * - 300 calls of made-up tools (2 KB names each, with made-up servers) add one `unknown` series,
 *   and never a server or tool label from the client's text;
 * - the tool-label cap is not spent by those names: a real tool called afterwards has its own label;
 * - an `initialize` naming any date is counted as era `other`;
 * - the `--metrics` listener refuses a foreign Host or Origin, and beyond loopback needs a token.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe } from '../../src/cli/commands/serve.js';
import { httpClient } from '../fixtures/clients.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { fixtureServer } from '../fixtures/servers/index.js';

const TOKEN = 'labels-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const dir = mkdtempSync(join(tmpdir(), 'ts-labels-'));
const config = join(dir, 'mcp.json');
let served: Served;

/** A GET with full control of Host and Origin (fetch forbids setting Host). */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  writeFileSync(config, JSON.stringify({ mcpServers: { fx: fixtureServer('fx') } }));
  served = await serveHttp({ config, token: TOKEN, metrics: '127.0.0.1:0' });
  await served.stack.hub.settled();
});
afterAll(() => served?.stack.close());

describe('G5: metric labels come from the catalog and fixed sets', () => {
  it('made-up tool names add no series of their own and do not spend the tool-label cap', async () => {
    const client = await httpClient(served.http!.url, auth);
    try {
      for (let i = 0; i < 300; i++) {
        const result = await client.call(`mcp__evil${i}__${'x'.repeat(2_000)}${i}`);
        expect(result.isError).toBe(true);
      }
      await client.call('tool_search', { query: 'select:mcp__fx__ping' });
      expect((await client.call('mcp__fx__ping')).text).toBe('pong from fx');
    } finally {
      await client.close();
    }
    const scrape = await (await fetch(served.metricsUrl!, { headers: auth })).text();
    expect(scrape).not.toMatch(/evil/);
    expect(scrape).not.toMatch(/xxxxxxxxxx/);
    expect(scrape).toMatch(/toolsearch_tool_calls_total\{server="unknown",tool="unknown",outcome="error"\} 300/);
    expect(scrape).toMatch(/toolsearch_tool_calls_total\{server="fx",tool="mcp__fx__ping",outcome="ok"\} 1/);
    const series = scrape.split('\n').filter((l) => l.startsWith('toolsearch_tool_calls_total{'));
    expect(series.length).toBeLessThanOrEqual(3);
  }, 120_000);

  it('an initialize naming any date counts as era "other"', async () => {
    for (const version of ['2031-01-01', '1999-12-31']) {
      const response = await fetch(served.http!.url, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'era', version: '1' } },
        }),
      });
      await response.body?.cancel();
    }
    const scrape = await (await fetch(served.metricsUrl!, { headers: auth })).text();
    expect(scrape).not.toMatch(/era="(2031|1999)/);
    expect(scrape).toMatch(/era="other"/);
  });

  it('the --metrics listener refuses a foreign Host or Origin, like the main listener', async () => {
    const url = served.metricsUrl!;
    const port = new URL(url).port;
    expect(await rawGet(url, { ...auth, host: `127.0.0.1:${port}` })).toBe(200);
    expect(await rawGet(url, { ...auth, host: `evil.example:${port}` })).toBe(403);
    expect(await rawGet(url, { ...auth, host: `127.0.0.1:${port}`, origin: 'http://evil.example' })).toBe(403);
  });

  it('stdio mode: --metrics beyond loopback without a token is refused before serving', async () => {
    await expect(
      runServe(
        { logLevel: 'silent', config, metrics: '0.0.0.0:0', allowOrigin: [], allowHost: [], settleMs: 0 },
        () => {},
      ),
    ).rejects.toThrow(/Refusing to serve on 0\.0\.0\.0 without a bearer token/);
  });
});
