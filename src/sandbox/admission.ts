/**
 * G11 — who runs a script now, who waits, and who is told no. A script takes a slot when one is
 * free (`concurrentRuns`), its client is within its share (`runsPerClient`) and the running scripts'
 * memory leaves room for its reservation (`totalMemoryBytes`); else it waits in a bounded queue
 * (`queuedRuns`, at most `runsPerClient` of them per client) for at most `queueWaitMs`, and a freed
 * slot goes to the first waiting script that may take it, so one client's queue never stands in
 * front of another client's script. A refusal is a limit failure naming its knob.
 *
 * A client is whatever key the caller gives (the gateway's client identity); the sandbox gives
 * every run without one the same key, which makes the share the whole cap.
 */
import { formatBytes } from './limits.js';
import type { RunCapacity, RunCapacityName } from './capacity.js';

/** A run may start; `release` when it ended (whatever the end). */
export interface RunTicket {
  release(): void;
}

/** Why a run was not admitted: the knob that refused it and the sentence the caller reads. */
export interface RunRefusal {
  readonly refused: RunCapacityName;
  readonly message: string;
}

interface Waiting {
  readonly client: string;
  readonly grant: (ticket: RunTicket) => void;
}

export class RunAdmission {
  private running = 0;
  private heldBytes = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly waiting: Waiting[] = [];

  constructor(
    readonly capacity: RunCapacity,
    /** What one run counts against `totalMemoryBytes` (capacity.ts `runReservation`). */
    readonly reservationBytes: number,
  ) {}

  /** Scripts running and waiting now (status, tests). */
  get load(): { readonly running: number; readonly waiting: number; readonly heldBytes: number } {
    return { running: this.running, waiting: this.waiting.length, heldBytes: this.heldBytes };
  }

  /**
   * A ticket at once, or after a wait; a refusal when the client's share or the queue is full, the
   * wait outlasts `queueWaitMs`, or `signal` aborts while waiting (then `cancelled` is true).
   */
  async admit(client: string, signal?: AbortSignal): Promise<RunTicket | RunRefusal | { cancelled: true }> {
    if (this.mayStart(client)) return this.start(client);
    const refusal = this.refuseToWait(client);
    if (refusal) return refusal;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        leave();
        resolve({ cancelled: true });
      };
      const entry: Waiting = {
        client,
        grant: (ticket) => {
          leave();
          resolve(ticket);
        },
      };
      timer = setTimeout(() => {
        leave();
        resolve(this.waitedTooLong(client));
      }, this.capacity.queueWaitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private mayStart(client: string): boolean {
    return (
      this.running < this.capacity.concurrentRuns &&
      (this.runningBy.get(client) ?? 0) < this.capacity.runsPerClient &&
      this.memoryFits()
    );
  }

  private memoryFits(): boolean {
    return this.heldBytes + this.reservationBytes <= this.capacity.totalMemoryBytes;
  }

  private start(client: string): RunTicket {
    this.running++;
    this.heldBytes += this.reservationBytes;
    this.runningBy.set(client, (this.runningBy.get(client) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        this.heldBytes -= this.reservationBytes;
        const left = (this.runningBy.get(client) ?? 1) - 1;
        if (left > 0) this.runningBy.set(client, left);
        else this.runningBy.delete(client);
        this.grantNext();
      },
    };
  }

  /** A freed slot goes to the first waiting script that may take it (another client's, when this one's share is full). */
  private grantNext(): void {
    for (let i = 0; i < this.waiting.length; i++) {
      const next = this.waiting[i]!;
      if (!this.mayStart(next.client)) continue;
      next.grant(this.start(next.client));
      // The grant took the slot; another may be free still (several released at once).
      i = -1;
    }
  }

  /** Why this client may not even wait, if it may not. */
  private refuseToWait(client: string): RunRefusal | undefined {
    const { runsPerClient, queuedRuns, concurrentRuns } = this.capacity;
    const mine = this.waiting.filter((w) => w.client === client).length;
    const running = this.runningBy.get(client) ?? 0;
    if (running >= runsPerClient && mine >= runsPerClient)
      return {
        refused: 'runsPerClient',
        message:
          `Code mode is busy for this client: it has ${running} scripts running and ${mine} waiting ` +
          `(limit runsPerClient = ${runsPerClient}). Wait for one of them to finish.`,
      };
    if (this.waiting.length >= queuedRuns)
      return {
        refused: 'queuedRuns',
        message:
          `Code mode is busy: ${this.running} scripts are running and ${this.waiting.length} waiting, the most it holds ` +
          `(limits concurrentRuns = ${concurrentRuns}, queuedRuns = ${queuedRuns}). Try again shortly.`,
      };
    return undefined;
  }

  /** The refusal after `queueWaitMs`: names the memory bound when that is what kept the slot. */
  private waitedTooLong(client: string): RunRefusal {
    const { queueWaitMs, concurrentRuns, runsPerClient, totalMemoryBytes } = this.capacity;
    const own = this.runningBy.get(client) ?? 0;
    const memoryFull = this.running < concurrentRuns && own < runsPerClient && !this.memoryFits();
    const why = memoryFull
      ? `the running scripts hold ${formatBytes(this.heldBytes)} of the ${formatBytes(totalMemoryBytes)} code mode may use ` +
        `and this one needs ${formatBytes(this.reservationBytes)} (limit totalMemoryBytes)`
      : own >= runsPerClient
        ? `this client has ${own} scripts running (limit runsPerClient = ${runsPerClient})`
        : `${this.running} scripts are running (limit concurrentRuns = ${concurrentRuns})`;
    return {
      refused: memoryFull ? 'totalMemoryBytes' : 'queueWaitMs',
      message: `Code mode is busy: this script waited ${queueWaitMs} ms for a slot (limit queueWaitMs) and ${why}. Try again shortly.`,
    };
  }
}
