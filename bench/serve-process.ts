/**
 * The attack benches' gateway: `toolsearch serve --http` of a source tree (this one, or an export of
 * an earlier commit: `--root DIR`) as a child process on 127.0.0.1, and its memory from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

export interface ServeProcessOptions {
  /** The source tree to run (its `src/cli/main.ts` through tsx, or its `dist/` with `built`). */
  readonly root: string;
  /** Where the config file is written. */
  readonly dir: string;
  /** More `serve` flags. */
  readonly args?: readonly string[];
  /** Node flags before the script. */
  readonly node?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** `--settle-ms` (default 15000). */
  readonly settleMs?: number;
  /** Run the built package (`dist/cli/main.js`: no TypeScript loader in the process, as users run it). */
  readonly built?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `toolsearch serve --http` with this config; resolves once it listens. */
export async function serveProcess(config: object, options: ServeProcessOptions): Promise<ServeProcess> {
  const file = join(options.dir, `mcp-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const script = options.built
    ? [join(options.root, 'dist/cli/main.js')]
    : ['--import', 'tsx', join(options.root, 'src/cli/main.ts')];
  if (options.built && !existsSync(script[0]!))
    throw new Error(`${script[0]} is missing: run "npm run build" in ${options.root} first`);
  const child = spawn(
    process.execPath,
    [...(options.node ?? []), ...script, 'serve', '--http', '127.0.0.1:0', '--config', file].concat(
      ['--settle-ms', String(options.settleMs ?? 15_000)],
      options.args ?? [],
    ),
    { cwd: options.root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 1200 && !/listening on (\S+)/.test(output); i++) await sleep(50);
  const url = /listening on (\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`the gateway did not listen: ${output.slice(-2000)}`);
  return {
    child,
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGKILL');
      }),
  };
}

/** VmRSS and VmHWM (peak) of a process, MiB. */
export function processMemory(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: Math.round(kib('VmRSS') / 1024), peak: Math.round(kib('VmHWM') / 1024) };
  } catch {
    return { rss: 0, peak: 0 };
  }
}
