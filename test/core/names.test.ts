import { describe, expect, it } from 'vitest';
import { isProviderSafeName, NameMap, qualifyMcpName, toProviderSafeName } from '../../src/core/names.js';

describe('A3 names', () => {
  it('A3: MCP tools are qualified mcp__<server>__<tool>', () => {
    expect(qualifyMcpName('github', 'create_issue')).toBe('mcp__github__create_issue');
  });
  it('A3: safe names stay unchanged', () => {
    expect(toProviderSafeName('mcp__github__create_issue')).toBe('mcp__github__create_issue');
  });
  it('A3: dots and long names are mapped to distinct safe names', () => {
    const a = toProviderSafeName('mcp__srv__a.b');
    const b = toProviderSafeName('mcp__srv__a_b');
    expect(isProviderSafeName(a)).toBe(true);
    expect(a).not.toBe(b);
    const long = toProviderSafeName(`mcp__${'x'.repeat(100)}__tool`);
    expect(long.length).toBeLessThanOrEqual(64);
    expect(isProviderSafeName(long)).toBe(true);
  });
  it('A3: the mapping is reversible through NameMap', () => {
    const map = new NameMap();
    const wire = map.add('mcp__@owner/repo__do.it');
    expect(isProviderSafeName(wire)).toBe(true);
    expect(map.fromWire(wire)).toBe('mcp__@owner/repo__do.it');
  });
});
