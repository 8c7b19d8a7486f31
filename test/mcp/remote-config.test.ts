/** G7: the remote-server keys of a server entry — `type`, `protocol`, `oauth` — and their errors. */
import { describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { signInCommand } from '../../src/mcp/remote/options.js';
import { transportPlan } from '../../src/mcp/remote/transport.js';

describe('G7: remote server config', () => {
  it('G7: type sse, protocol and oauth are accepted; bad values name the key', () => {
    const config = parseHubConfig({
      mcpServers: {
        old: { type: 'sse', url: 'https://example.com/sse' },
        pinned: {
          url: 'https://example.com/mcp',
          protocol: '2026-07-28',
          oauth: { clientId: 'abc', clientSecretEnv: 'SECRET', scopes: ['read'], resource: false },
        },
        local: { command: 'node', protocol: '2025' },
        none: { url: 'https://example.com/mcp', oauth: false },
      },
    });
    expect(Object.keys(config.servers)).toEqual(['old', 'pinned', 'local', 'none']);
    expect(() =>
      parseHubConfig({ mcpServers: { x: { url: 'https://e.com/mcp', protocol: '2024' } } }, 'f.json'),
    ).toThrow(/f\.json.*mcpServers\.x\.protocol/);
    expect(() =>
      parseHubConfig(
        { mcpServers: { x: { url: 'https://e.com/mcp', oauth: { clientSecretEnv: 'not a name' } } } },
        'f.json',
      ),
    ).toThrow(/mcpServers\.x\.oauth/);
    expect(() =>
      parseHubConfig({ mcpServers: { x: { url: 'https://e.com/mcp', oauth: { token: 'x' } } } }, 'f.json'),
    ).toThrow(/mcpServers\.x\.oauth/);
  });

  it('G7: a URL without a type tries Streamable HTTP then SSE, remembered SSE first; typed URLs and stdio have one transport', () => {
    expect(transportPlan({ url: 'https://e.com/mcp' }, undefined)).toEqual(['http', 'sse']);
    expect(transportPlan({ url: 'https://e.com/mcp' }, 'sse')).toEqual(['sse', 'http']);
    expect(transportPlan({ url: 'https://e.com/mcp', type: 'http' }, 'sse')).toEqual(['http']);
    expect(transportPlan({ url: 'https://e.com/sse', type: 'sse' }, undefined)).toEqual(['sse']);
    expect(transportPlan({ command: 'node' }, undefined)).toEqual(['stdio']);
  });

  it('G7: the sign-in command names the config file (quoted when it needs to be)', () => {
    expect(signInCommand('linear', '/etc/toolsearch/mcp.json')).toBe(
      'toolsearch auth login linear --config /etc/toolsearch/mcp.json',
    );
    expect(signInCommand('linear', "/tmp/my config's.json")).toBe(
      "toolsearch auth login linear --config '/tmp/my config'\\''s.json'",
    );
    expect(signInCommand('linear', '<inline config>')).toBe('toolsearch auth login linear');
  });
});
