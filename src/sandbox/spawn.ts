/**
 * G11 — starting a sandbox worker. From the built package the worker is `worker.js` beside this
 * file; from the TypeScript sources (tests, benchmarks run with tsx) it is `worker.ts`, loaded
 * through tsx's loader, which only a development checkout has.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerSetup } from './protocol.js';

/** The JavaScript engine's own stack (V8's, under the WebAssembly) gets room above QuickJS's stack limit. */
const WORKER_STACK_MB = 4;

/** tsx's ESM entry (`tsx/esm/api` as `import` resolves it; require's resolution would give its CommonJS twin). */
function tsxLoader(): string {
  if (typeof import.meta.resolve === 'function') return import.meta.resolve('tsx/esm/api');
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  return pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
}

export function spawnSandboxWorker(setup: WorkerSetup): Worker {
  const options = { workerData: setup, resourceLimits: { stackSizeMb: WORKER_STACK_MB }, stdout: true, stderr: true };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url), options);
  const worker = new URL('./worker.ts', import.meta.url).href;
  const tsx = tsxLoader();
  const source = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(worker)}); })`;
  return new Worker(source, { ...options, eval: true });
}
