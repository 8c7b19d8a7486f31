/**
 * The gateway process for `npm run bench:attack`: a config (argv[2]) behind the HTTP gateway on
 * 127.0.0.1 (port 0), default limits unless `--limit NAME=VALUE` follows. Prints `{"url": …}` once
 * settled, then answers one JSON line per stdin line:
 * - `stats` → sessions, store size, tools per server, RSS after a GC and peak RSS (run with --expose-gc);
 * - `call SERVER TOOL` → runs an upstream tool (to trigger list_changed), answers `{"ok": true}`.
 */
import { createInterface } from 'node:readline';
import { startHttpGateway } from '../src/gateway/transports/http/server.js';
import { createGatewayFromConfig } from '../src/gateway/create.js';
import { InMemorySessionStore } from '../src/gateway/sessions/store.js';
import { createStderrLogger } from '../src/util/log.js';

const configPath = process.argv[2]!;
const limits: Record<string, number> = {};
for (let i = 3; i < process.argv.length; i++) {
  if (process.argv[i] !== '--limit') continue;
  const [name, value] = process.argv[++i]!.split('=');
  limits[name!] = Number(value);
}
const sessions = new InMemorySessionStore();
// Warnings only (a bench must not measure its own terminal output); debug lines from a flood are the attack.
const stack = await createGatewayFromConfig({
  config: configPath,
  gateway: { sessions },
  limits,
  logger: createStderrLogger('error'),
});
process.once('exit', () => stack.hub.terminateNow());
const http = await startHttpGateway(stack.gateway, {
  maxSessions: stack.limits.sessions,
  idleSessionTimeoutMs: stack.limits.idleSessionTimeoutMs,
});
await stack.hub.settled(60_000);
process.stdout.write(`${JSON.stringify({ url: http.url })}\n`);

const gc = (globalThis as { gc?: () => void }).gc;
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, server, tool] = line.trim().split(' ');
  if (command === 'call') {
    await stack.hub.callTool(server!, tool!, {}).catch(() => undefined);
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    continue;
  }
  if (command !== 'stats') continue;
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc?.();
  const tools = Object.fromEntries(stack.hub.servers().map((s) => [s, stack.hub.catalog.serverTools(s).length]));
  const longestDescription = Math.max(0, ...stack.hub.catalog.tools.map((t) => t.description.length));
  const stats = {
    httpSessions: http.sessionCount(),
    liveSessions: stack.gateway.liveSessions,
    storedSessions: sessions.size,
    tools,
    longestDescription,
    rssMiB: mib(process.memoryUsage().rss),
    // resourceUsage().maxRSS is in KiB.
    peakRssMiB: mib(process.resourceUsage().maxRSS * 1024),
  };
  process.stdout.write(`${JSON.stringify(stats)}\n`);
}
await http.close();
await stack.close();
