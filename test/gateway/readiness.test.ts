/** H3 — the readiness rule behind `/readyz` and `toolsearch status`'s exit code (pure). */
import { describe, expect, it } from 'vitest';
import { hasFaultyServer, readiness } from '../../src/gateway/status/readiness.js';
import type { ServerState, ServerStatus } from '../../src/mcp/server-state.js';

const server = (name: string, state: ServerState, reconnects = 0): ServerStatus => ({
  server: name,
  state,
  tools: 0,
  attempts: 0,
  reconnects,
  since: 0,
});

describe('H3 readiness', () => {
  it('H3: ready when every server is connected, or reconnecting after a drop; not on a first connect, failed, quarantined or closed', () => {
    expect(readiness([server('a', 'connected'), server('b', 'connecting', 1)])).toEqual({
      ready: true,
      waitingFor: [],
    });
    expect(readiness([])).toEqual({ ready: true, waitingFor: [] });
    const notReady = readiness([
      server('a', 'connected'),
      server('new', 'connecting'),
      server('f', 'failed', 2),
      server('q', 'quarantined', 3),
      server('c', 'closed'),
    ]);
    expect(notReady).toEqual({ ready: false, waitingFor: ['new', 'f', 'q', 'c'] });
  });

  it('H3: the status command flags failed and quarantined servers only', () => {
    expect(hasFaultyServer([server('a', 'connected'), server('b', 'connecting')])).toBe(false);
    expect(hasFaultyServer([server('a', 'connected'), server('f', 'failed')])).toBe(true);
    expect(hasFaultyServer([server('q', 'quarantined')])).toBe(true);
  });
});
