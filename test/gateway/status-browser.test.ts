/**
 * H3 — the status page in a real browser: Debian's chromium (headless) driven by playwright-core
 * with the system executable (no browser download). The page asks for the token, renders every
 * server with its state, runs a live search with explanations, and a screenshot of it is taken.
 * Skipped, with the reason printed, where no chromium is installed (`.ci/run` installs it).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusGateway, STATUS_TOKEN } from '../fixtures/status-gateway.js';

const CHROMIUM = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => p !== undefined && existsSync(p),
);
if (!CHROMIUM)
  console.warn('status-browser.test: skipped, no chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe.skipIf(!CHROMIUM)('H3 status page in headless chromium', () => {
  let gateway: Awaited<ReturnType<typeof startStatusGateway>>;
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startStatusGateway();
    // --no-sandbox: CI containers run as root, where chromium's sandbox cannot start.
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('H3: asks for the token, renders each server with its state, searches live with explanations; screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${gateway.base}/status`);
    // No token yet: the page says it needs one and shows no server.
    await page.locator('#auth').waitFor({ state: 'visible' });
    expect(await page.locator('#servers tbody tr').count()).toBe(0);
    await page.fill('#token', STATUS_TOKEN);
    await page.click('#auth-form button');

    await page.locator('tr[data-server="memory"][data-state="connected"]').waitFor();
    await page.locator('tr[data-server="supabase"][data-state="failed"]').waitFor();
    expect(await page.locator('tr[data-server="memory"] td').nth(2).textContent()).toBe('9');
    expect(await page.locator('tr[data-server="supabase"] .error').textContent()).toContain(
      'command not found: toolsearch-test-no-such-command',
    );
    expect(await page.locator('#cards').textContent()).toMatch(/tokens saved per request/);
    // G7: the config file the gateway runs and watches.
    expect(await page.locator('#config').textContent()).toMatch(/^config \/.*mcp\.json \(watched\)$/);
    // A refused reload is shown (the page polls every 3 s), then cleared by a good save.
    const good = readFileSync(gateway.config, 'utf8');
    writeFileSync(gateway.config, '{"mcpServers": ');
    await page.locator('#config.refused').waitFor({ timeout: 15_000 });
    expect(await page.locator('#config').textContent()).toContain('the previous config keeps running');
    writeFileSync(gateway.config, good);
    await page.locator('#config:not(.refused)').waitFor({ timeout: 15_000 });

    await page.fill('#query', 'create entities in the knowledge graph');
    await page.click('#search-form button');
    const first = page.locator('#hits li').first();
    await first.waitFor();
    expect(await first.locator('b').textContent()).toBe('mcp__memory__create_entities');
    expect(await first.locator('pre').textContent()).toMatch(/entit/);
    expect(errors).toEqual([]);

    const file = join(mkdtempSync(join(tmpdir(), 'ts-status-shot-')), 'status.png');
    await page.screenshot({ path: file, fullPage: true });
    if (process.env['STATUS_SCREENSHOT'])
      await page.screenshot({ path: process.env['STATUS_SCREENSHOT'], fullPage: true });
    const png = readFileSync(file);
    const size = pngSize(png);
    expect(size.width).toBe(1100);
    expect(size.height).toBeGreaterThan(300);
    // A rendered table with text, not a blank page: a blank 1100×800 PNG is a few KB.
    expect(png.length).toBeGreaterThan(20_000);
    // The servers table itself as an image: present and of real size.
    const table = await page.locator('#servers').screenshot();
    expect(pngSize(table).height).toBeGreaterThan(60);
  });
});
