import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { inspectPool } from '../../src/inspect/report.js';
import { o200kTokens } from '../../src/inspect/tokenizer.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

/**
 * A catalog in the shared JSONL format, made here so the test runs in any clone (the benchmark
 * sets live beside this repo's own checkout only): 12 servers × 20 tools with realistic schemas.
 */
function writeSampleCatalog(): string {
  const lines: string[] = [];
  for (let s = 0; s < 12; s++) {
    for (let t = 0; t < 20; t++) {
      lines.push(
        JSON.stringify({
          id: `server${s}/tool_${t}`,
          server: `server${s}`,
          name: `tool_${t}`,
          description: `Does task ${t} of server ${s}: reads the named resource, filters it and returns a JSON summary with paging.`,
          inputSchema: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'Identifier of the resource to read' },
              filter: { type: 'string', description: 'Optional filter expression' },
              limit: { type: 'number', description: 'Maximum number of results', default: 20 },
            },
            required: ['id'],
          },
        }),
      );
    }
  }
  const file = join(mkdtempSync(join(tmpdir(), 'toolsearch-inspect-')), 'catalog.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const SAMPLE = writeSampleCatalog();

describe('H2 token accounting', () => {
  it('H2: eager vs deferred with the real o200k tokenizer, per server and in total', () => {
    const catalog = new Catalog([{ name: 'read_file', description: 'Read a file from disk' }]);
    catalog.setServerTools(
      'github',
      Array.from({ length: 30 }, (_, i) => ({
        name: `tool_${i}`,
        description: 'A fairly long description of what this GitHub tool does, with parameters.',
        inputSchema: { type: 'object', properties: { owner: { type: 'string' }, repo: { type: 'string' } } },
      })),
    );
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
  it('H1: `toolsearch inspect --json` on a 240-tool catalog file reports the savings figure', () => {
    const out = execFileSync(process.execPath, cliArgs('inspect', '--catalog', SAMPLE, '--json'), {
      encoding: 'utf8',
      env: cliEnv(),
    });
    const report = JSON.parse(out);
    expect(report).toMatchObject({ tools: 240 });
    expect(report.eagerTokens).toBeGreaterThan(20_000);
    expect(report.savings).toBeGreaterThan(0.8);
    // E5: what a plain auto decides with: the whole-session estimate and its crossover.
    expect(report.session.growing).toMatchObject({ searches: 20, defer: expect.any(Boolean) });
    expect(report.session.fixed.ratio).toBeLessThan(report.session.growing.ratio);
    // auto decides for the list serve runs: the fixed list unless told.
    expect(report.session.inUse).toBe('fixed');
    const auto = report.modes.find((m: { mode: string }) => m.mode === 'auto');
    expect(auto.useToolSearch).toBe(report.session.fixed.defer);
    expect(auto.reason).toMatch(/\(fixed list\)/);
    const text = execFileSync(process.execPath, cliArgs('inspect', '--catalog', SAMPLE), {
      encoding: 'utf8',
      env: cliEnv(),
    });
    expect(text).toMatch(/^whole session \(20 searches, prompt cache on/m);
    expect(text).toMatch(/^fixed list \(in use\) +\d+\.\d\d×/m);
    expect(text).toMatch(/^growing list +\d+\.\d\d×/m);
    expect(text).toMatch(/^auto \(fixed list\): /m);
  });

  it('E5/G11: --tool-list growing moves the mark and the auto estimate; --code-mode counts run_code in every total', () => {
    const run = (...flags: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, cliArgs('inspect', '--catalog', SAMPLE, '--json', ...flags), {
          encoding: 'utf8',
          env: cliEnv(),
        }),
      );
    const plain = run();
    const report = run('--tool-list', 'growing', '--code-mode');
    expect(report.session.inUse).toBe('growing');
    const auto = report.modes.find((m: { mode: string }) => m.mode === 'auto');
    expect(auto.useToolSearch).toBe(report.session.growing.defer);
    expect(auto.reason).toMatch(/\(growing list\)/);
    expect(report.runCode).toBeGreaterThan(50);
    expect(report.eagerTokens).toBe(plain.eagerTokens + report.runCode);
    expect(report.deferredTokens).toBe(plain.deferredTokens + report.runCode);
    // auto's session estimate counts it too: sent in both cases, it narrows what deferral saves.
    expect(report.session.growing.eager).toBeGreaterThan(plain.session.growing.eager);
    expect(report.session.growing.ratio).toBeGreaterThan(plain.session.growing.ratio);
  });
});

describe('H2 exact Claude counts', () => {
  it('H2/B3: with an API key, inspect asks messages.countTokens through the real SDK and reports exact counts', async () => {
    const { startWireServer } = await import('../providers/helpers.js');
    const server = await startWireServer();
    // A stand-in counting API: 1 token per 3 characters of the request body.
    const count = (r: { body: unknown }) => ({ input_tokens: Math.ceil(JSON.stringify(r.body).length / 3) });
    server.script('/v1/messages/count_tokens', ...Array.from({ length: 10 }, () => count));
    try {
      const out = await new Promise<string>((resolve, reject) => {
        import('node:child_process').then(({ execFile }) =>
          execFile(
            process.execPath,
            cliArgs('inspect', '--catalog', SAMPLE, '--json'),
            { env: cliEnv({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url }) },
            (error, stdout) => (error ? reject(error) : resolve(stdout)),
          ),
        );
      });
      const report = JSON.parse(out);
      expect(report.anthropic.eagerTokens).toBeGreaterThan(report.anthropic.deferredTokens);
      expect(report.anthropic.savings).toBeGreaterThan(0.5);
      expect(server.to('/v1/messages/count_tokens').length).toBeGreaterThanOrEqual(3);
    } finally {
      await server.close();
    }
  });
});
