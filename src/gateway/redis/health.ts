/**
 * G6 — what an operator needs to hear about the Redis behind `--session-store`, once per state
 * change: reachable (with its persistence), unreachable (and what that does to requests),
 * reachable again (after how long), restarted (and whether sessions survived it).
 */
import type { Logger } from '../../util/log.js';

/** The ioredis events and the one command used. */
export interface RedisEventSource {
  on(event: 'ready' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  info(section: string): Promise<string>;
}

/** What a request does while Redis is unreachable (kept in step with redis-backend.ts's retry settings). */
export const OUTAGE_EFFECT =
  'requests of open sessions wait for it (up to ~5 s each), then get 503 with Retry-After (safe to retry); ' +
  'new sessions get 503 too; notifications reach only clients whose stream is on the replica where they happen';

export function watchRedisHealth(
  client: RedisEventSource,
  where: string,
  logger: Logger,
  now: () => number = Date.now,
): void {
  let state: 'starting' | 'up' | 'down' = 'starting';
  let downSince = 0;
  let runId: string | undefined;

  const down = (reason: string) => {
    if (state === 'down') return;
    const wasUp = state === 'up';
    state = 'down';
    downSince = now();
    logger.warn(
      `session store: Redis at ${where} ${wasUp ? 'unreachable' : 'not reachable yet'} (${reason}): ${OUTAGE_EFFECT}`,
    );
  };

  client.on('error', (error) => down(error.message || error.name));
  client.on('close', () => {
    if (state === 'up') down('connection closed');
  });
  client.on('ready', () => {
    void describe().then((info) => {
      const previous = state;
      const previousRunId = runId;
      state = 'up';
      runId = info.runId ?? runId;
      const persistence =
        info.aof === undefined
          ? ''
          : info.aof
            ? ', appendonly on'
            : ', appendonly off: a restart keeps only what its last RDB snapshot holds';
      if (previous === 'down')
        logger.info(
          `session store: Redis at ${where} reachable again after ${((now() - downSince) / 1000).toFixed(1)} s`,
        );
      else logger.info(`session store: Redis at ${where}${persistence}`);
      if (previousRunId !== undefined && info.runId !== undefined && info.runId !== previousRunId) {
        logger.warn(
          `session store: Redis at ${where} restarted${persistence}. Sessions it did not keep answer 404 and their clients start new ones.`,
        );
      }
    });
  });

  /** run_id tells a restart from a dropped connection; INFO may be refused (managed Redis): then we say less. */
  async function describe(): Promise<{ runId?: string; aof?: boolean }> {
    try {
      const text = `${await client.info('server')}\n${await client.info('persistence')}`;
      const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(text)?.[1]?.trim();
      const aof = field('aof_enabled');
      const id = field('run_id');
      return { ...(id !== undefined && { runId: id }), ...(aof !== undefined && { aof: aof === '1' }) };
    } catch {
      return {};
    }
  }
}
