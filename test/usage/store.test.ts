import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLearnedForget } from '../../src/cli/commands/learned.js';
import { LearnedFileStore } from '../../src/usage/file-store.js';
import { Learner, learnedSummary } from '../../src/usage/learner.js';
import { defaultLearnedPath } from '../../src/usage/paths.js';
import { resolveLearning } from '../../src/usage/settings.js';
import { UsageSignal } from '../../src/usage/signal.js';
import { LearnedLog } from '../../src/search/learned/log.js';
import { waitFor } from '../fixtures/wait.js';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'ts-learned-')), 'sub', 'learned.json');
}

function warnings(): { warn(message: string): void; messages: string[] } {
  const messages: string[] = [];
  return { warn: (m) => messages.push(m), messages };
}

describe('C13: the learned file store', () => {
  it('C13: saves atomically and loads what it saved (no temporary file left)', () => {
    const path = tempFile();
    const store = new LearnedFileStore(path);
    const log = new LearnedLog();
    log.record({ query: 'rotate the signing keys', tool: 'mcp__vault__rotate', at: 7 });
    store.save(log);
    expect(store.load().toJSON()).toEqual(log.toJSON());
    expect(readdirSync(join(path, '..'))).toEqual(['learned.json']);
  });

  it('C13: a crash mid-write leaves the previous file whole (the half-written temporary file is not read)', () => {
    const path = tempFile();
    const store = new LearnedFileStore(path);
    const log = new LearnedLog();
    log.record({ query: 'rotate the signing keys', tool: 'a', at: 7 });
    store.save(log);
    // What a process killed between write and rename leaves behind.
    writeFileSync(`${path}.999.1.tmp`, '{"version":1,"tools":{"a":{"entries":[["rot');
    const w = warnings();
    expect(new LearnedFileStore(path, w).load().toJSON()).toEqual(log.toJSON());
    expect(w.messages).toEqual([]);
  });

  it('C13: a corrupt file is ignored with one warning and rebuilt at the next save', () => {
    const path = tempFile();
    const store = new LearnedFileStore(path);
    store.save(new LearnedLog());
    writeFileSync(path, '{"version":1,"tools":{"a":{"entries":[["x",');
    const w = warnings();
    const learner = new Learner({ store: new LearnedFileStore(path, w), saveDelayMs: 60_000 });
    expect(w.messages).toHaveLength(1);
    expect(w.messages[0]).toMatch(/ignoring .*learned\.json.*rebuilt/);
    expect(learner.log.entryCount).toBe(0);
    learner.record('rotate the signing keys', 'a');
    learner.flush();
    expect(JSON.parse(readFileSync(path, 'utf8')).tools.a.entries).toHaveLength(1);
    // Wrong shape (valid JSON): the same.
    writeFileSync(path, '[1,2,3]');
    const w2 = warnings();
    expect(new LearnedFileStore(path, w2).load().entryCount).toBe(0);
    expect(w2.messages).toHaveLength(1);
  });

  it('C13: the learner saves once per burst (debounced) and on flush; a missing file is simply empty', () => {
    const path = tempFile();
    const learner = new Learner({ store: new LearnedFileStore(path), saveDelayMs: 60_000 });
    expect(learner.log.entryCount).toBe(0);
    for (let i = 0; i < 100; i++) learner.record(`search number ${i} for invoices`, 'mcp__books__invoices');
    expect(existsSync(path)).toBe(false);
    learner.close();
    const reloaded = new Learner({ store: new LearnedFileStore(path) });
    expect(reloaded.summary()).toEqual([
      expect.objectContaining({ tool: 'mcp__books__invoices', searches: 100, entries: 100 }),
    ]);
    expect(reloaded.forget('mcp__books__invoices')).toBe(1);
    reloaded.close();
    expect(new LearnedFileStore(path).load().entryCount).toBe(0);
  });

  it('C13: `learned forget` while a gateway runs sticks: the gateway takes the new file within its poll and keeps only its own newer recordings', async () => {
    const path = tempFile();
    const gateway = new Learner({ store: new LearnedFileStore(path), saveDelayMs: 60_000, pollMs: 20 });
    gateway.record('rotate the signing keys', 'mcp__vault__rotate', Date.now() - 5_000);
    gateway.record('send the invoice', 'mcp__books__invoice', Date.now() - 5_000);
    await gateway.flush();
    // Recorded before the forget, not yet saved: it must not bring the tool back.
    gateway.record('rotate keys now', 'mcp__vault__rotate', Date.now() - 1_000);
    const lines: string[] = [];
    await runLearnedForget({ file: path, tool: 'mcp__vault__rotate' }, (l) => lines.push(l));
    expect(lines).toEqual(['Forgot what mcp__vault__rotate learned.']);
    await waitFor(() => gateway.summary({ tool: 'mcp__vault__rotate' }).length === 0, 'the gateway to take the forget');
    gateway.record('email the invoice', 'mcp__books__invoice');
    await gateway.close();
    const stored = new LearnedFileStore(path).load();
    expect(stored.evidence('mcp__vault__rotate')).toBeUndefined();
    expect(learnedSummary(stored)).toEqual([expect.objectContaining({ tool: 'mcp__books__invoice', searches: 2 })]);
    // Forget --all the same way; a recording made afterwards counts.
    const again = new Learner({ store: new LearnedFileStore(path), saveDelayMs: 60_000, pollMs: 0 });
    await runLearnedForget({ file: path, all: true }, () => undefined);
    again.record('rotate keys', 'mcp__vault__rotate', Date.now() + 1);
    await again.close();
    expect(learnedSummary(new LearnedFileStore(path).load())).toEqual([
      expect.objectContaining({ tool: 'mcp__vault__rotate', searches: 1 }),
    ]);
  });

  it('C13: a store that fails keeps the changes for the next exchange (nothing recorded is dropped)', async () => {
    const w = warnings();
    let fail = false;
    const seen: number[] = [];
    const store = {
      display: 'flaky',
      sync: (_log: unknown, pending: readonly unknown[]) => {
        if (fail) throw new Error('disk full');
        seen.push(pending.length);
      },
    };
    const learner = new Learner({ store, saveDelayMs: 60_000, pollMs: 0, logger: w });
    fail = true;
    learner.record('rotate the signing keys', 'a');
    await learner.flush();
    expect(w.messages).toEqual(['learned search: not saved to flaky: disk full']);
    fail = false;
    learner.record('send the invoice', 'b');
    await learner.flush();
    expect(seen).toEqual([0, 2]);
  });

  it('C13: default path in the user state directory; config, option and default decide whether to learn', () => {
    expect(defaultLearnedPath({ XDG_STATE_HOME: '/s' })).toBe('/s/toolsearch/learned-search.json');
    expect(defaultLearnedPath({ TOOLSEARCH_STATE_DIR: '/t', XDG_STATE_HOME: '/s' })).toBe('/t/learned-search.json');
    expect(defaultLearnedPath({ HOME: '/h' })).toMatch(/\.local\/state\/toolsearch\/learned-search\.json$/);
    const env = { XDG_STATE_HOME: '/s' };
    expect(resolveLearning(undefined, undefined, false, env)).toBeUndefined();
    expect(resolveLearning(undefined, undefined, true, env)?.path).toBe('/s/toolsearch/learned-search.json');
    expect(resolveLearning(false, undefined, true, env)).toBeUndefined();
    expect(resolveLearning({ enabled: false }, undefined, true, env)).toBeUndefined();
    expect(resolveLearning(true, null, true, env)).toBeUndefined();
    expect(resolveLearning({ path: '/x.json', maxEntries: 10 }, undefined, false, env)).toEqual({
      path: '/x.json',
      limits: { perTool: 200, total: 10, corroboration: 2 },
    });
    expect(resolveLearning(false, { path: '/y.json' }, false, env)?.path).toBe('/y.json');
  });
});

