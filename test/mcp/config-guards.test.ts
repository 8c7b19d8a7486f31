import { describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';

describe('G5 config guards', () => {
  it('G5: a server named __proto__ (or constructor, prototype) is a config error, not dropped silently', () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const raw = JSON.parse(`{"mcpServers": {"${name}": {"command": "node"}}}`);
      expect(() => parseHubConfig(raw, 'mcp.json')).toThrow(new RegExp(`mcpServers\\.${name}.*reserved name`));
    }
  });

  it('G5: a NUL byte in a value is a config error naming the key, never the value', () => {
    const raw = { mcpServers: { gh: { command: 'node', env: { TOKEN: 'ghp_secret\u0000tail' } } } };
    let message = '';
    try {
      parseHubConfig(raw, 'mcp.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/mcpServers\.gh\.env\.TOKEN.*NUL byte \(value not shown\)/);
    expect(message).not.toContain('ghp_secret');
  });
});

describe('G5 a missing cwd', () => {
  it('G5: a stdio server whose cwd does not exist fails naming the directory, not "command not found: node"', async () => {
    const { McpHub } = await import('../../src/mcp/hub.js');
    const hub = new McpHub(
      parseHubConfig(
        { mcpServers: { lost: { command: process.execPath, args: ['-e', '0'], cwd: '/nonexistent/dir-of-lost' } } },
        'mcp.json',
      ),
      { reconnect: false },
    );
    hub.start();
    await hub.settled();
    const status = hub.status().find((s) => s.server === 'lost')!;
    await hub.close();
    expect(status.state).toBe('failed');
    expect(status.lastError).toMatch(/working directory not found: \/nonexistent\/dir-of-lost/);
    expect(status.lastError).not.toMatch(/command not found/);
  });
});
