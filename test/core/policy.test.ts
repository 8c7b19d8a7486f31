import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeferredTokenMemo, estimateToolTokens, thresholdTokens, withoutPreamble } from '../../src/core/threshold.js';
import { InvalidModeError } from '../../src/core/errors.js';
import { definitiveGate, isFirstPartyBaseUrl, optimisticGate } from '../../src/core/gates.js';
import { resolveMode } from '../../src/core/mode.js';
import { ModelSupport } from '../../src/core/model-support.js';
import { isDeferred } from '../../src/core/policy.js';
import { SEARCH_TOOL_NAME } from '../../src/core/search-tool.js';
import { defineTool, type ToolSpec } from '../../src/core/tool.js';

const mcp = (name: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({
  ...defineTool({ name, origin: { kind: 'mcp', server: 's' } }),
  ...extra,
});
const local = (name: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({ ...defineTool({ name }), ...extra });

describe('A2 deferral priority chain', () => {
  it('A2: alwaysLoad beats MCP deferral', () => {
    expect(isDeferred(mcp('mcp__s__q', { alwaysLoad: true }))).toBe(false);
  });
  it('A2: never-defer list (by name or by mcp__server group) beats MCP deferral', () => {
    expect(isDeferred(mcp('mcp__s__q'), { neverDefer: new Set(['mcp__s__q']) })).toBe(false);
    expect(isDeferred(mcp('mcp__s__q'), { neverDefer: new Set(['mcp__s']) })).toBe(false);
  });
  it('A2: MCP tools are deferred by default, even one named like the search tool', () => {
    expect(isDeferred(mcp('mcp__s__q'))).toBe(true);
    expect(isDeferred(mcp(SEARCH_TOOL_NAME))).toBe(true);
  });
  it('A2: the search tool and critical tools are never deferred, even when marked', () => {
    expect(isDeferred(local(SEARCH_TOOL_NAME, { defer: true }))).toBe(false);
    expect(isDeferred(local('agent', { defer: true, critical: true }))).toBe(false);
    expect(isDeferred(local('brief', { defer: true }), { critical: new Set(['brief']) })).toBe(false);
  });
  it('A2: other local tools are deferred only if marked', () => {
    expect(isDeferred(local('read'))).toBe(false);
    expect(isDeferred(local('notebook', { defer: true }))).toBe(true);
  });
  it('A4: a tool whose backend is initializing is deferred until ready, then returns to its class', () => {
    const t = mcp('mcp__s__q', { alwaysLoad: true });
    expect(isDeferred(t, { initializingServers: new Set(['s']) })).toBe(true);
    expect(isDeferred(t, { initializingServers: new Set() })).toBe(false);
  });
});

describe('B1/B2 modes', () => {
  it('B1: default is always; env and options parse', () => {
    expect(resolveMode()).toMatchObject({ mode: 'always', explicit: false, source: 'default' });
    expect(resolveMode({ env: { ENABLE_TOOL_SEARCH: 'true' } })).toMatchObject({ mode: 'always', explicit: true });
    expect(resolveMode({ env: { ENABLE_TOOL_SEARCH: 'auto' } })).toMatchObject({ mode: 'auto', autoPercent: 10 });
    expect(resolveMode({ env: { ENABLE_TOOL_SEARCH: 'auto:25' } })).toMatchObject({ mode: 'auto', autoPercent: 25 });
    expect(resolveMode({ env: { ENABLE_TOOL_SEARCH: 'auto:0' } }).mode).toBe('always');
    expect(resolveMode({ env: { ENABLE_TOOL_SEARCH: 'auto:100' } }).mode).toBe('never');
    expect(resolveMode({ env: { ENABLE_TOOL_SEARCH: 'false' } }).mode).toBe('never');
    expect(resolveMode({ env: { ENABLE_TOOL_SEARCH: '' } }).source).toBe('default');
    expect(resolveMode({ option: 'never', env: { ENABLE_TOOL_SEARCH: 'true' } })).toMatchObject({
      mode: 'never',
      source: 'option',
    });
  });
  it('B1: a bad value is a clear error', () => {
    expect(() => resolveMode({ env: { ENABLE_TOOL_SEARCH: 'auto:101' } })).toThrow(InvalidModeError);
    expect(() => resolveMode({ option: 'sometimes' })).toThrow(/auto:N/);
  });
  it('B2: the kill switch forces never over everything', () => {
    expect(resolveMode({ killSwitch: true, option: 'always' })).toMatchObject({ mode: 'never', source: 'kill-switch' });
    expect(resolveMode({ env: { DISABLE_EXPERIMENTAL_BETAS: '1', ENABLE_TOOL_SEARCH: 'true' } }).mode).toBe('never');
    expect(resolveMode({ env: { TOOLSEARCH_DISABLE: 'false' } }).mode).toBe('always');
  });
});

describe('B3 threshold', () => {
  it('B3: threshold = floor(contextWindow × N / 100)', () => {
    expect(thresholdTokens(200_000, 10)).toBe(20_000);
    expect(thresholdTokens(128_001, 3)).toBe(3840);
  });
  it('B3: counter result minus the 500-token preamble, floored at 0; estimate is chars / 2.5', async () => {
    expect(withoutPreamble(1200)).toBe(700);
    expect(withoutPreamble(300)).toBe(0);
    const t = local('abcde', { description: 'x'.repeat(20) });
    const chars = 5 + 20 + JSON.stringify(t.inputSchema).length;
    expect(estimateToolTokens([t]).tokens).toBe(Math.ceil(chars / 2.5));
  });
  it('B3: memoized by the sorted deferred-name key; recomputed when the pool changes; failures fall back', async () => {
    let calls = 0;
    const memo = new DeferredTokenMemo(async (tools) => {
      calls++;
      return 1000 + tools.length;
    });
    const a = local('a');
    const b = local('b');
    expect(await memo.measure([a, b])).toEqual({ tokens: 502, source: 'counter' });
    await memo.measure([b, a]);
    expect(calls).toBe(1);
    await memo.measure([a]);
    expect(calls).toBe(2);
    const failing = new DeferredTokenMemo(async () => {
      throw new Error('offline');
    });
    expect((await failing.measure([a])).source).toBe('estimate');
  });
});

describe('B4 model support', () => {
  it('B4: negative list (haiku by default), unknown models supported, updatable at run time', () => {
    const support = new ModelSupport();
    expect(support.supports('claude-haiku-4-5')).toBe(false);
    expect(support.supports('claude-sonnet-4-5')).toBe(true);
    expect(support.supports('some-new-model')).toBe(true);
    support.setUnsupportedPatterns(['sonnet']);
    expect(support.supports('claude-sonnet-4-5')).toBe(false);
    expect(support.supports('claude-haiku-4-5')).toBe(true);
  });
});

describe('B5/B6 gates', () => {
  const always = resolveMode();
  it('B5: a non-first-party base URL disables deferral unless the mode was set explicitly', () => {
    expect(isFirstPartyBaseUrl('https://api.anthropic.com')).toBe(true);
    expect(isFirstPartyBaseUrl('http://localhost:4000')).toBe(false);
    expect(optimisticGate({ mode: always, proxyBaseUrl: 'http://litellm:4000' }).enabled).toBe(false);
    expect(
      optimisticGate({
        mode: resolveMode({ env: { ENABLE_TOOL_SEARCH: 'true' } }),
        proxyBaseUrl: 'http://litellm:4000',
      }).enabled,
    ).toBe(true);
  });
  it('B6: no deferred tools and no pending servers → no search tool; pending servers → keep it', () => {
    const optimistic = optimisticGate({ mode: always });
    const base = { optimistic, modelSupported: true, searchToolAllowed: true, mode: always, deferredCount: 0 };
    expect(definitiveGate({ ...base, pendingServers: [] }).enabled).toBe(false);
    expect(definitiveGate({ ...base, pendingServers: ['github'] }).enabled).toBe(true);
  });
  it('B6/B7: unsupported model, disallowed search tool and below-threshold all load everything', () => {
    const auto = resolveMode({ option: 'auto' });
    const optimistic = optimisticGate({ mode: auto });
    const base = {
      optimistic,
      modelSupported: true,
      searchToolAllowed: true,
      mode: auto,
      deferredCount: 3,
      pendingServers: [],
    };
    expect(definitiveGate({ ...base, modelSupported: false }).enabled).toBe(false);
    expect(definitiveGate({ ...base, searchToolAllowed: false }).enabled).toBe(false);
    const measure = { tokens: 100, source: 'estimate' as const };
    expect(definitiveGate({ ...base, threshold: { limit: 20_000, measure } })).toMatchObject({ enabled: false });
    expect(definitiveGate({ ...base, threshold: { limit: 50, measure } }).enabled).toBe(true);
  });
  it('B1: property — auto:N resolves to always, auto or never by N', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), (n) => {
        const m = resolveMode({ option: `auto:${n}` });
        expect(m.mode).toBe(n === 0 ? 'always' : n === 100 ? 'never' : 'auto');
      }),
    );
  });
});
