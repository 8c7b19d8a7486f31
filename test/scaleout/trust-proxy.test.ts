/**
 * G5 behind a reverse proxy: every client reaches the gateway from the proxy's address, so the
 * per-address `initialize` limit would count them all as one. With `--trust-proxy` the gateway
 * keys it by the address the proxy forwarded for (X-Forwarded-For); a real haproxy
 * (`option forwardfor`, the balancer config of docs/scale-out.md) in front, clients on different loopback
 * addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../faults/redis.js';
import { initializeAndDelete } from '../fixtures/raw-http.js';
import { waitFor } from '../fixtures/wait.js';
import { haproxyUnavailable, startHaproxy, type TestHaproxy } from './haproxy.js';
import { fixtureConfig, spawnReplica, type ReplicaProcess } from './replicas.js';

const skipReason = haproxyUnavailable();
if (skipReason) console.log(skipReason);

const LIMITS = ['--limit', 'initializeBurst=2', '--limit', 'initializePerMinute=1'];

describe.skipIf(skipReason !== undefined)('G5: the initialize limit per client behind haproxy (--trust-proxy)', () => {
  const replicas: ReplicaProcess[] = [];
  const balancers: TestHaproxy[] = [];
  /** Through haproxy to a replica started with `flags`. */
  const behindProxy = async (flags: string[]): Promise<TestHaproxy> => {
    const port = await freePort();
    replicas.push(await spawnReplica(fixtureConfig(), undefined, port, [...LIMITS, ...flags]));
    const balancer = await startHaproxy(await freePort(), [`127.0.0.1:${port}`]);
    balancers.push(balancer);
    return balancer;
  };
  let trusting: TestHaproxy;
  let plain: TestHaproxy;

  beforeAll(async () => {
    trusting = await behindProxy(['--trust-proxy', 'loopback']);
    plain = await behindProxy([]);
  }, 90_000);
  afterAll(async () => {
    await Promise.allSettled(balancers.map((b) => b.stop()));
    await Promise.allSettled(replicas.map((r) => r.kill()));
  });

  it('G5: --trust-proxy loopback: one client past the burst gets 429, another client behind the same proxy does not', async () => {
    expect((await initializeAndDelete(trusting.url, '127.0.0.2')).status).toBe(200);
    expect((await initializeAndDelete(trusting.url, '127.0.0.2')).status).toBe(200);
    expect((await initializeAndDelete(trusting.url, '127.0.0.2')).status).toBe(429);
    expect((await initializeAndDelete(trusting.url, '127.0.0.3')).status).toBe(200);
    await waitFor(() => replicas[0]!.stderr().includes('initialize from 127.0.0.2 refused: 429'), 'the warning');
  }, 30_000);

  it('G5: without it, every client behind the proxy is the proxy: the second client is refused too', async () => {
    expect((await initializeAndDelete(plain.url, '127.0.0.2')).status).toBe(200);
    expect((await initializeAndDelete(plain.url, '127.0.0.2')).status).toBe(200);
    expect((await initializeAndDelete(plain.url, '127.0.0.3')).status).toBe(429);
    await waitFor(() => replicas[1]!.stderr().includes('initialize from 127.0.0.1 refused: 429'), 'the warning');
  }, 30_000);
});
