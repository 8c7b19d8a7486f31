/**
 * G4 test parts: the official SDK `Client` declaring sampling, elicitation (form + URL) and roots,
 * with handlers that record what reached this client, as a user's MCP client would.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';

export interface CapableClient {
  readonly label: string;
  readonly client: Client;
  readonly sampled: string[];
  readonly elicited: string[];
  readonly rootsAsked: number[];
  readonly logs: Array<{ level: string; logger?: string; data: unknown }>;
  readonly updates: string[];
  readonly listChanged: { resources: number; prompts: number };
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { text: string }>;
  close(): Promise<void>;
}

export async function capableClient(label: string, transport: Transport): Promise<CapableClient> {
  const client = new Client(
    { name: `fidelity-${label}`, version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } },
  );
  const state = {
    label,
    client,
    sampled: [] as string[],
    elicited: [] as string[],
    rootsAsked: [] as number[],
    logs: [] as Array<{ level: string; logger?: string; data: unknown }>,
    updates: [] as string[],
    listChanged: { resources: 0, prompts: 0 },
  };
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const first = request.params.messages[0]?.content;
    state.sampled.push(first && 'text' in first ? String(first.text) : '');
    return { model: `model-of-${label}`, role: 'assistant', content: { type: 'text', text: `sampled by ${label}` } };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    state.elicited.push(request.params.message);
    if (request.params.mode === 'url') return { action: 'accept' };
    return { action: 'accept', content: { name: `user of ${label}` } };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    state.rootsAsked.push(Date.now());
    return { roots: [{ uri: `file:///work/${label}`, name: `root of ${label}` }] };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    state.logs.push({
      level: n.params.level,
      ...(n.params.logger !== undefined && { logger: n.params.logger }),
      data: n.params.data,
    });
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    state.updates.push(n.params.uri);
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    state.listChanged.resources++;
  });
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
    state.listChanged.prompts++;
  });
  await client.connect(transport);
  return {
    ...state,
    call: async (name, args = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
      return { ...result, text };
    },
    close: () => client.close(),
  };
}

/**
 * Readiness of two server-everything upstreams `alpha` and `beta` as a client sees it: each one's
 * resources and prompts are in the gateway's merged lists (beta's under their clash-qualified
 * names). The hub adds a server's tools and its resources/prompts in one step when it connects,
 * but `hub.settled()` also returns after a first attempt that *failed* (the server is then
 * retried), and a stdio gateway serves before its upstreams are up; tests that list resources or
 * prompts wait for this, not for a delay.
 */
export async function alphaAndBetaListed(client: Client): Promise<boolean> {
  const [{ resources }, { prompts }] = await Promise.all([client.listResources(), client.listPrompts()]);
  const names = new Set(prompts.map((p) => p.name));
  const uris = resources.map((r) => r.uri);
  return (
    names.has('simple-prompt') &&
    names.has('beta__simple-prompt') &&
    uris.some((uri) => uri.startsWith('demo://resource/static/document/')) &&
    uris.some((uri) => uri.startsWith('toolsearch://beta/demo://resource/static/document/'))
  );
}
