/**
 * A real `haproxy` in front of gateway replicas for the scale-out tests and bench (G6): the
 * balancer config of docs/scale-out.md, round robin without stickiness, on a random loopback port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../fixtures/wait.js';

/** Why haproxy tests cannot run here, or undefined when `haproxy` is available. */
export function haproxyUnavailable(): string | undefined {
  const probe = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  return probe.error ? `haproxy not found (${probe.error.message}); balancer tests skipped` : undefined;
}

/**
 * The balancer config docs/scale-out.md documents. No stickiness: every request may land on any
 * replica. Retried on another replica: only requests that never reached one (conn-failure) and
 * the gateway's 503s (answered before anything ran). Long timeouts for the SSE streams (the SDK
 * sends a keep-alive comment every 15 s). Health: the gateway's `/healthz` every second.
 */
export function haproxyConfig(port: number, backends: string[], logToStderr = false): string {
  return [
    ...(logToStderr ? ['global', '  log stderr format raw local0'] : []),
    'defaults',
    ...(logToStderr ? ['  log global', '  option httplog'] : []),
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 1h',
    '  timeout server 1h',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure 503',
    // The client's address for the replicas' per-address limit (they run with --trust-proxy).
    '  option forwardfor',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    // /healthz needs no token; the Host must be one the gateway accepts (a loopback name here, --allow-host in production).
    '  option httpchk',
    '  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host localhost',
    '  http-check expect status 200',
    '  default-server check inter 1s fall 2 rise 2',
    ...backends.map((b, i) => `  server r${i + 1} ${b}`),
    '',
  ].join('\n');
}

export interface TestHaproxy {
  url: string;
  stop(): Promise<void>;
}

export async function startHaproxy(
  port: number,
  backends: string[],
  options: { log?: (line: string) => void } = {},
): Promise<TestHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, backends, options.log !== undefined));
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
    for (const line of d.toString().split('\n')) if (line) options.log?.(line);
  });
  await waitFor(() => (child.exitCode !== null ? true : canConnect(port)), 'haproxy to listen', 10_000);
  if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
