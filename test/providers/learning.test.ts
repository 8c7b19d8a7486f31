import { describe, expect, it } from 'vitest';
import { admitTool } from '../../src/core/catalog.js';
import { RequestPlanner } from '../../src/providers/shared/session.js';
import { LearnedLog } from '../../src/search/learned/log.js';

const tools = [
  admitTool({ name: 'read_file', description: 'Read a file from disk', defer: true, handler: () => 'ok' }),
  admitTool({ name: 'open_ticket', description: 'Open a ticket in the tracker', defer: true, handler: () => 'ok' }),
  admitTool({ name: 'forecast', description: 'Weather forecast for a city', defer: true, handler: () => 'ok' }),
];

function planner(log: LearnedLog): RequestPlanner {
  return new RequestPlanner({ pool: { tools, pendingServers: [] }, learning: log });
}

describe('C13: the library’s agent loops learn from use', () => {
  it('C13: a search followed by a call of one of its results teaches the next conversation’s search', async () => {
    const log = new LearnedLog();
    const first = planner(log);
    const plan = await first.plan({ history: [], expansion: 'client' });
    // A complaint whose words name no tool ("file a bug …" finds the tracker without learning, C14).
    const query = { query: 'the login page file will not open', max_results: 3 };
    const before = first.search(plan, query);
    expect(before.matches[0]).toBe('read_file');
    expect(before.matches).toContain('open_ticket');
    await first.runCall(plan, 'open_ticket', {}, new Set(['open_ticket']));
    expect(log.toolNames()).toEqual(['open_ticket']);

    // C14: one conversation's lesson lifts nothing until another conversation confirms it.
    const second = planner(log);
    const plan2 = await second.plan({ history: [], expansion: 'client' });
    expect(second.search(plan2, query).matches[0]).toBe('read_file');
    await second.runCall(plan2, 'open_ticket', {}, new Set(['open_ticket']));
    const third = planner(log);
    const plan3 = await third.plan({ history: [], expansion: 'client' });
    expect(third.search(plan3, query).matches[0]).toBe('open_ticket');
  });

  it('C13: a search nothing follows teaches nothing', async () => {
    const log = new LearnedLog();
    const p = planner(log);
    const plan = await p.plan({ history: [], expansion: 'client' });
    p.search(plan, { query: 'weather in oslo' });
    expect(log.entryCount).toBe(0);
  });
});
