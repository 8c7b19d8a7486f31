// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test
import { describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { describeChanges } from '../../src/mcp/config-reloader.js';
import { diffServers } from '../../src/mcp/reload-plan.js';

const written = {
  mcpServers: {
    a: { command: 'node', args: ['a.js'], env: { TOKEN: '${TOKEN}' } },
    b: { url: 'http://127.0.0.1:9/mcp', headers: { x: '1', y: '2' } },
  },
};

describe('G7 what a reload changes', () => {
  it('G7: entries are compared after expansion: a rotated secret restarts its server, key order does not', () => {
    const before = parseHubConfig(written, 'f', { TOKEN: 'one' });
    const rotated = parseHubConfig(written, 'f', { TOKEN: 'two' });
    expect(diffServers(before.servers, rotated.servers)).toEqual({
      added: [],
      removed: [],
      changed: ['a'],
      unchanged: ['b'],
    });
    const reordered = parseHubConfig(
      { mcpServers: { b: { headers: { y: '2', x: '1' }, url: 'http://127.0.0.1:9/mcp' }, a: written.mcpServers.a } },
      'f',
      { TOKEN: 'one' },
    );
    expect(diffServers(before.servers, reordered.servers).changed).toEqual([]);
  });

  it('G7: added, removed, and a one-line description of them', () => {
    const before = parseHubConfig(written, 'f', { TOKEN: 'x' });
    const after = parseHubConfig({ mcpServers: { a: written.mcpServers.a, c: { command: 'c' } } }, 'f', { TOKEN: 'x' });
    const changes = diffServers(before.servers, after.servers);
    expect(changes).toEqual({ added: ['c'], removed: ['b'], changed: [], unchanged: ['a'] });
    expect(describeChanges(changes)).toBe('added c; removed b; 1 kept running');
    expect(describeChanges(diffServers(before.servers, before.servers))).toBe('no server changed (2 kept running)');
  });
});
