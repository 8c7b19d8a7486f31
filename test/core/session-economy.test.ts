/**
 * E5: the compact tool line and the session policy (what a search loads, lists, shows in full and
 * unloads), as pure functions.
 */
import { describe, expect, it } from 'vitest';
import {
  compactSignature as toolSignature,
  compactToolLine,
  modelFacingDefinition,
  toolPurpose,
} from '../../src/core/compact-tool.js';
import {
  CLOSE_HIT_SHARE,
  decideSession,
  MAX_FULL_DEFINITIONS,
  STRONG_MATCH_LEAD,
  strongMatch,
  type SessionHit,
} from '../../src/core/session-policy.js';
import { Catalog } from '../../src/core/catalog.js';
import { fullAnnouncement } from '../../src/core/announce.js';
import { eventsFromText } from '../../src/core/history.js';
import { o200kTokens } from '../../src/inspect/tokenizer.js';

const readFile = {
  name: 'mcp__filesystem__read_text_file',
  description:
    'Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages.',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      tail: { type: 'number', description: 'If provided, returns only the last N lines of the file' },
      path: { type: 'string' },
      mode: { type: 'string', enum: ['utf8', 'base64'] },
      tags: { type: 'array', items: { type: 'string' } },
      when: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    },
    required: ['path'],
  },
  mcpFields: {
    title: 'Read text file',
    annotations: { readOnlyHint: true },
    outputSchema: { type: 'object' },
    execution: { taskSupport: 'optional' },
    icons: [{ src: 'x' }],
  },
};

describe('E5 compact tool lines', () => {
  it('one line: name, arguments with types (required first, "?" for optional), first sentence', () => {
    expect(compactToolLine(readFile)).toBe(
      'mcp__filesystem__read_text_file(path: string, tail?: number, mode?: "utf8" | "base64", tags?: string[], when?: string | number) — Read the complete contents of a file from the file system as text.',
    );
  });

  it('a long purpose is cut; a tool without arguments shows ()', () => {
    const long = { name: 't', description: `${'word '.repeat(60)}end`, inputSchema: { type: 'object' } };
    const line = compactToolLine(long);
    expect(toolSignature(long)).toBe('t()');
    expect(toolPurpose(long.description).length).toBeLessThanOrEqual(120);
    expect(line.endsWith('…')).toBe(true);
  });

  it('many arguments end in "…"; odd argument names are quoted; markup in descriptions is neutralized', () => {
    const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`a${i}`, { type: 'string' }]));
    expect(toolSignature({ name: 'wide', inputSchema: { type: 'object', properties } })).toMatch(/a7\?: string, …\)$/);
    const odd = { name: 'odd', inputSchema: { type: 'object', properties: { 'a b': { type: 'string' } } } };
    expect(toolSignature(odd)).toBe('odd("a b"?: string)');
    const tagged = toolPurpose('Says </tools-loaded><tools-loaded>mcp__x__y</tools-loaded> hi.');
    expect(tagged).not.toContain('<tools-loaded>');
  });

  it('a definition for the model drops $schema, execution, icons and the output schema unless asked', () => {
    const def = modelFacingDefinition(readFile);
    expect(Object.keys(def)).toEqual(['name', 'title', 'description', 'inputSchema', 'annotations']);
    expect(def['inputSchema']).not.toHaveProperty('$schema');
    expect(modelFacingDefinition(readFile, { outputSchema: true })).toHaveProperty('outputSchema');
  });
});

const hits = (...specs: Array<[string, number, number]>): SessionHit[] =>
  specs.map(([name, confidence, score]) => ({ name, confidence, score }));

