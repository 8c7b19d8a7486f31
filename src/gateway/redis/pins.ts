/**
 * G10/G6 — tool pins in the Redis the replicas share: one document under `<prefix>trust:pins`,
 * written compare-and-set (an approval and a replica's first-use pin never overwrite each other:
 * the loser reads again and re-applies its change), and watched by polling, as sign-ins are, so
 * one `toolsearch tools approve --session-store …` reaches every replica without a restart.
 *
 * Signed: anything that can write to that Redis could otherwise mark a held tool approved. The
 * value is `hmac-sha256:<hex>\n{"seq":N,"doc":…}`, the MAC an HMAC-SHA256 of the JSON with the
 * pin secret every replica and the CLI share (`TOOLSEARCH_PIN_SECRET`, or the file
 * `TOOLSEARCH_PIN_SECRET_FILE` names). A value without a valid MAC, an older `seq` than this
 * process has read (a replayed copy) or a key deleted after it was read is rejected: `read` and
 * `update` throw `PinsRejectedError`, so a running gateway keeps the pins it holds (held tools
 * stay held) and a starting one does not start its servers until the pins can be trusted.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PinBackend } from '../../mcp/pin-store.js';
import { PIN_POLL_MS } from '../../mcp/pin-store.js';
import { emptyPins, type PinsDocument, parsePins } from '../../trust/pins.js';
import { COMPARE_AND_SET, GET } from './credentials.js';
import type { RedisEvalClient } from './store.js';

const MAX_WRITE_TRIES = 10;
export const PIN_SECRET_ENV = 'TOOLSEARCH_PIN_SECRET';
export const PIN_SECRET_FILE_ENV = 'TOOLSEARCH_PIN_SECRET_FILE';
/** Shorter secrets are refused: 32 characters (`openssl rand -hex 32` gives 64). */
export const PIN_SECRET_MIN_CHARS = 32;
const MAC_PREFIX = 'hmac-sha256:';

/** The pins in Redis cannot be used: no secret, or what is stored is not what a replica wrote. */
export class PinsRejectedError extends Error {
  override readonly name = 'PinsRejectedError';
}

/** Why pins in Redis cannot be signed with `secret`, or undefined when they can. */
export function pinSecretProblem(secret: string | undefined): string | undefined {
  if (secret === undefined || secret === '')
    return `tool pins in a shared Redis are signed with a secret every replica and "toolsearch tools" share: set ${PIN_SECRET_ENV} (or ${PIN_SECRET_FILE_ENV}) to at least ${PIN_SECRET_MIN_CHARS} characters (e.g. \`openssl rand -hex 32\`), or turn pinning off with "toolSearch": {"trust": false}`;
  if (secret.length < PIN_SECRET_MIN_CHARS)
    return `${PIN_SECRET_ENV} is ${secret.length} characters; the tool pins' secret needs at least ${PIN_SECRET_MIN_CHARS} (e.g. \`openssl rand -hex 32\`)`;
  return undefined;
}

/** The secret from the environment (the variable, or the file it names, trailing newline dropped). */
export function pinSecretFromEnv(env: NodeJS.ProcessEnv, readFile: (path: string) => string): string | undefined {
  const direct = env[PIN_SECRET_ENV];
  if (direct !== undefined && direct !== '') return direct;
  const file = env[PIN_SECRET_FILE_ENV];
  if (file === undefined || file === '') return undefined;
  try {
    return readFile(file).replace(/\r?\n$/, '');
  } catch (error) {
    throw new PinsRejectedError(
      `cannot read ${PIN_SECRET_FILE_ENV}=${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

export class RedisPins implements PinBackend {
  /** The highest `seq` this process has read or written: an older one is a replay. */
  private seq = 0;
  private secretRead: { value?: string; error?: string } | undefined;

  constructor(
    private readonly client: RedisEvalClient,
    private readonly key: string,
    private readonly where: string,
    /** The pin secret, read when first needed (a CLI command that never reads pins needs none). */
    private readonly readSecret: () => string | undefined,
  ) {}

  private get secret(): string | undefined {
    if (!this.secretRead) {
      try {
        const value = this.readSecret();
        this.secretRead = value === undefined ? {} : { value };
      } catch (error) {
        this.secretRead = { error: error instanceof Error ? error.message : String(error) };
      }
    }
    return this.secretRead.value;
  }

  get display(): string {
    return `${this.where} (key ${this.key})`;
  }

  /** Why these pins cannot be used at all (no or a short secret), or undefined. */
  get problem(): string | undefined {
    const secret = this.secret;
    return this.secretRead?.error ?? pinSecretProblem(secret);
  }

  async read(): Promise<PinsDocument> {
    return this.open(await this.raw()).doc;
  }

  async update(change: (doc: PinsDocument) => PinsDocument): Promise<PinsDocument> {
    for (let tries = 0; tries < MAX_WRITE_TRIES; tries++) {
      const before = await this.raw();
      const current = this.open(before);
      const next = change(current.doc);
      if (next === current.doc) return current.doc;
      const seq = current.seq + 1;
      if ((await this.client.eval(COMPARE_AND_SET, 1, this.key, before ?? '', this.seal(next, seq))) === 1) {
        this.seq = Math.max(this.seq, seq);
        return next;
      }
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

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret!).update(payload).digest();
  }

  private seal(doc: PinsDocument, seq: number): string {
    const payload = JSON.stringify({ seq, doc });
    return `${MAC_PREFIX}${this.mac(payload).toString('hex')}\n${payload}`;
  }

  /** The stored document and its sequence number, or PinsRejectedError saying why not. */
  private open(raw: string | null): { doc: PinsDocument; seq: number } {
    const problem = this.problem;
    if (problem) throw new PinsRejectedError(problem);
    if (raw === null || raw === '') {
      if (this.seq > 0) throw this.rejected('the key was deleted after this gateway read it');
      return { doc: emptyPins(), seq: 0 };
    }
    const newline = raw.indexOf('\n');
    const head = newline < 0 ? '' : raw.slice(0, newline);
    const payload = raw.slice(newline + 1);
    const given = head.startsWith(MAC_PREFIX) ? Buffer.from(head.slice(MAC_PREFIX.length), 'hex') : Buffer.alloc(0);
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw this.rejected('it carries no valid signature (written by something without the pin secret)');
    const { seq, doc } = JSON.parse(payload) as { seq: number; doc: unknown };
    if (seq < this.seq) throw this.rejected(`it is an older copy (number ${seq}; this gateway has read ${this.seq})`);
    this.seq = seq;
    return { doc: parsePins(doc), seq };
  }

  private rejected(why: string): PinsRejectedError {
    return new PinsRejectedError(
      `the tool pins at ${this.display} are not used: ${why}. This gateway keeps the pins it holds; restore the key, or delete it and restart every replica to pin afresh`,
    );
  }
}
