import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import {
  claudeVersion,
  DEFAULT_MODEL_SUPPORT_RULES,
  DEFAULT_UNSUPPORTED_MODEL_PATTERNS,
  gptVersion,
  ModelSupport,
} from '../../src/core/model-support.js';
import { plan } from '../../src/core/plan.js';
import { searchInstructions } from '../../src/core/search-instructions.js';

describe('B4 one model-support table for both providers', () => {
  it('B4: Anthropic tool_reference — haiku and Claude 3 excluded, unknown models assumed supported', () => {
    const support = new ModelSupport();
    expect(DEFAULT_UNSUPPORTED_MODEL_PATTERNS).toEqual(['haiku', 'claude-3']);
    for (const m of ['claude-haiku-4-5', 'claude-3-7-sonnet-20250219', 'claude-3-5-haiku-latest'])
      expect(support.supports(m)).toBe(false);
    for (const m of ['claude-sonnet-4-5', 'claude-opus-4-6', 'claude-sonnet-5', 'some-new-model'])
      expect(support.supports(m)).toBe(true);
  });

  it('F9: Anthropic tool changes by value — Opus 4.8 and later Claude, not Sonnet 5, first-party API only', () => {
    const support = new ModelSupport();
    const ok = (m: string, platform = 'anthropic') => support.supports(m, 'anthropic-tool-changes', platform);
    for (const m of [
      'claude-opus-4-8',
      'claude-opus-5',
      'claude-opus-5-5',
      'claude-sonnet-5-5',
      'claude-sonnet-5-5-20260929',
      'claude-haiku-5-5',
      'claude-fable-5-1',
      'claude-mythos-5',
      'some-new-model',
    ])
      expect(ok(m), m).toBe(true);
    for (const m of [
      'claude-sonnet-5',
      'claude-sonnet-5-20260601',
      'claude-opus-4-7',
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
      'claude-3-7-sonnet-20250219',
    ])
      expect(ok(m), m).toBe(false);
    for (const platform of ['bedrock', 'vertex', 'foundry', 'proxy'])
      expect(ok('claude-opus-5-5', platform)).toBe(false);
    expect(support.decide('claude-sonnet-5', 'anthropic-tool-changes', 'anthropic').rule?.source).toContain(
      'not available on Claude Sonnet 5',
    );
    expect(claudeVersion('anthropic.claude-opus-4-8-20260101-v1:0')).toEqual({ family: 'opus', major: 4, minor: 8 });
    expect(claudeVersion('claude-opus-5@20260301')).toEqual({ family: 'opus', major: 5, minor: 0 });
  });

  it('B4: OpenAI tool_search — only gpt-5.4 and later (docs), older gpt / o-series excluded, unknown names assumed supported', () => {
    const support = new ModelSupport();
    const ok = (m: string) => support.supports(m, 'openai-tool-search');
    for (const m of [
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-2025-08-07',
      'gpt-5.1',
      'gpt-5.3-codex',
      'gpt-4.1',
      'gpt-4o',
      'azure/gpt-4o-mini',
      'o3',
      'o4-mini',
      'o1',
      'chatgpt-4o-latest',
    ]) {
      expect(ok(m), m).toBe(false);
    }
    for (const m of ['gpt-5.4', 'gpt-5.4-mini', 'gpt-5.5', 'gpt-5.10', 'gpt-6', 'openai/gpt-5.4', 'my-local-model'])
      expect(ok(m), m).toBe(true);
    expect(gptVersion('gpt-5.3-codex')).toEqual({ major: 5, minor: 3 });
    expect(gptVersion('qwen3')).toBeUndefined();
  });

  it('B4: every default entry names its source (doc page and date)', () => {
    for (const rule of DEFAULT_MODEL_SUPPORT_RULES)
      expect(rule.source).toMatch(/https:\/\/\S+ \(read \d{4}-\d{2}-\d{2}\)/);
  });

  it('B4: user rules override the defaults; the old negative-list API still works', () => {
    const support = new ModelSupport({
      rules: [{ capability: 'openai-tool-search', match: /^gpt-5$/, supported: true, source: 'my proxy' }],
    });
    expect(support.supports('gpt-5', 'openai-tool-search')).toBe(true);
    expect(support.decide('gpt-5', 'openai-tool-search').rule?.source).toBe('my proxy');
    expect(support.supports('gpt-5-mini', 'openai-tool-search')).toBe(false);
    support.setRules([]);
    expect(support.supports('gpt-5', 'openai-tool-search')).toBe(false);

    const legacy = new ModelSupport(['sonnet']);
    expect(legacy.supports('claude-sonnet-4-5')).toBe(false);
    expect(legacy.supports('claude-haiku-4-5')).toBe(true);
    legacy.setUnsupportedPatterns(['opus']);
    expect(legacy.unsupportedPatterns).toEqual(['opus']);
    // The OpenAI entries are not part of the Anthropic negative list.
    expect(legacy.supports('gpt-5', 'openai-tool-search')).toBe(false);
  });
});

