/**
 * G9 — a scripted workload over a real HTTP gateway (`serve --http`, real server-memory), then:
 * `/metrics` holds the figures it caused (behind the token, and on `--metrics` alone), and the
 * audit log holds one record per call and search, with no argument values unless enabled.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';

const TOKEN = 'ops-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const dir = mkdtempSync(join(tmpdir(), 'ts-ops-'));
const auditFile = join(dir, 'audit.jsonl');
let served: Served;
let base: string;
let metricsUrl: string;

async function startGateway(auditArguments: boolean, metricsPort: string, file: string) {
  const config = join(dir, `mcp-${auditArguments}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
          env: { MEMORY_FILE_PATH: join(dir, `memory-${auditArguments}.jsonl`) },
        },
      },
      toolSearch: { audit: { file, arguments: auditArguments } },
    }),
  );
  const lines: string[] = [];
  const result = await serveHttp({ config, token: TOKEN, metrics: metricsPort }, (text) => lines.push(text));
  await waitFor(() => result.stack.hub.status().every((s) => s.state === 'connected'), 'memory to connect', 20_000);
  return result;
}

/** The workload: a search that finds, a call that follows it, a search that finds nothing, a tools/list. */
async function workload(client: TestClient): Promise<void> {
  const found = await client.call('tool_search', { query: 'select:mcp__memory__create_entities' });
  expect(found.isError).toBeFalsy();
  const created = await client.call('mcp__memory__create_entities', {
    entities: [{ name: 'ops-alice', entityType: 'person', observations: ['likes metrics'] }],
    apiToken: 'sekret-value',
  });
  expect(created.isError).toBeFalsy();
  const none = await client.call('tool_search', { query: 'zzqx quux frobnicate' });
  expect(none.text).toBeTruthy();
  await client.toolNames();
}

function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as [string, string]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return undefined;
}

beforeAll(async () => {
  served = await startGateway(false, '127.0.0.1:0', auditFile);
  base = new URL(served.http!.url).origin;
});
afterAll(() => served?.stack.close());

