import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { waitFor } from '../fixtures/wait.js';
import { alphaAndBetaListed, capableClient, type CapableClient } from './fidelity-clients.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';

/**
 * Two copies of the real server-everything: every G4 feature, and every clash rule exercised. The
 * growing list: found tools join tools/list, where their fields are compared with the server's own.
 */
const everythingTwice = () => ({
  mcpServers: { alpha: referenceServerConfig('everything'), beta: referenceServerConfig('everything') },
  toolSearch: { toolList: 'growing' },
});

/** server-everything as a capable client sees it directly: the reference for "unchanged". */
async function directTools(): Promise<Tool[]> {
  const direct = await capableClient(
    'direct',
    new StdioClientTransport({
      ...(referenceServerConfig('everything') as { command: string; args: string[] }),
      stderr: 'pipe',
    }),
  );
  try {
    // Its capability-dependent tools are registered just after initialize.
    await waitFor(
      async () => (await direct.client.listTools()).tools.some((t) => t.name === 'trigger-sampling-request'),
      'conditional tools',
    );
    return (await direct.client.listTools()).tools;
  } finally {
    await direct.close();
  }
}

const FIELDS = ['title', 'annotations', 'outputSchema', 'icons', 'execution', '_meta'] as const;

interface Harness {
  a: CapableClient;
  /** A second concurrent session (HTTP only; stdio is one session per process). */
  b?: CapableClient;
  /** Kills alpha's upstream process (drop mid-request). */
  killAlpha?: () => void;
}

