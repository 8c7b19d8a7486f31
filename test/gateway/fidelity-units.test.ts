import { describe, expect, it } from 'vitest';
import { fetchServerFeatures, McpAggregate } from '../../src/mcp/aggregate.js';
import type { McpConnection } from '../../src/mcp/connection.js';
import { pageOf } from '../../src/gateway/proxy/cursor.js';
import { SessionNotifications } from '../../src/gateway/proxy/notifications.js';
import { waitFor } from '../fixtures/wait.js';

const doc = (uri: string) => ({ uri, name: uri });

describe('G4 aggregation rules (src/mcp/aggregate.ts)', () => {
  it('G4: a URI one server lists stays unchanged; later servers in config order get toolsearch://<server>/<uri>', () => {
    const agg = new McpAggregate(['first', 'second']);
    // Joined in the "wrong" order: config order decides, not connection order.
    agg.setServer('second', { resources: [doc('file:///a'), doc('file:///only-second')], offersResources: true });
    agg.setServer('first', { resources: [doc('file:///a')], offersResources: true });
    expect(agg.resources().items.map((r) => r.uri)).toEqual([
      'file:///a',
      'toolsearch://second/file:///a',
      'file:///only-second',
    ]);
    expect(agg.routeUri('file:///a')).toEqual({ server: 'first', target: 'file:///a' });
    expect(agg.routeUri('toolsearch://second/file:///a')).toEqual({ server: 'second', target: 'file:///a' });
    expect(agg.routeUri('file:///only-second')).toEqual({ server: 'second', target: 'file:///only-second' });
    // Two servers offer resources: an unknown URI cannot be told apart.
    expect(agg.routeUri('file:///unknown')).toBeUndefined();
    agg.removeServer('first');
    expect(agg.resources().items.map((r) => r.uri)).toEqual(['file:///a', 'file:///only-second']);
    expect(agg.routeUri('file:///unknown')).toEqual({ server: 'second', target: 'file:///unknown' });
  });

  it('G4: template matches route reads of URIs no list names; template clashes follow the URI rule', () => {
    const agg = new McpAggregate(['a', 'b']);
    const template = { uriTemplate: 'demo://item/{id}', name: 'item' };
    agg.setServer('a', { templates: [template], offersResources: true });
    agg.setServer('b', { templates: [template], offersResources: true });
    expect(agg.templates().items.map((t) => t.uriTemplate)).toEqual([
      'demo://item/{id}',
      'toolsearch://b/demo://item/{id}',
    ]);
    expect(agg.routeUri('demo://item/7')).toEqual({ server: 'a', target: 'demo://item/7' });
    expect(agg.routeUri('toolsearch://b/demo://item/7')).toEqual({ server: 'b', target: 'demo://item/7' });
    expect(agg.routeTemplate('toolsearch://b/demo://item/{id}')).toEqual({ server: 'b', target: 'demo://item/{id}' });
  });

  it('G4: prompt names stay readable; a clash gives the later server <server>__<name>; a taken qualified name is left out', () => {
    const agg = new McpAggregate(['a', 'b', 'c']);
    agg.setServer('a', { prompts: [{ name: 'summarize' }] });
    agg.setServer('b', { prompts: [{ name: 'summarize' }, { name: 'only-b' }] });
    agg.setServer('c', { prompts: [{ name: 'b__summarize' }] });
    expect(agg.prompts().items.map((p) => p.name)).toEqual(['summarize', 'b__summarize', 'only-b']);
    expect(agg.routePrompt('b__summarize')).toEqual({ server: 'b', target: 'summarize' });
    expect(agg.counts('b')).toEqual({ resources: 0, templates: 0, prompts: 2 });
  });

  it('G4: a refresh whose list fails keeps the previous list (a transient upstream error does not make resources or prompts vanish)', async () => {
    // Only the list answers matter here; a real server that fails one list on demand does not exist.
    let failing = false;
    const answer =
      <T>(items: T[]) =>
      async () => {
        if (failing) throw new Error('MCP error -32603: busy');
        return items;
      };
    const connection = {
      server: 'a',
      capabilities: { resources: {}, prompts: {} },
      listResources: answer([doc('demo://one')]),
      listResourceTemplates: answer([{ uriTemplate: 'demo://item/{id}', name: 'item' }]),
      listPrompts: answer([{ name: 'p' }]),
    } as unknown as McpConnection;
    const agg = new McpAggregate(['a']);
    agg.setServer('a', await fetchServerFeatures(connection));
    failing = true;
    agg.setServer('a', await fetchServerFeatures(connection, undefined, ['resources']));
    agg.setServer('a', await fetchServerFeatures(connection, undefined, ['prompts']));
    expect(agg.resources().items.map((r) => r.uri)).toEqual(['demo://one']);
    expect(agg.templates().items.map((t) => t.uriTemplate)).toEqual(['demo://item/{id}']);
    expect(agg.prompts().items.map((p) => p.name)).toEqual(['p']);
    // On connect there is nothing to keep: the server joins with empty lists (its tools still count).
    const fresh = new McpAggregate(['a']);
    fresh.setServer('a', await fetchServerFeatures(connection));
    expect(fresh.has('a')).toBe(true);
    expect(fresh.counts('a')).toEqual({ resources: 0, templates: 0, prompts: 0 });
  });

  it('G4: list_changed only on a content change; generation moves with it', () => {
    const agg = new McpAggregate(['a']);
    const changes: string[] = [];
    agg.onChange((kind) => changes.push(kind));
    agg.setServer('a', { prompts: [{ name: 'p' }] });
    const generation = agg.prompts().generation;
    agg.setServer('a', { prompts: [{ name: 'p' }] });
    expect(agg.prompts().generation).toBe(generation);
    agg.setServer('a', { prompts: [{ name: 'p', description: 'now described' }] });
    expect(agg.prompts().generation).toBe(generation + 1);
    expect(changes.filter((k) => k === 'prompts')).toHaveLength(2);
  });
});

