/**
 * C13/C14 — the gateway's usage signal wired to its learner: each lesson names its teacher's digest
 * (corroboration counts those), and a teacher past its hourly budget is told once in the log and
 * taught no more that hour.
 */
import type { Catalog } from '../core/catalog.js';
import type { Logger } from '../util/log.js';
import type { Learner } from './learner.js';
import { UsageSignal } from './signal.js';

export function learningSignal(learner: Learner, catalog: Catalog, logger: Pick<Logger, 'warn'>): UsageSignal {
  return new UsageSignal(
    (query, tool, source) => learner.record(query, catalog.get(tool) ?? tool, Date.now(), { source }),
    {
      ...(learner.lessonsPerHour !== undefined && { lessonsPerHour: learner.lessonsPerHour }),
      capped: (source, perHour) =>
        logger.warn(
          `learned search: client ${source} taught ${perHour} lessons in the last hour; ` +
            'more from it are ignored until the hour moves on (toolSearch.learning.lessonsPerHour)',
        ),
    },
  );
}
