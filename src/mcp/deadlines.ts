/** Promise deadlines for the hub: a connect attempt or a refresh must not wait forever on a server. */

/** `promise`, or a rejection with `message` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(message)), ms);
  return raceAbort(promise, abort.signal).finally(() => clearTimeout(timer));
}

/** `promise`, or the signal's reason once it aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    promise.then(resolve, reject);
  });
}
