/**
 * G8 test parts: the official v2 SDK client (`@modelcontextprotocol/client`) in each version
 * negotiation mode, answering elicitation and counting tools list_changed in either era (a 2026
 * connection opens `subscriptions/listen` for it).
 */
import { Client, type CallToolResult, type Transport } from '@modelcontextprotocol/client';

export type EraMode = 'legacy' | 'auto' | 'pin';

export interface EraClient {
  readonly client: Client;
  readonly era: string | undefined;
  readonly elicited: string[];
  listChanged(): number;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { text: string }>;
  toolNames(): Promise<string[]>;
  close(): Promise<void>;
}

export function negotiation(mode: EraMode): 'legacy' | 'auto' | { pin: string } {
  return mode === 'pin' ? { pin: '2026-07-28' } : mode;
}

export async function eraClient(mode: EraMode, transport: Transport): Promise<EraClient> {
  const client = new Client(
    { name: `eras-${mode}`, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {} },
      versionNegotiation: { mode: negotiation(mode) },
    },
  );
  const elicited: string[] = [];
  let listChanged = 0;
  client.setRequestHandler('elicitation/create', async (request) => {
    elicited.push(String(request.params.message));
    return { action: 'accept', content: { name: `user of ${mode}` } };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({
    model: `model-of-${mode}`,
    role: 'assistant',
    content: { type: 'text', text: `sampled by ${mode}` },
  }));
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    listChanged++;
  });
  await client.connect(transport);
  const subscription =
    client.getProtocolEra() === 'modern' ? await client.listen({ toolsListChanged: true }) : undefined;
  return {
    client,
    era: client.getProtocolEra(),
    elicited,
    listChanged: () => listChanged,
    call: async (name, args = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content
        .filter((c) => c.type === 'text')
        .map((c) => (c as { text: string }).text)
        .join('\n');
      return { ...result, text };
    },
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name),
    close: async () => {
      await subscription?.close();
      await client.close();
    },
  };
}