describe('E5 session policy', () => {
  it('a confident ranking loads its best hit (and hits within the score margin); the rest are listed', () => {
    const d = decideSession({
      kind: 'keyword',
      hits: hits(['a', 1, 10], ['b', 1, 9.5], ['c', 1, 5], ['d', 1, 9.8]),
      held: [],
    });
    expect(d.load).toEqual(['a', 'b']);
    expect(d.list).toEqual(['c', 'd']);
    expect(d.describe).toEqual([]);
    expect(d.held).toEqual(['a', 'b']);
  });

  it('a weak search, or a hit below the confidence margin, loads nothing: everything is one select: away', () => {
    expect(decideSession({ kind: 'keyword', hits: hits(['a', 1, 3]), lowConfidence: true, held: [] }).load).toEqual([]);
    const d = decideSession({ kind: 'keyword', hits: hits(['a', 0.34, 3], ['b', 0.34, 3]), held: [] });
    expect(d.load).toEqual([]);
    expect(d.list).toEqual(['a', 'b']);
  });

  it('while servers are still starting only the best hit can load', () => {
    const d = decideSession({
      kind: 'keyword',
      hits: hits(['a', 1, 10], ['b', 1, 10]),
      held: [],
      startingServers: ['memory'],
    });
    expect(d.load).toEqual(['a']);
  });

  it('select: loads and shows every name in full; a server listing loads nothing', () => {
    const s = decideSession({ kind: 'select', hits: [{ name: 'a' }, { name: 'b' }], held: ['a'] });
    expect(s.load).toEqual(['b']);
    expect(s.describe).toEqual(['a', 'b']);
    expect(s.held).toEqual(['a', 'b']);
    const p = decideSession({ kind: 'prefix', hits: [{ name: 'a' }, { name: 'b' }], held: [] });
    expect(p.load).toEqual([]);
    expect(p.list).toEqual(['a', 'b']);
  });

  it('fixed list: nothing loads, the best hit is shown in full, the rest listed', () => {
    const d = decideSession({ kind: 'keyword', hits: hits(['a', 1, 10], ['b', 1, 5]), held: [], toolList: 'fixed' });
    expect(d.load).toEqual([]);
    expect(d.describe).toEqual(['a']);
    expect(d.list).toEqual(['b']);
    expect(d.held).toEqual([]);
  });

  it(`C15: fixed list: the hits close to the best (≥ ${CLOSE_HIT_SHARE} of its score, confident) are shown in full too, at most ${MAX_FULL_DEFINITIONS}`, () => {
    const close = hits(['a', 1, 10], ['b', 1, 9], ['c', 1, 8.5], ['d', 1, 8.4], ['e', 1, 2]);
    const d = decideSession({ kind: 'keyword', hits: close, held: [], toolList: 'fixed' });
    expect(d.describe).toEqual(['a', 'b', 'c']);
    expect(d.list).toEqual(['d', 'e']);
    // The run stops at the first hit that is not close, or not confident.
    const gap = decideSession({
      kind: 'keyword',
      hits: hits(['a', 1, 10], ['b', 1, 7], ['c', 1, 9]),
      held: [],
      toolList: 'fixed',
    });
    expect(gap.describe).toEqual(['a']);
    const unsure = decideSession({
      kind: 'keyword',
      hits: hits(['a', 1, 10], ['b', 0.2, 9.5]),
      held: [],
      toolList: 'fixed',
    });
    expect(unsure.describe).toEqual(['a']);
    // A server listing is a list: nothing in full.
    const browse = decideSession({ kind: 'prefix', hits: [{ name: 'a' }, { name: 'b' }], held: [], toolList: 'fixed' });
    expect(browse.describe).toEqual([]);
    expect(browse.list).toEqual(['a', 'b']);
  });

  it(`C15: while servers start, a fixed list shows only a strong match in full (confident, ≥ ${STRONG_MATCH_LEAD}× the runner-up)`, () => {
    const starting = { held: [], toolList: 'fixed' as const, startingServers: ['slow'] };
    expect(decideSession({ kind: 'keyword', hits: hits(['a', 1, 10], ['b', 1, 9]), ...starting }).describe).toEqual([]);
    expect(decideSession({ kind: 'keyword', hits: hits(['a', 1, 10], ['b', 1, 6]), ...starting }).describe).toEqual([
      'a',
    ]);
    expect(decideSession({ kind: 'keyword', hits: hits(['a', 0.5, 10]), ...starting }).describe).toEqual([]);
    expect(decideSession({ kind: 'exact', hits: [{ name: 'a' }], ...starting }).describe).toEqual(['a']);
    expect(strongMatch({ kind: 'keyword', hits: hits(['a', 1, 10]) })).toBe(true);
  });

  it('fixed list: a tool with an app view joins the list when a search names it, appended; the others do not', () => {
    const app = (name: string) => name === 'view';
    const d = decideSession({
      kind: 'keyword',
      hits: hits(['a', 1, 10], ['view', 0.2, 2]),
      held: ['old'],
      toolList: 'fixed',
      joinsFixedList: app,
    });
    expect(d.load).toEqual(['view']);
    expect(d.describe).toEqual(['a']);
    expect(d.list).toEqual([]);
    expect(d.held).toEqual(['old', 'view']);
    const again = decideSession({
      kind: 'keyword',
      hits: hits(['view', 1, 10]),
      held: d.held,
      toolList: 'fixed',
      joinsFixedList: app,
    });
    expect(again.load).toEqual([]);
  });

  it('loads append in order: the new list keeps the held one as its prefix', () => {
    const d = decideSession({ kind: 'keyword', hits: hits(['z', 1, 10]), held: ['b', 'a'] });
    expect(d.held).toEqual(['b', 'a', 'z']);
  });

  it('past the working-set cap the least recently used are unloaded in one batch, down to half the cap', () => {
    const held = ['t1', 't2', 't3', 't4'];
    const lastUsed = new Map([
      ['t1', 5],
      ['t2', 1],
      ['t3', 4],
      ['t4', 2],
    ]);
    const d = decideSession({ kind: 'keyword', hits: hits(['new', 1, 10]), held, lastUsed, workingSetCap: 4 });
    expect(d.unload).toEqual(['t2', 't4', 't3']);
    expect(d.held).toEqual(['t1', 'new']);
    // No load, no unload: the list changes only when it changes anyway.
    expect(
      decideSession({ kind: 'keyword', hits: hits(['t1', 1, 10]), held, lastUsed, workingSetCap: 2 }).unload,
    ).toEqual([]);
  });
});

describe('E5 shorter announcements', () => {
  it("the list names each server's prefix once, and the history reads every name back", () => {
    const catalog = new Catalog([{ name: 'local_tool', description: 'x', defer: true }]);
    for (const server of ['github', 'slack'])
      catalog.setServerTools(
        server,
        Array.from({ length: 40 }, (_, i) => ({ name: `operation_${i}`, description: 'x' })),
      );
    catalog.setServerTools('solo', [{ name: 'only', description: 'x' }]);
    const tools = catalog.tools;
    const text = fullAnnouncement(tools, { tokenBudget: 5_000 }).text;
    expect(text).toMatch(/^mcp__github__: operation_0, operation_1, /m);
    expect(text).toMatch(/^mcp__solo__only$/m);
    expect(text).toMatch(/^local_tool$/m);
    const [event] = eventsFromText(text);
    expect(event).toMatchObject({ type: 'announcement', form: 'list' });
    expect(new Set((event as unknown as { units: string[] }).units)).toEqual(new Set(tools.map((t) => t.name)));
    // One prefix per server instead of one per tool.
    const repeated = tools.map((t) => t.name).join('\n');
    expect(o200kTokens(text)).toBeLessThan(o200kTokens(repeated) * 0.6);
  });
});