describe('B4/B5 fallback to client-side expansion', () => {
  const tools = () => {
    const catalog = new Catalog([{ name: 'read_file' }]);
    catalog.setServerTools('github', [{ name: 'create_issue' }]);
    return catalog.tools;
  };
  it('B4: an excluded OpenAI model expands client-side when the fallback is client', () => {
    const p = plan({
      tools: tools(),
      model: 'gpt-5',
      expansion: 'native',
      capability: 'openai-tool-search',
      unsupportedModelFallback: 'client',
    });
    expect(p).toMatchObject({ useToolSearch: true, expansion: 'client' });
    expect(p.fallback).toMatch(
      /^model gpt-5 lacks openai-tool-search \(https:\/\/developers\.openai\.com\/api\/docs\/guides\/tools-tool-search .*\): client-side expansion$/,
    );
    expect(
      plan({ tools: tools(), model: 'gpt-5.4', expansion: 'native', capability: 'openai-tool-search' }).expansion,
    ).toBe('native');
  });
  it('B5: a proxy with an implicit mode expands client-side when the fallback is client, natively when vouched for', () => {
    const proxy = { tools: tools(), expansion: 'native' as const, baseUrl: 'http://proxy:4000' };
    expect(plan({ ...proxy, unsupportedModelFallback: 'client' })).toMatchObject({
      useToolSearch: true,
      expansion: 'client',
    });
    expect(plan(proxy).useToolSearch).toBe(false);
    expect(plan({ ...proxy, option: 'always', unsupportedModelFallback: 'client' }).expansion).toBe('native');
  });
  it('E1/F3: the plan carries the instructions of the search tool actually sent', () => {
    const regex = plan({ tools: tools(), expansion: 'native', searchMode: 'regex' });
    expect(regex.instructions?.toolName).toBe('tool_search_tool_regex');
    expect(regex.announcement?.text).toContain('tool_search_tool_regex');
    expect(regex.announcement?.text).not.toContain('select:');
    // Client expansion has no server-side search, so it is told about tool_search.
    const fallback = plan({
      tools: tools(),
      expansion: 'native',
      searchMode: 'bm25',
      model: 'claude-haiku-4-5',
      unsupportedModelFallback: 'client',
    });
    expect(fallback.instructions?.toolName).toBe('tool_search');
    expect(fallback.announcement?.text).toContain('select:');
  });
});

describe('model-facing search text per mode', () => {
  it('one function decides the tool name and query form for client, regex and bm25', () => {
    const client = searchInstructions('client');
    const regex = searchInstructions('regex');
    const bm25 = searchInstructions('bm25');
    expect(client.loadFirst('mcp__slack__send_message')).toBe(
      'Load it first with tool_search({"query": "select:mcp__slack__send_message"}), then call it again.',
    );
    expect(regex.loadFirst('mcp__slack__send_message')).toBe(
      'Load it first with tool_search_tool_regex({"query": "mcp__slack__send_message"}), then call it again.',
    );
    expect(bm25.loadFirst('mcp__slack__send_message')).toBe(
      'Load it first with tool_search_tool_bm25({"query": "mcp slack send message"}), then call it again.',
    );
    expect(regex.listIntro).toMatch(/Python regular expression/);
    expect(bm25.listIntro).toMatch(/natural language/);
    for (const how of [regex, bm25]) {
      expect(how.listIntro + how.groupedIntro(9)).not.toContain('select:');
      expect(how.listIntro).not.toMatch(/\btool_search\b(?!_)/);
    }
  });
});
