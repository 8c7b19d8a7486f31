/** G5: the hub's per-session connections (`"isolation": "session"`) over real stdio processes. */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveLimits } from '../../src/core/limits.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import type { UpstreamCallResult } from '../../src/mcp/connection.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { isAlive } from '../fixtures/spawned.js';
import { waitFor } from '../fixtures/wait.js';

const iso = { command: process.execPath, args: [PEER_SERVER], isolation: 'session' };
const text = (result: UpstreamCallResult) => (result.content as Array<{ text: string }>)[0]!.text;

describe('G5 per-session connections in the hub', () => {
  const hubs: McpHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.close()));
  });

  async function hub(idleMs: number): Promise<McpHub> {
    const limits = resolveLimits({ values: { sessionConnectionIdleMs: idleMs }, source: 'test' });
    const started = new McpHub(parseHubConfig({ mcpServers: { iso } }), { reconnect: false, limits }).start();
    hubs.push(started);
    await started.settled();
    return started;
  }
  const pid = async (h: McpHub, session?: string) =>
    Number(text(await h.callTool('iso', 'pid', {}, session === undefined ? {} : { session })));

  it('G5: concurrent first uses by one session make one connection; no session means the shared one', async () => {
    const h = await hub(0);
    const [a, b] = await Promise.all([pid(h, 's1'), pid(h, 's1')]);
    expect(a).toBe(b);
    expect(h.isolated.count('iso')).toBe(1);
    const shared = await pid(h);
    expect(shared).not.toBe(a);
    expect(h.status()[0]!.pid).toBe(shared);
  }, 30_000);

  it('G5: a connection with a request running is not reaped as idle; once unused, it is', async () => {
    const h = await hub(100);
    const running = await pid(h, 's1');
    expect(text(await h.callTool('iso', 'hold', { ms: 500 }, { session: 's1' }))).toBe('held');
    expect(await pid(h, 's1')).toBe(running);
    await waitFor(() => !isAlive(running), 'the idle connection to end');
    expect(h.isolated.count('iso')).toBe(0);
  }, 30_000);

  it("G5: a session connection that drops is made again on the session's next request, with its subscriptions", async () => {
    const h = await hub(0);
    await h.request('iso', { method: 'resources/subscribe', params: { uri: 'peer://x' } }, { session: 's1' });
    const touch = async () => text(await h.callTool('iso', 'touch', { uri: 'peer://x' }, { session: 's1' }));
    expect(await touch()).toBe('["peer://x"]');
    const first = await pid(h, 's1');
    process.kill(first, 'SIGKILL');
    await waitFor(() => h.isolated.count('iso') === 0, 'the dropped connection to be forgotten');
    expect(await touch()).toBe('["peer://x"]');
    expect(await pid(h, 's1')).not.toBe(first);
  }, 30_000);

  it("G5: a reload that removes the server ends its sessions' processes; closing a session ends its own", async () => {
    const h = await hub(0);
    const [one, two] = await Promise.all([pid(h, 's1'), pid(h, 's2')]);
    await h.isolated.closeSession('s1');
    await waitFor(() => !isAlive(one), "s1's process to end");
    expect(isAlive(two)).toBe(true);
    await h.reconfigure(parseHubConfig({ mcpServers: {} }));
    await waitFor(() => !isAlive(two), "s2's process to end");
    expect(h.isolated.count('iso')).toBe(0);
  }, 30_000);
});
