/**
 * A3/G2/G5 — a server's listing applied to the catalog in two steps (draft, then commit), so the
 * hub can prepare a 20,000-tool listing in slices: what did not change keeps its spec (the pool,
 * its snapshot and every cache keyed by it stay as they were), a changed tool keeps its place, and
 * a draft whose base changed meanwhile is made again from its inputs.
 */
import { describe, expect, it } from 'vitest';
import { Catalog, type CatalogDelta } from '../../src/core/catalog.js';
import { drain, eachStep, runInSlices } from '../../src/util/slices.js';

const tool = (name: string, description = `${name} does things`) => ({
  name,
  description,
  inputSchema: { type: 'object' as const, properties: {} },
});

function catalogWith(names: string[]): { catalog: Catalog; deltas: CatalogDelta[] } {
  const catalog = new Catalog();
  catalog.setServerTools(
    'srv',
    names.map((n) => tool(n)),
  );
  const deltas: CatalogDelta[] = [];
  catalog.onChange((delta) => deltas.push(delta));
  return { catalog, deltas };
}

describe('A3/G5: drafting and committing a server listing', () => {
  it('G5: the same listing again changes nothing: same specs, same snapshot, no event', () => {
    const { catalog, deltas } = catalogWith(['a', 'b', 'c']);
    const [specs, snapshot, version] = [catalog.serverTools('srv'), catalog.tools, catalog.version];
    catalog.setServerTools(
      'srv',
      ['a', 'b', 'c'].map((n) => tool(n)),
    );
    expect(catalog.serverTools('srv')).toEqual(specs);
    for (const [i, spec] of catalog.serverTools('srv').entries()) expect(spec).toBe(specs[i]);
    expect(catalog.tools).toBe(snapshot);
    expect(catalog.version).toBe(version);
    expect(deltas).toEqual([]);
  });

  it('A3: a changed tool is reported as changed and keeps its place; the others keep their specs', () => {
    const { catalog, deltas } = catalogWith(['a', 'b', 'c']);
    const [a, , c] = catalog.serverTools('srv');
    catalog.setServerTools('srv', [tool('a'), tool('b', 'b does other things now'), tool('c')]);
    expect(catalog.serverTools('srv').map((t) => t.name)).toEqual(['mcp__srv__a', 'mcp__srv__b', 'mcp__srv__c']);
    expect(catalog.tools.map((t) => t.name)).toEqual(['mcp__srv__a', 'mcp__srv__b', 'mcp__srv__c']);
    expect(catalog.get('mcp__srv__b')?.description).toBe('b does other things now');
    expect(catalog.get('mcp__srv__a')).toBe(a);
    expect(catalog.get('mcp__srv__c')).toBe(c);
    expect(deltas).toEqual([{ added: [], removed: [], changed: ['mcp__srv__b'] }]);
  });

  it('A3: added and removed tools are reported', () => {
    const { catalog, deltas } = catalogWith(['a', 'b']);
    catalog.setServerTools('srv', [tool('b'), tool('d')]);
    expect(catalog.serverTools('srv').map((t) => t.name)).toEqual(['mcp__srv__b', 'mcp__srv__d']);
    expect(deltas).toEqual([{ added: ['mcp__srv__d'], removed: ['mcp__srv__a'] }]);
  });

  it('G5: the very inputs a spec was made from are that spec again, whatever else changed', () => {
    const catalog = new Catalog();
    const inputs = [tool('a'), tool('b')];
    catalog.setServerTools('srv', inputs);
    const specs = catalog.serverTools('srv');
    const draft = catalog.draftServerTools('srv');
    drain(eachStep(inputs, (input) => draft.add(input)));
    expect(draft.specs[0]).toBe(specs[0]);
    expect(draft.specs[1]).toBe(specs[1]);
  });

  it('G5: a draft prepared in slices while the pool serves the old tools; one whose base changed meanwhile is made again', async () => {
    const { catalog } = catalogWith(['a', 'b']);
    const draft = catalog.draftServerTools('srv');
    await runInSlices(
      eachStep([tool('a'), tool('b'), tool('e')], (input) => draft.add(input)),
      1,
    );
    // Meanwhile the server failed: its tools left the pool.
    catalog.markFailed('srv', 'it crashed');
    expect(catalog.serverTools('srv')).toEqual([]);
    const delta = catalog.commitServerTools(draft);
    expect(delta.added).toEqual(['mcp__srv__a', 'mcp__srv__b', 'mcp__srv__e']);
    expect(catalog.serverTools('srv').map((t) => t.name)).toEqual(['mcp__srv__a', 'mcp__srv__b', 'mcp__srv__e']);
    expect(catalog.failedServers).toEqual([]);
  });

  it('A3: a name another server took meanwhile is refused at commit, as setServerTools refuses it', () => {
    const { catalog } = catalogWith(['a']);
    const draft = catalog.draftServerTools('srv');
    draft.add(tool('x__y'));
    // Server "srv__x" lists "y": the same model-facing name, mcp__srv__x__y.
    catalog.setServerTools('srv__x', [tool('y')]);
    expect(() => catalog.commitServerTools(draft)).toThrow(/mcp__srv__x__y/);
    expect(catalog.serverTools('srv').map((t) => t.name)).toEqual(['mcp__srv__a']);
  });
});

describe('A3: a draft that lists a tool twice', () => {
  it('A3: is refused as setServerTools refuses it, even when it reuses the pool specs', () => {
    const catalog = new Catalog();
    const inputs = [tool('a'), tool('b')];
    catalog.setServerTools('srv', inputs);
    const draft = catalog.draftServerTools('srv');
    draft.add(inputs[0]!);
    draft.add(inputs[0]!);
    expect(() => catalog.commitServerTools(draft)).toThrow(/mcp__srv__a/);
    expect(catalog.serverTools('srv').map((t) => t.name)).toEqual(['mcp__srv__a', 'mcp__srv__b']);
  });
});

describe('G5: work in slices', () => {
  it('G5: a long run of steps lets the event loop in between its slices, and ends with its value', async () => {
    const order: string[] = [];
    function* steps() {
      for (let i = 0; i < 3; i++) {
        const until = performance.now() + 3;
        while (performance.now() < until);
        order.push(`step ${i}`);
        yield;
      }
      return 'done';
    }
    setImmediate(() => order.push('other work'));
    const result = await runInSlices(steps(), 1);
    expect(result).toBe('done');
    // Each step outlasts the 1 ms slice: other work ran after the first one, before the run ended.
    expect(order.indexOf('other work')).toBeGreaterThan(0);
    expect(order.indexOf('other work')).toBeLessThan(order.length - 1);
  });
});
