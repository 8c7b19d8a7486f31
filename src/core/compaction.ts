/**
 * D2 — compaction. Before a conversation is summarized, the discovered set is snapshotted onto
 * the boundary; reading the compacted history unions the snapshot with later loads, so nothing
 * discovered is lost, however many times (full, partial or memory compaction) it happens.
 */
import { extractDiscovered, type HistoryEvent } from './history.js';
import { nonceAttr, SNAPSHOT_TAG, wrapTag } from './markers.js';

/** The snapshot to put on a compaction boundary: sorted, so repeated snapshots are identical. */
export function snapshotForCompaction(events: Iterable<HistoryEvent>): string[] {
  return [...extractDiscovered(events)].sort();
}

/** The boundary marker as text, to append to the summary message a compaction produces. */
export function compactionBoundaryText(discovered: readonly string[]): string {
  return wrapTag(SNAPSHOT_TAG, [...discovered].sort(), nonceAttr());
}

/**
 * Build the text of a compaction boundary message: the summary, then the snapshot of everything
 * discovered in `events` (which should be the whole history, kept and summarized parts alike —
 * union makes double counting harmless).
 */
export function compactionBoundary(summary: string, events: Iterable<HistoryEvent>): string {
  const snapshot = snapshotForCompaction(events);
  return snapshot.length ? `${summary}\n\n${compactionBoundaryText(snapshot)}` : summary;
}
