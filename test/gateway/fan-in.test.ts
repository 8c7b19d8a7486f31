/** G5 with G9: the hub's fan-in over every gateway that shares it (main endpoint, profiles). */
import { describe, expect, it } from 'vitest';
import type { UpstreamProxy } from '../../src/gateway/ports.js';
import { type FanInMember, UpstreamFanIn } from '../../src/gateway/proxy/fan-in.js';

function member(name: string, claims: (server: string) => number): FanInMember & { name: string } {
  return { name, claims, route: async () => ({ routedBy: name }) };
}

describe('G5 with G9: upstream fan-in', () => {
  it('G5: the one gateway with a claim routes; two claims are refused; no claim goes to the first gateway', async () => {
    const hub = { serverRequestHandler: undefined } as unknown as UpstreamProxy;
    const fanIn = new UpstreamFanIn(hub);
    const claims = { main: 0, one: 0 };
    const main = member('main', () => claims.main);
    const one = member('one', () => claims.one);
    const leaveMain = fanIn.join(main);
    const leaveOne = fanIn.join(one);
    const ask = () =>
      hub.serverRequestHandler!('s', { method: 'sampling/createMessage' }, new AbortController().signal);
    expect(await ask()).toEqual({ routedBy: 'main' });
    claims.one = 1;
    expect(await ask()).toEqual({ routedBy: 'one' });
    expect(fanIn.owns(one, 's')).toBe(true);
    expect(fanIn.owns(main, 's')).toBe(false);
    claims.main = 2;
    await expect(ask()).rejects.toThrow(/several endpoints/);
    expect(fanIn.owns(one, 's')).toBe(false);
    leaveMain();
    expect(await ask()).toEqual({ routedBy: 'one' });
    leaveOne();
    expect(hub.serverRequestHandler).toBeUndefined();
  });

  it('G5: the upstream log level is the most verbose any gateway wants, sent only when that changes', () => {
    const fanIn = new UpstreamFanIn({ serverRequestHandler: undefined } as unknown as UpstreamProxy);
    const main = member('main', () => 0);
    const one = member('one', () => 0);
    const leaveOne = fanIn.join(one);
    fanIn.join(main);
    expect(fanIn.want(main, 'info')).toBe('info');
    expect(fanIn.want(one, 'debug')).toBe('debug');
    // A gateway going quieter does not lower what the other still wants.
    expect(fanIn.want(main, 'emergency')).toBeUndefined();
    expect(fanIn.level).toBe('debug');
    expect(fanIn.want(one, 'warning')).toBe('warning');
    leaveOne();
    expect(fanIn.level).toBe('emergency');
  });
});
