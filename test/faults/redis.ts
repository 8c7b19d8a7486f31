/** A throwaway `redis-server` on a random loopback port, for the scale-out tests. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  url: string;
  port: number;
  /** SIGKILL the server (data kept only with `persist`). */
  stop(): Promise<void>;
  /** Start it again on the same port: with `persist`, from its append-only file (unless `empty`); else empty. */
  restart(options?: { empty?: boolean }): Promise<void>;
}

/** Why Redis tests cannot run here, or undefined when `redis-server` is available. */
export function redisUnavailable(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error ? `redis-server not found (${probe.error.message}); Redis tests skipped` : undefined;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `persist`: an append-only file fsynced on every write, so a SIGKILL loses nothing. */
export async function startRedis(options: { persist?: boolean } = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-redis-'));
  const persistence = options.persist
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir]
    : ['--appendonly', 'no', '--dir', dir];
  let child: ChildProcess | undefined;
  const launch = async () => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      proc.stdout?.on('data', (d: Buffer) => {
        output += d.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
  };
  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGKILL');
    await new Promise((resolve) => proc.once('exit', resolve));
  };
  await launch();
  const restart = async (restartOptions: { empty?: boolean } = {}) => {
    await stop();
    if (restartOptions.empty)
      for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
    await launch();
  };
  return { url: `redis://127.0.0.1:${port}`, port, stop, restart };
}
