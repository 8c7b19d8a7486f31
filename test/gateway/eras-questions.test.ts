/**
 * G8: an upstream that asks the client something (elicitation/create) while serving a resource
 * read or a prompt get, not only a tool call: a 2026-07-28 client (the official v2 client pinned
 * to that revision, no session) gets the question as `input_required` and its retry carries the
 * answer back to the waiting upstream request; a 2025 client gets it as a server → client request
 * on its session, as before.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpGatewayFixture, httpGateway } from '../fixtures/http-gateway.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { type EraMode, eraClient } from './eras-clients.js';

const peer = {
  command: process.execPath,
  args: [PEER_SERVER],
  env: { PEER_TEMPLATES: 'ask://{message}', PEER_PROMPTS: '1' },
};

describe('G8: upstream questions during resources/read and prompts/get, in either era', () => {
  let gateway: HttpGatewayFixture;
  beforeAll(async () => {
    gateway = await httpGateway({ peer }, { limits: { attributionGraceMs: 0 } });
  });
  afterAll(() => gateway?.close());

  for (const mode of ['pin', 'legacy'] as EraMode[]) {
    it(`G8: a ${mode} client answers the question a resource read and a prompt get ask`, async () => {
      const c = await eraClient(mode, new StreamableHTTPClientTransport(new URL(gateway.http.url)));
      try {
        const read = await c.client.readResource({ uri: 'ask://who%20reads' });
        expect(JSON.stringify(read.contents)).toContain(`user of ${mode}`);
        const prompt = await c.client.getPrompt({ name: 'ask', arguments: { message: 'who prompts' } });
        expect(JSON.stringify(prompt.messages)).toContain(`user of ${mode}`);
        expect(c.elicited).toEqual(['who reads', 'who prompts']);
      } finally {
        await c.close();
      }
    });
  }
});
