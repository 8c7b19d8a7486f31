/**
 * G5/G8 (issue 32, case 5): `subscriptions/listen` counts toward the per-holder subscription cap
 * before it subscribes upstream. Over real HTTP: one 2026-07-28 listen naming 2,000 resource URIs
 * of a real stdio server (the peer fixture, which counts the subscribe requests it answers) adds at
 * most `subscriptionsPerSession` upstream subscriptions, and the refused URIs send nothing upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpGatewayFixture, httpGateway } from '../fixtures/http-gateway.js';
import { listenRequestBody, listenRequestHeaders } from '../fixtures/listen-request.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

const CAP = 50;
const URIS = 2_000;
let gateway: HttpGatewayFixture;

beforeAll(async () => {
  gateway = await httpGateway(
    { docs: { command: process.execPath, args: [PEER_SERVER], env: { PEER_TEMPLATES: 'doc://{id}' } } },
    { limits: { subscriptionsPerSession: CAP } },
  );
});
afterAll(() => gateway?.close());

async function upstream(tool: 'subscribes' | 'touch', args: Record<string, unknown> = {}): Promise<string> {
  const result = await gateway.stack.hub.callTool('docs', tool, args);
  return (result.content as { text: string }[])[0]!.text;
}

describe('G5: subscriptions/listen and the subscription cap', () => {
  it(`one listen naming ${URIS} URIs subscribes at most ${CAP} upstream`, async () => {
    const uris = Array.from({ length: URIS }, (_, i) => `doc://${i}`);
    const abort = new AbortController();
    const response = fetch(gateway.http.url, {
      method: 'POST',
      signal: abort.signal,
      headers: listenRequestHeaders(),
      body: listenRequestBody(uris),
    }).catch(() => undefined);
    try {
      await waitFor(async () => Number(await upstream('subscribes')) >= CAP, 'the first subscriptions', 30_000);
      // Whatever the listen's fate at the SDK, what went upstream is all there is to see now.
      await response;
      expect(Number(await upstream('subscribes'))).toBe(CAP);
      expect((JSON.parse(await upstream('touch', { uri: 'doc://0' })) as string[]).length).toBeLessThanOrEqual(CAP);
    } finally {
      abort.abort();
    }
  }, 60_000);
});
