/**
 * G9/H3 — the status page's operations panels in Debian's chromium (as status-browser.test.ts):
 * after a scripted workload, "What the model searched" lists the searches misses first (nothing
 * found, then found but not called, then used), the servers table has per-server calls with
 * p50/p99, and a "tokens saved since start" card shows the running total. A screenshot is taken
 * (STATUS_OPS_SCREENSHOT=path keeps a copy to look at).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../fixtures/clients.js';
import { startStatusGateway, STATUS_TOKEN } from '../fixtures/status-gateway.js';

const CHROMIUM = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => p !== undefined && existsSync(p),
);
if (!CHROMIUM)
  console.warn(
    'status-ops-browser.test: skipped, no chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)',
  );

describe.skipIf(!CHROMIUM)('G9 status page panels in headless chromium', () => {
  let gateway: Awaited<ReturnType<typeof startStatusGateway>>;
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startStatusGateway();
    const client = await httpClient(gateway.mcpUrl, { authorization: `Bearer ${STATUS_TOKEN}` });
    try {
      await client.call('tool_search', { query: 'select:mcp__memory__read_graph' });
      await client.call('mcp__memory__read_graph', {});
      await client.call('tool_search', { query: 'zzqx frobnicate the quux' });
      await client.call('tool_search', { query: 'delete observations from entities' });
      await client.toolNames();
    } finally {
      await client.close();
    }
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('G9: searches misses first, per-server calls with p50/p99, tokens saved since start; screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${gateway.base}/status`);
    await page.locator('#auth').waitFor({ state: 'visible' });
    await page.fill('#token', STATUS_TOKEN);
    await page.click('#auth-form button');

    await page.locator('#searches tbody tr').nth(2).waitFor();
    const outcomes = await page
      .locator('#searches tbody tr')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-outcome'), r.querySelector('td')?.textContent]));
    expect(outcomes).toEqual([
      ['miss', 'zzqx frobnicate the quux'],
      ['unused', 'delete observations from entities'],
      ['used', 'select:mcp__memory__read_graph'],
    ]);
    expect(await page.locator('#searches tbody tr[data-outcome="used"] td').nth(3).textContent()).toBe(
      'mcp__memory__read_graph',
    );
    const memory = page.locator('tr[data-server="memory"] td');
    expect(await memory.nth(6).textContent()).toBe('1');
    expect(Number(await memory.nth(7).textContent())).toBeGreaterThan(0);
    await page.locator('#cards', { hasText: 'tokens saved since start' }).waitFor();
    expect(await page.locator('#profiles-panel').isVisible()).toBe(false);
    expect(errors).toEqual([]);

    const file = process.env['STATUS_OPS_SCREENSHOT'] ?? join(mkdtempSync(join(tmpdir(), 'ts-ops-shot-')), 'ops.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(readFileSync(file).length).toBeGreaterThan(20_000);
  });

  it('H3: the page fits the window at 1280 and at 390 px wide: no sideways scrolling, long queries and names wrap', async () => {
    // What made the searched-queries table overflow: queries and names with no space to break at.
    const client = await httpClient(gateway.mcpUrl, { authorization: `Bearer ${STATUS_TOKEN}` });
    try {
      await client.call('tool_search', { query: LONG_SELECT });
      await client.call('tool_search', { query: LONG_URL });
    } finally {
      await client.close();
    }
    for (const width of [1280, 390]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${gateway.base}/status`);
      await page.locator('#auth').waitFor({ state: 'visible' });
      await page.fill('#token', STATUS_TOKEN);
      await page.click('#auth-form button');
      await page.locator('#searches tbody tr', { hasText: 'read_graph,mcp' }).waitFor();
      await page.locator('#searches tbody tr', { hasText: 'example.com' }).waitFor();
      await page.locator('tr[data-server="supabase"]').waitFor();
      const overflow = await page.evaluate(OVERFLOW);
      expect(overflow, `at ${width} px`).toEqual({ page: 0, past: [] });
      if (process.env['STATUS_OPS_SCREENSHOT'])
        await page.screenshot({
          path: process.env['STATUS_OPS_SCREENSHOT'].replace(/\.png$/, `-${width}.png`),
          fullPage: true,
        });
      await page.close();
    }
  });
});

/**
 * How far the page scrolls sideways, and every table or cell that ends past the window's right
 * edge (by how many px). Run in the page (a string: the test's TypeScript has no DOM types).
 */
const OVERFLOW = `(() => {
  const root = document.documentElement;
  const past = [...document.querySelectorAll('table, td, th')]
    .filter((e) => e.getBoundingClientRect().width > 0)
    .map((e) => Math.ceil(e.getBoundingClientRect().right) - root.clientWidth)
    .filter((px) => px > 0);
  return { page: root.scrollWidth - root.clientWidth, past };
})()`;

const LONG_SELECT =
  'select:mcp__memory__read_graph,mcp__memory__search_nodes,mcp__memory__open_nodes,mcp__memory__create_entities,mcp__memory__create_relations';
const LONG_URL =
  'https://example.com/projects/toolsearch/issues/42/comments?filter=open&sort=updated&per_page=100&page=7&include=attachments,reactions';