function fidelitySuite(transport: 'http' | 'stdio', setup: () => Promise<Harness>, teardown: () => Promise<void>) {
  describe(`G4 faithful proxy over ${transport} (two server-everything upstreams)`, () => {
    let h: Harness;
    let reference: Tool[];
    beforeAll(async () => {
      [h, reference] = await Promise.all([setup(), directTools()]);
      // Load every alpha tool into session A (tools stay deferred until searched).
      // Both upstreams connected, with their capability-dependent tools (stdio serves before they are).
      const query = 'select:mcp__alpha__trigger-sampling-request,mcp__beta__trigger-sampling-request';
      await waitFor(
        async () => (await h.a.call('tool_search', { query })).text.includes('Loaded 2'),
        'alpha and beta connected',
        30_000,
      );
      // ... and what the resource and prompt cases assert on: both servers in the merged lists.
      await waitFor(() => alphaAndBetaListed(h.a.client), 'the resources and prompts of alpha and beta', 30_000);
    }, 60_000);
    afterAll(teardown);

    it('G4: capabilities: tools, resources (subscribe), prompts, completions, logging', () => {
      const caps = h.a.client.getServerCapabilities();
      expect(caps).toMatchObject({
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      });
    });

    it('G4: tools whole — title, annotations, outputSchema, icons, execution, _meta as the server lists them, in tools/list and in search results', async () => {
      const names = reference.map((t) => `mcp__alpha__${t.name}`);
      const search = await h.a.call('tool_search', { query: `select:${names.join(',')}`, max_results: 50 });
      expect(search.text).toContain('"annotations"');
      expect(search.text).toContain('"outputSchema"');
      const listed = new Map((await h.a.client.listTools()).tools.map((t) => [t.name, t]));
      // The capability-dependent tools (sampling, elicitation, roots) are offered through the gateway too.
      for (const tool of reference) {
        const through = listed.get(`mcp__alpha__${tool.name}`);
        expect(through, tool.name).toBeDefined();
        for (const field of FIELDS) expect(through![field], `${tool.name}.${field}`).toEqual(tool[field]);
        // The input schema too, its `$schema` dialect included (G4; only model APIs drop it).
        expect(through!.inputSchema, `${tool.name}.inputSchema`).toEqual(tool.inputSchema);
        expect(through!.description).toBe(tool.description);
      }
      expect(reference.filter((t) => t.annotations !== undefined).length).toBeGreaterThan(0);
      expect(reference.some((t) => t.outputSchema !== undefined)).toBe(true);
    });

    it('G4: call results pass through unchanged (structuredContent, images, resource links)', async () => {
      const structured = await h.a.call('mcp__alpha__get-structured-content', { location: 'New York' });
      expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
      const image = await h.a.call('mcp__alpha__get-tiny-image');
      expect(image.content.some((c) => c.type === 'image')).toBe(true);
      const links = await h.a.call('mcp__alpha__get-resource-links', { count: 2 });
      expect(links.content.filter((c) => c.type === 'resource_link')).toHaveLength(2);
    });

    it('G4: resources and templates listed from both servers; URIs unchanged where unique, later duplicates under toolsearch://<server>/', async () => {
      const { resources } = await h.a.client.listResources();
      const alphaDoc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'));
      expect(alphaDoc).toBeDefined();
      expect(resources.some((r) => r.uri === `toolsearch://beta/${alphaDoc!.uri}`)).toBe(true);
      const { resourceTemplates } = await h.a.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
        expect.arrayContaining([
          'demo://resource/dynamic/text/{resourceId}',
          'toolsearch://beta/demo://resource/dynamic/text/{resourceId}',
        ]),
      );
      // Reads go to the owner with the server's own URI; the alias reaches beta.
      const direct = await h.a.client.readResource({ uri: alphaDoc!.uri });
      expect(direct.contents[0]?.uri).toBe(alphaDoc!.uri);
      const viaAlias = await h.a.client.readResource({ uri: `toolsearch://beta/${alphaDoc!.uri}` });
      expect(viaAlias.contents[0]).toEqual(direct.contents[0]);
      // A URI only a template names (the kind resource links carry) is routed by template match.
      const templated = await h.a.client.readResource({ uri: 'demo://resource/dynamic/text/7' });
      expect(JSON.stringify(templated.contents)).toContain('7');
      await expect(h.a.client.readResource({ uri: 'nowhere://x' })).rejects.toThrow(
        /^MCP error -32602: No connected MCP server offers the resource/,
      );
    });

    it('G4: prompts listed with readable names (clashes become <server>__<name>), get and completion routed', async () => {
      const { prompts } = await h.a.client.listPrompts();
      const names = prompts.map((p) => p.name);
      expect(names).toEqual(
        expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt', 'beta__simple-prompt']),
      );
      const got = await h.a.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris' } });
      expect(JSON.stringify(got.messages)).toContain('Paris');
      const fromBeta = await h.a.client.getPrompt({ name: 'beta__args-prompt', arguments: { city: 'Lyon' } });
      expect(JSON.stringify(fromBeta.messages)).toContain('Lyon');
      const completion = await h.a.client.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'E' },
      });
      expect(completion.completion.values).toContain('Engineering');
      const template = await h.a.client.complete({
        ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        argument: { name: 'resourceId', value: '1' },
      });
      expect(Array.isArray(template.completion.values)).toBe(true);
    });

    it('G4: sampling, elicitation and roots reach the session whose tool call caused them', async () => {
      const sampled = await h.a.call('mcp__alpha__trigger-sampling-request', { prompt: 'hello from A' });
      expect(sampled.isError).toBeFalsy();
      expect(sampled.text).toContain(`sampled by ${h.a.label}`);
      expect(h.a.sampled.some((s) => s.includes('hello from A'))).toBe(true);
      const elicited = await h.a.call('mcp__alpha__trigger-elicitation-request');
      expect(elicited.text).toContain(`user of ${h.a.label}`);
      const url = await h.a.call('mcp__alpha__trigger-url-elicitation', {
        url: 'https://example.com/consent',
        message: 'Open this page',
      });
      expect(url.isError).toBeFalsy();
      expect(h.a.elicited).toContain('Open this page');
      const roots = await h.a.call('mcp__alpha__get-roots-list');
      // G5: one user (stdio): its roots; several (HTTP): the operator's, never a client's.
      if (h.b) expect(roots.text).not.toContain(`file:///work/${h.a.label}`);
      else expect(roots.text).toContain(`file:///work/${h.a.label}`);
      if (h.b) {
        expect(h.b.sampled).toEqual([]);
        expect(h.b.elicited).toEqual([]);
      }
    });

    it("G4: a client's roots/list_changed reaches the servers on stdio (one user); on HTTP it is not relayed (G5: roots belong to the operator)", async () => {
      const asked = h.a.rootsAsked.length;
      await h.a.client.sendRootsListChanged();
      if (h.b) {
        // Not relayed, and no server asks a client for roots on a multi-user gateway.
        await h.a.client.ping();
        expect(h.a.rootsAsked.length + h.b.rootsAsked.length).toBe(asked);
      } else {
        await waitFor(() => h.a.rootsAsked.length > asked, 'roots/list from the servers');
      }
    });

    it('G4: progress of a long call reaches the caller under its own token', async () => {
      const ticks: number[] = [];
      const result = await h.a.client.callTool(
        { name: 'mcp__alpha__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
        undefined,
        {
          onprogress: (p) => ticks.push(p.progress),
        },
      );
      expect(result.isError).toBeFalsy();
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks).toEqual([...ticks].sort((x, y) => x - y));
    });

    it('G4: a cancelled call is cancelled upstream and the connection stays usable', async () => {
      const abort = new AbortController();
      const pending = h.a.client.callTool(
        { name: 'mcp__alpha__trigger-long-running-operation', arguments: { duration: 30, steps: 30 } },
        undefined,
        {
          signal: abort.signal,
          onprogress: () => abort.abort(new Error('user cancelled')),
        },
      );
      await expect(pending).rejects.toThrow(/cancelled/);
      expect((await h.a.call('mcp__alpha__echo', { message: 'still here' })).text).toBe('Echo: still here');
    });

    it("G4: logging reaches sessions filtered by each one's logging/setLevel; subscriptions notify only subscribers", async () => {
      await h.a.client.setLoggingLevel('info');
      await h.b?.client.setLoggingLevel('error');
      const bLogsBefore = h.b?.logs.length ?? 0;
      const { resources } = await h.a.client.listResources();
      const uri = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'))!.uri;
      await h.a.client.subscribeResource({ uri });
      // server-everything logs each subscribe at `info`.
      await waitFor(
        () => h.a.logs.some((l) => String(l.data).includes('Subscribe') && l.logger?.startsWith('alpha')),
        'the subscribe log',
      );
      expect(h.b?.logs.slice(bLogsBefore).filter((l) => l.level === 'info') ?? []).toEqual([]);
      await h.a.call('mcp__alpha__toggle-subscriber-updates');
      await waitFor(() => h.a.updates.includes(uri), 'resources/updated', 20_000);
      expect(h.b?.updates ?? []).toEqual([]);
      await h.a.call('mcp__alpha__toggle-subscriber-updates');
      await h.a.client.unsubscribeResource({ uri });
    }, 30_000);
  });
}

// --- Streamable HTTP: two concurrent sessions ----------------------------------------------
let httpStack: GatewayStack;
let http: RunningHttpGateway;
const httpClients: CapableClient[] = [];
fidelitySuite(
  'http',
  async () => {
    httpStack = await createGatewayFromConfig({ config: parseHubConfig(everythingTwice(), 'test') });
    http = await startHttpGateway(httpStack.gateway, { port: 0 });
    await httpStack.hub.settled();
    const [a, b] = await Promise.all(
      ['A', 'B'].map((label) => capableClient(label, new StreamableHTTPClientTransport(new URL(http.url)))),
    );
    httpClients.push(a!, b!);
    return { a: a!, b: b! };
  },
  async () => {
    await Promise.allSettled(httpClients.map((c) => c.close()));
    await http?.close();
    await httpStack?.close();
  },
);

// --- stdio: `toolsearch serve --config`, as a client launches it ------------------------------
let stdioClient: CapableClient | undefined;
fidelitySuite(
  'stdio',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-fidelity-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify(everythingTwice()));
    const transport = stdioGateway(['serve', '--config', config]);
    stdioClient = await capableClient('S', transport);
    return { a: stdioClient };
  },
  async () => {
    await stdioClient?.close();
  },
);
