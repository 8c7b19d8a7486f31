/**
 * G10/G6 — tool pins in the Redis the replicas share: one JSON document under `<prefix>trust:pins`,
 * written compare-and-set (an approval and a replica's first-use pin never overwrite each other:
 * the loser reads again and re-applies its change), and watched by polling, as sign-ins are, so
 * one `toolsearch tools approve --session-store …` reaches every replica without a restart.
 */
import type { PinBackend } from '../../mcp/pin-store.js';
import { PIN_POLL_MS } from '../../mcp/pin-store.js';
import { emptyPins, type PinsDocument, parsePins } from '../../trust/pins.js';
import { COMPARE_AND_SET, GET } from './credentials.js';
import type { RedisEvalClient } from './store.js';

const MAX_WRITE_TRIES = 10;

export class RedisPins implements PinBackend {
  constructor(
    private readonly client: RedisEvalClient,
    private readonly key: string,
    private readonly where: string,
  ) {}

  get display(): string {
    return `${this.where} (key ${this.key})`;
  }

  async read(): Promise<PinsDocument> {
    return parse(await this.raw());
  }

  async update(change: (doc: PinsDocument) => PinsDocument): Promise<PinsDocument> {
    for (let tries = 0; tries < MAX_WRITE_TRIES; tries++) {
      const before = (await this.raw()) ?? '';
      const current = parse(before || null);
      const next = change(current);
      if (next === current) return current;
      if ((await this.client.eval(COMPARE_AND_SET, 1, this.key, before, JSON.stringify(next))) === 1) return next;
    }
    throw new Error(`tool pins at ${this.display} kept changing under this write; not saved`);
  }

  watch(listener: () => void): () => void {
    let last: string | null | undefined;
    const look = async () => {
      const now = await this.raw().catch(() => undefined);
      if (now === undefined) return;
      if (last !== undefined && now !== last) listener();
      last = now;
    };
    const timer = setInterval(() => void look(), PIN_POLL_MS);
    timer.unref();
    void look();
    return () => clearInterval(timer);
  }

  private async raw(): Promise<string | null> {
    const value = await this.client.eval(GET, 1, this.key);
    return typeof value === 'string' ? value : null;
  }
}

function parse(raw: string | null): PinsDocument {
  if (!raw) return emptyPins();
  try {
    return parsePins(JSON.parse(raw));
  } catch {
    return emptyPins();
  }
}
