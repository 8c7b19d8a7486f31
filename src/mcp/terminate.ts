/** H3 — the last-resort stop of spawned servers at process exit, so none outlives the gateway as an orphan. */

/** SIGTERM each process now, synchronously; one already gone is skipped. */
export function terminateProcesses(pids: Iterable<number | undefined>): void {
  for (const pid of pids) {
    if (pid === undefined) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}
