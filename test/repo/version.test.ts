import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/util/version.js';

describe('version', () => {
  it('the one VERSION constant matches package.json', () => {
    const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'));
    expect(VERSION).toBe(manifest.version);
  });
});
