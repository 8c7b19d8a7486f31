/**
 * G11 — a sandbox worker thread: one engine, one script, then the main thread ends it. Off the main
 * thread, a script that loops or allocates without end stalls only itself: the gateway keeps
 * serving every other session, and ending the worker frees whatever the script held.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInEngine, type SandboxHost } from './engine.js';
import type { FromWorker, HostRequest, ToWorker, WorkerSetup } from './protocol.js';
import { instantiateEngine } from './quickjs.js';

const port = parentPort;
if (!port) throw new Error('src/sandbox/worker.ts runs as a worker thread');
const setup = workerData as WorkerSetup;
// Instantiated while the worker waits for its script (a spare worker is warm before it is needed).
const engine = instantiateEngine(setup.wasmModule);
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
    void engine
      .then((module) =>
        runInEngine(module, message.code, host, message.limits, { startedAt: message.startedAt, dispose: false }),
      )
      .then((outcome) => port.postMessage({ type: 'done', outcome } satisfies FromWorker));
    return;
  }
  const asked = waiting.get(message.id);
  if (!asked) return;
  waiting.delete(message.id);
  if ('json' in message) asked.resolve(message.json);
  else asked.reject(new Error(message.error));
});
