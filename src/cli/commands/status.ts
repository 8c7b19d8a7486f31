/**
 * H3 — `toolsearch status [--http URL]`: the status page in a terminal (default: the local gateway
 * that `npm start` runs). Reads the gateway's `/status.json` (and `/status/search` with `--search`)
 * with the same bearer token as `/mcp`.
 * Exit code: 0 all well (servers connected or connecting), 1 the gateway could not be read,
 * 2 a server is failed or quarantined.
 */
import { Command } from 'commander';
import type { StatusSearchAnswer, StatusSnapshot } from '../../gateway/status/routes.js';
import { STATUS_JSON_PATH, STATUS_SEARCH_PATH } from '../../gateway/status/routes.js';
import { hasFaultyServer } from '../../gateway/status/readiness.js';
import { describeReload } from '../../mcp/config-reloader.js';
import { LOCAL_GATEWAY_ADDRESS } from '../options.js';
import { plural } from '../../core/plural.js';
import { installingText } from '../../core/installing.js';
import { resolveToken } from './serve-flags.js';

/** `toolsearch status` exits 2 when a server is failed or quarantined (1: the gateway could not be read). */
export const STATUS_EXIT_FAULTY_SERVER = 2;

interface StatusOptions {
  http: string;
  token?: string;
  tokenFile?: string;
  search?: string;
  json?: boolean;
}

export function statusCommand(): Command {
  return new Command('status')
    .description("Show a running HTTP gateway's servers, sessions and token savings (what its /status page shows)")
    .option('--http <url>', 'the gateway (its /mcp URL works too)', `http://${LOCAL_GATEWAY_ADDRESS}`)
    .option('--token <token>', 'bearer token (or set TOOLSEARCH_TOKEN, or use --token-file)')
    .option('--token-file <file>', 'read the bearer token from the first line of this file')
    .option('--search <query>', 'also run a live search and show the ranking with its explanation')
    .option('--json', 'print the raw status JSON')
    .addHelpText('after', '\nExit code: 0 ok, 1 the gateway could not be read, 2 a server is failed or quarantined.')
    .action(async (options: StatusOptions) => {
      const token = await resolveToken(options);
      const snapshot = (await fetchJson(options.http, STATUS_JSON_PATH, token)) as StatusSnapshot;
      const answer =
        options.search !== undefined
          ? ((await fetchJson(
              options.http,
              `${STATUS_SEARCH_PATH}?q=${encodeURIComponent(options.search)}`,
              token,
            )) as StatusSearchAnswer)
          : undefined;
      // Scripts and monitors: exit 2 when a server is failed or quarantined (the status still prints).
      if (hasFaultyServer(snapshot.servers)) process.exitCode = STATUS_EXIT_FAULTY_SERVER;
      if (options.json) {
        process.stdout.write(`${JSON.stringify(answer ? { ...snapshot, search: answer } : snapshot)}\n`);
        return;
      }
      process.stdout.write(`${formatStatus(snapshot, baseUrl(options.http))}\n`);
      if (answer) process.stdout.write(`\n${formatSearchAnswer(answer)}\n`);
    });
}

/** `http://host:port` from whatever the user pasted (`…/mcp`, `…/status`, no scheme). */
export function baseUrl(value: string): string {
  const url = new URL(/^https?:\/\//.test(value) ? value : `http://${value}`);
  return url.origin;
}

async function fetchJson(gateway: string, path: string, token: string | undefined): Promise<unknown> {
  const url = `${baseUrl(gateway)}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new Error(`cannot reach ${url}${cause ? ` (${cause})` : ''}: is \`toolsearch serve --http\` running there?`);
  }
  if (response.status === 401)
    throw new Error(`${url}: the gateway needs its bearer token (--token-file, --token or TOOLSEARCH_TOKEN)`);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

function pad(text: string | number, width: number, right = false): string {
  const s = String(text);
  return right ? s.padStart(width) : s.padEnd(width);
}

export function formatStatus(s: StatusSnapshot, base: string): string {
  const pct = s.tokens.eager > 0 ? Math.round((s.tokens.savedPerRequest / s.tokens.eager) * 100) : 0;
  const lines = [
    `toolsearch ${s.version} at ${base} — up ${s.uptimeSeconds} s, ${plural(s.sessions, 'session')}`,
    `servers: ${s.states.connected} connected, ${s.states.connecting} connecting${s.states.installing ? `, ${s.states.installing} installing` : ''}, ${s.states.failed} failed, ${s.states.quarantined} quarantined${s.states['needs-sign-in'] ? `, ${s.states['needs-sign-in']} needs sign-in` : ''}`,
    `tools: ${s.tools.total} (${s.tools.deferred} deferred)`,
    ...configLines(s),
    `tool-definition tokens per request: ${s.tokens.eager} eager vs ${s.tokens.deferred} deferred (saves ${s.tokens.savedPerRequest}, ${pct}%) — ${s.tokens.counted}`,
    '',
    `${pad('server', 24)} ${pad('state', 13)} ${pad('tools', 6, true)} ${pad('res', 5, true)} ${pad('prompts', 7, true)} ${pad('reconnects', 10, true)}  last error`,
  ];
  for (const server of s.servers) {
    const retry =
      server.nextRetryAt !== undefined
        ? ` (next try in ${Math.max(0, Math.round((server.nextRetryAt - Date.now()) / 1000))} s)`
        : '';
    // G13: an install shows how long it has run, not an old error.
    const note =
      server.state === 'installing'
        ? installingText({ runner: server.runner ?? 'a package runner', since: server.since }, Date.now())
        : (server.lastError ?? '') + retry;
    lines.push(
      `${pad(server.server, 24)} ${pad(server.state.replaceAll('-', ' '), 13)} ${pad(server.tools, 6, true)} ${pad(server.resources ?? 0, 5, true)} ${pad(server.prompts ?? 0, 7, true)} ${pad(server.reconnects, 10, true)}  ${note}`,
    );
  }
  return lines.join('\n');
}

/** G7: the config file, and a refused reload loudly (the gateway runs the previous config). */
function configLines(s: StatusSnapshot): string[] {
  const config = s.config;
  if (!config) return [];
  const last = config.lastReload;
  const head = `config: ${config.source}${config.watching ? ' (watched)' : ''}`;
  if (!last) return [head];
  const when = new Date(last.at).toISOString();
  if (!last.ok) return [head, `RELOAD REFUSED at ${when}, the previous config keeps running: ${last.error}`];
  return [
    head,
    `last reload at ${when} (${last.trigger}): ${describeReload(last)}` +
      (last.needsRestart ? `; toolSearch.${last.needsRestart.join(', toolSearch.')} applies on restart` : ''),
  ];
}

export function formatSearchAnswer(a: StatusSearchAnswer): string {
  const lines = [
    `search "${a.query}": ${a.hits.length} of ${plural(a.totalDeferred, 'deferred tool')} (${a.kind}${a.lowConfidence ? ', low confidence' : ''})`,
  ];
  for (const hit of a.hits) {
    lines.push(`  ${pad(hit.rank, 2, true)}. ${hit.name}`);
    for (const line of hit.explanation) lines.push(`        ${line}`);
  }
  if (a.pendingServers.length > 0) lines.push(`  still connecting: ${a.pendingServers.join(', ')}`);
  for (const f of a.failedServers) lines.push(`  failed: ${f.server}: ${f.reason}`);
  return lines.join('\n');
}
