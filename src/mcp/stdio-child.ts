/**
 * H3/G13 — the one place that reaches into the SDK's stdio transport for its child process (the
 * SDK keeps it private): how the process ended, its first byte on stdout, and letting it go
 * without ending it. Without the field (an SDK change) each degrades quietly: a failure lacks its
 * exit code, an install counts until the handshake, a detach closes instead.
 */
import type { Transport } from '@modelcontextprotocol/client';

/** The parts of Node's ChildProcess used here. */
interface Child {
  stdin?: { destroy(): void } | null;
  stdout?: (NodeJS.ReadableStream & { destroy(): void }) | null;
  stderr?: { destroy(): void } | null;
  once(event: 'exit', listener: (code: number | null, signal: string | null) => void): unknown;
  on(event: 'error', listener: () => void): unknown;
  removeAllListeners(event: string): unknown;
  unref(): void;
}

type WithChild = { _process?: Child; onclose?: () => void };

function childOf(transport: Transport | undefined): Child | undefined {
  return (transport as unknown as WithChild | undefined)?._process;
}

/** H3: how the process ended (for "exited with code 3"). */
export function onChildExit(
  transport: Transport,
  listener: (exit: { code: number | null; signal: string | null }) => void,
): void {
  childOf(transport)?.once('exit', (code, signal) => listener({ code, signal }));
}

/** G13: the process's first byte on stdout (a package runner has handed over to the server). */
export function onFirstStdout(transport: Transport, listener: () => void): void {
  childOf(transport)?.stdout?.once('data', listener);
}

/**
 * G13: let the process go without ending it: our ends of its pipes close (it reads the end of its
 * input), it no longer keeps this process alive, and the transport forgets it, so its client drops
 * its pending requests (and their timers) and a later close does not end it. False: no process to
 * let go (the caller closes instead).
 */
export function releaseChild(transport: Transport | undefined): boolean {
  const child = childOf(transport);
  if (!transport || !child) return false;
  child.removeAllListeners('close');
  child.on('error', () => undefined);
  child.stdin?.destroy();
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.unref();
  const owner = transport as unknown as WithChild;
  owner._process = undefined;
  owner.onclose?.();
  return true;
}
