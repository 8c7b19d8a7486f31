/**
 * G11 — a sandbox worker thread: one engine instance, one script at a time, each in a fresh QuickJS
 * runtime (nothing of one run is left for the next). Off the main thread, a script that loops or
 * allocates without end stalls only itself: the gateway keeps serving every other session. The
 * main thread ends the worker when a run is cancelled, outlives its backstop, or leaves the engine
 * unable to free it; otherwise the worker takes the next script.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInEngine, type SandboxHost } from './engine.js';
import type { FromWorker, HostRequest, ToWorker, WorkerSetup } from './protocol.js';
import { instantiateEngine } from './quickjs.js';

const port = parentPort;
if (!port) throw new Error('src/sandbox/worker.ts runs as a worker thread');
const setup = workerData as WorkerSetup;
// Instantiated and run once while the worker waits for its script: an idle worker is warm before
// it is needed (an engine's first run costs far more than the next ones).
const engine = instantiateEngine(setup.wasmModule, setup.maximumBytes).then(({ engine: module, memory }) => {
  const runtime = module.newRuntime();
  const vm = runtime.newContext();
  vm.evalCode('JSON.stringify((async () => [1])())').dispose();
  vm.dispose();
  runtime.dispose();
  const ceiling = setup.maximumBytes;
  // Within a page of the ceiling: the next allocation that needs the memory to grow fails.
  const memoryFull =
    memory && ceiling !== undefined ? () => memory.buffer.byteLength + FULL_SLACK_BYTES >= ceiling : undefined;
  return { module, memoryFull };
});
/** How close to its ceiling an engine's memory counts as full (a few pages). */
const FULL_SLACK_BYTES = 4 * 64 * 1024;
const waiting = new Map<number, { resolve: (json: string) => void; reject: (error: Error) => void }>();
let nextId = 0;

function ask(request: HostRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    port?.postMessage({ ...request, id } as FromWorker);
  });
}

const host: SandboxHost = {
  search: (query, options) => ask({ type: 'search', query, options }),
  call: (name, args) => ask({ type: 'call', name, args }),
};

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') {
    // Questions a previous run left unanswered stay unanswered: that run is over.
    waiting.clear();
    void engine
      .then(({ module, memoryFull }) => {
        port.postMessage({ type: 'started' } satisfies FromWorker);
        return runInEngine(module, message.code, host, message.limits, { ...(memoryFull && { memoryFull }) });
      })
      .then(({ outcome, freed }) => port.postMessage({ type: 'done', outcome, reusable: freed } satisfies FromWorker));
    return;
  }
  const asked = waiting.get(message.id);
  if (!asked) return;
  waiting.delete(message.id);
  if ('json' in message) asked.resolve(message.json);
  else asked.reject(new Error(message.error));
});
