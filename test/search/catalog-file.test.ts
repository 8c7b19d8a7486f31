import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogFileError, loadCatalogFile, loadQueriesFile } from '../../src/cli/catalog-file.js';

const dir = mkdtempSync(join(tmpdir(), 'catalog-file-'));
function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
const schema = { type: 'object', properties: {} };

describe('loadCatalogFile', () => {
  it('reads MCP and local tools, all deferred, keeping ids', () => {
    const path = file('a.jsonl', [
      JSON.stringify({
        id: 'gh/create_issue',
        server: 'gh',
        name: 'create_issue',
        description: 'Create',
        inputSchema: schema,
      }),
      JSON.stringify({
        id: 'math.factorial',
        server: null,
        name: 'math.factorial',
        description: 'n!',
        inputSchema: schema,
      }),
    ]);
    const catalog = loadCatalogFile(path, { warn: null });
    expect(catalog.getById('gh/create_issue')?.name).toBe('mcp__gh__create_issue');
    expect(catalog.getById('gh/create_issue')?.origin).toEqual({ kind: 'mcp', server: 'gh' });
    const local = catalog.getById('math.factorial');
    expect(local?.defer).toBe(true);
    expect(local?.origin).toEqual({ kind: 'local' });
    expect(local?.name).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('keeps duplicate (server, name) pairs under a suffixed name and reports the count', () => {
    const path = file('dup.jsonl', [
      JSON.stringify({ id: 's/send', server: 's', name: 'send', description: 'one', inputSchema: schema }),
      JSON.stringify({ id: 's/send#2', server: 's', name: 'send', description: 'two', inputSchema: schema }),
      JSON.stringify({ id: 'f', server: null, name: 'f', description: 'x', inputSchema: schema }),
      JSON.stringify({ id: 'f#2', server: null, name: 'f', description: 'y', inputSchema: schema }),
    ]);
    const messages: string[] = [];
    const catalog = loadCatalogFile(path, { warn: (m) => messages.push(m) });
    expect(catalog.size).toBe(4);
    expect(catalog.getById('s/send#2')?.name).toBe('mcp__s__send_2');
    expect(catalog.getById('f#2')?.name).toBe('f_2');
    expect(catalog.getById('f#2')?.originalName).toBe('f');
    expect(messages.join()).toContain('2 duplicate');
  });

  it('names file and line of a malformed line', () => {
    const path = file('bad.jsonl', [
      JSON.stringify({ id: 'a', server: null, name: 'a', description: '', inputSchema: schema }),
      '{oops',
    ]);
    expect(() => loadCatalogFile(path)).toThrow(CatalogFileError);
    expect(() => loadCatalogFile(path)).toThrow(/bad\.jsonl:2/);
  });

  it('reads queries with optional qid', () => {
    const path = file('q.jsonl', [
      JSON.stringify({ qid: 'q1', query: 'hello', gold: [['a']] }),
      JSON.stringify({ query: 'bye' }),
    ]);
    expect(loadQueriesFile(path)).toEqual([{ qid: 'q1', query: 'hello', gold: [['a']] }, { query: 'bye' }]);
  });
});