describe('G4 gateway cursors (src/gateway/cursor.ts)', () => {
  const list = { items: Array.from({ length: 250 }, (_, i) => i), generation: 3 };

  it('G4: a merged list pages with opaque cursors to the end', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = pageOf('prompts', list, cursor);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(list.items);
  });

  it('G4: a cursor of another list, an older snapshot or garbage is refused with -32602', () => {
    const next = pageOf('prompts', list, undefined).nextCursor!;
    expect(() => pageOf('resources', list, next)).toThrow(/Invalid cursor for resources\/list/);
    expect(() => pageOf('prompts', { ...list, generation: 4 }, next)).toThrow(/Stale cursor/);
    expect(() => pageOf('prompts', list, 'not-a-cursor')).toThrow(expect.objectContaining({ code: -32602 }));
  });
});

describe('G4 out-of-band notifications (src/gateway/notifications.ts)', () => {
  it('G4: a burst of upstream list changes reaches each session as one list_changed per kind', async () => {
    const sent: string[] = [];
    // toAll goes to every session (on every replica, through the bus): here two sessions.
    const notifications = new SessionNotifications(
      (sessionId, n) => sent.push(`${sessionId} ${n.method}`),
      (n) => {
        for (const sessionId of ['s1', 's2']) sent.push(`${sessionId} ${n.method}`);
      },
    );
    for (let i = 0; i < 5; i++) notifications.listChanged('prompts');
    notifications.listChanged('resources');
    await waitFor(() => sent.length >= 4, 'the coalesced notifications');
    expect(sent.sort()).toEqual([
      's1 notifications/prompts/list_changed',
      's1 notifications/resources/list_changed',
      's2 notifications/prompts/list_changed',
      's2 notifications/resources/list_changed',
    ]);
  });
});
