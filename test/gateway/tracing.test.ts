/**
 * G9 — OpenTelemetry spans of a search → call round trip over a real HTTP gateway: a SERVER span per
 * client request continuing the client's `_meta.traceparent` (or its `traceparent` header), a
 * `tool_search` child, a CLIENT child per upstream call whose context reaches the fixture upstream
 * in `_meta`; no arguments in attributes. Exported to the SDK's in-memory exporter and, over
 * OTLP/HTTP, to a receiver this test starts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { waitFor } from '../fixtures/wait.js';

const TRACE_SERVER = fileURLToPath(new URL('../fixtures/servers/trace-server.mjs', import.meta.url));
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

const memory = new InMemorySpanExporter();
const received: unknown[] = [];
let receiver: Server;
let provider: BasicTracerProvider;
let stack: GatewayStack;
let http: RunningHttpGateway;
let client: Client;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url, type: req.headers['content-type'], body: JSON.parse(body) as unknown });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  provider = new BasicTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor(memory),
      new SimpleSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` })),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  stack = await createGatewayFromConfig({
    config: {
      servers: { trace: { command: process.execPath, args: [TRACE_SERVER] } },
      toolSearch: {},
      source: 'tracing.test',
    },
    tracing: true,
  });
  http = await startHttpGateway(stack.gateway);
  await waitFor(() => stack.hub.status().every((s) => s.state === 'connected'), 'the trace fixture to connect');
  client = new Client({ name: 'trace-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
});

afterAll(async () => {
  await client?.close();
  await http?.close();
  await stack?.close();
  await provider?.shutdown();
  trace.disable();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const byName = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('G9 traces of a search → call', () => {
  let recordedMeta: Record<string, string>;

  beforeAll(async () => {
    const traceparent = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
    const found = (await client.callTool({
      name: 'tool_search',
      arguments: { query: 'select:mcp__trace__record' },
      _meta: { traceparent, tracestate: 'vendor=abc' },
    })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    const result = (await client.callTool({
      name: 'mcp__trace__record',
      arguments: { note: 'secret-argument-value' },
      _meta: { traceparent },
    })) as CallToolResult;
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    recordedMeta = JSON.parse(text) as Record<string, string>;
    await provider.forceFlush();
  });

  it('G9: one SERVER span per client request, continuing the client trace from _meta', () => {
    const spans = memory.getFinishedSpans();
    const search = byName(spans, 'tools/call tool_search')[0]!;
    const call = byName(spans, 'tools/call mcp__trace__record')[0]!;
    for (const span of [search, call]) {
      expect(span.spanContext().traceId).toBe(CLIENT_TRACE);
      expect(parentOf(span)).toBe(CLIENT_SPAN);
      expect(span.attributes['mcp.method.name']).toBe('tools/call');
    }
    expect(search.spanContext().traceState?.get('vendor')).toBe('abc');
    expect(byName(spans, 'initialize')).toHaveLength(1);
  });

  it('G9: the search and the upstream call are children of their request spans', () => {
    const spans = memory.getFinishedSpans();
    const searchRequest = byName(spans, 'tools/call tool_search')[0]!;
    const callRequest = byName(spans, 'tools/call mcp__trace__record')[0]!;
    const search = byName(spans, 'tool_search')[0]!;
    const upstream = byName(spans, 'tools/call trace')[0]!;
    expect(parentOf(search)).toBe(searchRequest.spanContext().spanId);
    expect(search.attributes['toolsearch.search.matches']).toBe(1);
    expect(parentOf(upstream)).toBe(callRequest.spanContext().spanId);
    expect(upstream.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(upstream.attributes).toMatchObject({ 'mcp.server': 'trace', 'gen_ai.tool.name': 'mcp__trace__record' });
  });

  it('G9: the upstream server receives the upstream span’s traceparent in _meta', () => {
    const upstream = byName(memory.getFinishedSpans(), 'tools/call trace')[0]!;
    expect(recordedMeta.traceparent).toBe(`00-${CLIENT_TRACE}-${upstream.spanContext().spanId}-01`);
  });

  it('G9: no span carries argument or result values', () => {
    const text = JSON.stringify(memory.getFinishedSpans().map((s) => s.attributes));
    expect(text).not.toContain('secret-argument-value');
    expect(text).not.toContain('traceparent');
  });

  it('G9: a traceparent header continues the trace when _meta has none', async () => {
    const headerTrace = 'a'.repeat(32);
    const other = new Client({ name: 'trace-header', version: '1.0.0' });
    await other.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { traceparent: `00-${headerTrace}-${'b'.repeat(16)}-01` } },
      }),
    );
    try {
      await other.listTools();
    } finally {
      await other.close();
    }
    await provider.forceFlush();
    const list = byName(memory.getFinishedSpans(), 'tools/list').find((s) => s.spanContext().traceId === headerTrace);
    expect(list && parentOf(list)).toBe('b'.repeat(16));
  });

  it('G9: the same spans reach an OTLP/HTTP receiver', async () => {
    await provider.forceFlush();
    const names = await waitFor(() => {
      const all = received.flatMap(
        (r) =>
          (r as { body: { resourceSpans: { scopeSpans: { spans: { name: string; traceId: string }[] }[] }[] } }).body
            .resourceSpans,
      );
      const spans = all.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
      const names = new Set(spans.map((s) => s.name));
      return names.has('tools/call trace') && names.has('tool_search') ? names : undefined;
    }, 'spans at the OTLP receiver');
    expect(names.has('tools/call mcp__trace__record')).toBe(true);
    expect((received[0] as { path: string; type: string }).path).toBe('/v1/traces');
    expect((received[0] as { type: string }).type).toContain('json');
  });
});
