/**
 * G5 — a server that lists 20,000 tools and lists them again (hostile round 4, item 8). Before,
 * each listing was validated, pinned (every definition hashed), admitted and put in the catalog
 * in one go: for as long as that took, no other session's request was answered. Now the listing
 * is worked on in slices (`listingSliceMs`), and a tool listed exactly as before is not hashed,
 * admitted or replaced again.
 *
 * Over real HTTP, with the peer fixture over stdio listing 20,000 tools and pinning on: another
 * session's probes are answered while the gateway works on the new listing — ordering, not time:
 * a probe's answer says the server had already sent the listing (the fixture counts its lists,
 * and its answers follow the listing on the same pipe), and it arrives before the gateway logs
 * the listing applied. Then the end state: every tool served (or, when every definition changed,
 * every changed one held), nothing replaced that did not change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { freshStateDir } from '../fixtures/state.js';
import { capableClient, type CapableClient } from '../gateway/fidelity-clients.js';

/** The peer fixture's own tools; with these extra ones it lists 20,000, the `toolsPerServer` cap. */
const OWN_TOOLS = 19;
const EXTRA = 20_000 - OWN_TOOLS;
const LAST = `mcp__big__x${EXTRA - 1}`;

describe('G5: a server re-listing 20,000 tools does not stall other sessions', () => {
  let gateway: HttpGatewayFixture | undefined;
  const clients: CapableClient[] = [];
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await gateway?.close();
  });

  async function start(drift: boolean) {
    const lines: string[] = [];
    const keep = (line: string) => void lines.push(line);
    const big = {
      command: process.execPath,
      args: [PEER_SERVER],
      env: { PEER_EXTRA_TOOLS: String(EXTRA), ...(drift && { PEER_EXTRA_DRIFT: '1' }) },
    };
    gateway = await httpGateway(
      { big, other: { command: process.execPath, args: [PEER_SERVER] } },
      {
        trustByDefault: true,
        hub: { stateDir: freshStateDir('relist') },
        logger: { error: keep, warn: keep, info: keep, debug: keep },
      },
    );
    const [attacker, victim] = await Promise.all([
      capableClient('attacker', gateway.open()),
      capableClient('victim', gateway.open()),
    ]);
    clients.push(attacker, victim);
    const lists = async () => Number((await victim.call('mcp__big__lists')).text);
    return { lines, attacker, victim, lists, stack: gateway.stack };
  }

  /**
   * Has the server re-list once and probes (`lists`, answered by the big server itself) until the
   * gateway logs the listing applied; returns the counts of the probes answered before that.
   */
  async function probeWhileRelisting(
    scene: Awaited<ReturnType<typeof start>>,
  ): Promise<{ before: number; during: number[] }> {
    const before = await scene.lists();
    const applied = () => scene.lines.some((line) => line.includes('"big" tools changed'));
    expect(applied()).toBe(false);
    await scene.attacker.call('mcp__big__flap', { n: 1 });
    const during: number[] = [];
    // Bounded so a listing that never comes fails the test instead of hanging it.
    const deadline = Date.now() + 120_000;
    while (!applied() && Date.now() < deadline) {
      const count = await scene.lists();
      if (!applied()) during.push(count);
    }
    expect(applied(), 'the re-list was applied').toBe(true);
    return { before, during };
  }

  it('G5: the same 20,000 tools listed again: probes answered meanwhile; every tool still served, none replaced', async () => {
    const scene = await start(false);
    const catalog = scene.stack.hub.catalog;
    expect(catalog.serverTools('big')).toHaveLength(20_000);
    const [version, tools] = [catalog.version, catalog.tools];

    const { before, during } = await probeWhileRelisting(scene);
    // A probe whose answer came after the server sent the listing, before the gateway applied it.
    expect(during.some((count) => count > before)).toBe(true);

    expect(catalog.serverTools('big')).toHaveLength(20_000);
    expect(catalog.hiddenTools).toEqual([]);
    // Nothing changed, so nothing was replaced: the pool (and the search index on it) is the same.
    expect(catalog.version).toBe(version);
    expect(catalog.tools).toBe(tools);
    expect((await scene.victim.call(LAST)).text).toBe(`ran x${EXTRA - 1}`);
  });

  it('G5/G10: every definition changed (a rug pull of 20,000): probes answered meanwhile; every changed tool held', async () => {
    const scene = await start(true);
    const { before, during } = await probeWhileRelisting(scene);
    expect(during.some((count) => count > before)).toBe(true);

    const catalog = scene.stack.hub.catalog;
    expect(catalog.serverTools('big')).toHaveLength(OWN_TOOLS);
    const held = catalog.hiddenTools.filter((t) => t.server === 'big' && t.kind === 'held');
    expect(held).toHaveLength(EXTRA);
    const refused = await scene.victim.call(LAST);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('held');
  });
});
