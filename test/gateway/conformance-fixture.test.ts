/**
 * The conformance fixture (test/fixtures/servers/conformance-server.mjs) keeps serving what the
 * official MCP conformance suite asks for (`npm run conformance` runs the suite itself; it needs
 * Node 22 from npm, so it is not part of this test run). And G4: an upstream's progress ticks reach
 * the client before the result through the gateway — the last tick and the result often arrive in
 * one read from a stdio server, which the SDK client used to drop (the suite's
 * tools-call-with-progress scenario found it), and a 2020-12 input schema keeps its `$schema`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/servers/conformance-server.mjs');

function firstText(result: unknown): string {
  const item = (result as CallToolResult).content[0];
  return item?.type === 'text' ? item.text : '';
}

describe('conformance fixture over stdio', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'fixture-check', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => ({
      action: 'accept',
      content: { username: 'ada', email: `ada@example.com (${request.params.message})` },
    }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }));
  }, 30_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists the tools the suite calls by name, with their content types', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'test_simple_text',
        'test_image_content',
        'test_audio_content',
        'test_embedded_resource',
        'test_multiple_content_types',
        'test_tool_with_logging',
        'test_error_handling',
        'test_tool_with_progress',
        'test_sampling',
        'test_elicitation',
        'test_elicitation_sep1034_defaults',
        'test_elicitation_sep1330_enums',
        'json_schema_2020_12_tool',
      ]),
    );
    expect(firstText(await client.callTool({ name: 'test_simple_text' }))).toBe(
      'This is a simple text response for testing.',
    );
    const audio = (await client.callTool({ name: 'test_audio_content' })) as CallToolResult;
    expect(audio.content[0]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    const mixed = (await client.callTool({ name: 'test_multiple_content_types' })) as CallToolResult;
    expect(mixed.content.map((c) => c.type)).toEqual(['text', 'image', 'resource']);
    expect((await client.callTool({ name: 'test_error_handling' })).isError).toBe(true);
    const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
    expect(firstText(elicited)).toContain('action=accept');
  });

  it('reads static, binary and templated resources and accepts subscriptions', async () => {
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining(['test://static-text', 'test://static-binary', 'test://watched-resource']),
    );
    const text = await client.readResource({ uri: 'test://static-text' });
    expect(text.contents[0]).toMatchObject({ mimeType: 'text/plain', text: expect.stringContaining('static text') });
    const binary = await client.readResource({ uri: 'test://static-binary' });
    expect(binary.contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
    const templated = await client.readResource({ uri: 'test://template/123/data' });
    expect(JSON.parse(String((templated.contents[0] as { text: string }).text))).toMatchObject({ id: '123' });
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toContain('test://template/{id}/data');
    await expect(client.subscribeResource({ uri: 'test://watched-resource' })).resolves.toBeDefined();
    await expect(client.unsubscribeResource({ uri: 'test://watched-resource' })).resolves.toBeDefined();
  });

  it('serves the prompts, completion and log level', async () => {
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
    ]);
    const filled = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'a1', arg2: 'b2' },
    });
    expect(JSON.stringify(filled.messages)).toContain("arg1='a1', arg2='b2'");
    const image = await client.getPrompt({ name: 'test_prompt_with_image' });
    expect(image.messages[0]?.content).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'al' },
    });
    expect(completion.completion.values).toEqual(['alpha']);
    await expect(client.setLoggingLevel('debug')).resolves.toBeDefined();
  });
});

describe('G4 through the gateway (conformance fixture behind it): schemas and progress', () => {
  let gateway: HttpGatewayFixture;
  let client: Client;

  beforeAll(async () => {
    // The fixture's default mode is `never`: every tool listed.
    gateway = await httpGateway({ conf: { command: process.execPath, args: [FIXTURE] } });
    client = new Client({ name: 'progress-check', version: '1.0.0' });
    await client.connect(gateway.open());
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('keeps a JSON Schema 2020-12 input schema whole, its $schema included', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'mcp__conf__json_schema_2020_12_tool');
    expect(tool?.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { type: 'object' } },
      properties: { address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    });
  });

  it('every tick, the last one included, arrives before the result', async () => {
    // The lost tick was a race; several calls make a regression show reliably.
    for (let call = 0; call < 6; call++) {
      const ticks: Progress[] = [];
      const result = await client.request(
        { method: 'tools/call', params: { name: 'test_tool_with_progress', arguments: {} } },
        CallToolResultSchema,
        { onprogress: (progress) => ticks.push(progress) },
      );
      expect(result.isError).toBeFalsy();
      expect(ticks.map((t) => t.progress)).toEqual([0, 50, 100]);
    }
  });
});
