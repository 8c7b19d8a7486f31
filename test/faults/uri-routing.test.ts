import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

const HOSTILE_TEMPLATE = 'h:{v0}{v1}{v2}{v3}{v4}{v5}{v6}{v7}{v8}{v9}';
const peer = (templates: string[]) => ({
  command: process.execPath,
  args: [PEER_SERVER],
  env: { PEER_TEMPLATES: templates.join(' ') },
});

/** G5 — resource routing over real HTTP against hostile templates and URIs. */
describe('G5 URI routing: compiled templates, a linear matcher, URI limits', () => {
  let gateway: HttpGatewayFixture;
  let client: Client;
  const warnings: string[] = [];

  beforeAll(async () => {
    gateway = await httpGateway(
      { evil: peer([HOSTILE_TEMPLATE, 'git://{+repo}/blob/{+path}']), docs: peer(['doc://{id}']) },
      {
        limits: { resourceUriChars: 4_096 },
        logger: {
          error: () => undefined,
          warn: (m) => warnings.push(m),
          info: () => undefined,
          debug: () => undefined,
        },
      },
    );
    client = new Client({ name: 'uri', version: '1.0.0' });
    await client.connect(gateway.open());
    await waitFor(
      async () => (await client.listResourceTemplates()).resourceTemplates.length === 2,
      'both servers listed',
      20_000,
    );
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('G5: a template with adjacent expressions is dropped with a warning; the others route', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['doc://{id}', 'git://{+repo}/blob/{+path}']);
    expect(warnings.some((w) => w.includes('"evil"') && w.includes('adjacent expressions'))).toBe(true);
    const git = await client.readResource({ uri: 'git://org/repo/blob/main/a.ts' });
    expect(git.contents[0]?.uri).toBe('git://org/repo/blob/main/a.ts');
    const doc = await client.readResource({ uri: 'doc://7' });
    expect(doc.contents[0]?.uri).toBe('doc://7');
  });

  it('G5: the 45-character URI aimed at the hostile template is answered (no server claims it)', async () => {
    await expect(client.readResource({ uri: `h:${'a'.repeat(43)}` })).rejects.toThrow(/No connected MCP server offers/);
  });

  it('G5: a URI past resourceUriChars is refused before routing, in read, subscribe and completion', async () => {
    const long = `git://${'a/'.repeat(3_000)}`;
    await expect(client.readResource({ uri: long })).rejects.toThrow(/Resource URI refused: .*resourceUriChars/);
    await expect(client.subscribeResource({ uri: long })).rejects.toThrow(/Resource URI refused/);
    await expect(
      client.complete({ ref: { type: 'ref/resource', uri: long }, argument: { name: 'x', value: '' } }),
    ).rejects.toThrow(/Resource URI refused/);
  });

  it('G5: a URI with a control character is refused', async () => {
    await expect(client.readResource({ uri: 'doc://a\u0000b' })).rejects.toThrow(/control character \(U\+0000\)/);
    await expect(client.readResource({ uri: 'doc://a\nb' })).rejects.toThrow(/control character/);
  });
});
