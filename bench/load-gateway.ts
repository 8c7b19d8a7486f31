/**
 * The gateway process for `npm run bench:load`: server-everything + server-memory behind the
 * HTTP gateway on 127.0.0.1 (port 0). Prints `{"url": …}` once settled, then answers one JSON
 * line per stdin line: `stats` → live sessions, store size, RSS after a GC (run with --expose-gc).
 * `--ops`: G9 metrics (the /metrics registry, byte counting) and the audit log (a temp file) on,
 * tracing off — what `serve --http --audit-log FILE` runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { startHttpGateway } from '../src/gateway/transports/http/server.js';
import { createGatewayFromConfig } from '../src/gateway/create.js';
import { InMemorySessionStore } from '../src/gateway/sessions/store.js';
import { GatewayMetrics } from '../src/gateway/status/metrics.js';

const memoryFile = join(mkdtempSync(join(tmpdir(), 'toolsearch-load-')), 'memory.jsonl');
const sessions = new InMemorySessionStore();
const ops = process.argv.includes('--ops');
const stack = await createGatewayFromConfig({
  only: ['everything', 'memory'],
  memoryFile,
  gateway: { sessions },
  ...(ops && { audit: { file: join(dirname(memoryFile), 'audit.jsonl') } }),
});
process.once('exit', () => stack.hub.terminateNow());
const metrics = ops ? new GatewayMetrics({ gateway: stack.gateway, servers: () => stack.hub.status() }) : undefined;
const http = await startHttpGateway(stack.gateway, {
  ...(metrics && { observe: (server) => metrics.observeHttp(server) }),
});
await stack.hub.settled();
process.stdout.write(`${JSON.stringify({ url: http.url, tools: stack.hub.catalog.size })}\n`);

const gc = (globalThis as { gc?: () => void }).gc;
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'stats') continue;
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc?.();
  const memory = process.memoryUsage();
  const mib = (bytes: number) => bytes / 2 ** 20;
  const stats = {
    ...(metrics && { metricsBytes: (await metrics.render()).length, auditDropped: stack.audit?.droppedRecords ?? 0 }),
    httpSessions: http.sessionCount(),
    liveSessions: stack.gateway.liveSessions,
    storedSessions: sessions.size,
    rssMiB: mib(memory.rss),
    heapMiB: mib(memory.heapUsed),
    externalMiB: mib(memory.external),
  };
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}
await http.close();
await stack.close();
