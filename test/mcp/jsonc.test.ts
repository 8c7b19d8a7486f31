/**
 * G13: the JSON-with-comments reader that `import` reads client configs with, and the edits that
 * change one part of a file and leave every other byte as it was.
 */
import { describe, expect, it } from 'vitest';
import { deleteMember, indentUnit, setAt } from '../../src/mcp/movein/json-edit.js';
import { JsoncError, nodeAt, parseJsonc } from '../../src/mcp/movein/jsonc.js';

describe('G13 parseJsonc', () => {
  it('G13: reads what JSON.parse reads, the same way', () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {"c": {}}, "a2": []}';
    expect(parseJsonc(text).value).toEqual(JSON.parse(text));
  });

  it('G13: takes comments and trailing commas, as VS Code and Cursor do', () => {
    const text = '// top\n{\n  /* block */ "servers": { "a": { "command": "x", }, }, // after\n}\n';
    expect(parseJsonc(text).value).toEqual({ servers: { a: { command: 'x' } } });
  });

  it('G13: refuses comments and trailing commas when asked for plain JSON (the servers file)', () => {
    expect(() => parseJsonc('{"a": 1,}', { comments: false })).toThrow(/trailing comma/);
    expect(() => parseJsonc('{"a": 1 // x\n}', { comments: false })).toThrow(JsoncError);
  });

  it('G13: says where the text stops being JSON', () => {
    try {
      parseJsonc('{\n  "a": 1\n  "b": 2\n}');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsoncError);
      expect((error as JsoncError).message).toBe('line 3, column 3: expected "}"');
    }
    expect(() => parseJsonc('{"a": "never ends')).toThrow(/line 1, column 7: a string that never ends/);
    expect(() => parseJsonc('{"a": 1} trailing')).toThrow(/end of the file/);
    expect(() => parseJsonc('/* open')).toThrow(/never ends/);
    expect(() => parseJsonc('')).toThrow(/ends before a value/);
  });

  it('G13: refuses nesting past the bound instead of running out of stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => parseJsonc(deep)).toThrow(/nested deeper than 128 levels/);
    expect(() => parseJsonc('[[[1]]]', { maxDepth: 2 })).toThrow(/nested deeper than 2 levels/);
  });

  it('G13: a byte-order mark is skipped; duplicate keys keep the last; "__proto__" is an own key', () => {
    expect(parseJsonc('\ufeff{"a": 1}').value).toEqual({ a: 1 });
    expect(parseJsonc('{"a": 1, "a": 2}').value).toEqual({ a: 2 });
    const value = parseJsonc('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('G13: knows where each value sits', () => {
    const text = '{"a": {"b": [1, 2]}, "c": "d"}';
    const node = nodeAt(parseJsonc(text).root, ['a', 'b'])!;
    expect(text.slice(node.start, node.end)).toBe('[1, 2]');
    expect(nodeAt(parseJsonc(text).root, ['a', 'missing'])).toBeUndefined();
  });
});

describe('G13 editing one part of a file', () => {
  const file = [
    '{',
    '  // keep me',
    '  "mcpServers": {',
    '    "a": { "command": "x" },',
    '    "b": { "command": "y" }',
    '  },',
    '  "preferences": { "menuBarEnabled": true } /* and me */',
    '}',
    '',
  ].join('\n');

  it('G13: replaces a value, indented like the file, everything else byte for byte', () => {
    const out = setAt(file, ['mcpServers'], { t: { command: 'node' } });
    expect(out).toBe(
      [
        '{',
        '  // keep me',
        '  "mcpServers": {',
        '    "t": {',
        '      "command": "node"',
        '    }',
        '  },',
        '  "preferences": { "menuBarEnabled": true } /* and me */',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('G13: adds a member after the last one, laid out like its neighbours; creates a missing key', () => {
    const out = setAt(file, ['mcpServers', 'c'], { url: 'https://h/mcp' });
    expect(out).toContain('"b": { "command": "y" },\n    "c": {\n      "url": "https://h/mcp"\n    }\n  },');
    expect(parseJsonc(out).value).toMatchObject({ mcpServers: { a: {}, b: {}, c: { url: 'https://h/mcp' } } });
    const created = setAt('{\n\t"x": 1\n}\n', ['mcpServers'], {});
    expect(created).toBe('{\n\t"x": 1,\n\t"mcpServers": {}\n}\n');
    expect(setAt('{}', ['mcpServers'], { a: 1 })).toBe('{\n  "mcpServers": {\n    "a": 1\n  }\n}');
    expect(setAt('{ "x": 1 }', ['y'], 2)).toBe('{ "x": 1, "y": 2 }');
  });

  it('G13: takes a member out with its comma, wherever it is; every copy of a repeated key', () => {
    const first = deleteMember(file, ['mcpServers'], 'a');
    expect(parseJsonc(first).value).toMatchObject({ mcpServers: { b: { command: 'y' } } });
    expect(first).toContain('"mcpServers": {\n    "b"');
    const last = deleteMember(file, ['mcpServers'], 'b');
    expect(last).toContain('"a": { "command": "x" }\n  },');
    const both = deleteMember(last, ['mcpServers'], 'a');
    expect(both).toContain('"mcpServers": {},');
    expect(deleteMember(file, ['mcpServers'], 'missing')).toBe(file);
    const repeated = '{"s": {"a": 1, "b": 2, "a": 3}}';
    expect(parseJsonc(deleteMember(repeated, ['s'], 'a')).value).toEqual({ s: { b: 2 } });
  });

  it('G13: the indent unit comes from the file (tabs, four spaces), two spaces by default', () => {
    expect(indentUnit('{\n\t"a": 1\n}')).toBe('\t');
    expect(indentUnit('{\n    "a": 1\n}')).toBe('    ');
    expect(indentUnit('{"a": 1}')).toBe('  ');
  });
});
