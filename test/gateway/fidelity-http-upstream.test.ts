import { spawn, type ChildProcess } from 'node:child_process';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { REFERENCE_SERVER_PACKAGES, resolvePackageBin } from '../../src/mcp/defaults.js';
import { freePort } from '../faults/redis.js';
import { waitFor } from '../fixtures/wait.js';
import { capableClient, type CapableClient } from './fidelity-clients.js';

/** G4 with a Streamable HTTP upstream: server → client requests arrive on the upstream's SSE streams. */
describe('G4 faithful proxy in front of a Streamable HTTP upstream (server-everything streamableHttp)', () => {
  let upstream: ChildProcess;
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  let client: CapableClient;

  beforeAll(async () => {
    const port = await freePort();
    upstream = spawn(process.execPath, [resolvePackageBin(REFERENCE_SERVER_PACKAGES.everything), 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    upstream.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor(() => stderr.includes('listening'), 'server-everything over HTTP');
    stack = await createGatewayFromConfig({
      config: parseHubConfig({ mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp` } } }, 'test'),
      gateway: { mode: 'never' },
    });
    http = await startHttpGateway(stack.gateway, { port: 0 });
    await stack.hub.settled();
    client = await capableClient('H', new StreamableHTTPClientTransport(new URL(http.url)));
    await waitFor(
      async () =>
        (await client.client.listTools()).tools.some((t) => t.name === 'mcp__remote__trigger-sampling-request'),
      'conditional tools',
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await http?.close();
    await stack?.close();
    upstream?.kill();
  });

  it('G4: sampling and elicitation from an HTTP upstream reach the calling client', async () => {
    expect((await client.call('mcp__remote__trigger-sampling-request', { prompt: 'over http' })).text).toContain(
      'sampled by H',
    );
    expect((await client.call('mcp__remote__trigger-elicitation-request')).text).toContain('user of H');
  });

  it('G4: progress, resources, prompts and completions from an HTTP upstream', async () => {
    const ticks: number[] = [];
    await client.client.callTool(
      { name: 'mcp__remote__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } },
      undefined,
      { onprogress: (p) => ticks.push(p.progress) },
    );
    expect(ticks.length).toBeGreaterThanOrEqual(1);
    const { resources } = await client.client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect((await client.client.readResource({ uri: resources[0]!.uri })).contents.length).toBeGreaterThan(0);
    expect(
      JSON.stringify((await client.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Oslo' } })).messages),
    ).toContain('Oslo');
    const completion = await client.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(completion.completion.values.length).toBeGreaterThan(0);
  });

  it('G4: a subscription on an HTTP upstream delivers resources/updated', async () => {
    const uri = (await client.client.listResources()).resources[0]!.uri;
    await client.client.subscribeResource({ uri });
    await client.call('mcp__remote__toggle-subscriber-updates');
    await waitFor(() => client.updates.includes(uri), 'resources/updated', 15_000);
    await client.call('mcp__remote__toggle-subscriber-updates');
  }, 30_000);
});
