/**
 * G10 — what a held tool's caller and the operator read: why it is held and the exact commands
 * that show the change and approve it. One line each, no jargon.
 */
import type { HeldVersion } from './pins.js';

/** The command that approves one held tool. */
export function approveCommand(server: string, tool: string): string {
  return `toolsearch tools approve ${server} --tool ${tool}`;
}

export function diffCommand(server: string, tool: string): string {
  return `toolsearch tools diff ${server} --tool ${tool}`;
}

/** Why a tool is held, for the model's error and the status lines. */
export function holdReasonText(server: string, tool: string, held: Pick<HeldVersion, 'reason' | 'findings'>): string {
  const why =
    held.reason === 'changed'
      ? 'its definition changed since it was pinned'
      : held.reason === 'new-server'
        ? `server "${server}" was added after the first run and waits for approval`
        : `the scanner found: ${(held.findings.find((f) => f.severity === 'high') ?? held.findings[0])?.message ?? 'a problem'}`;
  return `${why}. An operator can review it with "${diffCommand(server, tool)}" and approve it with "${approveCommand(server, tool)}"`;
}

/** A held tool runs for nobody, whichever path asked (the catalog leaves it out already). */
export function heldCallRefusal(tool: string): string {
  return `does not run "${tool}": it is held until an operator approves it`;
}
