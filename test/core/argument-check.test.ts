/**
 * C15: a call's arguments checked against the tool's real input schema before anything goes
 * upstream: one line naming the fields that are missing or wrong and the expected signature; a
 * schema that cannot be checked (broken, too big, an unknown dialect) is skipped and said, never a
 * crash; both draft-07 and 2020-12 schemas; a hostile pattern cannot hang the check.
 */
import { describe, expect, it } from 'vitest';
import { checkArguments, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, uncheckedNote } from '../../src/core/argument-check.js';
import { CREATE_ENTITIES } from '../fixtures/schemas.js';

const getSum = {
  name: 'mcp__everything__get-sum',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};

describe('C15 argument check', () => {
  it('C15: missing and mistyped fields in one line, with the expected signature', () => {
    const check = checkArguments(getSum, { b: '2' });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toBe(
      'Arguments for mcp__everything__get-sum do not match its input schema, so nothing was sent: a is missing; b must be number (got string). Expected: mcp__everything__get-sum(a: number, b: number).',
    );
    expect(checkArguments(getSum, { a: 1, b: 2 })).toEqual({ ok: true });
  });

  it('C15: nested fields are named by their path; unknown fields, enums and unions are explained', () => {
    const nested = checkArguments(CREATE_ENTITIES, { entities: [{ name: 'Bob', kind: 'person' }] });
    expect(!nested.ok && nested.problems).toEqual([
      'entities[0].entityType is missing',
      'entities[0].observations is missing',
      'entities[0].kind is not a field of entities[0]',
    ]);
    expect(!nested.ok && nested.message).toMatch(
      /Expected: mcp__memory__create_entities\(entities: \{name, entityType, observations: string\[\]\}\[\]\)\.$/,
    );
    const shapes = {
      name: 't',
      inputSchema: {
        type: 'object',
        properties: { mode: { enum: ['fast', 'slow'] }, when: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      },
    };
    const wrong = checkArguments(shapes, { mode: 'medium', when: true });
    expect(!wrong.ok && wrong.problems).toEqual([
      'mode must be one of "fast", "slow"',
      'when must be string | number (got boolean)',
    ]);
  });

  it('C15: draft-07 and 2020-12 schemas both check (the catalog strips $schema, so draft-07 forms are recognised)', () => {
    const draft07 = {
      name: 't',
      inputSchema: {
        type: 'object',
        definitions: { n: { type: 'number' } },
        properties: { pair: { type: 'array', items: [{ type: 'string' }, { $ref: '#/definitions/n' }] } },
      },
    };
    expect(checkArguments(draft07, { pair: ['a', 1] })).toEqual({ ok: true });
    expect(checkArguments(draft07, { pair: ['a', 'b'] }).ok).toBe(false);
    const modern = {
      name: 't',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { n: { type: 'number' } },
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { $ref: '#/$defs/n' }] } },
      },
    };
    expect(checkArguments(modern, { pair: ['a', 1] })).toEqual({ ok: true });
    expect(checkArguments(modern, { pair: ['a', 'b'] }).ok).toBe(false);
  });

  it('C15: a schema that cannot be checked is skipped with the reason, never a crash', () => {
    const skipped = (inputSchema: unknown) => {
      const check = checkArguments({ name: 't', inputSchema: inputSchema as Record<string, unknown> }, { a: 1 });
      expect(check.ok).toBe(true);
      return check.ok ? check.skipped : undefined;
    };
    expect(skipped({ type: 'object', properties: { a: { type: 'strnig' } } })).toMatch(/does not compile/);
    expect(skipped({ type: 'object', properties: { a: { $ref: '#/$defs/nowhere' } } })).toMatch(/does not compile/);
    expect(skipped({ type: 'object', $schema: 'http://json-schema.org/draft-03/schema#' })).toMatch(/dialect/);
    expect(skipped('not a schema')).toMatch(/not a JSON Schema object/);
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: MAX_SCHEMA_NODES + 1 }, (_, i) => [`p${i}`, {}])),
    };
    expect(skipped(wide)).toMatch(/more than 5000 parts/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i <= MAX_SCHEMA_DEPTH; i++) deep = { type: 'object', properties: { a: deep } };
    expect(skipped(deep)).toMatch(/nests deeper/);
    expect(uncheckedNote({ name: 't' }, 'its input schema does not compile (x)')).toBe(
      '(toolsearch: the arguments of t were not checked before the call: its input schema does not compile (x).)',
    );
  });

  it('G5: a backtracking pattern in a schema is left to the server (never run), so it cannot hang the check', () => {
    const evil = {
      name: 't',
      inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
    };
    // The value does not match the pattern: an answer of ok shows the pattern was never run (it would
    // backtrack for minutes on this input).
    expect(checkArguments(evil, { s: `${'a'.repeat(40)}!` })).toEqual({ ok: true });
  });

  it('C15: compiled validators are cached by schema: a second check of an equal schema reuses it', () => {
    const a = checkArguments(getSum, { a: 1 });
    const b = checkArguments({ ...getSum, inputSchema: JSON.parse(JSON.stringify(getSum.inputSchema)) }, { a: 1 });
    expect(a).toEqual(b);
  });
});