describe('G9 metrics and audit after a scripted workload', () => {
  let scrape = '';

  beforeAll(async () => {
    const client = await httpClient(served.http!.url, auth);
    try {
      await workload(client);
      // The tokens-saved counter is added once the catalog's token figure is computed (async).
      await waitFor(async () => {
        scrape = await (await fetch(`${base}/metrics`, { headers: auth })).text();
        return (metricValue(scrape, 'toolsearch_tokens_saved_total') ?? 0) > 0;
      }, 'tokens saved to be counted');
    } finally {
      await client.close();
    }
  });

  it('G9: /metrics needs the same bearer token as /mcp', async () => {
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(401);
  });

  it('G9: requests by method and era, calls by server/tool/outcome with latency, searches and follow-ups', () => {
    expect(metricValue(scrape, 'toolsearch_requests_total', { method: 'initialize', era: '2025-11-25' })).toBe(1);
    expect(metricValue(scrape, 'toolsearch_requests_total', { method: 'tools/call' })).toBe(3);
    expect(metricValue(scrape, 'toolsearch_requests_total', { method: 'tools/list' })).toBe(1);
    expect(
      metricValue(scrape, 'toolsearch_tool_calls_total', {
        server: 'memory',
        tool: 'mcp__memory__create_entities',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      metricValue(scrape, 'toolsearch_tool_call_duration_seconds_count', { server: 'memory', outcome: 'ok' }),
    ).toBe(1);
    expect(metricValue(scrape, 'toolsearch_searches_total', { result: 'found' })).toBe(1);
    expect(metricValue(scrape, 'toolsearch_searches_total', { result: 'zero' })).toBe(1);
    expect(metricValue(scrape, 'toolsearch_searches_followed_total')).toBe(1);
  });

  it('G9: upstream state, sessions, bytes and tokens saved', () => {
    expect(metricValue(scrape, 'toolsearch_upstream_state', { server: 'memory', state: 'connected' })).toBe(1);
    expect(metricValue(scrape, 'toolsearch_upstream_state', { server: 'memory', state: 'failed' })).toBe(0);
    expect(metricValue(scrape, 'toolsearch_upstream_reconnects_total', { server: 'memory' })).toBe(0);
    expect(metricValue(scrape, 'toolsearch_sessions')).toBe(1);
    expect(metricValue(scrape, 'toolsearch_sessions_opened_total')).toBe(1);
    expect(metricValue(scrape, 'toolsearch_http_received_bytes_total')).toBeGreaterThan(500);
    expect(metricValue(scrape, 'toolsearch_http_sent_bytes_total')).toBeGreaterThan(500);
    expect(metricValue(scrape, 'toolsearch_tokens_saved_total')).toBeGreaterThan(0);
    expect(metricValue(scrape, 'toolsearch_audit_dropped_records_total')).toBe(0);
  });

  it('G9: OAuth refreshes, sign-ins and reloads others emit are counted and audited', async () => {
    const events = served.stack.gateway.operations.events;
    events.emit({ type: 'oauth-refresh', server: 'memory', outcome: 'ok' });
    events.emit({ type: 'reload', outcome: 'ok', source: 'mcp.json' });
    const text = await (await fetch(`${base}/metrics`, { headers: auth })).text();
    expect(metricValue(text, 'toolsearch_oauth_refreshes_total', { server: 'memory', outcome: 'ok' })).toBe(1);
    expect(metricValue(text, 'toolsearch_config_reloads_total', { outcome: 'ok' })).toBe(1);
  });

  it('G9: --metrics HOST:PORT serves the same text on its own listener', async () => {
    metricsUrl = served.metricsUrl!;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await fetch(metricsUrl)).status).toBe(401);
    const text = await (await fetch(metricsUrl, { headers: auth })).text();
    expect(metricValue(text, 'toolsearch_searches_total', { result: 'zero' })).toBe(1);
    expect((await fetch(new URL('/mcp', metricsUrl), { headers: auth })).status).toBe(404);
  });

  it('G9: the audit log holds one record per call and search, no argument values by default', async () => {
    await served.stack.audit!.flush();
    const records = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const calls = records.filter((r) => r['type'] === 'call');
    const searches = records.filter((r) => r['type'] === 'search');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      server: 'memory',
      tool: 'mcp__memory__create_entities',
      outcome: 'ok',
      client: 'toolsearch-test-client',
    });
    expect(calls[0]!['resultBytes']).toBeGreaterThan(0);
    expect(calls[0]).not.toHaveProperty('arguments');
    expect(readFileSync(auditFile, 'utf8')).not.toContain('ops-alice');
    expect(searches).toHaveLength(2);
    expect(searches.find((s) => s['query'] === 'select:mcp__memory__create_entities')).toMatchObject({
      results: ['mcp__memory__create_entities'],
      followed: true,
      calledTool: 'mcp__memory__create_entities',
    });
    expect(searches.find((s) => s['query'] === 'zzqx quux frobnicate')).toMatchObject({
      resultCount: 0,
      followed: false,
    });
    expect(records.filter((r) => r['type'] === 'reload')).toHaveLength(1);
    expect(records.filter((r) => r['type'] === 'oauth-refresh')).toHaveLength(1);
  });
});

describe('G9 audit with arguments on', () => {
  it('G9: audit.arguments records argument values, secrets redacted by key name', async () => {
    const file = join(dir, 'audit-args.jsonl');
    const other = await startGateway(true, '127.0.0.1:0', file);
    try {
      const client = await httpClient(other.http!.url, auth);
      try {
        await workload(client);
      } finally {
        await client.close();
      }
      await other.stack.audit!.flush();
      const call = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((r) => r['type'] === 'call');
      expect(call?.['arguments']).toEqual({
        entities: [{ name: 'ops-alice', entityType: 'person', observations: ['likes metrics'] }],
        apiToken: '[redacted]',
      });
    } finally {
      await other.stack.close();
    }
  });
});
