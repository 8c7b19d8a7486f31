/**
 * G8: the official v2 client in `legacy`, `auto` and `{pin: '2026-07-28'}` modes, over HTTP and
 * stdio: it connects, lists tools, searches, calls a found tool, receives a tools list_changed
 * (a 2026 connection through `subscriptions/listen`) and completes an elicitation an upstream
 * server (the real server-everything) asks for — as a server → client request on a 2025 session,
 * as `input_required` (MRTR) for a 2026 client.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayStack } from '../../src/gateway/create.js';
import type { RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { type HttpGatewayFixture, httpGateway } from '../fixtures/http-gateway.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { type EraClient, type EraMode, eraClient } from './eras-clients.js';
import { stdioGatewayParams } from '../fixtures/stdio-gateway.js';

const servers = () => ({ mcpServers: { everything: referenceServerConfig('everything'), fx: fixtureServer('fx') } });
const MODES: EraMode[] = ['legacy', 'auto', 'pin'];

/**
 * In-process gateways: resolves, once the hub has taken fx's tools out of the catalog (it
 * dropped), with the client's list_changed count at that moment. The broadcast is sent after the
 * change, so a notification counted past it is one that told of the drop, not a late one from the
 * server's return for an earlier client.
 */
type DropWatch = (c: EraClient) => Promise<number>;

/** The tour every client makes, whatever its era. */
async function tour(c: EraClient, mode: EraMode, watchDrop?: DropWatch): Promise<void> {
  expect(c.era).toBe(mode === 'legacy' ? 'legacy' : 'modern');
  const names = await c.toolNames();
  expect(names.slice(0, 2)).toEqual(['tool_search', 'call_tool']);
  const found = await c.call('tool_search', { query: 'select:mcp__fx__add,mcp__fx__die' });
  expect(found.text).toContain('mcp__fx__add');
  // The search result carries the full definitions: enough to call without a refreshed list.
  expect(found.text).toContain('"inputSchema"');
  const sum = await c.call('mcp__fx__add', { a: 2, b: 3 });
  expect(sum.isError, sum.text).toBeFalsy();
  expect(sum.text).toContain('5');
  await c.call('tool_search', { query: 'select:mcp__everything__trigger-elicitation-request' });
  const elicited = await c.call('mcp__everything__trigger-elicitation-request');
  expect(elicited.isError, elicited.text).toBeFalsy();
  expect(elicited.text).toContain(`user of ${mode}`);
  expect(c.elicited.length).toBe(1);
  // fx leaves (and comes back): the catalog changes and every client hears of it.
  const dropped = watchDrop?.(c);
  const before = c.listChanged();
  await c.call('call_tool', { name: 'mcp__fx__die', arguments: {} });
  const atDrop = dropped ? await dropped : before;
  await waitFor(() => c.listChanged() > atDrop, `tools list_changed (${mode})`, 15_000);
}

describe('G8 over Streamable HTTP: every client era on one endpoint', () => {
  let gateway: HttpGatewayFixture;
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  beforeAll(async () => {
    // One client after another calls the same upstream: no grace period claiming its requests for
    // the previous client (G5 isolation would refuse the elicitation as unattributable). The
    // default mode: tools are deferred, so each client searches first.
    gateway = await httpGateway(servers().mcpServers, { gateway: {}, limits: { attributionGraceMs: 0 } });
    ({ stack, http } = gateway);
  });
  afterAll(() => gateway?.close());
  const fxState = () => stack.hub.status().find((s) => s.server === 'fx')?.state;
  const watchDrop: DropWatch = (c) =>
    new Promise((resolve) => {
      const stop = stack.hub.catalog.onChange(() => {
        if (stack.hub.catalog.servers().includes('fx')) return;
        stop();
        resolve(c.listChanged());
      });
    });

  for (const mode of MODES) {
    it(`G8: a v2 client in ${mode} mode connects, searches, calls, hears list_changed and answers an elicitation`, async () => {
      const sessions = http.sessionCount();
      const c = await eraClient(mode, new StreamableHTTPClientTransport(new URL(http.url)));
      try {
        await tour(c, mode, watchDrop);
        // A 2026 client opens no session.
        if (mode !== 'legacy') expect(http.sessionCount()).toBe(sessions);
      } finally {
        await c.close();
      }
      // The next client finds fx back (its third drop in a minute quarantines it: the last tour).
      await waitFor(() => fxState() === 'connected' || fxState() === 'quarantined', 'fx back after its drop', 15_000);
    });
  }

  it('G8: without a session, a direct call by name to any catalog tool runs (nothing is "not loaded")', async () => {
    const c = await eraClient('pin', new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      const echoed = await c.call('mcp__everything__echo', { message: 'no search first' });
      expect(echoed.isError).toBeFalsy();
      expect(echoed.text).toBe('Echo: no search first');
    } finally {
      await c.close();
    }
  });
});

describe('G8 over stdio: every client era, one gateway process per client', () => {
  let config: string;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-eras-'));
    config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify(servers()));
  });

  for (const mode of MODES) {
    it(`G8: a v2 client in ${mode} mode over stdio makes the same tour`, async () => {
      const transport = new StdioClientTransport(stdioGatewayParams(['serve', '--config', config]));
      const c = await eraClient(mode, transport);
      try {
        await tour(c, mode);
      } finally {
        await c.close();
      }
    });
  }
});
