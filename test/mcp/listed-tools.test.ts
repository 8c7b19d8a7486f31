/**
 * G5 — a tools/list walk validated tool by tool, against the previous listing: a tool listed
 * exactly as before (compared as JSON, allocation-free) is that listing's object again; a changed
 * or new one is validated; a malformed one is reported and left out.
 */
import { describe, expect, it } from 'vitest';
import type { UpstreamTool } from '../../src/mcp/connection.js';
import { ListedTools } from '../../src/mcp/listed-tools.js';
import { sameJson } from '../../src/util/same-json.js';

const raw = (name: string, description = 'Does a thing.') => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
});

describe('G5: listings compared with the one before', () => {
  it('G5: JSON values compare equal whatever the key order, and differ on any value, key or length', () => {
    expect(sameJson(raw('a'), { inputSchema: raw('a').inputSchema, description: 'Does a thing.', name: 'a' })).toBe(
      true,
    );
    expect(sameJson(raw('a'), raw('a', 'Does another thing.'))).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([1, { x: [null] }], [1, { x: [null] }])).toBe(true);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });

  it('G5: an unchanged tool is the previous object again; a changed one is new; a bad one is reported', async () => {
    const listed = new ListedTools();
    const invalid: string[] = [];
    const onInvalid = (name: string) => void invalid.push(name);
    const first = await listed.validate([raw('a'), raw('b')], onInvalid, 10);
    const second = await listed.validate(
      [raw('a'), raw('b', 'Now does another thing.'), { name: 'bad', inputSchema: 'not a schema' }],
      onInvalid,
      10,
    );
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect((second[1] as UpstreamTool).description).toBe('Now does another thing.');
    expect(second).toHaveLength(2);
    expect(invalid).toEqual(['bad']);
  });
});
