/**
 * Long synchronous work in turns. A server's listing of 20,000 tools means hashing, scanning and
 * admitting each of them; done in one go, every other session's request waits for all of it (the
 * event loop is one thread). Written as a generator that yields between items, the same work runs
 * here in slices of at most `sliceMs`, with the event loop free between them; `drain` runs it in
 * one go where nothing waits (the CLI, tests, the pure rules' own callers).
 */

/** Work that yields between its steps and returns its result at the end. */
export type Steps<T> = Generator<void, T, void>;

/** Run `work` to its end at once. */
export function drain<T>(work: Steps<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/**
 * Run `work` to its end, giving the event loop a turn (`setImmediate`: pending I/O first) each
 * time a slice has run `sliceMs`. The clock is read at each step: steps are small (one tool).
 */
export async function runInSlices<T>(work: Steps<T>, sliceMs: number): Promise<T> {
  let sliceEnd = performance.now() + sliceMs;
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() < sliceEnd) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceEnd = performance.now() + sliceMs;
  }
}

/** Steps over `items`, calling `each` on one item per step. */
export function* eachStep<T>(items: Iterable<T>, each: (item: T) => void): Steps<void> {
  for (const item of items) {
    each(item);
    yield;
  }
}
