/**
 * G5/G7 — every request to an authorization server (discovery, registration, code exchange,
 * refresh) is bounded: its answer by bytes (`oauthResponseBytes`) and the whole request, body
 * included, by time (`oauthTimeoutMs`). Unbounded, a 300 MB refresh answer took the gateway from
 * 144 to 2,963 MiB, a 300 MB code exchange was saved as a 300 MB credentials file, and a token
 * endpoint that never answered held the refresh queue (and so every request to that server).
 *
 * The answer is read whole here, under both bounds, and handed to the SDK as a fresh `Response`.
 */
import { readCappedBody } from '../../../util/capped-body.js';

/** An authorization server's answer was larger than `oauthResponseBytes`. */
export class OAuthAnswerTooLargeError extends Error {
  override name = 'OAuthAnswerTooLargeError';
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`the authorization server's answer from ${originOf(url)} passed ${limit} bytes (limit oauthResponseBytes)`);
  }
}

/** An authorization server did not answer within `oauthTimeoutMs`. */
export class OAuthTimeoutError extends Error {
  override name = 'OAuthTimeoutError';
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`the authorization server at ${originOf(url)} did not answer within ${limit} ms (limit oauthTimeoutMs)`);
  }
}

export interface OAuthFetchBounds {
  /** Bytes of one answer (`oauthResponseBytes`). */
  readonly maxBytes: number;
  /** Time for one request, answer read included (`oauthTimeoutMs`). */
  readonly timeoutMs: number;
}

/** The SDK's `FetchLike`: what `auth()` and the transports call. */
type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Statuses whose `Response` may carry no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the authorization server';
  }
}

/**
 * `base` under the bounds. `onBound` hears each bound error: the SDK's `auth()` swallows a failed
 * refresh and falls back to a new sign-in, so the caller needs another way to learn that the
 * authorization server was too slow or too large (a passing fault, not a lost sign-in).
 */
export function boundedOAuthFetch(
  bounds: OAuthFetchBounds,
  base: Fetch = fetch,
  onBound: (error: OAuthAnswerTooLargeError | OAuthTimeoutError) => void = () => {},
): Fetch {
  return async (input, init) => {
    const url = String(input);
    const timeout = AbortSignal.timeout(bounds.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const timedOut = (error: unknown) => (timeout.aborted ? new OAuthTimeoutError(url, bounds.timeoutMs) : error);
    try {
      const response = await base(input, { ...init, signal });
      const body = NULL_BODY.has(response.status) ? null : await readCapped(response, url, bounds.maxBytes);
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      const out = timedOut(error);
      if (out instanceof OAuthTimeoutError || out instanceof OAuthAnswerTooLargeError) onBound(out);
      throw out;
    }
  };
}

/** The whole body, or OAuthAnswerTooLargeError as soon as it passes `max` bytes (the rest is not read). */
async function readCapped(response: Response, url: string, max: number): Promise<Uint8Array> {
  const body = await readCappedBody(response, max);
  if (body === undefined) throw new OAuthAnswerTooLargeError(url, max);
  return body;
}

/** `run`, or OAuthTimeoutError after `ms`: a refresh holds a queue others wait in, so it must end. */
export function withDeadline<T>(run: Promise<T>, ms: number, url: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OAuthTimeoutError(url, ms)), ms);
    timer.unref?.();
  });
  return Promise.race([run, deadline]).finally(() => clearTimeout(timer));
}
