/**
 * G10 — the held tools as the status page shows them: why, the scanner's findings, the diff
 * against the pin, the held text's hash and the command that approves exactly that text. Plain
 * data from the pins document.
 *
 * G5: the status page polls every few seconds and a server picks how big its tools are, so each
 * held version's view is made once (`HeldViews` keeps it by server, tool and hash), its diff is
 * bounded (diff.ts), and a page lists at most `limit` held tools: its cost does not grow with
 * the size of a tool.
 */
import { approveCommand } from './commands.js';
import { definitionDiff } from './diff.js';
import { holdReasonText } from './messages.js';
import type { HoldReason, PinsDocument, ToolRecord } from './pins.js';
import { visibleText } from '../util/terminal-text.js';

export interface HeldToolView {
  readonly server: string;
  readonly tool: string;
  readonly reason: HoldReason;
  readonly why: string;
  readonly since: string;
  /** The held text's hash: `approve --hash` pins only this text. */
  readonly hash: string;
  readonly findings: readonly string[];
  /** `-` pinned, `+` held, two spaces both; bounded. */
  readonly diff: readonly string[];
  readonly approve: string;
}

/** One held tool's view (its diff bounded). */
export function heldToolView(server: string, tool: string, entry: ToolRecord): HeldToolView {
  const held = entry.held!;
  return {
    server,
    tool,
    reason: held.reason,
    why: visibleText(holdReasonText(server, tool, held)),
    since: held.since,
    hash: held.hash,
    findings: held.findings.map((f) => visibleText(`${f.severity}: ${f.message}`)),
    diff: definitionDiff(entry.pinned?.definition, held.definition),
    approve: approveCommand(server, tool, held.hash),
  };
}

/** Held tools' views made once per held version and reused while it stays held. */
export class HeldViews {
  private readonly made = new Map<string, HeldToolView>();

  /** The first `limit` held tools' views, and how many tools are held in all. */
  list(doc: PinsDocument, limit: number): { views: HeldToolView[]; total: number } {
    const views: HeldToolView[] = [];
    const seen = new Set<string>();
    let total = 0;
    for (const server of Object.keys(doc.servers).sort()) {
      const tools = doc.servers[server]!.tools;
      for (const tool of Object.keys(tools).sort()) {
        const entry = tools[tool]!;
        if (!entry.held) continue;
        total++;
        if (views.length >= limit) continue;
        const key = JSON.stringify([server, tool, entry.held.hash]);
        seen.add(key);
        let view = this.made.get(key);
        if (!view) this.made.set(key, (view = heldToolView(server, tool, entry)));
        views.push(view);
      }
    }
    for (const key of this.made.keys()) if (!seen.has(key)) this.made.delete(key);
    return { views, total };
  }
}
