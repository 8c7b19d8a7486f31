/**
 * G5/G8 — a parked 2026-07-28 call and the other sessions of a shared server (hostile round 3,
 * item 10). A 2026 client's call whose upstream asks a question returns `input_required` and is
 * parked: the upstream call waits for the answer, but no client request is in flight here. The
 * attack: such a client never comes back. Before, the parked call counted as a request in flight
 * for up to 10 minutes, so every other session's question on that server was refused ("requests
 * of 2 client sessions are in flight"). Now a parked call claims what its server sends only for
 * `parkedAttributionMs` after it parked (a question sent together with its first is refused, never
 * given to someone else), and its own question is answered through its retry only.
 *
 * Over real HTTP: a raw 2026 client (no SDK driver, which would answer and come back), 2025
 * sessions of the official SDK client, the peer fixture over stdio, shared by all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { modernToolCall, type ModernResult } from '../fixtures/raw-http.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { capableClient } from '../gateway/fidelity-clients.js';

const peer = { command: process.execPath, args: [PEER_SERVER] };

/** The one question of a parked call: its key and text. */
function question(result: ModernResult): { key: string; message: string | undefined } {
  expect(result.resultType).toBe('input_required');
  const [entry] = Object.entries(result.inputRequests ?? {});
  expect(entry).toBeDefined();
  return { key: entry![0], message: entry![1].params.message };
}

const answer = (result: ModernResult) => (result.content ?? []).map((c) => c.text ?? '').join('');

describe('G5/G8: a parked 2026-07-28 call does not block other sessions of a shared server', () => {
  let gateway: HttpGatewayFixture;
  beforeAll(async () => {
    // Default limits: the parked call's claim ends after parkedAttributionMs on its own.
    gateway = await httpGateway({ peer });
  }, 30_000);
  afterAll(() => gateway?.close());

  const claims = () => gateway.stack.gateway.proxy.router.claims('peer');

  it("G5: a call parked by a client that never comes back; another session's question still reaches it, and the parked call still finishes with its own answer", async () => {
    const parked = await modernToolCall(gateway.http.url, 'mcp__peer__ask', { message: 'question for the 2026 user' });
    const asked = question(parked);
    expect(asked.message).toBe('question for the 2026 user');
    // Nothing is in flight here now: the parked call's claim ends by itself (not after 10 minutes).
    await waitFor(() => claims() === 0, 'the parked call to stop claiming what its server sends');

    // Another 2026 client is another session: its own question comes back to it (its request ends
    // with its answer and claims nothing after).
    const other = await modernToolCall(gateway.http.url, 'mcp__peer__ask', { message: 'question for another' });
    expect(question(other).message).toBe('question for another');
    const otherDone = await modernToolCall(
      gateway.http.url,
      'mcp__peer__ask',
      { message: 'question for another' },
      {
        retry: {
          inputResponses: { [question(other).key]: { action: 'accept', content: { name: 'the other one' } } },
          requestState: other.requestState!,
        },
      },
    );
    expect(answer(otherDone)).toBe('{"name":"the other one"}');

    // A 2025 session's question, asked during its own call, reaches it.
    const alice = await capableClient('Alice', gateway.open());
    try {
      const asking = await alice.call('mcp__peer__ask', { message: 'question for Alice' });
      expect(asking.isError, asking.text).toBeFalsy();
      expect(asking.text).toBe('{"name":"user of Alice"}');
      expect(alice.elicited).toEqual(['question for Alice']);
    } finally {
      await alice.close();
    }

    // The first client comes back after all: its question was answered through its retry only.
    const done = await modernToolCall(
      gateway.http.url,
      'mcp__peer__ask',
      { message: 'question for the 2026 user' },
      {
        retry: {
          inputResponses: { [asked.key]: { action: 'accept', content: { name: 'the 2026 user' } } },
          requestState: parked.requestState!,
        },
      },
    );
    expect(answer(done)).toBe('{"name":"the 2026 user"}');
  });
});

describe('G5/G8: while a parked call still claims its server, what the server asks is refused, not guessed', () => {
  let gateway: HttpGatewayFixture;
  beforeAll(async () => {
    // A window far longer than the test: the parked call claims throughout.
    gateway = await httpGateway({ peer }, { limits: { parkedAttributionMs: 600_000 } });
  }, 30_000);
  afterAll(() => gateway?.close());

  it("G5: a parked call's second question, sent while another session's call runs there, is refused and never reaches that session", async () => {
    const first = 'first question for the 2026 user';
    const args = { first, second: 'second question for the 2026 user' };
    const parked = await modernToolCall(gateway.http.url, 'mcp__peer__ask_then', args);
    const asked = question(parked);
    expect(asked.message).toBe(first);

    // Alice's call starts; the server sends the parked call's second question as it does.
    const alice = await capableClient('Alice', gateway.open());
    try {
      expect((await alice.call('mcp__peer__hold', { ms: 200 })).text).toBe('held');
      const done = await modernToolCall(gateway.http.url, 'mcp__peer__ask_then', args, {
        retry: {
          inputResponses: { [asked.key]: { action: 'accept', content: { name: 'the 2026 user' } } },
          requestState: parked.requestState!,
        },
      });
      const [one, two] = JSON.parse(answer(done)) as [string, string];
      expect(one).toBe('{"name":"the 2026 user"}');
      // Two sessions could have caused it (the parked call, Alice's): refused, not guessed.
      expect(two).toMatch(/^error: .*requests of 2 client sessions/);
      expect(alice.elicited).toEqual([]);
    } finally {
      await alice.close();
    }
  });
});