describe('C13: the session signal', () => {
  function signal() {
    const labels: [string, string][] = [];
    let now = 0;
    const s = new UsageSignal((q, t) => labels.push([q, t]), { now: () => now });
    return { s, labels, advance: (ms: number) => (now += ms) };
  }
  const keyword = (matches: string[]) => ({ kind: 'keyword' as const, matches });

  it('C13: a search followed by a call of one of its results records (query, tool), once', () => {
    const { s, labels } = signal();
    s.searched('a', 'file a bug', keyword(['t1', 't2']), 'alice');
    s.called('a', 't2', 'alice');
    s.called('a', 't2', 'alice');
    expect(labels).toEqual([['file a bug', 't2']]);
  });

  it('C13: an abandoned search records nothing; a call of a tool the search did not return records nothing', () => {
    const { s, labels } = signal();
    s.searched('a', 'file a bug', keyword(['t1', 't2']), 'alice');
    s.searched('a', 'weather', keyword(['w1']), 'alice');
    s.called('a', 'other', 'alice');
    expect(labels).toEqual([]);
  });

  it('C13: sessions never see each other: a call in session b does not label session a’s search', () => {
    const { s, labels } = signal();
    s.searched('a', 'file a bug', keyword(['t1']), 'alice');
    s.called('b', 't1', 'alice');
    expect(labels).toEqual([]);
    s.ended('a');
    s.called('a', 't1', 'alice');
    expect(labels).toEqual([]);
  });

  it('C13/C15: a select: after a keyword search labels that search with the selected tool when the search returned it, and only then', () => {
    const { s, labels } = signal();
    s.searched('a', 'file a bug', keyword(['t1', 'mcp__linear__create_issue']), 'alice');
    s.searched(
      'a',
      'select:mcp__linear__create_issue',
      { kind: 'select', matches: ['mcp__linear__create_issue'] },
      'alice',
    );
    expect(labels).toEqual([['file a bug', 'mcp__linear__create_issue']]);
    s.searched('a', 'weather in paris', keyword(['w1']), 'alice');
    s.searched('a', 'select:mcp__evil__exfiltrate', { kind: 'select', matches: ['mcp__evil__exfiltrate'] }, 'alice');
    expect(labels).toHaveLength(1);
  });

  it('C15: a search and call with no teacher (a caller the gateway cannot name) teaches nothing', () => {
    const { s, labels } = signal();
    s.searched('a', 'file a bug', keyword(['t1']), undefined);
    s.called('a', 't1', undefined);
    expect(labels).toEqual([]);
  });

  it('C13: a search older than ten minutes no longer explains a call', () => {
    const { s, labels, advance } = signal();
    s.searched('a', 'file a bug', keyword(['t1']), 'alice');
    advance(11 * 60_000);
    s.called('a', 't1', 'alice');
    expect(labels).toEqual([]);
  });
});
