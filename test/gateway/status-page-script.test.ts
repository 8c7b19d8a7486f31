/**
 * H3: the status page's script parses. The browser tests skip where chromium is missing, and a
 * script that does not parse fails silently there (the page stays at "loading…"); this check needs
 * no browser.
 */
import { describe, expect, it } from 'vitest';
import { statusPageHtml } from '../../src/gateway/status/page.js';

describe('H3 status page script', () => {
  it('H3: every inline script of the page is valid JavaScript', () => {
    const html = statusPageHtml('test-nonce');
    const scripts = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    // Parsed, never run: a syntax error throws here.
    for (const script of scripts) expect(() => new Function(script)).not.toThrow();
  });
});
