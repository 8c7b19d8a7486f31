import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { inspectPool } from '../../src/inspect/report.js';
import { o200kTokens } from '../../src/inspect/tokenizer.js';

const LIVEMCP = '../shared/data/tool-retrieval/livemcpbench/catalog.jsonl';

describe('H2 token accounting', () => {
  it('H2: eager vs deferred with the real o200k tokenizer, per server and in total', () => {
    const catalog = new Catalog([{ name: 'read_file', description: 'Read a file from disk' }]);
    catalog.setServerTools('github', Array.from({ length: 30 }, (_, i) => ({
      name: `tool_${i}`,
      description: 'A fairly long description of what this GitHub tool does, with parameters.',
      inputSchema: { type: 'object', properties: { owner: { type: 'string' }, repo: { type: 'string' } } },
    })));
    const report = inspectPool(catalog, { count: o200kTokens, tokenizer: 'o200k' });
    expect(report.tools).toBe(31);
    expect(report.eagerTokens).toBeGreaterThan(report.deferredTokens);
    expect(report.savings).toBeGreaterThan(0.5);
    expect(report.savings).toBeLessThan(1);
    const github = report.perServer.find((s) => s.server === 'github');
    expect(github?.tools).toBe(30);
    expect(report.modes.map((m) => m.mode)).toEqual(['always', 'auto', 'never']);
    expect(report.modes.find((m) => m.mode === 'never')?.tokens).toBe(report.eagerTokens);
    expect(report.estimate).toBe(true);
  });
  it('H1: `toolsearch inspect --json` on the LiveMCPBench catalog reports the savings figure', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'inspect', '--catalog', LIVEMCP, '--json'], { encoding: 'utf8' });
    const report = JSON.parse(out);
    expect(report).toMatchObject({ tools: 527 });
    expect(report.eagerTokens).toBeGreaterThan(50_000);
    expect(report.savings).toBeGreaterThan(0.9);
  });
});
