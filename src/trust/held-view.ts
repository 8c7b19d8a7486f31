/**
 * G10 — the held tools as the status page shows them: why, the scanner's findings, the diff
 * against the pin and the command that approves each. Plain data from the pins document.
 */
import { definitionDiff } from './diff.js';
import { approveCommand, holdReasonText } from './messages.js';
import type { HoldReason, PinsDocument } from './pins.js';

export interface HeldToolView {
  readonly server: string;
  readonly tool: string;
  readonly reason: HoldReason;
  readonly why: string;
  readonly since: string;
  readonly findings: readonly string[];
  /** `-` pinned, `+` held, two spaces both. */
  readonly diff: readonly string[];
  readonly approve: string;
}

export function heldToolViews(doc: PinsDocument): HeldToolView[] {
  const views: HeldToolView[] = [];
  for (const server of Object.keys(doc.servers).sort()) {
    for (const [tool, entry] of Object.entries(doc.servers[server]!.tools).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const held = entry.held;
      if (!held) continue;
      views.push({
        server,
        tool,
        reason: held.reason,
        why: holdReasonText(server, tool, held),
        since: held.since,
        findings: held.findings.map((f) => `${f.severity}: ${f.message}`),
        diff: definitionDiff(entry.pinned?.definition, held.definition),
        approve: approveCommand(server, tool),
      });
    }
  }
  return views;
}
