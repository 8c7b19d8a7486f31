/**
 * G7 — both protocol eras upstream. Over HTTP the v2 client probes with `server/discover`
 * (`auto`) and falls back to the 2025 `initialize`; an entry may pin an era instead
 * (`"protocol": "2025"` or `"2026-07-28"`). A stdio server whose era is remembered connects with it
 * as `prior`: the probe would otherwise run on a second, sibling spawn of the server.
 */
import {
  type Client,
  type ConnectOptions,
  SdkHttpError,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import type { ProtocolSetting } from './config.js';
import type { RememberedEra } from './memory.js';
import type { TransportKind } from './transport.js';

export const MODERN_REVISION = '2026-07-28';

/** A silent stdio server reads as a 2025 server once this passes (the SDK's verdict on stdio). */
const STDIO_PROBE_TIMEOUT_MS = 10_000;

export function negotiation(
  kind: TransportKind,
  protocol: ProtocolSetting | undefined,
  connectTimeoutMs: number | undefined,
): VersionNegotiationOptions {
  if (protocol === '2025') return { mode: 'legacy' };
  if (protocol === MODERN_REVISION) return { mode: { pin: MODERN_REVISION } };
  // HTTP+SSE predates the 2026 revision: no server speaks it there.
  if (kind === 'sse') return { mode: 'legacy' };
  if (kind === 'stdio')
    return {
      mode: 'auto',
      probe: { timeoutMs: Math.min(connectTimeoutMs ?? STDIO_PROBE_TIMEOUT_MS, STDIO_PROBE_TIMEOUT_MS) },
    };
  return { mode: 'auto' };
}

export function connectOptions(
  kind: TransportKind,
  protocol: ProtocolSetting | undefined,
  remembered: RememberedEra | undefined,
  signal: AbortSignal,
): ConnectOptions {
  const prior = kind === 'stdio' && protocol !== '2025' ? remembered : undefined;
  if (prior?.kind === 'legacy' && protocol === MODERN_REVISION) return { signal, timeout: NO_SDK_DEADLINE_MS };
  return { signal, timeout: NO_SDK_DEADLINE_MS, ...(prior !== undefined && { prior }) };
}

/**
 * The hub's own deadline ends a connect (connect-deadline.ts, through `signal`). The SDK's 60 s
 * default for `initialize` would end an npx install that takes longer (G13), and a server's own
 * `timeoutMs` above 60 s; so its clock is set to the longest delay Node's timers keep.
 */
const NO_SDK_DEADLINE_MS = 2 ** 31 - 1;

/** The era a connected client speaks, in the form `prior` takes. */
export function eraOf(client: Client): RememberedEra | undefined {
  const era = client.getProtocolEra();
  if (era === 'legacy') return { kind: 'legacy' };
  const discover = client.getDiscoverResult();
  return era === 'modern' && discover !== undefined ? { kind: 'modern', discover } : undefined;
}

/** A 2026-only server refusing the 2025 `initialize` (-32022 Unsupported protocol version). */
export function isUnsupportedVersion(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === -32022 || /unsupported protocol version/i.test(String((error as Error)?.message ?? ''));
}

/**
 * A 4xx other than 401/403 (those ask for credentials): the URL does not speak this transport
 * (an SSE-only server answers a Streamable HTTP POST with 404 or 405).
 */
export function isTransportMismatch(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  // SseError carries the GET's status as `code` (JSON-RPC codes are negative, never 100–599).
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number' && code >= 100 && code < 600) return code;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause !== undefined && cause !== error) return httpStatus(cause);
  const match = /\bHTTP (4\d\d)\b|\(HTTP (4\d\d)\)|status(?: code)? \(?(4\d\d)\b/i.exec(
    String((error as Error)?.message ?? ''),
  );
  const status = match?.[1] ?? match?.[2] ?? match?.[3];
  return status === undefined ? undefined : Number(status);
}
