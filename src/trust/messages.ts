/**
 * G10 — what a held tool's caller and the operator read: why it is held and the exact commands
 * that show the change and approve it (commands.ts). One line each, no jargon.
 */
import { approveCommand, diffCommand } from './commands.js';
import type { HeldVersion } from './pins.js';

/** Why a tool is held, for the model's error and the status lines. */
export function holdReasonText(
  server: string,
  tool: string,
  held: Pick<HeldVersion, 'reason' | 'findings' | 'hash'>,
): string {
  const why =
    held.reason === 'changed'
      ? 'its definition changed since it was pinned'
      : held.reason === 'new-server'
        ? `server "${server}" was added after the first run and waits for approval`
        : `the scanner found: ${(held.findings.find((f) => f.severity === 'high') ?? held.findings[0])?.message ?? 'a problem'}`;
  return `${why}. An operator can review it with "${diffCommand(server, tool)}" and approve it with "${approveCommand(server, tool, held.hash)}"`;
}

/** A held tool runs for nobody, whichever path asked (the catalog leaves it out already). */
export function heldCallRefusal(tool: string): string {
  return `does not run "${tool}": it is held until an operator approves it`;
}
