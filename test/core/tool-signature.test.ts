/** G11: TypeScript-style signatures from input schemas, and the compact / describe hits a script's search() returns. */
import { describe, expect, it } from 'vitest';
import { codeModeHit, scriptMaxResults } from '../../src/core/code-mode-hit.js';
import { toolPurpose as purposeOf } from '../../src/core/compact-tool.js';
import { schemaType, toolSignature } from '../../src/core/tool-signature.js';
import type { ToolSpec } from '../../src/core/tool.js';

const tool: ToolSpec = {
  name: 'mcp__fs__edit_file',
  description: 'Edit a text file by replacing lines. Returns a git-style diff.\nMore details here.',
  origin: { kind: 'mcp', server: 'fs' },
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The file to edit' },
      edits: {
        type: 'array',
        items: {
          type: 'object',
          properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
          required: ['oldText'],
        },
      },
      mode: { enum: ['dry', 'apply'] },
      'max-lines': { type: ['integer', 'null'] },
      meta: { type: 'object', additionalProperties: { type: 'number' } },
      target: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    },
    required: ['path', 'edits'],
  },
};

describe('G11 tool signatures', () => {
  it('G11: required and optional arguments, arrays, enums, unions, records, quoted keys', () => {
    expect(toolSignature(tool)).toBe(
      'mcp__fs__edit_file(args: { path: string; edits: { oldText: string; newText?: string }[]; mode?: "dry" | "apply"; "max-lines"?: number | null; meta?: Record<string, number>; target?: string | string[] })',
    );
  });

  it('G11: nesting past the depth becomes object; no schema is unknown', () => {
    const deep = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } },
      },
    };
    expect(schemaType(deep, 1)).toBe('{ a?: { b?: object } }');
    expect(schemaType(undefined)).toBe('unknown');
    expect(schemaType({ type: 'array', items: { enum: [1, 2] } })).toBe('(1 | 2)[]');
  });

  it('G11: a compact hit has name, purpose and signature; the describe form adds the description and argument texts', () => {
    expect(codeModeHit(tool)).toEqual({
      name: 'mcp__fs__edit_file',
      purpose: 'Edit a text file by replacing lines.',
      signature: toolSignature(tool),
    });
    expect(codeModeHit(tool, 'describe')).toMatchObject({
      description: tool.description,
      arguments: { path: 'The file to edit' },
    });
    expect(purposeOf('x'.repeat(300))).toHaveLength(120);
  });

  it('G11: a script asks for 5 hits by default and 20 at most', () => {
    expect([scriptMaxResults(undefined), scriptMaxResults(0), scriptMaxResults(3.7), scriptMaxResults(500)]).toEqual([
      5, 1, 3, 20,
    ]);
  });
});
